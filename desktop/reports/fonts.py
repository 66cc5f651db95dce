"""Locating `resources/` and registering the embedded fonts (DejaVu Sans) in ReportLab.

Where `resources/` lives:
1. `DESKTOP_RESOURCES` (environment), when set — for an installer that puts it elsewhere;
2. `desktop/resources/` inside the package — where pyproject's package-data (`resources/**/*` relative to
   the `desktop` package) would install it;
3. `resources/` at the repository root, beside the `desktop` package — a source checkout;
4. beside a frozen executable (PyInstaller's `sys._MEIPASS`).
If the font files are in none of these, the system's DejaVu (Debian: fonts-dejavu-core) is used; and if that is
missing too, ReportLab's Helvetica, so a document still prints (accents then depend on the viewer).
"""
from __future__ import annotations

import os
import sys
from functools import lru_cache
from pathlib import Path

REGULAR = "DejaVuSans"
BOLD = "DejaVuSans-Bold"
_FILES = {REGULAR: "DejaVuSans.ttf", BOLD: "DejaVuSans-Bold.ttf"}
_SYSTEM_FONT_DIRS = (
    Path("/usr/share/fonts/truetype/dejavu"),
    Path("/usr/share/fonts/dejavu"),
    Path("/usr/local/share/fonts"),
    Path(os.environ.get("WINDIR", "C:/Windows")) / "Fonts",
)


def resource_candidates() -> list[Path]:
    package_dir = Path(__file__).resolve().parent.parent          # .../desktop
    candidates = []
    if os.environ.get("DESKTOP_RESOURCES"):
        candidates.append(Path(os.environ["DESKTOP_RESOURCES"]))
    candidates.append(package_dir / "resources")
    candidates.append(package_dir.parent / "resources")
    if getattr(sys, "_MEIPASS", None):
        candidates.append(Path(sys._MEIPASS) / "resources")
    return candidates


@lru_cache(maxsize=1)
def resources_dir() -> Path | None:
    """The first candidate folder that holds `fonts/DejaVuSans.ttf`, else the first that exists, else None."""
    candidates = resource_candidates()
    for folder in candidates:
        if (folder / "fonts" / _FILES[REGULAR]).is_file():
            return folder
    for folder in candidates:
        if folder.is_dir():
            return folder
    return None


def font_file(name: str) -> Path | None:
    filename = _FILES[name]
    folder = resources_dir()
    if folder is not None and (folder / "fonts" / filename).is_file():
        return folder / "fonts" / filename
    for system_dir in _SYSTEM_FONT_DIRS:
        if (system_dir / filename).is_file():
            return system_dir / filename
    return None


@lru_cache(maxsize=1)
def register_fonts() -> tuple[str, str]:
    """Registers DejaVu Sans (regular, bold) once; returns the (regular, bold) font names to use."""
    from reportlab.lib.fonts import addMapping
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

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
