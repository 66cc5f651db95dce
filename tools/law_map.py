"""The map of Lei nº 2.103/2025 in the code: which domain functions, services and tests cite each article,
paragraph, inciso and alínea, and which ones nothing implements yet (and why).

    python tools/law_map.py --write            # regenerate docs/law-map.md (and docs/law/ if the law changed)
    python tools/law_map.py [--law PATH]       # print the map
    python tools/law_map.py --check            # exit 1 when docs/law-map.md is stale

The law is read from `--law` (default `../shared/law/lei-2103-2025.txt` next to the repository, falling back to
the copy `docs/law/lei-2103-2025.txt` that the repository keeps, which the test reads). The citations are the
code's own: comments and strings of `desktop/` and `tests/` ("Art. 26, §1", "Art. 12 VI", "art. 13 XVIII",
"Art. 8 §3 I-IV", "Art. 15 p.ú. I-VIII", "Art. 24, I, d", "Art. 26-27"), the catalogue's codes ("ART26-IV"),
and the names of tests (`test_art26_par1_...`, STYLE: tests name the article they prove). Articles of other
laws ("CC art. 132 §3", "arts. 303 e 306 do CTB", "Decreto nº 45/2026, art. 12") are left out. The output is
sorted and carries no date, so the same code gives the same file.
"""
from __future__ import annotations

import argparse
import ast
import bisect
import re
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LAW_COPY = ROOT / "docs" / "law" / "lei-2103-2025.txt"
DEFAULT_LAW = ROOT.parent / "shared" / "law" / "lei-2103-2025.txt"
MAP_PATH = ROOT / "docs" / "law-map.md"
COMMAND = "python tools/law_map.py --write"
SCANNED = ("desktop", "tests")
SKIPPED = ("tests/unit/test_law_map.py",)     # its table of examples cites on purpose
CATEGORIES = (("domain", "Domínio"), ("services", "Serviços"), ("tests", "Testes"), ("other", "Outros"),
              ("mention", "Só mencionam (docstrings, telas, documentos)"))
# Which sites implement a provision: code of the rules' rooms (domain, services) — a constant with its article, a
# rule, a refusal naming it. Tests prove it. A docstring anywhere, and the screens, documents and other files that
# print or show the article, only mention it: a comment or a label is not an implementation (issue 22 point 10).
IMPLEMENTING = ("domain", "services")

# What nothing in the program implements, and why (kept by hand, keyed by `Unit.key`). A provision that nothing
# cites, neither itself nor its parts nor the provision above it, needs a reason here (the test says which); a
# provision covered only by the citation of the one above it is listed as not implemented when it has a reason.
_PLATFORM_DUTY = ("Dever da plataforma perante usuários e condutores: o programa não o controla item a item (nenhum "
                  "dado dele chega ao Município); o descumprimento se apura por auto de infração do Art. 27.")
NOT_IMPLEMENTED = {
    **{f"Art. 5, {inc}": _PLATFORM_DUTY for inc in ("I", "II", "III", "IV", "V", "VI", "VII", "IX")},
    "Art. 5, p.u.": "Regra de interpretação (o cadastro na plataforma não substitui o do Município): nada a executar; "
                    "o cadastro municipal é o do programa.",
    "Art. 6, p.u.": "Faculdade das plataformas (viagens compartilhadas entre usuários): nada a controlar.",
    "Art. 11, §2": "As penalidades do ISSQN não recolhido são as do Código Tributário Municipal, fora desta lei.",
}


# ------------------------------------------------------------------------------------------------ the law


@dataclass(frozen=True, order=True)
class Unit:
    """One provision: article, paragraph (None = caput, 0 = parágrafo único), inciso (as a number), alínea."""
    art: int
    par: int | None = None
    inc: int | None = None
    ali: str | None = None

    @property
    def label(self) -> str:
        """As the law writes it: "Art. 8º, § 3º, IV", "Art. 24, parágrafo único", "Art. 24, I, d)"."""
        return self._join(f"Art. {self.art}" + ("º" if self.art < 10 else ""), "parágrafo único", "§ {}º", "{})")

    @property
    def key(self) -> str:
        """The plain form used in NOT_IMPLEMENTED and in the lists: "Art. 8, §3, IV", "Art. 24, p.u."."""
        return self._join(f"Art. {self.art}", "p.u.", "§{}", "{}")

    def _join(self, art: str, sole: str, par: str, ali: str) -> str:
        parts = [art]
        if self.par is not None:
            parts.append(sole if self.par == 0 else par.format(self.par))
        if self.inc is not None:
            parts.append(to_roman(self.inc))
        if self.ali is not None:
            parts.append(ali.format(self.ali))
        return ", ".join(parts)

    def parent(self) -> Unit | None:
        if self.ali is not None:
            return Unit(self.art, self.par, self.inc)
        if self.inc is not None:
            return Unit(self.art, self.par)
        if self.par is not None:
            return Unit(self.art)
        return None


_ROMAN = (("XL", 40), ("X", 10), ("IX", 9), ("V", 5), ("IV", 4), ("I", 1))


def to_roman(n: int) -> str:
    out = ""
    for sym, val in _ROMAN:
        while n >= val:
            out += sym
            n -= val
    return out


def from_roman(text: str) -> int | None:
    """The value of a well-formed roman numeral up to XL ("IIII", "VX" → None)."""
    text = text.upper()
    if not text or not re.fullmatch(r"X{0,3}(?:XL)?(?:IX|IV|V?I{0,3})", text):
        return None
    i = n = 0
    for sym, val in _ROMAN:
        while text.startswith(sym, i):
            n += val
            i += len(sym)
    return n if i == len(text) and 0 < n <= 40 else None


_LAW_ART = re.compile(r"^Art\.\s*(\d+)\s*[º°]?\s*[.\-–]?\s*(.*)$")
_LAW_PAR = re.compile(r"^§\s*(\d+)\s*[º°]?\s*(.*)$")
_LAW_PU = re.compile(r"^Parágrafo único\.?\s*(.*)$", re.IGNORECASE)
_LAW_INC = re.compile(r"^([IVXL]+)\s*[-–]\s*(.*)$")
_LAW_ALI = re.compile(r"^([a-z])\)\s*(.*)$")


def parse_law(text: str) -> dict[Unit, str]:
    """Every provision of the law with its text, in the order of the law."""
    units: dict[Unit, str] = {}
    art = par = inc = None
    for raw in text.splitlines():
        line = raw.strip()
        if m := _LAW_ART.match(line):
            art, par, inc = int(m.group(1)), None, None
            units[Unit(art)] = m.group(2)
        elif art is None:
            continue
        elif m := _LAW_PAR.match(line):
            par, inc = int(m.group(1)), None
            units[Unit(art, par)] = m.group(2)
        elif m := _LAW_PU.match(line):
            par, inc = 0, None
            units[Unit(art, par)] = m.group(1)
        elif (m := _LAW_INC.match(line)) and from_roman(m.group(1)):
            inc = from_roman(m.group(1))
            units[Unit(art, par, inc)] = m.group(2)
        elif (m := _LAW_ALI.match(line)) and inc is not None:
            units[Unit(art, par, inc, m.group(1))] = m.group(2)
    return units


# ----------------------------------------------------------------------------------------- the citations

_ART = re.compile(r"(?<![\w.])(?:art(?:igo)?s?\.|artigos?\s)\s*(?=\d)", re.IGNORECASE)
_NUM = re.compile(r"(\d{1,3})(?:\s*[º°])?(?![\d/.,]\d)")
_ART_RANGE = re.compile(r"\s*[-–]\s*(\d{1,2})\b(?![º°]?\s*[a-zà-ú])")
_SEP = re.compile(r"[\s,]*")
_PAR_U = re.compile(r"(?:§\s*ú(?:nico)?|par[áa]grafo\s+[úu]nico|par\.\s*[úu]n(?:ico)?\.?|p\.\s*[úu]\.?)", re.IGNORECASE)
_PARS = re.compile(r"§§\s*(\d+)\s*[º°]?\s*(-|–|a|e)\s*(?:§\s*)?(\d+)\s*[º°]?")
_PAR = re.compile(r"§\s*(\d+)\s*[º°o]?(?![\d])")
_CAPUT = re.compile(r"caput\b")
_ROMAN_RE = re.compile(r"([IVXL]+)\b")
_ROMAN_RANGE = re.compile(r"\s*(?:-|–|\sa\s)\s*([IVXL]+)\b")
_ALINEA = re.compile(r"([a-j])\)?(?![\wÀ-ÿ])")
_AND = re.compile(r"\s+e\s+(?=§|[IVXL]+\b|\d|par[áa]grafo|p\.)")
_MORE_ALINEAS = re.compile(r"(?:\s*,\s*|\s+(?:e|and|ou|or)\s+)([a-j])\)?(?![\wÀ-ÿ])")
_ALINEA_RANGE = re.compile(r"\s*[-–]\s*([a-j])\)?(?![\wÀ-ÿ])")
_NEXT_ARTICLE = re.compile(r"(?=\s*(?:[,;.)]|$|\s+(?:§|[IVXL]+\b|e\s+\d|p\.|d[ao]\s+(?:Lei|\{))|\s*[-–]\s*\d))")
_FOREIGN = re.compile(r"\b(?:CTB|CTN|CC|CPC|CF|LC|LGPD|C[óo]digo|Decreto|Constitui[çc][ãa]o|Resolu[çc][ãa]o|Portaria)\b"
                      r"|\bLei\s+(?:Federal\s+|Complementar\s+)?(?:n[º°o.]*\s*)?(?!2\.?103)\d", re.IGNORECASE)
_FOREIGN_AFTER = re.compile(r"(?:[\s,º°§]|\d|\be\b|\bou\b|\ba\b)*?(?:d[aoe]s?\s+)?(?:CTB|CTN|CC\b|CPC|LC\b|C[óo]digo|Decreto|Constitui"
                            r"|Lei\s+(?:Federal\s+|Complementar\s+)?(?:n[º°o.]*\s*)?(?!2\.?103)\d)", re.IGNORECASE)
_CODE = re.compile(r"(?<![\w-])ART(\d{1,2})(?:-([IVX]+))?(?![\w])")


@dataclass(frozen=True)
class Cited:
    """A unit as the code wrote it (before it is checked against the law)."""
    art: int
    par: int | None = None
    inc: int | None = None
    ali: str | None = None


def _foreign(text: str, start: int, end: int) -> bool:
    """A citation of another law: its name just before, in the same clause, or right after."""
    before = re.split(r"[;()\[\]\n\"'`]", text[max(0, start - 48):start])[-1]
    return bool(_FOREIGN.search(before) or _FOREIGN_AFTER.match(text, end))


def find_citations(text: str) -> list[tuple[int, Cited]]:
    """Every citation of this law in `text` with its offset. A citation may run over a line break (a wrapped
    comment or docstring); the name of another law counts only on the citation's own line."""
    flat = text.replace("\n", " ")
    found: list[tuple[int, Cited]] = []
    for m in _ART.finditer(flat):
        units, end = _parse_one(flat, m.end())
        if units and not _foreign(text, m.start(), end) and not _FOREIGN_AFTER.match(flat, end):
            found.extend((m.start(), u) for u in units)
    for m in _CODE.finditer(text):
        if int(m.group(1)) <= 30:      # ART99 and the like: deliberately unknown codes in tests
            found.append((m.start(), Cited(int(m.group(1)), None, from_roman(m.group(2)) if m.group(2) else None)))
    return sorted(found, key=lambda x: x[0])


def parse_citations(text: str) -> list[Cited]:
    """Every citation of this law in a piece of text (a comment, a string), in order."""
    return [c for _, c in find_citations(text)]


def _parse_one(text: str, pos: int) -> tuple[list[Cited], int]:
    m = _NUM.match(text, pos)
    if not m:
        return [], pos
    art, pos = int(m.group(1)), m.end()
    out: list[Cited] = []
    arts = [art]
    if (r := _ART_RANGE.match(text, pos)) and art < int(r.group(1)) <= art + 30:
        arts, pos = list(range(art, int(r.group(1)) + 1)), r.end()
    out.extend(Cited(a) for a in arts)
    par: int | None = None
    last_inc: Cited | None = None
    while True:
        s = _SEP.match(text, pos)
        gap, p = text[pos:s.end()], s.end()
        if (m := _AND.match(text, pos)) is not None:
            gap, p = text[pos:m.end()], m.end()
        if p >= len(text):
            break
        if m := _PAR_U.match(text, p):
            par, last_inc, pos = 0, None, m.end()
            out.append(Cited(art, 0))
        elif m := _PARS.match(text, p):
            lo, hi = int(m.group(1)), int(m.group(3))
            pars = list(range(lo, hi + 1)) if m.group(2) in "-–a" and lo <= hi <= lo + 9 else [lo, hi]
            out.extend(Cited(art, q) for q in pars)
            par, last_inc, pos = pars[-1], None, m.end()
        elif m := _PAR.match(text, p):
            par, last_inc, pos = int(m.group(1)), None, m.end()
            out.append(Cited(art, par))
        elif m := _CAPUT.match(text, p):
            par, last_inc, pos = None, None, m.end()
        elif (m := _ROMAN_RE.match(text, p)) and from_roman(m.group(1)):
            first = from_roman(m.group(1))
            incs = [first]
            pos = m.end()
            if (r := _ROMAN_RANGE.match(text, pos)) and from_roman(r.group(1)) and first < from_roman(r.group(1)):
                incs, pos = list(range(first, from_roman(r.group(1)) + 1)), r.end()
            out.extend(Cited(art, par, i) for i in incs)
            last_inc = out[-1] if len(incs) == 1 else None
        elif last_inc is not None and gap.strip() in (",", "") and gap and (m := _ALINEA.match(text, p)):
            letters, pos = [m.group(1)], m.end()
            if (r := _ALINEA_RANGE.match(text, pos)) and r.group(1) > letters[0]:
                letters, pos = [chr(c) for c in range(ord(letters[0]), ord(r.group(1)) + 1)], r.end()
            while r := _MORE_ALINEAS.match(text, pos):
                letters.append(r.group(1))
                pos = r.end()
            out.extend(Cited(art, last_inc.par, last_inc.inc, a) for a in letters)
            last_inc = None
        elif ("," in gap or gap.strip() == "e") and (m := _NUM.match(text, p)) and _NEXT_ARTICLE.match(text, m.end()) \
                and 0 < int(m.group(1)) <= 40:
            art, par, last_inc, pos = int(m.group(1)), None, None, m.end()
            arts = [art]
            if (r := _ART_RANGE.match(text, pos)) and art < int(r.group(1)) <= art + 30:
                arts, pos = list(range(art, int(r.group(1)) + 1)), r.end()
            out.extend(Cited(a) for a in arts)
        else:
            break
    # "Art. 12, VI" cites the inciso, not the whole article: a unit followed by one of its own parts goes.
    kept = [u for u, nxt in zip(out, out[1:] + [None]) if not (nxt and _part_of(nxt, u))]
    return kept, pos


def _part_of(u: Cited, parent: Cited) -> bool:
    if u.art != parent.art or u == parent:
        return False
    if parent.par is not None and u.par != parent.par:
        return False
    if parent.inc is not None and u.inc != parent.inc:
        return False
    return parent.ali is None and (parent.inc is None or u.ali is not None) and \
        (parent.par is None or u.inc is not None or u.ali is not None) and \
        (parent.par is not None or parent.inc is not None or u.par is not None or u.inc is not None)


_TEST_ART = re.compile(r"art(\d{1,2})$")


def parse_test_name(name: str) -> list[Cited]:
    """`test_art26_par1_recurrence…` → Art. 26 §1; `test_art12_vi_…` → Art. 12 VI; `test_art24_i_d_…`."""
    words = name.split("_")
    out: list[Cited] = []
    i = 0
    while i < len(words):
        m = _TEST_ART.match(words[i])
        i += 1
        if not m:
            continue
        art, par, inc, ali = int(m.group(1)), None, None, None
        while i < len(words):
            w = words[i]
            if par is None and inc is None and (pm := re.fullmatch(r"par(\d{1,2})", w)):
                par = int(pm.group(1))
            elif par is None and inc is None and (w == "pu" or (w in ("par", "paragrafo") and
                                                               words[i + 1:i + 2] == ["unico"])):
                par = 0
                i += w != "pu"
            elif inc is None and from_roman(w) and (w.islower() or w.isupper()):
                inc = from_roman(w)
            elif inc is not None and ali is None and re.fullmatch(r"[a-f]", w):
                ali = w
            else:
                break
            i += 1
        out.append(Cited(art, par, inc, ali))
    return out


# ---------------------------------------------------------------------------------------- the code's sites


@dataclass(frozen=True, order=True)
class Site:
    category: str        # domain, services, tests, other
    path: str            # relative, with forward slashes
    name: str            # the enclosing function or class ("Class.method"), "(módulo)" at module level


def category_of(path: str) -> str:
    if path.startswith("desktop/domain/"):
        return "domain"
    if path.startswith("desktop/services/"):
        return "services"
    if path.startswith("tests/"):
        return "tests"
    return "other"


def _scopes(tree: ast.Module) -> tuple[list[tuple[int, int, str]], list[tuple[str, str]]]:
    """(first line, last line, qualified name) of every function and class (decorators included), and the tests
    (name, qualified name). Only statement lists are walked: expressions hold no definitions."""
    spans: list[tuple[int, int, str]] = []
    tests: list[tuple[str, str]] = []

    def walk(body: list, prefix: str) -> None:
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                qual = prefix + node.name
                first = min([node.lineno] + [d.lineno for d in node.decorator_list])
                spans.append((first, node.end_lineno or node.lineno, qual))
                if not isinstance(node, ast.ClassDef) and node.name.startswith("test"):
                    tests.append((node.name, qual))
                walk(node.body, qual + ".")
                continue
            for attr in ("body", "orelse", "finalbody", "handlers", "cases"):
                inner = getattr(node, attr, None)
                if isinstance(inner, list) and inner and isinstance(inner[0], ast.AST):
                    walk(inner, prefix)

    walk(tree.body, "")
    return sorted(spans, key=lambda s: (s[0], -s[1])), tests


def _docstring_lines(tree: ast.Module) -> list[tuple[int, int]]:
    """(first, last line) of the docstring of the module and of every class and function."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and \
                    isinstance(first.value.value, str):
                out.append((first.lineno, first.end_lineno or first.lineno))
    return out


def scan_file(path: Path, rel: str) -> list[tuple[Cited, Site]]:
    """The citations in one file: in its comments and strings (the source text itself: a citation form does not
    occur in Python code) and in the names of its tests."""
    source = path.read_text(encoding="utf-8")
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    spans, tests = _scopes(tree)
    category = category_of(rel)
    newlines = [i for i, ch in enumerate(source) if ch == "\n"]
    docstrings = _docstring_lines(tree)

    def category_at(offset: int) -> str:
        if category == "tests":
            return category
        line = bisect.bisect_left(newlines, offset) + 1
        if category == "other" or any(first <= line <= last for first, last in docstrings):
            return "mention"
        return category

    def scope_at(offset: int) -> str:
        line = bisect.bisect_left(newlines, offset) + 1
        best = "(módulo)"
        for start, end, qual in spans:          # innermost: the last span that starts before and holds the line
            if start > line:
                break
            if line <= end:
                best = qual
        return best

    out = [(c, Site(category_at(pos), rel, scope_at(pos))) for pos, c in find_citations(source)]
    for name, qual in tests:
        out.extend((c, Site(category, rel, qual)) for c in parse_test_name(name))
    return out


def scan(root: Path = ROOT) -> list[tuple[Cited, Site]]:
    found: list[tuple[Cited, Site]] = []
    for top in SCANNED:
        for path in sorted((root / top).rglob("*.py")):
            rel = path.relative_to(root).as_posix()
            if rel in SKIPPED:
                continue
            found.extend(scan_file(path, rel))
    return found


# ----------------------------------------------------------------------------------------------- the map


@dataclass
class LawMap:
    units: dict[Unit, str]
    direct: dict[Unit, set[Site]] = field(default_factory=lambda: defaultdict(set))
    unknown: dict[str, set[Site]] = field(default_factory=lambda: defaultdict(set))

    def resolve(self, c: Cited) -> tuple[Unit, bool]:
        """The unit of the law a citation names, and whether the law has it exactly. An inciso cited without its
        paragraph ("Art. 15, VIII" for the parágrafo único's VIII) is found when only one paragraph has it."""
        unit = Unit(c.art, c.par, c.inc, c.ali)
        if unit in self.units:
            return unit, True
        if c.par is None and c.inc is not None:
            options = [u for u in self.units if u.art == c.art and u.inc == c.inc and u.ali == c.ali]
            if len(options) == 1:
                return options[0], True
        while unit is not None and unit not in self.units:
            unit = unit.parent()
        return (unit, False) if unit is not None else (Unit(c.art), False)

    def add(self, c: Cited, site: Site) -> None:
        unit, exact = self.resolve(c)
        if not exact:
            self.unknown[Unit(c.art, c.par, c.inc, c.ali).key].add(site)
        if unit in self.units:
            self.direct[unit].add(site)

    def ancestor_cited(self, unit: Unit) -> Unit | None:
        p = unit.parent()
        while p is not None:
            if self.direct.get(p):
                return p
            p = p.parent()
        return None

    def descendant_cited(self, unit: Unit) -> bool:
        return any(self.direct.get(u) for u in self.units if u != unit and _within(u, unit))

    def kind(self, unit: Unit) -> str:
        """For a provision cited by itself: implemented (by the code of the domain or the services), proved (only
        by tests), mentioned (only by docstrings, screens, documents: a label is not an implementation)."""
        cats = {s.category for s in self.direct.get(unit, ())}
        if cats & set(IMPLEMENTING):
            return "implemented"
        if "tests" in cats:
            return "proved"
        return "mentioned"

    def status(self, unit: Unit) -> str:
        """cited (by itself), parts (through its paragraphs, incisos or alíneas), whole (through the provision
        above it), none (nothing; the reason, if any, is in NOT_IMPLEMENTED)."""
        if self.direct.get(unit):
            return "cited"
        if self.descendant_cited(unit):
            return "parts"
        if self.ancestor_cited(unit) and not _reason(unit):
            return "whole"
        return "none"


def _within(u: Unit, parent: Unit) -> bool:
    p = u.parent()
    while p is not None:
        if p == parent:
            return True
        p = p.parent()
    return False


def build(law_text: str, root: Path = ROOT) -> LawMap:
    law = LawMap(parse_law(law_text))
    for cited, site in scan(root):
        law.add(cited, site)
    return law


def _excerpt(text: str, n: int = 170) -> str:
    text = re.sub(r"\s+", " ", text).strip()
    return text if len(text) <= n else text[: n - 1].rstrip() + "…"


def _sites_lines(sites: set[Site]) -> list[str]:
    lines = []
    for cat, title in CATEGORIES:
        by_path: dict[str, list[str]] = defaultdict(list)
        for s in sites:
            if s.category == cat:
                by_path[s.path].append(s.name)
        if by_path:
            lines.append(f"- **{title}:**")
            lines += [f"  - `{p}` — " + ", ".join(f"`{n}`" for n in sorted(set(names)))
                      for p, names in sorted(by_path.items())]
    return lines


def missing_reasons(law: LawMap) -> list[Unit]:
    """The units nothing cites (not even their article or their parts) that have no reason in NOT_IMPLEMENTED."""
    out = []
    for unit in law.units:
        if law.status(unit) != "none":
            continue
        if not _reason(unit):
            out.append(unit)
    return out


def _reason(unit: Unit) -> str | None:
    u: Unit | None = unit
    while u is not None:
        if u.key in NOT_IMPLEMENTED:
            return NOT_IMPLEMENTED[u.key]
        u = u.parent()
    return None


def render(law: LawMap) -> str:
    units = list(law.units)
    counts = defaultdict(int)
    for u in units:
        counts[law.status(u)] += 1
        if law.status(u) == "cited":
            counts[law.kind(u)] += 1
    out = [
        "# Mapa da Lei nº 2.103/2025 no código",
        "",
        f"Gerado por `{COMMAND}` a partir das citações do próprio código (comentários, textos, códigos do",
        "catálogo como `ART26-IV` e nomes de testes como `test_art26_par1_…`) sobre o texto da lei em",
        "`docs/law/lei-2103-2025.txt`. Não edite à mão: `tests/unit/test_law_map.py` falha quando este arquivo",
        "não corresponde ao código.",
        "",
        f"- Dispositivos da lei (artigos, parágrafos, incisos, alíneas): {len(units)}",
        f"- Citados diretamente: {counts['cited']} — implementados no domínio ou nos serviços: "
        f"{counts['implemented']}; só provados por testes: {counts['proved']}; só mencionados (docstrings, telas, "
        f"documentos — um comentário ou um rótulo não implementa): {counts['mentioned']}",
        f"- Citados só por partes (o artigo ou parágrafo não é citado como um todo): {counts['parts']}",
        f"- Cobertos pela citação do dispositivo superior: {counts['whole']}",
        f"- Sem implementação: {counts['none']}",
        "",
        "| Artigo | Dispositivos | Citados | Implementados | Só mencionados | Por partes | Pelo superior "
        "| Sem implementação |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for art in sorted({u.art for u in units}):
        mine = [u for u in units if u.art == art]
        c = defaultdict(int)
        for u in mine:
            c[law.status(u)] += 1
        kinds = defaultdict(int)
        for u in mine:
            if law.status(u) == "cited":
                kinds[law.kind(u)] += 1
        out.append(f"| [{Unit(art).label}](#art-{art}) | {len(mine)} | {c['cited']} | {kinds['implemented']} "
                   f"| {kinds['mentioned']} | {c['parts']} | {c['whole']} | {c['none']} |")
    out += ["", "## Só mencionados", "",
            "Citados, mas nenhuma linha do domínio ou dos serviços (nem um teste) os aplica: só docstrings, telas ou "
            "documentos os nomeiam.", ""]
    mentioned = [u for u in units if law.status(u) == "cited" and law.kind(u) == "mentioned"]
    if not mentioned:
        out.append("Nenhum dispositivo.")
    for u in mentioned:
        out.append(f"- **{u.label}**")
    out += ["", "## Sem implementação", ""]
    gaps = [u for u in units if law.status(u) == "none"]
    if not gaps:
        out.append("Nenhum dispositivo.")
    for u in gaps:
        out.append(f"- **{u.label}** — {_reason(u) or 'sem motivo registrado em `tools/law_map.py`'}")
    out += ["", "## Citações que a lei não tem", ""]
    if not law.unknown:
        out.append("Nenhuma.")
    for key in sorted(law.unknown, key=_key_order):
        sites = ", ".join(f"`{s.path}` (`{s.name}`)" for s in sorted(law.unknown[key]))
        out.append(f"- {key}: {sites}")
    out += ["", "## Dispositivo a dispositivo"]
    for u in units:
        if u.par is None and u.inc is None:
            out += ["", f'<a id="art-{u.art}"></a>', "", f"### {u.label}"]
        else:
            out += ["", f"#### {u.label}"]
        out += ["", f"> {_excerpt(law.units[u])}", ""]
        status = law.status(u)
        if status == "cited":
            out.append({"implemented": "*Implementado.*", "proved": "*Só provado por testes.*",
                        "mentioned": "*Só mencionado.*"}[law.kind(u)])
            out += _sites_lines(law.direct[u])
        elif status == "parts":
            out.append("*Citado por partes (abaixo).*")
        elif status == "whole":
            out.append(f"*Coberto pela citação de {law.ancestor_cited(u).label}.*")
        else:
            out.append(f"**Sem implementação:** {_reason(u) or 'sem motivo registrado em `tools/law_map.py`.'}")
    return "\n".join(out) + "\n"


def _key_order(key: str) -> tuple:
    return tuple(int(x) if x.isdigit() else x for x in re.findall(r"\d+|\D+", key))


# -------------------------------------------------------------------------------------------------- CLI


def law_path(arg: str | None) -> Path:
    if arg:
        return Path(arg)
    return DEFAULT_LAW if DEFAULT_LAW.exists() else LAW_COPY


def generate(law_file: Path | None = None, root: Path = ROOT) -> str:
    law_file = law_file or LAW_COPY
    return render(build(law_file.read_text(encoding="utf-8"), root))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--law", help=f"texto da lei (padrão: {DEFAULT_LAW.relative_to(ROOT.parent)} ou a cópia "
                                      f"em docs/law/)")
    parser.add_argument("--write", action="store_true", help="grava docs/law-map.md (e a cópia da lei)")
    parser.add_argument("--check", action="store_true", help="falha se docs/law-map.md estiver desatualizado")
    args = parser.parse_args(argv)
    source = law_path(args.law)
    text = source.read_text(encoding="utf-8")
    result = render(build(text))
    if args.write:
        if source.resolve() != LAW_COPY.resolve():
            LAW_COPY.parent.mkdir(parents=True, exist_ok=True)
            if not LAW_COPY.exists() or LAW_COPY.read_text(encoding="utf-8") != text:
                LAW_COPY.write_text(text, encoding="utf-8")
                print(f"cópia da lei atualizada: {LAW_COPY.relative_to(ROOT)}")
        MAP_PATH.write_text(result, encoding="utf-8")
        print(f"{MAP_PATH.relative_to(ROOT)}: {len(result.splitlines())} linhas")
        return 0
    if args.check:
        current = MAP_PATH.read_text(encoding="utf-8") if MAP_PATH.exists() else ""
        if current != result:
            print(f"{MAP_PATH.relative_to(ROOT)} está desatualizado: rode `{COMMAND}`", file=sys.stderr)
            return 1
        return 0
    sys.stdout.write(result)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
