"""The manual (issue 17): screenshots made by the program from a demo database, one PDF with every chapter, and
Ajuda → Manual (F1) opening it at the chapter of the open module."""
from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest
from PySide6.QtGui import QImage

from desktop.manual import build_pdf, chapter_files, parse_markdown

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))


def _not_blank(path: Path) -> bool:
    image = QImage(str(path))
    if image.isNull():
        return False
    colors = {image.pixel(x, y) for x in range(0, image.width(), max(1, image.width() // 40))
              for y in range(0, image.height(), max(1, image.height() // 40))}
    return len(colors) > 5


def _pdf_text(data: bytes) -> str:
    from pypdf import PdfReader

    return "\n".join(page.extract_text() or "" for page in PdfReader(io.BytesIO(data)).pages)


def test_screenshots_come_from_the_program_and_show_each_module(qtbot, tmp_path):
    import manual as tool

    images, readme = tmp_path / "img", tmp_path / "readme"
    made = tool.make_screenshots(25, images, readme)
    names = {p.name for p in made}
    assert {"inicio.png", "cadastros.png", "fiscalizacao.png", "administracao.png", "janela-principal.png"} <= names
    for path in made:
        assert _not_blank(path), path.name
    shot = QImage(str(images / "cadastros.png"))
    assert (shot.width(), shot.height()) == (1366, 728)


def test_the_pdf_has_every_chapter_and_its_page(tmp_path):
    pages = build_pdf(ROOT / "docs" / "manual", tmp_path, "9.9")
    data = (tmp_path / "manual.pdf").read_bytes()
    text = " ".join(_pdf_text(data).split())
    for path in chapter_files(ROOT / "docs" / "manual"):
        title = parse_markdown(path.read_text(encoding="utf-8"))[0].text
        assert title in text
        assert pages[path.stem]["title"] == title
    starts = [pages[p.stem]["page"] for p in chapter_files(ROOT / "docs" / "manual")]
    assert starts == sorted(starts) and starts[0] >= 1      # after the cover
    assert json.loads((tmp_path / "capitulos.json").read_text(encoding="utf-8")) == pages
    assert "Versão 9.9" in text


@pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)")
def test_f1_opens_the_manual_at_the_chapter_of_the_open_module(qtbot, db, admin, tmp_path, monkeypatch):
    pages = build_pdf(ROOT / "docs" / "manual", tmp_path / "manual", "teste")
    monkeypatch.setenv("DESKTOP_RESOURCES", str(tmp_path))
    from desktop.views.main_window import MainWindow

    window = MainWindow(db, admin)
    qtbot.addWidget(window)
    window.open_module("administracao")
    dialog = window.open_manual()
    qtbot.addWidget(dialog)
    assert dialog.current_page() == pages["08-administracao"]["page"]
    assert dialog.page_count() > 10
    dialog.close()
    window.stack.setCurrentWidget(window.home)
    home = window.open_manual()
    qtbot.addWidget(home)
    assert home.current_page() == pages["00-introducao"]["page"]
    assert window.manual_action.shortcut().toString() == "F1"


def test_without_the_manual_the_user_is_told_how_to_build_it(qtbot, db, admin, monkeypatch, messages):
    import desktop.manual as manual_module

    monkeypatch.setattr(manual_module, "manual_dir", lambda: None)
    from desktop.views.main_window import MainWindow

    window = MainWindow(db, admin)
    qtbot.addWidget(window)
    assert window.open_manual() is None
    assert "tools/manual.py" in messages[-1][2]
