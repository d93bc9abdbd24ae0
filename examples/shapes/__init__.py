"""A tiny example package that veritype checks cleanly: `veritype check examples/`."""
