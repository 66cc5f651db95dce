"""Registering the embedded fonts (DejaVu Sans) in ReportLab.

Where `resources/` lives is decided in one place, `desktop.paths` (environment override, the PyInstaller bundle,
the package, the source checkout); `resource_candidates` and `resources_dir` are re-exported here.
If the font files are in none of these, the system's DejaVu (Debian: fonts-dejavu-core) is used; and if that is
missing too, ReportLab's Helvetica, so a document still prints (accents then depend on the viewer).
`DESKTOP_NO_SYSTEM_FONTS=1` turns the system fallback off (the bundle's smoke test: fonts must come from inside).
"""
from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

from desktop.paths import resource_candidates, resources_dir  # noqa: F401 — re-exported

REGULAR = "DejaVuSans"
BOLD = "DejaVuSans-Bold"
_FILES = {REGULAR: "DejaVuSans.ttf", BOLD: "DejaVuSans-Bold.ttf"}
_SYSTEM_FONT_DIRS = (
    Path("/usr/share/fonts/truetype/dejavu"),
    Path("/usr/share/fonts/dejavu"),
    Path("/usr/local/share/fonts"),
    Path(os.environ.get("WINDIR", "C:/Windows")) / "Fonts",
)


def font_file(name: str) -> Path | None:
    filename = _FILES[name]
    folder = resources_dir()
    if folder is not None and (folder / "fonts" / filename).is_file():
        return folder / "fonts" / filename
    if os.environ.get("DESKTOP_NO_SYSTEM_FONTS"):
        return None
    for system_dir in _SYSTEM_FONT_DIRS:
        if (system_dir / filename).is_file():
            return system_dir / filename
    return None


@lru_cache(maxsize=1)
def register_fonts() -> tuple[str, str]:
    """Registers DejaVu Sans (regular, bold) once; returns the (regular, bold) font names to use."""
    from reportlab.lib.fonts import addMapping  # lazy: ReportLab loads only when this runs (start-up cost)
    from reportlab.pdfbase import pdfmetrics  # lazy: ReportLab loads only when this runs (start-up cost)
    from reportlab.pdfbase.ttfonts import TTFont  # lazy: ReportLab loads only when this runs (start-up cost)

    regular, bold = font_file(REGULAR), font_file(BOLD)
    if regular is None or bold is None:
        return "Helvetica", "Helvetica-Bold"
    pdfmetrics.registerFont(TTFont(REGULAR, str(regular)))
    pdfmetrics.registerFont(TTFont(BOLD, str(bold)))
    pdfmetrics.registerFontFamily(REGULAR, normal=REGULAR, bold=BOLD, italic=REGULAR, boldItalic=BOLD)
    addMapping(REGULAR, 0, 0, REGULAR)
    addMapping(REGULAR, 1, 0, BOLD)
    addMapping(REGULAR, 0, 1, REGULAR)
    addMapping(REGULAR, 1, 1, BOLD)
    return REGULAR, BOLD
