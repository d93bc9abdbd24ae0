"""Modules: finding source files and resolving imports to files."""
