"""`python -m desktop [command]`: no command starts the program; see desktop.cli for the ops commands."""
import sys

from desktop.cli import main

if __name__ == "__main__":
    sys.exit(main())
