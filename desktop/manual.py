"""The user's manual (issue 17): Markdown chapters in `docs/manual/` (pt-BR), screenshots made from a fresh demo
database so they never go stale, and one PDF built with ReportLab, shipped in `resources/manual/` with the page
where each chapter starts (`capitulos.json`), so Ajuda → Manual (F1) opens at the chapter of the open module.

The Markdown is a small subset, enough for a manual: `#`, `##`, `###` headings, paragraphs, `- ` and `1. `
lists, `**bold**`, `*italic*`, `` `code` `` and images on their own line `![legenda](img/arquivo.png)`.

This module is run by `python tools/manual.py` (and by CI); the program itself only reads `capitulos.json`
(`chapter_page`) and the PDF (`manual_path`).
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from desktop.paths import resource_candidates
from xml.sax.saxutils import escape
from desktop.reports.fonts import register_fonts

MANUAL_PDF = "manual.pdf"
CHAPTERS_JSON = "capitulos.json"

# module key of the main window → chapter file (without .md); F1 opens the chapter of the open module.
MODULE_CHAPTERS = {
    "inicio": "00-introducao",
    "cadastros": "01-cadastros",
    "autorizacoes": "02-autorizacoes",
    "vistorias": "03-vistorias",
    "fiscalizacao": "04-fiscalizacao",
    "financeiro": "05-financeiro",
    "plataformas": "06-plataformas",
    "relatorios": "07-relatorios",
    "administracao": "08-administracao",
    "cursos": "09-cursos",
    "viagens": "09b-viagens",
    "correspondencia": "09c-correspondencia",
}


def manual_dir() -> Path | None:
    """`resources/manual/` of this installation (source tree or bundle), when the manual was built."""

    for folder in resource_candidates():
        if (folder / "manual" / MANUAL_PDF).is_file():
            return folder / "manual"
    return None


def manual_path() -> Path | None:
    folder = manual_dir()
    return folder / MANUAL_PDF if folder else None


def chapter_page(module_key: str | None) -> int:
    """The 0-based page where the chapter of `module_key` starts (0 when unknown or not built)."""
    folder = manual_dir()
    if folder is None:
        return 0
    try:
        pages = json.loads((folder / CHAPTERS_JSON).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return 0
    chapter = MODULE_CHAPTERS.get(module_key or "inicio", MODULE_CHAPTERS["inicio"])
    entry = pages.get(chapter) if isinstance(pages, dict) else None
    return int(entry["page"]) if isinstance(entry, dict) and isinstance(entry.get("page"), int) else 0


# ------------------------------------------------------------------------------------------ Markdown → blocks

@dataclass(frozen=True, slots=True)
class Block:
    kind: str      # "h1" | "h2" | "h3" | "p" | "ul" | "ol" | "img"
    text: str = ""
    items: tuple[str, ...] = ()
    src: str = ""


_IMG = re.compile(r"^!\[(?P<alt>[^\]]*)\]\((?P<src>[^)]+)\)\s*$")


def parse_markdown(text: str) -> list[Block]:
    blocks: list[Block] = []
    para: list[str] = []
    items: list[str] = []
    list_kind = ""

    def flush() -> None:
        nonlocal para, items, list_kind
        if para:
            blocks.append(Block("p", " ".join(para)))
            para = []
        if items:
            blocks.append(Block(list_kind, items=tuple(items)))
            items = []
            list_kind = ""

    for raw in text.splitlines():
        line = raw.rstrip()
        stripped = line.strip()
        if not stripped:
            flush()
            continue
        m = _IMG.match(stripped)
        if m:
            flush()
            blocks.append(Block("img", m["alt"], src=m["src"]))
        elif stripped.startswith("#"):
            flush()
            level = len(stripped) - len(stripped.lstrip("#"))
            blocks.append(Block(f"h{min(level, 3)}", stripped[level:].strip()))
        elif re.match(r"^(- |\* )", stripped):
            if para or list_kind == "ol":
                flush()
            list_kind = "ul"
            items.append(stripped[2:].strip())
        elif re.match(r"^\d+\. ", stripped):
            if para or list_kind == "ul":
                flush()
            list_kind = "ol"
            items.append(stripped.split(". ", 1)[1].strip())
        elif items and raw.startswith("  "):
            items[-1] += " " + stripped       # continuation of a list item
        else:
            if items:
                flush()
            para.append(stripped)
    flush()
    return blocks


def inline_markup(text: str) -> str:
    """Markdown inline → ReportLab paragraph markup (escaped)."""

    out = escape(text)
    out = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", out)
    out = re.sub(r"(?<![*\w])\*(?!\s)(.+?)(?<!\s)\*(?!\w)", r"<i>\1</i>", out)
    out = re.sub(r"`(.+?)`", r'<font face="Courier">\1</font>', out)
    return out


# ------------------------------------------------------------------------------------------------ the PDF

def chapter_files(source: Path) -> list[Path]:
    return sorted(p for p in source.glob("*.md") if re.match(r"^\d\d[a-z]?-", p.name))


def build_pdf(source: Path, out_dir: Path, version: str = "") -> dict[str, dict]:
    """Build `out_dir/manual.pdf` from the chapters in `source`; returns {chapter: {"title", "page"}} (0-based
    page), also written to `out_dir/capitulos.json`."""
    from reportlab.lib import colors  # lazy: ReportLab loads only when this runs (start-up cost)
    from reportlab.lib.enums import TA_CENTER  # lazy: ReportLab loads only when this runs (start-up cost)
    from reportlab.lib.pagesizes import A4  # lazy: ReportLab loads only when this runs (start-up cost)
    from reportlab.lib.styles import ParagraphStyle  # lazy: ReportLab loads only when this runs (start-up cost)
    from reportlab.lib.units import mm  # lazy: ReportLab loads only when this runs (start-up cost)
    from reportlab.platypus import (BaseDocTemplate, Frame, Image, ListFlowable, ListItem, PageBreak, PageTemplate,
                                    Paragraph, Spacer)  # lazy: ReportLab loads only when this runs (start-up cost)

    regular, bold = register_fonts()
    body = ParagraphStyle("body", fontName=regular, fontSize=10, leading=14, spaceAfter=5)
    styles = {
        "h1": ParagraphStyle("h1", fontName=bold, fontSize=18, leading=22, spaceAfter=8, textColor="#1b5e20"),
        "h2": ParagraphStyle("h2", fontName=bold, fontSize=13, leading=17, spaceBefore=8, spaceAfter=4),
        "h3": ParagraphStyle("h3", fontName=bold, fontSize=11, leading=14, spaceBefore=6, spaceAfter=3),
        "p": body,
        "caption": ParagraphStyle("caption", parent=body, fontSize=8.5, leading=11, alignment=TA_CENTER,
                                  textColor=colors.HexColor("#555555")),
        "title": ParagraphStyle("title", fontName=bold, fontSize=24, leading=30, alignment=TA_CENTER),
        "subtitle": ParagraphStyle("subtitle", parent=body, fontSize=12, leading=16, alignment=TA_CENTER),
    }
    out_dir.mkdir(parents=True, exist_ok=True)
    pdf_path = out_dir / MANUAL_PDF
    width = A4[0] - 40 * mm
    pages: dict[str, dict] = {}

    class Doc(BaseDocTemplate):
        def afterFlowable(self, flowable):
            chapter = getattr(flowable, "_chapter", None)
            if chapter and chapter not in pages:
                pages[chapter] = {"title": flowable.getPlainText(), "page": self.page - 1}
                self.canv.bookmarkPage(chapter)
                self.canv.addOutlineEntry(flowable.getPlainText(), chapter, level=0)

    def footer(c, doc):
        c.saveState()
        c.setFont(regular, 8)
        c.setFillColor(colors.HexColor("#555555"))
        c.drawString(20 * mm, 10 * mm, "Manual do sistema — Lei nº 2.103/2025 de Chapada dos Guimarães")
        c.drawRightString(A4[0] - 20 * mm, 10 * mm, f"Página {doc.page}")
        c.restoreState()

    doc = Doc(str(pdf_path), pagesize=A4, leftMargin=20 * mm, rightMargin=20 * mm, topMargin=18 * mm,
              bottomMargin=18 * mm, title="Manual do usuário", author="Secretaria Municipal",
              creator="chapada-transporte-app", invariant=1)
    doc.addPageTemplates([PageTemplate("page", [Frame(20 * mm, 18 * mm, width, A4[1] - 36 * mm, id="f")],
                                       onPage=footer)])
    story = [Spacer(1, 60 * mm), Paragraph("Manual do usuário", styles["title"]), Spacer(1, 6 * mm),
             Paragraph("Transporte remunerado privado individual de passageiros por aplicativo — "
                       "Lei nº 2.103/2025 de Chapada dos Guimarães–MT", styles["subtitle"]),
             Spacer(1, 4 * mm),
             Paragraph(f"Versão {version} do programa" if version else "", styles["subtitle"]), PageBreak()]
    for path in chapter_files(source):
        chapter = path.stem
        first = True
        for block in parse_markdown(path.read_text(encoding="utf-8")):
            if block.kind in ("h1", "h2", "h3"):
                para = Paragraph(inline_markup(block.text), styles[block.kind])
                if first and block.kind == "h1":
                    para._chapter = chapter
                    first = False
                story.append(para)
            elif block.kind == "p":
                story.append(Paragraph(inline_markup(block.text), styles["p"]))
            elif block.kind in ("ul", "ol"):
                story.append(ListFlowable(
                    [ListItem(Paragraph(inline_markup(t), styles["p"]), leftIndent=14) for t in block.items],
                    bulletType="bullet" if block.kind == "ul" else "1", start="•" if block.kind == "ul" else None,
                    bulletFontName=regular, bulletFontSize=9, leftIndent=14))
            elif block.kind == "img":
                image_path = (path.parent / block.src).resolve()
                if not image_path.is_file():
                    raise FileNotFoundError(f"{path.name}: imagem {block.src} não encontrada")
                from reportlab.lib.utils import ImageReader  # lazy: ReportLab loads only when this runs (start-up cost)

                iw, ih = ImageReader(str(image_path)).getSize()
                w = min(width, iw * 0.5)
                story.append(Image(str(image_path), width=w, height=w * ih / iw))
                if block.text:
                    story.append(Paragraph(inline_markup(block.text), styles["caption"]))
        story.append(PageBreak())
    doc.build(story)
    (out_dir / CHAPTERS_JSON).write_text(json.dumps(pages, ensure_ascii=False, indent=2), encoding="utf-8")
    return pages
