"""Accounts: usernames and their rules (:mod:`.names`), passwords (:mod:`.passwords`), login
throttling and sign-up quotas (:mod:`.limits`), the account service (:mod:`.service`), its
tables' repository (:mod:`.storage`) and its HTTP routes (:mod:`.routes`). A feature above
the game server's core: it imports the core, the core never imports it."""
