"""`tavern simulate` (not yet implemented)."""
