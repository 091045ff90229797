"""`tavern serve` (not yet implemented)."""
