"""`tavern solve` (not yet implemented)."""
