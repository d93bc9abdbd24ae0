"""The type model and the plain functions over it (DESIGN.md principle 3)."""
