"""Allow `python -m veritype`."""

from veritype.cli.main import console_main

if __name__ == "__main__":
    console_main()
