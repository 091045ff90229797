"""`tavern play` (not yet implemented)."""
