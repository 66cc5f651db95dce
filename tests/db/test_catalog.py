"""The infraction catalogue (Art. 25-27; codes of the regulating decree, Art. 29), on SQLite and PostgreSQL."""
from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from desktop.domain.penalties import CATALOG, Severity
from desktop.errors import ConflictError, PermissionDenied, StaleRecordError, ValidationError
from desktop.services import autos, catalog
from desktop.services.catalog import CodeDraft
from tests.db.enforcement_factories import (
    authorized_driver,
    draft,
    frozen_today,  # noqa: F401 (autouse: pins today)
    setup_upfm,
    staff,
)
from desktop.services.actors import SYSTEM_ACTOR


def test_art25_to_27_catalog_seeded_from_the_law_once(db):
    assert catalog.ensure_catalog(db) == len(CATALOG)
    assert catalog.ensure_catalog(db) == 0  # idempotent
    codes = {c.code: c for c in catalog.list_codes(db)}
    assert set(codes) == set(CATALOG)
    # Art. 25: leve 10, média 20, grave 30, gravíssima 40 UPFM.
    assert (codes["ART26-I"].severity, codes["ART26-I"].upfm) == (Severity.LEVE, Decimal(10))
    assert (codes["ART26-III"].severity, codes["ART26-III"].upfm) == (Severity.MEDIA, Decimal(20))
    assert (codes["ART26-IV"].severity, codes["ART26-IV"].upfm) == (Severity.GRAVE, Decimal(30))
    assert (codes["ART26-V"].severity, codes["ART26-V"].upfm) == (Severity.GRAVISSIMA, Decimal(40))
    assert codes["ART26-III"].needs_art13_item and not codes["ART26-IV"].needs_art13_item
    assert "12 meses" in codes["ART26-V"].extra_penalty
    assert "cassação" in codes["ART26-V"].recurrence_effect
    assert "30 dias" in codes["ART26-IV"].recurrence_effect
    assert codes["ART26-I"].extra_penalty == ""  # fine only


def test_art29_gestor_adds_a_decree_code_that_autos_use_from_its_effective_date(db, make_actor):
    setup_upfm(db)
    fiscal, gestor, _ = staff(make_actor)
    added = catalog.add_code(db, gestor, CodeDraft(
        code="dec-01", article="Decreto nº 10/2026, Art. 5, I", severity=Severity.GRAVE,
        description="Não exibir o QR Code da autorização no painel", valid_from=date(2026, 2, 1)))
    assert added.code == "DEC-01" and added.upfm == Decimal(30) and not added.in_use
    assert [c.code for c in catalog.codes_in_force(db, date(2026, 1, 31))].count("DEC-01") == 0
    assert "DEC-01" in [c.code for c in catalog.codes_in_force(db, date(2026, 2, 1))]

    driver_id, _, _ = authorized_driver(db)
    view = autos.preview_assessment(db, SYSTEM_ACTOR, draft("DEC-01", date(2026, 3, 2), driver_id=driver_id))
    assert view.upfm == Decimal(30) and not view.suspension_months and not view.cassation
    with pytest.raises(ValidationError) as err:
        autos.preview_assessment(db, SYSTEM_ACTOR, draft("DEC-01", date(2026, 1, 20), driver_id=driver_id))
    assert err.value.problems[0].field == "code"
    info = autos.draw_up_auto(db, fiscal, draft("DEC-01", date(2026, 3, 2), driver_id=driver_id))
    assert info.code == "DEC-01" and info.amount_upfm == Decimal(30)


def test_art29_a_code_in_use_is_never_edited_but_closed_and_replaced(db, make_actor):
    setup_upfm(db)
    fiscal, gestor, _ = staff(make_actor)
    driver_id, _, _ = authorized_driver(db)
    old_auto = autos.draw_up_auto(db, fiscal, draft("ART26-I", date(2026, 3, 2), driver_id=driver_id))
    row = next(c for c in catalog.list_codes(db) if c.code == "ART26-I")
    assert row.in_use
    edit = CodeDraft(code="ART26-I", article="Art. 26, I", severity=Severity.LEVE,
                     description="Nova redação", valid_from=row.valid_from)
    with pytest.raises(ConflictError, match="substitua"):
        catalog.update_code(db, gestor, row.id, edit, row.version)

    new = catalog.replace_code(db, gestor, row.id, CodeDraft(
        code="ART26-I", article="Art. 26, I", severity=Severity.LEVE, valid_from=date(2026, 6, 1),
        description="Não atender a notificação para a vistoria no prazo (redação do Decreto)"), row.version)
    versions = [c for c in catalog.list_codes(db) if c.code == "ART26-I"]
    closed = next(c for c in versions if c.id == row.id)
    assert closed.valid_to == date(2026, 5, 31) and closed.replaced_by_id == new.id
    assert closed.description == row.description  # the old text is untouched
    later = autos.draw_up_auto(db, fiscal, draft("ART26-I", date(2026, 6, 10), driver_id=driver_id))
    detail_old = autos.get_auto(db, SYSTEM_ACTOR, old_auto.id).auto
    assert detail_old.code == later.code == "ART26-I"
    # each auto keeps the version in force on its date
    with db.session(write=False) as s:
        from desktop.models import Auto

        assert s.get(Auto, old_auto.id).infraction_code_id == row.id
        assert s.get(Auto, later.id).infraction_code_id == new.id


def test_art29_unused_code_may_be_corrected_and_stale_saves_are_refused(db, make_actor):
    _, gestor, _ = staff(make_actor)
    added = catalog.add_code(db, gestor, CodeDraft("DEC-02", "Decreto, Art. 6", "Texto com erro",
                                                   Severity.LEVE, date(2026, 1, 1)))
    fixed = catalog.update_code(db, gestor, added.id, CodeDraft("DEC-02", "Decreto, Art. 6", "Texto correto",
                                                               Severity.MEDIA, date(2026, 1, 1)), added.version)
    assert fixed.description == "Texto correto" and fixed.upfm == Decimal(20)
    with pytest.raises(StaleRecordError):
        catalog.update_code(db, gestor, added.id, CodeDraft("DEC-02", "Decreto, Art. 6", "Outra",
                                                           Severity.LEVE, date(2026, 1, 1)), added.version)
    closed = catalog.close_code(db, gestor, added.id, date(2026, 12, 31), fixed.version)
    assert closed.valid_to == date(2026, 12, 31)


def test_art29_a_code_already_in_force_is_not_added_twice(db, make_actor):
    _, gestor, _ = staff(make_actor)
    catalog.ensure_catalog(db)
    with pytest.raises(ConflictError, match="já está em vigor"):
        catalog.add_code(db, gestor, CodeDraft("ART26-IV", "Art. 26, IV", "Duplicado", Severity.GRAVE,
                                               date(2026, 1, 1)))
    with pytest.raises(ValidationError) as err:
        catalog.add_code(db, gestor, CodeDraft("", "", "", Severity.GRAVE, date(2020, 1, 1)))
    assert {p.field for p in err.value.problems} == {"code", "article", "description", "valid_from"}


def test_only_the_gestor_maintains_the_catalog(db, make_actor):
    fiscal, _, atendente = staff(make_actor)
    for actor in (fiscal, atendente):
        with pytest.raises(PermissionDenied):
            catalog.add_code(db, actor, CodeDraft("DEC-03", "Decreto", "x", Severity.LEVE, date(2026, 1, 1)))
