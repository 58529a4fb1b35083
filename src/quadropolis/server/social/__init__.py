"""The social features: the daily challenge (:mod:`.daily`), rematches (:mod:`.rematch`),
their and the table chat's repository (:mod:`.storage`) and their HTTP routes
(:mod:`.routes`; the chat itself is a websocket message of :mod:`quadropolis.server.hub`).
A feature above the game server's core: it imports the core, the core never imports it."""
