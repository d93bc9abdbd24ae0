"""The command line: `veritype check PATHS...`."""
