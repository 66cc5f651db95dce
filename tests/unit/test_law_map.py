"""The map of the law (docs/law-map.md) is generated from the code's own citations and kept current."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _load_tool():
    spec = importlib.util.spec_from_file_location("law_map", ROOT / "tools" / "law_map.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["law_map"] = module          # dataclasses look their module up while the class is made
    spec.loader.exec_module(module)
    return module


L = _load_tool()


@pytest.fixture(scope="module")
def law_map():
    return L.build(L.LAW_COPY.read_text(encoding="utf-8"))


def test_the_committed_map_is_current(law_map):
    committed = L.MAP_PATH.read_text(encoding="utf-8") if L.MAP_PATH.exists() else ""
    assert committed == L.render(law_map), (
        f"docs/law-map.md não corresponde às citações do código: rode `{L.COMMAND}` e faça o commit do resultado")


def test_every_provision_nothing_covers_has_a_reason(law_map):
    missing = [u.label for u in L.missing_reasons(law_map)]
    assert missing == [], (f"nada no código cita {', '.join(missing)}: implemente, ou registre o motivo em "
                           "NOT_IMPLEMENTED (tools/law_map.py)")


def test_every_reason_names_a_provision_of_the_law(law_map):
    keys = {u.key for u in law_map.units}
    assert sorted(set(L.NOT_IMPLEMENTED) - keys) == []


def test_the_law_is_read_whole():
    units = L.parse_law(L.LAW_COPY.read_text(encoding="utf-8"))
    assert {u.art for u in units} == set(range(1, 31))
    assert [u.key for u in units if u.art == 13 and u.inc][-1] == "Art. 13, XXIII"
    assert [u.ali for u in units if (u.art, u.inc) == (24, 1) and u.ali] == ["a", "b", "c", "d", "e", "f"]
    assert [u.inc for u in units if (u.art, u.par) == (15, 0) and u.inc] == list(range(1, 9))
    assert [u.key for u in units if u.art == 22 and u.par == 1 and u.inc] == [
        f"Art. 22, §1, {r}" for r in ("I", "II", "III", "IV", "V", "VI")]
    assert L.Unit(26, 2) in units and L.Unit(27, 0) in units and L.Unit(4, 1, 7) in units


@pytest.mark.parametrize("text, keys", [
    ("multa (Art. 26, §1)", ["Art. 26, §1"]),
    ("Art. 12 VI", ["Art. 12, VI"]),
    ("prazo do art. 13 XVIII", ["Art. 13, XVIII"]),
    ("Art. 3º, §2º", ["Art. 3, §2"]),
    ("Art. 8 §3 I-IV", ["Art. 8, §3, I", "Art. 8, §3, II", "Art. 8, §3, III", "Art. 8, §3, IV"]),
    ("Art. 15 p.ú. VI-VII", ["Art. 15, p.u., VI", "Art. 15, p.u., VII"]),
    ("Art. 24, parágrafo único", ["Art. 24, p.u."]),
    ("Art. 24 §ú", ["Art. 24, p.u."]),
    ("Art. 24, I, d", ["Art. 24, I, d"]),
    ("Art. 24, I, d and f)", ["Art. 24, I, d", "Art. 24, I, f"]),
    ("Art. 24 II a–c", ["Art. 24, II, a", "Art. 24, II, b", "Art. 24, II, c"]),
    ("Art. 24, I, e; Art. 26, §2", ["Art. 24, I, e", "Art. 26, §2"]),
    ("Art. 26-27", ["Art. 26", "Art. 27"]),
    ("Art. 2, §§1º e 2º", ["Art. 2, §1", "Art. 2, §2"]),
    ("Art. 22, §1º, II a IV", ["Art. 22, §1, II", "Art. 22, §1, III", "Art. 22, §1, IV"]),
    ("Art. 9, 15, 16", ["Art. 9", "Art. 15", "Art. 16"]),
    ("Arts. 9º, 15 e 16 da Lei", ["Art. 9", "Art. 15", "Art. 16"]),
    ("Art. 2 §1, 13 XIII-XV, 14", ["Art. 2, §1", "Art. 13, XIII", "Art. 13, XIV", "Art. 13, XV", "Art. 14"]),
    ("Art. 26, I e II", ["Art. 26, I", "Art. 26, II"]),
    ("Art. 9 (5 dias)", ["Art. 9"]),
    ("Art. 9, 5 dias", ["Art. 9"]),
    ("Art. 26,\n    §1 (reincidência)", ["Art. 26, §1"]),
    ("código ART26-IV ou ART27", ["Art. 26, IV", "Art. 27"]),
    ("Art. 14 da Lei nº 2.103/2025", ["Art. 14"]),
    # other laws
    ("Código Civil art. 132 §3", []),
    ("CC art. 132 caput; Lei 9.784/99 art. 66", []),
    ("crimes dos arts. 303 e 306 do CTB", []),
    ("Decreto nº 45/2026, art. 12, I", []),
    ("LC 116/2003, arts. 8, II e 8-A", []),
    ("ART13_DUTIES", []),
])
def test_citations_in_comments_and_strings(text, keys):
    assert [L.Unit(c.art, c.par, c.inc, c.ali).key for c in L.parse_citations(text)] == keys


@pytest.mark.parametrize("name, keys", [
    ("test_art26_par1_recurrence_of_street_boarding_suspends_30_days", ["Art. 26, §1"]),
    ("test_art12_vi_residence_outside_the_municipality", ["Art. 12, VI"]),
    ("test_art8_par3_iv_fourth_vehicle", ["Art. 8, §3, IV"]),
    ("test_art24_par_unico_suspension", ["Art. 24, p.u."]),
    ("test_art24_i_d_deregisters_the_driver", ["Art. 24, I, d"]),
    ("test_art13_I_credential_card", ["Art. 13, I"]),
    ("test_art5_art6_platform_form", ["Art. 5", "Art. 6"]),
    ("test_art2_vehicle_problems", ["Art. 2"]),
    ("test_demo_is_reproducible_by_seed", []),
])
def test_citations_in_test_names(name, keys):
    assert [L.Unit(c.art, c.par, c.inc, c.ali).key for c in L.parse_test_name(name)] == keys


def test_an_inciso_cited_without_its_paragraph_is_found_when_only_one_paragraph_has_it(law_map):
    assert law_map.resolve(L.Cited(15, None, 8)) == (L.Unit(15, 0, 8), True)       # Art. 15 p.ú. VIII
    assert law_map.resolve(L.Cited(8, None, 1)) == (L.Unit(8), False)              # §1 I or §3 I: ambiguous
    assert law_map.resolve(L.Cited(31)) == (L.Unit(31), False)


def test_the_map_names_functions_services_and_tests(law_map):
    text = L.render(law_map)
    assert "#### Art. 26, § 1º" in text and "**Testes:**" in text and "**Domínio:**" in text
    art26_par1 = text.split("#### Art. 26, § 1º", 1)[1].split("####", 1)[0]
    assert "tests/" in art26_par1 and "desktop/domain/" in art26_par1


def test_a_docstring_or_a_label_mentions_a_provision_and_only_rule_code_implements_it(tmp_path):
    """Issue 22 point 10: the map separates what implements an article (the domain's and the services' code) from
    what only mentions it (a docstring anywhere, a screen's or a document's label)."""
    (tmp_path / "desktop" / "domain").mkdir(parents=True)
    (tmp_path / "desktop" / "views").mkdir(parents=True)
    (tmp_path / "tests").mkdir()
    (tmp_path / "desktop" / "domain" / "rule.py").write_text(
        '"""Prazos do Art. 9."""\n\nTERM_DAYS = 5  # Art. 16, §2\n', encoding="utf-8")
    (tmp_path / "desktop" / "views" / "screen.py").write_text(
        'LABEL = "Adesivo (Art. 14)"\n', encoding="utf-8")
    law = L.build(L.LAW_COPY.read_text(encoding="utf-8"), tmp_path)
    assert law.kind(L.Unit(16, 2)) == "implemented"
    assert law.kind(L.Unit(9)) == "mentioned"
    assert law.kind(L.Unit(14)) == "mentioned"
    assert "## Só mencionados" in L.render(law)
