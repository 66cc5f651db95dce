"""Where the program's own files are (issue 17): the ONE place that knows a source checkout from an installed
package and from the PyInstaller bundle.

`resources_dir()` is the folder with `fonts/` and `icons/`, the first of (see `resource_candidates`):
1. `DESKTOP_RESOURCES` (environment), when set — for an installer that puts it elsewhere;
2. in the frozen program (PyInstaller one-folder bundle, `sys.frozen`): `resources/` in the bundle's data folder
   (`sys._MEIPASS`, which is `_internal/` beside the .exe), then `resources/` beside the .exe itself;
3. `desktop/resources/` inside the package — where package-data would install it;
4. `resources/` at the repository root, beside the `desktop` package — a source checkout.
`package_dir()` is the folder of the `desktop` package (in the bundle, `_internal/desktop/`, where the spec puts
the Alembic migrations as files: Alembic reads them from disk).
No Qt, no ReportLab here: the start-up path imports it.
"""
from __future__ import annotations

import os
import sys
from functools import lru_cache
from pathlib import Path

_MARKER = Path("fonts") / "DejaVuSans.ttf"


def is_frozen() -> bool:
    """True inside the PyInstaller bundle."""
    return bool(getattr(sys, "frozen", False))


def bundle_dir() -> Path | None:
    """The bundle's data folder (`sys._MEIPASS`) when frozen, else None."""
    if not is_frozen():
        return None
    return Path(getattr(sys, "_MEIPASS", Path(sys.executable).resolve().parent))


def executable_dir() -> Path | None:
    """The folder of the frozen .exe (the install folder), else None."""
    return Path(sys.executable).resolve().parent if is_frozen() else None


def package_dir() -> Path:
    return Path(__file__).resolve().parent


def resource_candidates() -> list[Path]:
    candidates: list[Path] = []
    if os.environ.get("DESKTOP_RESOURCES"):
        candidates.append(Path(os.environ["DESKTOP_RESOURCES"]))
    if is_frozen():
        candidates.append(bundle_dir() / "resources")
        candidates.append(executable_dir() / "resources")
    candidates.append(package_dir() / "resources")
    candidates.append(package_dir().parent / "resources")
    return candidates


@lru_cache(maxsize=1)
def resources_dir() -> Path | None:
    """The first candidate folder that holds `fonts/DejaVuSans.ttf`, else the first that exists, else None."""
    candidates = resource_candidates()
    for folder in candidates:
        if (folder / _MARKER).is_file():
            return folder
    for folder in candidates:
        if folder.is_dir():
            return folder
    return None


def resource(*parts: str) -> Path | None:
    """`resource("icons", "cadastros.svg")`: the path inside `resources_dir()` (None when there is none)."""
    folder = resources_dir()
    return None if folder is None else folder.joinpath(*parts)


def migrations_dir() -> Path:
    return package_dir() / "migrations"
