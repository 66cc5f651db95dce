"""Text normal forms shared by search keys and legal comparisons (pure, standard library only)."""
from __future__ import annotations

import re
import unicodedata

_SPACES = re.compile(r"\s+")


def fold(text: str | None) -> str:
    """The accent- and case-insensitive key of a text: "São  JOÃO" -> "sao joao".

    Used for search columns and for comparisons the law makes by name, e.g. the municipality printed on a CRLV
    ("CHAPADA DOS GUIMARAES") against "Chapada dos Guimarães" (Art. 8, §1, I; Art. 15, parágrafo único, VIII).
    """
    if not text:
        return ""
    decomposed = unicodedata.normalize("NFKD", text)
    stripped = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return _SPACES.sub(" ", stripped.casefold()).strip()


def only_digits(text: str | None) -> str:
    """The digits of a text, in order ("123.456.789-09" -> "12345678909")."""
    return "".join(ch for ch in (text or "") if ch.isdigit() and ch.isascii())


def only_alphanumerics(text: str | None) -> str:
    """ASCII letters (upper case) and digits of a text, in order ("12.abc.345/01de-35" -> "12ABC34501DE35")."""
    return "".join(ch for ch in (text or "").upper() if ch.isascii() and ch.isalnum())


def same_place(a: str | None, b: str | None) -> bool:
    """Whether two place names are the same, ignoring case, accents, hyphens and repeated spaces."""
    return fold((a or "").replace("-", " ")) == fold((b or "").replace("-", " "))
