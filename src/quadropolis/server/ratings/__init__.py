"""Ratings: which games are rated and how (:mod:`.rules`), the settling service
(:mod:`.service`), its tables' repository (:mod:`.storage`) and its HTTP routes
(:mod:`.routes`). A feature above the game server's core: it imports the core, the core
never imports it."""
