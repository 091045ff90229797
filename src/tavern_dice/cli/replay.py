"""`tavern replay` (not yet implemented)."""
