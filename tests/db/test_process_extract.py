"""Certidão / extrato do processo of an auto (issue 28 point 1), on SQLite and PostgreSQL: the auto itself is the
archived original and is never redrawn; the case's present state is this separate act, which says that it is an
extract, names the original, and lists notifications, decisions and what is owed — signed by who issues it."""
from __future__ import annotations

import io
from datetime import date

import pytest
from pypdf import PdfReader

from desktop.errors import PermissionDenied
from desktop.services import autos
from desktop.services.autos.extract import print_process_extract
from desktop.services.documents import archive, printing
from tests.db.enforcement_factories import (
    authorized_driver,
    draft,
    final_without_defense,
    frozen_today,  # noqa: F401 (autouse: pins today)
    municipality_staff,
)


@pytest.fixture
def people(db, make_actor):
    return municipality_staff(db, make_actor)


def text_of(data: bytes) -> str:
    return " ".join(" ".join(p.extract_text() or "" for p in PdfReader(io.BytesIO(data)).pages).split())


def test_issue28_point1_the_extract_states_the_present_and_names_the_archived_auto(db, people, make_actor, tmp_path,
                                                                                   monkeypatch):
    from desktop.domain.roles import Role

    fiscal, gestor, atendente = people
    driver_id, _, _ = authorized_driver(db, "Maria Infratora")
    auto = autos.draw_up_auto(db, fiscal, draft("ART26-I", date(2026, 3, 2), driver_id=driver_id))
    first = text_of(print_process_extract(db, fiscal, auto.number).pdf)
    assert "ainda não impresso" in first and "Lavrado" in first.replace("Lavrado em", "Lavrado")
    original = printing.print_auto(db, fiscal, auto.number)
    final_without_defense(db, fiscal, auto, date(2026, 3, 3))
    issued = print_process_extract(db, gestor, auto.number)
    text = text_of(issued.pdf)
    for element in ("CERTIDÃO — EXTRATO DO PROCESSO ADMINISTRATIVO", f"AUTO DE INFRAÇÃO Nº {auto.number}",
                    "Este é um extrato da situação atual do processo", "não substitui nem reproduz o auto",
                    f"documento nº {original.info.number}", "horário de Cuiabá",
                    "Decisão definitiva", "prova juntada em 03/03/2026", "Maria Infratora", "ART26-I",
                    "Saldo devedor", "Matrícula nº"):
        assert element in text, element
    assert issued.info.kind == "process_extract" and archive.archived_bytes(db, gestor, issued.info.number) == issued.pdf
    with pytest.raises(PermissionDenied):
        print_process_extract(db, make_actor(Role.VISTORIADOR), auto.number)
    # the command line: print process_extract --id AUTO, for a named user who types the password (issue 28)
    from desktop.cli import main

    monkeypatch.setattr("getpass.getpass", lambda prompt="": "senha-de-teste")
    out = tmp_path / "extrato.pdf"
    assert main(["print", "process_extract", "--id", auto.number, "--out", str(out), "--db", db.url,
                 "--user", gestor.username]) == 0
    assert "EXTRATO DO PROCESSO" in text_of(out.read_bytes())
