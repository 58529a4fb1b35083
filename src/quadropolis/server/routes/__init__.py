"""The game server's core HTTP routes, one ``APIRouter`` per area (included by
:func:`..app.create_app`, the features' routers beside them):

======  =====================================  ==============================================
GET     ``/api/health``                        liveness, and the storage backend (:mod:`.info`)
GET     ``/api/levels``                        the bot levels and what each is
GET     ``/api/tiles``                         the tile manifest (ids of ``state.site``)
POST    ``/api/games``                         create a game (body :class:`CreateGame`) (:mod:`.games`)
GET     ``/api/games?status=waiting|playing|over``  the lobby (default), running or finished games
GET     ``/api/games/{id}``                    the game's view (a seat's with a Bearer token)
POST    ``/api/games/{id}/seats/{seat}``       join an open seat: returns its token
DELETE  ``/api/games/{id}``                    cancel a waiting game (Bearer token of the creator's seat)
POST    ``/api/games/{id}/leave``              leave a waiting game (Bearer token of the seat)
POST    ``/api/games/{id}/resign``             resign a running game (Bearer token of the seat)
POST    ``/api/games/{id}/moves``              play a move (Bearer token of the seat) (:mod:`.play`)
POST    ``/api/games/{id}/undo``               undo (Bearer token of the seat)
GET     ``/api/games/{id}/moves``              moves so far and the whole history, no seed (:mod:`.records`)
GET     ``/api/games/{id}/record``             the ``quadropolis-game/1`` record, once over
POST    ``/api/replay``                        the view of a record after N moves
GET     ``/api/games/{id}/analysis?at=N``      hints: the ``hard`` level's search of a position
POST    ``/api/analysis``                      hints for a position of a record
POST    ``/api/games/{id}/review``             start the post-game review of a finished game (:mod:`.review`)
GET     ``/api/games/{id}/review``             its progress, or the stored review (poll)
POST    ``/api/review``                        review a record (post it again to poll)
WS      ``/ws/games/{id}``                     live play and watching (:mod:`.live`, :mod:`..hub`)
GET     ``/rules``                             the rules page (HTML; ``/rules#r8``: ruling R8) (:mod:`.rules`)
======  =====================================  ==============================================

What they depend on (the runtime, the client's address, the Bearer token, the session's
account) is :mod:`..deps`'s."""
