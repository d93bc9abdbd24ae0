"""Evaluate: the lazy engine that turns declarations and expressions into types."""
