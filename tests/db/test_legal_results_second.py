"""Issue 12, second pass (SQLite and PostgreSQL): the penalties a decree code names, set in the catalogue
(Art. 29; Art. 24, I) and used by the judgment; a paid auto whose payment is returned owes again in the status
the machine says (Art. 13, XXI); the vehicle seizure a decision applies (Art. 27, parágrafo único) is carried out
as a measure on the final date, and its Art. 28 costs go to the ledger."""
from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

import pytest
from sqlalchemy import select

from desktop.domain.ledger import EntryKind
from desktop.domain.penalties import AdministrativeMeasure, Severity
from desktop.domain.workflow import AutoStatus
from desktop.errors import ValidationError
from desktop.models import AuditEntry, InfractionCode
from desktop.services import autos, catalog, ledger, penalties
from desktop.services.autos import process
from desktop.services.catalog import CodeDraft
from desktop.services.ledger import PaymentDraft
from tests.db.enforcement_factories import (
    authorization_row,
    authorized_driver,
    draft,
    final_without_defense,
    frozen_today,  # noqa: F401 (autouse: pins today)
    judgment,
    decide_penalties,
    notify,
    notify_decision,
    setup_upfm,
    staff,
)
from desktop.services.actors import SYSTEM_ACTOR

DEC = "Decreto nº 45/2026, art. 12, I"


@pytest.fixture
def people(db, make_actor):
    setup_upfm(db)
    return staff(make_actor)


def _decree(db, gestor, penalties_named, valid_from=date(2026, 2, 1)):
    return catalog.add_code(db, gestor, CodeDraft(
        code="DEC12-I", article=DEC, description="Operar com o QR Code da autorização encoberto",
        severity=Severity.GRAVE, valid_from=valid_from, penalties=tuple(penalties_named)))


def test_art29_art24_i_a_decree_code_names_its_penalties_and_the_judgment_applies_only_those(db, people):
    fiscal, gestor, atendente = people
    added = _decree(db, gestor, ("driver_deregistration", "revocation"))
    assert added.penalties == ("revocation", "driver_deregistration")   # the domain's order
    assert added.penalties_text == (f"Revogação da autorização ({DEC}; Art. 24, I, c); "
                                    f"Descadastramento do condutor ({DEC}; Art. 24, I, d)")
    listed = [c for c in catalog.list_codes(db) if c.code == "DEC12-I"]
    assert [c.penalties for c in listed] == [("revocation", "driver_deregistration")]

    driver_id, _, auth_id = authorized_driver(db)
    auto = autos.draw_up_auto(db, fiscal, draft("DEC12-I", date(2026, 3, 2), driver_id=driver_id))
    choices = {c.penalty: c.article for c in process.decision_choices(db, gestor, auto.id)}
    assert choices == {"revocation": f"{DEC}; Art. 24, I, c", "driver_deregistration": f"{DEC}; Art. 24, I, d"}
    info = notify(db, fiscal, auto, date(2026, 3, 3))
    with pytest.raises(ValidationError) as refused:   # a penalty the code does not name
        process.judge(db, gestor, auto.id, judgment("partly_upheld", date(2026, 3, 19),
                                                    penalties=frozenset({"cassation"})), info.version)
    assert refused.value.problems[0].field == "penalties"
    info = process.judge(db, gestor, auto.id, judgment("partly_upheld", date(2026, 3, 19),
                                                       penalties=frozenset({"revocation"})), info.version)
    info = notify_decision(db, fiscal, info, date(2026, 3, 19))  # Art. 22 §2: the appeal term runs from here
    from desktop.services.enforcement_jobs import run_enforcement_jobs

    run_enforcement_jobs(db, info.appeal_deadline + timedelta(days=1))
    applied = {p.kind: p.article for p in penalties.penalties_of(db, SYSTEM_ACTOR, auto.id)}
    assert applied == {"revocation": f"{DEC}; Art. 24, I, c"}
    assert authorization_row(db, auth_id)[0] == "revoked"


def test_art29_a_replacement_is_a_new_row_with_its_own_penalties_and_a_law_code_takes_none(db, people):
    fiscal, gestor, _ = people
    first = _decree(db, gestor, ("revocation",))
    new = catalog.replace_code(db, gestor, first.id, CodeDraft(
        code="DEC12-I", article=DEC, description="Operar com o QR Code encoberto", severity=Severity.GRAVE,
        valid_from=date(2026, 9, 1), penalties=("suspension",)), first.version)
    assert new.id != first.id and new.penalties == ("suspension",)
    with db.session(write=False) as s:
        old = s.get(InfractionCode, first.id)
        assert old.penalties == ["revocation"] and old.valid_to == date(2026, 8, 31)   # never edited
    driver_id, _, _ = authorized_driver(db)
    before = autos.draw_up_auto(db, fiscal, draft("DEC12-I", date(2026, 8, 20), driver_id=driver_id))
    after = autos.draw_up_auto(db, fiscal, draft("DEC12-I", date(2026, 9, 2), driver_id=driver_id))
    assert [(c.penalty, c.months) for c in process.decision_choices(db, gestor, before.id)] == [("revocation", 0)]
    assert [(c.penalty, c.months) for c in process.decision_choices(db, gestor, after.id)] == [("suspension", 12)]

    law = next(c for c in catalog.list_codes(db) if c.code == "ART26-IV")
    with pytest.raises(ValidationError) as refused:
        catalog.replace_code(db, gestor, law.id, CodeDraft(
            code="ART26-IV", article=law.article, description=law.description, severity=law.severity,
            valid_from=date(2026, 12, 1), penalties=("cassation",)), law.version)
    assert refused.value.problems[0].field == "penalties"


def _paid(db, people, on: date):
    fiscal, gestor, atendente = people
    driver_id, _, _ = authorized_driver(db)
    auto = autos.draw_up_auto(db, fiscal, draft("ART26-I", on, driver_id=driver_id))
    info = final_without_defense(db, fiscal, auto, on + timedelta(days=1))
    assert info.status is AutoStatus.FINAL
    entry = ledger.record_payment(db, atendente, PaymentDraft(info.id, info.final_on, info.balance_reais))
    info = autos.get_auto_info(db, SYSTEM_ACTOR, info.id)
    assert info.status is AutoStatus.PAID
    return info, entry


def _payment_of(db, auto_id):
    return next(e for e in autos.get_auto(db, SYSTEM_ACTOR, auto_id).entries if e.kind is EntryKind.PAYMENT)


def test_art13_xxi_a_returned_payment_puts_an_overdue_auto_back_in_the_overdue_lists(db, people):
    fiscal, gestor, atendente = people
    info, _ = _paid(db, people, date(2026, 3, 2))           # payment term ended long before 18/11/2026
    assert info.payment_deadline < date(2026, 11, 18)
    assert info.id not in [o.auto_id for o in ledger.overdue_list(db, atendente)]
    ledger.reverse_entry(db, gestor, _payment_of(db, info.id).id, "Cheque devolvido pelo banco")
    back = autos.get_auto_info(db, SYSTEM_ACTOR, info.id)
    assert back.status is AutoStatus.OVERDUE and back.balance_reais == info.amount_reais
    assert info.id in [o.auto_id for o in ledger.overdue_list(db, atendente)]
    with db.session(write=False) as s:
        assert ledger.owed_count_in(s, atendente) == 1          # the home dashboard's count
        audit_row = s.scalars(select(AuditEntry).where(AuditEntry.action == "auto.payment_returned")).one()
        assert audit_row.entity_id == str(info.id) and '"overdue"' in audit_row.after
    # paid again by the infractor: paid again
    ledger.record_payment(db, atendente, PaymentDraft(info.id, date(2026, 11, 18), back.balance_reais))
    assert autos.get_auto_info(db, SYSTEM_ACTOR, info.id).status is AutoStatus.PAID


def test_art13_xxi_within_the_term_final_and_an_inscribed_auto_back_in_divida_ativa(db, people):
    fiscal, gestor, atendente = people
    recent, _ = _paid(db, people, date(2026, 10, 26))
    assert recent.payment_deadline >= date(2026, 11, 18)
    ledger.reverse_entry(db, gestor, _payment_of(db, recent.id).id, "Pagamento devolvido")
    assert autos.get_auto_info(db, SYSTEM_ACTOR, recent.id).status is AutoStatus.FINAL

    driver_id, _, _ = authorized_driver(db)
    auto = autos.draw_up_auto(db, fiscal, draft("ART26-I", date(2026, 3, 2), driver_id=driver_id))
    final_without_defense(db, fiscal, auto, date(2026, 3, 3))
    from desktop.services.enforcement_jobs import run_enforcement_jobs

    run_enforcement_jobs(db, date(2026, 11, 18))
    assert ledger.send_to_divida_ativa(db, gestor, [auto.id]) == 1
    owed = autos.get_auto_info(db, SYSTEM_ACTOR, auto.id)
    ledger.record_payment(db, atendente, PaymentDraft(auto.id, date(2026, 11, 18), owed.balance_reais))
    assert autos.get_auto_info(db, SYSTEM_ACTOR, auto.id).status is AutoStatus.PAID
    ledger.reverse_entry(db, gestor, _payment_of(db, auto.id).id, "Pagamento devolvido")
    assert autos.get_auto_info(db, SYSTEM_ACTOR, auto.id).status is AutoStatus.DIVIDA_ATIVA
    assert auto.id not in [o.auto_id for o in ledger.divida_ativa_list(db, atendente)]  # not inscribed twice


def test_art27_par_unico_the_seizure_decided_is_a_measure_on_the_final_date_and_its_costs_go_to_the_ledger(
        db, people):
    fiscal, gestor, atendente = people
    driver_id, vehicle_id, _ = authorized_driver(db)
    first = autos.draw_up_auto(db, fiscal, draft("ART27", date(2026, 1, 5), driver_id=driver_id,
                                                 vehicle_id=vehicle_id))
    final_without_defense(db, fiscal, first, date(2026, 1, 6))
    assert penalties.list_measures(db, SYSTEM_ACTOR) == []                 # a first Art. 27: the fine only
    second = autos.draw_up_auto(db, fiscal, draft("ART27", date(2026, 3, 2), driver_id=driver_id,
                                                  vehicle_id=vehicle_id))
    assert [c.penalty for c in process.decision_choices(db, gestor, second.id)] == ["vehicle_seizure"]
    info = final_without_defense(db, fiscal, second, date(2026, 3, 3))
    assert penalties.list_measures(db, SYSTEM_ACTOR) == []                 # issue 24 item 1: the routine does not seize
    info = decide_penalties(db, gestor, info, info.final_on)
    (measure,) = penalties.list_measures(db, SYSTEM_ACTOR)
    assert measure.kind is AdministrativeMeasure.VEHICLE_SEIZURE and measure.auto_id == second.id
    assert measure.applied_on == info.final_on and measure.vehicle_id == vehicle_id
    assert measure.article == "Art. 27, parágrafo único; Art. 24, II, d"
    assert [m.id for m in autos.get_auto(db, SYSTEM_ACTOR, second.id).measures] == [measure.id]
    # run again: the seizure is carried out once
    from desktop.services.enforcement_jobs import run_enforcement_jobs

    run_enforcement_jobs(db, date(2026, 11, 18))
    assert len(penalties.list_measures(db, SYSTEM_ACTOR)) == 1
    entry = penalties.charge_costs(db, atendente, measure.id, Decimal("180.00"), date(2026, 11, 18),
                                   "guincho e 2 diárias", measure.version)
    assert entry.kind is EntryKind.COSTS and entry.auto_id == second.id and entry.amount_reais == Decimal("180.00")
    assert "Art. 28" in entry.reason
    assert penalties.list_measures(db, SYSTEM_ACTOR)[0].cost_reais == Decimal("180.00")


def _pdf_text(pdf: bytes) -> str:
    import io

    from pypdf import PdfReader

    return " ".join(" ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(pdf)).pages)


def test_art19_art22_the_printed_auto_after_a_requalification_and_a_refund_says_every_decision_with_its_date(
        db, people):
    """As a citizen's lawyer reads it: the code and amount in force, the code it was drawn up with, each
    decision with its date (the judgment and its reasoning, the final date and payment term), the payment and the
    refund, and what is owed now."""
    from desktop.models import MunicipalitySettings
    from desktop.services.documents import printing

    fiscal, gestor, atendente = people
    with db.session() as s:
        s.add(MunicipalitySettings(id=1, name="Chapada dos Guimarães", uf="MT", ouvidoria_phone="(65) 3301-1234",
                                   secretariat="Secretaria Municipal de Finanças"))
    driver_id, _, _ = authorized_driver(db)
    auto = autos.draw_up_auto(db, fiscal, draft("ART26-IV", date(2026, 3, 2), driver_id=driver_id))
    info = notify(db, fiscal, auto, date(2026, 3, 3))
    ledger.record_payment(db, atendente, PaymentDraft(info.id, date(2026, 3, 5), Decimal("93.76"),
                                                      guide_number="0042/2026"))
    info = process.file_defense(db, atendente, info.id, date(2026, 3, 10), "foi pelo aplicativo",
                                autos.get_auto_info(db, SYSTEM_ACTOR, info.id).version)
    info = process.judge(db, gestor, info.id, judgment("partly_upheld", date(2026, 3, 20),
                                                       reasoning="Chamada comprovada pelo aplicativo.",
                                                       requalified_code="ART26-III", art13_item="XII"), info.version)
    info = notify_decision(db, fiscal, info, date(2026, 3, 20))
    from desktop.services.enforcement_jobs import run_enforcement_jobs

    run_enforcement_jobs(db, info.appeal_deadline + timedelta(days=1))
    final = autos.get_auto_info(db, SYSTEM_ACTOR, info.id)
    text = _pdf_text(printing.print_auto(db, gestor, final.number).pdf)
    assert "ART26-III (requalificado por decisão; lavrado como ART26-IV)" in text
    assert "Art. 13, XII" in text   # issue 24 item 7: the inciso the decision named is printed
    assert "Art. 26, III c/c Art. 13, XII da Lei" in text and "média (Art. 25)" in text
    assert "20 UPFM" in text and "= R$ 62,51" in text      # 20 × the UPFM of the year, the fine in force
    assert ("20/03/2026 — Julgamento da defesa prévia: auto mantido em parte; infração requalificada para "
            "ART26-III (Art. 26, III, multa de 20 UPFM). Fundamentação: Chamada comprovada pelo aplicativo.") in text
    assert "05/03/2026 — Pagamento: R$ 93,76 (guia nº 0042/2026)" in text
    assert "20/03/2026 — Requalificação lançada (Art. 25): R$ 31,25" in text
    assert "20/03/2026 — Restituição devida ao infrator: R$ 31,25" in text
    assert (f"{final.final_on:%d/%m/%Y} — Decisão definitiva; prazo de pagamento até "
            f"{final.payment_deadline:%d/%m/%Y}") in text
    assert "Saldo devedor: R$ 0,00 — restituição devida ao infrator: R$ 31,25" in text
    assert text.count("Decisões e lançamentos") == 2          # both copies (Art. 19)
