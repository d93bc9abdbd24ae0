"""Semantic: binding names to declarations, scope by scope."""
