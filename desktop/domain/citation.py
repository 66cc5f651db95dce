"""One way to cite a legal provision on paper (issue 28 point 9): "Art. 8º, § 3º, I".

Lei Complementar nº 95/1998, art. 10, I and III (how laws number their parts, which is how they are cited):
- an article is numbered with the ordinal up to the ninth ("Art. 1º" … "Art. 9º") and the cardinal from the
  tenth on ("Art. 10", "Art. 26");
- a paragraph the same way, after the sign and a space ("§ 1º" … "§ 9º", "§ 10"); "parágrafo único" in words;
- incisos in Roman numerals, alíneas in lower-case letters, unchanged.

`cite(text)` rewrites every citation in a text to that style ("Art. 8, §3, I" → "Art. 8º, § 3º, I";
"Art. 26, §1" → "Art. 26, § 1º"; "art. 2 §5" → "art. 2º, § 5º"), and leaves every other word alone. Every
document passes its paragraphs through it (desktop.reports._pdf), so one function decides the style.
Pure: no Qt, no database.
"""
from __future__ import annotations

import re

ORDINAL = "º"

# "Art. 8", "Arts. 3", "art. 26", with an optional ordinal mark written as º, ° or o
_ARTICLE = re.compile(r"\b([Aa]rts?\.)\s*(\d+)(?:\s*(?:º|°|o(?![a-zA-Z])))?")
# "§3", "§ 3º", "§3°" (a "§§" keeps its first sign)
_PARAGRAPH = re.compile(r"§(?!§)\s*(\d+)(?:\s*(?:º|°|o(?![a-zA-Z])))?")
# "art. 2º § 5º" without the comma between article and paragraph
_MISSING_COMMA = re.compile(r"(\b[Aa]rts?\.\s\d+º?)\s+(§)")


def number(n: int | str) -> str:
    """An article's or a paragraph's number as cited: 1º … 9º, then 10, 11…"""
    value = int(n)
    return f"{value}{ORDINAL}" if value < 10 else str(value)


def article(n: int | str, *parts: str) -> str:
    """`article(8, "§ 3º", "I")` → "Art. 8º, § 3º, I" (each part cited as well)."""
    return cite(", ".join((f"Art. {number(n)}",) + tuple(p for p in parts if p)))


def paragraph(n: int | str) -> str:
    return f"§ {number(n)}"


def cite(text: str) -> str:
    """`text` with every citation in the one style (see the module's text)."""
    if not text or ("rt" not in text and "§" not in text):
        return text
    text = _ARTICLE.sub(lambda m: f"{m.group(1)} {number(m.group(2))}", text)
    text = _PARAGRAPH.sub(lambda m: f"§ {number(m.group(1))}", text)
    return _MISSING_COMMA.sub(r"\1, \2", text)
