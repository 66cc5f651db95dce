"""The certidão de dívida ativa of an inscribed fine (issue 28 point 9), on SQLite and PostgreSQL: printed from the
case, read back, with every element of Lei 6.830/80 art. 2º § 5º and CTN art. 202."""
from __future__ import annotations

import io
from datetime import date
from decimal import Decimal

import pytest
from pypdf import PdfReader

from desktop.errors import ConflictError, PermissionDenied
from desktop.services import autos, ledger
from desktop.services.documents import archive, print_kind, printing
from desktop.services.enforcement_jobs import run_enforcement_jobs
from desktop.services.ledger import PaymentDraft
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


def test_art25_certidao_de_divida_ativa_of_an_inscribed_fine_lei6830_ctn202(db, people, tmp_path, monkeypatch):
    fiscal, gestor, atendente = people
    driver_id, _, _ = authorized_driver(db, "Devedor Contumaz")
    auto = autos.draw_up_auto(db, fiscal, draft("ART26-I", date(2026, 3, 2), driver_id=driver_id))
    final_without_defense(db, fiscal, auto, date(2026, 3, 3))
    with pytest.raises(ConflictError, match="só é emitida para o débito inscrito"):
        printing.print_divida_ativa_certificate(db, gestor, auto.number)
    run_enforcement_jobs(db, date(2026, 4, 21))
    ledger.record_payment(db, atendente, PaymentDraft(auto.id, date(2026, 4, 25), Decimal("10.00")))
    assert ledger.send_to_divida_ativa(db, gestor, [auto.id], date(2026, 5, 1)) == 1
    with pytest.raises(PermissionDenied):
        printing.print_divida_ativa_certificate(db, atendente, auto.number)
    issued = print_kind(db, gestor, "divida_ativa", auto.number)
    text = text_of(issued.pdf)
    with db.session(write=False) as s:
        from desktop.models import Driver, User
        driver = s.get(Driver, driver_id)
        user = s.get(User, gestor.user_id)
        cpf = driver.cpf
    from desktop.domain.formatting import format_cpf
    for element in (
            "CERTIDÃO DE DÍVIDA ATIVA — INSCRIÇÃO Nº 0001/2026", "Lei nº 6.830/1980, art. 2º, §§ 5º e 6º",
            "CTN, art. 202",
            "Devedor Contumaz", format_cpf(cpf), "Domicílio",                                   # I
            f"Auto de Infração nº {auto.number}", "02/03/2026", "código ART26-I",                # III origin
            "Dívida ativa não tributária (Lei nº 4.320/1964, art. 39, § 2º)",                  # III nature
            "Art. 25 e Art. 26, I da Lei nº 2.103/2025",                                         # III basis
            "10,00 UPFM", "R$ 31,25", "R$ 21,25",                                               # II amounts
            "Vencimento 20/04/2026", "Termo inicial dos encargos 21/04/2026",                  # II term
            "Código Tributário Municipal", "Atualização monetária",                             # II, IV
            "nº 0001/2026, em 01/05/2026", "Livro eletrônico 2026, folha 1",                   # V
            "Processo administrativo", "no qual foi apurado o valor",                          # VI
            user.full_name, user.office, f"Matrícula nº {user.registration}"):                  # who signs
        assert element in text, element
    assert issued.info.kind == "divida_ativa" and archive.archived_bytes(db, gestor, issued.info.number) == issued.pdf
    # the command line: print divida_ativa --id AUTO, for a named gestor who types the password (issue 28)
    from desktop.cli import main
    monkeypatch.setattr("getpass.getpass", lambda prompt="": "senha-de-teste")
    out = tmp_path / "certidao.pdf"
    assert main(["print", "divida_ativa", "--id", auto.number, "--out", str(out), "--db", db.url,
                 "--user", gestor.username]) == 0
    assert "CERTIDÃO DE DÍVIDA ATIVA — INSCRIÇÃO Nº 0001/2026" in text_of(out.read_bytes())
