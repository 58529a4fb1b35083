"""The social features: the daily challenge (:mod:`.daily`), rematches (:mod:`.rematch`),
the table chat (:mod:`.chat`; its lines come and go as websocket messages of
:mod:`quadropolis.server.hub`), their repository (:mod:`.storage`) and their HTTP routes
(:mod:`.routes`).
A feature above the game server's core: it imports the core, the core never imports it."""
