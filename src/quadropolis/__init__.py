"""quadropolis: a rules engine for the board game Quadropolis."""
