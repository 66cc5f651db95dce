"""The manual's small Markdown subset (issue 17): what each construct becomes, and every chapter maps a module."""
from __future__ import annotations

from pathlib import Path

import pytest

from desktop.manual import MODULE_CHAPTERS, chapter_files, inline_markup, parse_markdown

ROOT = Path(__file__).resolve().parents[2]


def test_blocks_of_a_chapter():
    text = ("# Título\n\nUm parágrafo\nem duas linhas.\n\n## Seção\n- um\n- dois\n  continuação\n\n"
            "1. primeiro\n2. segundo\n\n![Legenda](img/x.png)\n### Sub\nFim.")
    blocks = parse_markdown(text)
    assert [b.kind for b in blocks] == ["h1", "p", "h2", "ul", "ol", "img", "h3", "p"]
    assert blocks[1].text == "Um parágrafo em duas linhas."
    assert blocks[3].items == ("um", "dois continuação")
    assert blocks[4].items == ("primeiro", "segundo")
    assert blocks[5].text == "Legenda" and blocks[5].src == "img/x.png"


@pytest.mark.parametrize("source, markup", [
    ("**Ativa** e *itálico*", "<b>Ativa</b> e <i>itálico</i>"),
    ("`NNNN/AAAA`", '<font face="Courier">NNNN/AAAA</font>'),
    ("2 < 3 & 5 > 4", "2 &lt; 3 &amp; 5 &gt; 4"),
    ("2 % a 5 %", "2 % a 5 %"),
])
def test_inline_markup(source, markup):
    assert inline_markup(source) == markup


def test_every_module_has_its_chapter_and_every_image_exists():
    source = ROOT / "docs" / "manual"
    names = {p.stem for p in chapter_files(source)}
    assert set(MODULE_CHAPTERS.values()) <= names
    for path in chapter_files(source):
        blocks = parse_markdown(path.read_text(encoding="utf-8"))
        assert blocks[0].kind == "h1", path.name
        for block in blocks:
            if block.kind == "img":
                assert (path.parent / block.src).is_file(), f"{path.name}: {block.src}"
