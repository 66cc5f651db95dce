"""`python -m desktop` — placeholder entry replaced by the ops CLI (issue 2)."""
import sys


def main(argv=None) -> int:
    print("Transporte por Aplicativo", file=sys.stderr)
    return 0
