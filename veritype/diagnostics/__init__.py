"""Diagnostics: error codes, the diagnostic record, inline ignores."""
