"""Reporters: turn diagnostics into text or JSON for people and tools."""
