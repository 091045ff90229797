"""`tavern odds` (not yet implemented)."""
