"""Build the user's manual (issue 17): screenshots of the current screens from a fresh demo database, then one PDF.

    python tools/manual.py [--drivers 150] [--no-shots] [--out resources/manual]

1. A temporary SQLite database is migrated and loaded with the demo (`desktop.demo.entry.load_demo`), a user with
   every role is created, and the main window is opened offscreen at 1366×728 (the office's most common screen
   less the taskbar). Each module is shown and grabbed to `docs/manual/img/<module>.png`; the README's first
   screenshots go to `docs/img/` (the main window, and a printed sticker rasterized with pdftoppm).
2. `desktop.manual.build_pdf` turns `docs/manual/NN-*.md` and the images into `resources/manual/manual.pdf`, with
   `capitulos.json` (the page of each chapter, for Ajuda → Manual, F1).

The screenshots are made by the program itself from the demo, so they show the screens as they are now: CI runs
this script on every change.
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
SOURCE = ROOT / "docs" / "manual"
IMAGES = SOURCE / "img"
README_IMAGES = ROOT / "docs" / "img"
SIZE = (1366, 728)
SHOT_USER, SHOT_PASSWORD = "clara.souza", "manual-123456"


def _settle(app, seconds: float = 0.6) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        app.processEvents()
        time.sleep(0.02)


def make_screenshots(drivers: int, images: Path = IMAGES, readme_images: Path = README_IMAGES) -> list[Path]:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    work = Path(tempfile.mkdtemp(prefix="manual-"))
    os.environ.setdefault("DESKTOP_KEY_DIR", str(work / "keys"))
    os.environ.setdefault("DESKTOP_SETTINGS_FILE", str(work / "settings.json"))
    from PySide6.QtWidgets import QApplication

    from desktop.domain import clock

    from desktop.app import create_application

    # the program's own application (issue 27): Qt's pt_BR catalogue and the office's translator, the Brazilian
    # locale and the keyboard guard, so the pictures show what a user sees
    app = create_application()
    assert isinstance(app, QApplication)
    previous = clock.set_clock(clock.ticking(datetime(2026, 11, 18, 9, 30)))   # the demo's day: same pictures
    try:
        return _shots(app, work, drivers, images, readme_images)
    finally:
        clock.set_clock(previous)
        shutil.rmtree(work, ignore_errors=True)


def _shots(app, work: Path, drivers: int, images: Path, readme_images: Path) -> list[Path]:
    from desktop.migrate import open_database
    from desktop.demo import ADMIN_PASSWORD, ADMIN_USERNAME
    from desktop.domain.roles import Role
    from desktop.services import auth, users
    from desktop.demo.entry import load_demo

    db = open_database(f"sqlite:///{work / 'manual.sqlite3'}")
    load_demo(db, drivers=drivers, seed=2025)
    admin = auth.login(db, ADMIN_USERNAME, ADMIN_PASSWORD)
    users.create_user(db, admin, users.UserDraft(SHOT_USER, "Clara Souza", frozenset(Role), SHOT_PASSWORD))
    actor = auth.login(db, SHOT_USER, SHOT_PASSWORD)
    from desktop.views.main_window import MainWindow

    window = MainWindow(db, actor)
    window.resize(*SIZE)
    window.show()
    _settle(app, 1.0)
    images.mkdir(parents=True, exist_ok=True)
    readme_images.mkdir(parents=True, exist_ok=True)
    made = []
    home = images / "inicio.png"
    window.grab().save(str(home))
    made.append(home)
    for module in window.modules:
        window.open_module(module.key)
        _settle(app, 1.2)
        path = images / f"{module.key}.png"
        window.grab().save(str(path))
        made.append(path)
    window.open_module(window.modules[0].key)
    _settle(app, 0.5)
    main = readme_images / "janela-principal.png"
    window.grab().save(str(main))
    made.append(main)
    made.extend(_sticker_picture(db, actor, images, readme_images))
    window.close()
    import shiboken6

    shiboken6.delete(window)   # at once: its pages listen to the data bus, and the database is going away
    db.dispose()
    return made


def _sticker_picture(db, actor, images: Path, readme_images: Path) -> list[Path]:
    """A printed sticker, as the README shows it: the archived PDF rasterized by pdftoppm."""
    from desktop.services import documents

    pending = documents.pending_sticker_numbers(db, actor)
    if not pending or shutil.which("pdftoppm") is None:
        return []
    issued = documents.print_sticker(db, actor, pending[0])
    work = Path(tempfile.mkdtemp(prefix="manual-sticker-"))
    pdf = work / "adesivo.pdf"
    pdf.write_bytes(issued.pdf)
    subprocess.run(["pdftoppm", "-r", "80", "-png", "-singlefile", str(pdf), str(work / "adesivo")], check=True)
    target = readme_images / "adesivo.png"
    shutil.copyfile(work / "adesivo.png", target)
    copy = images / "adesivo.png"
    shutil.copyfile(target, copy)
    shutil.rmtree(work, ignore_errors=True)
    return [target, copy]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--drivers", type=int, default=150)
    parser.add_argument("--no-shots", action="store_true", help="reuse the screenshots in docs/manual/img")
    parser.add_argument("--out", default=str(ROOT / "resources" / "manual"))
    args = parser.parse_args(argv)
    started = time.perf_counter()
    if not args.no_shots:
        made = make_screenshots(args.drivers)
        print(f"{len(made)} capturas de tela em {IMAGES.relative_to(ROOT)} e {README_IMAGES.relative_to(ROOT)}")
    from desktop import __version__
    from desktop.manual import build_pdf

    pages = build_pdf(SOURCE, Path(args.out), __version__)
    print(f"Manual com {len(pages)} capítulos em {Path(args.out) / 'manual.pdf'} "
          f"({time.perf_counter() - started:.1f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
