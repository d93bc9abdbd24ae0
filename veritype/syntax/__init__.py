"""Syntax: reading source files and parsing them with the standard `ast` module."""
