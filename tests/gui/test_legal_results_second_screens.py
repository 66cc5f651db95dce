"""Issue 12, second pass, under a window: the gestor names the penalties of a decree code in the catalogue
(Art. 29; Art. 24, I), sees them in the list and in the judgment dialog; a law code's penalties are the law's;
the Medidas administrativas screen charges the Art. 28 costs of a vehicle seizure to the ledger."""
from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

from enforcement_fixtures import *  # noqa: F401,F403 — fixtures: people, register, lookups
from enforcement_fixtures import draw_up, shoot

from desktop.domain import local_today
from desktop.domain.penalties import AdministrativeMeasure, NotificationForm, Severity
from desktop.services.actors import SYSTEM_ACTOR

DEC = "Decreto nº 45/2026, art. 12, I"


def test_art29_the_gestor_names_a_decree_codes_penalties_and_the_judgment_offers_only_those(
        qtbot, db, people, register):
    from desktop.services.autos import process
    from desktop.views.enforcement.catalog_view import CatalogScreen
    from desktop.views.enforcement.dialogs import JudgmentDialog

    screen = CatalogScreen(db, people.gestor)
    qtbot.addWidget(screen)
    screen.resize(1150, 500)
    dialog = screen.code_dialog(None)
    qtbot.addWidget(dialog)
    assert [c.text() for c in dialog.penalty_checks.values()][1] == "Revogação da autorização (Art. 24, I, c)"
    dialog.code_edit.setText("DEC12-I")
    dialog.article_edit.setText(DEC)
    dialog.description_edit.setPlainText("Operar com o QR Code da autorização encoberto")
    dialog.severity_combo.setCurrentIndex(dialog.severity_combo.findData(Severity.GRAVE))
    dialog.valid_from_edit.setDate(local_today() - timedelta(days=60))
    dialog.penalty_checks["revocation"].setChecked(True)
    hint = dialog.sizeHint()
    assert hint.width() <= 1366 and hint.height() <= 728, hint
    shoot(dialog, "dialog_catalog_code_penalties.png")
    assert dialog.save()
    screen.reload()
    (row,) = [c for c in screen.table.visible_rows() if c.code == "DEC12-I"]
    assert row.penalties == ("revocation",)
    from desktop.views.enforcement.catalog_view import CODE_COLUMNS

    column = [c.header for c in CODE_COLUMNS].index("Penalidades do código (decreto)")
    index = screen.table.model.index(screen.table.model.rows().index(row), column)
    assert screen.table.model.data(index) == f"Revogação da autorização ({DEC}; Art. 24, I, c)"

    # a law code: the checks are disabled, its penalties are the law's
    screen.table.select_where(lambda c: c.code == "ART26-IV" and c.valid_to is None)
    law = screen.code_dialog(screen.table.selected())
    qtbot.addWidget(law)
    assert not any(c.isEnabled() for c in law.penalty_checks.values()) and law.law_note.isVisibleTo(law)

    # the judgment dialog of an auto under the decree code offers the revocation, citing both articles
    today = local_today()
    auto = draw_up(db, people.fiscal, "DEC12-I", today - timedelta(days=3), driver_id=register.joao)
    auto = process.record_notification(db, people.fiscal, auto.id, process.NotificationDraft(
        addressee="driver", form=NotificationForm.DIRECT, sent_on=today - timedelta(days=2),
        proof_joined_on=today - timedelta(days=2)), auto.version)
    auto = process.file_defense(db, people.atendente, auto.id, today, "defesa", expected_version=auto.version)
    judgment = JudgmentDialog(db, people.gestor, auto)
    qtbot.addWidget(judgment)
    (check,) = judgment.penalty_checks.values()
    assert check.text() == f"Revogação da autorização ({DEC}; Art. 24, I, c)"

    # replacing the code: a new version whose penalties start from the old ones and may change
    screen.table.select_where(lambda c: c.code == "DEC12-I")
    replace = screen.code_dialog(screen.table.selected())
    qtbot.addWidget(replace)
    assert replace.penalty_checks["revocation"].isChecked()
    replace.penalty_checks["revocation"].setChecked(False)
    replace.penalty_checks["suspension"].setChecked(True)
    replace.valid_from_edit.setDate(today + timedelta(days=1))
    assert replace.save()
    screen.reload()
    versions = sorted((c for c in screen.table.visible_rows() if c.code == "DEC12-I"), key=lambda c: c.valid_from)
    assert [v.penalties for v in versions] == [("revocation",), ("suspension",)]


def test_art28_the_measures_screen_charges_the_removal_and_storage_costs_to_the_ledger(qtbot, db, people, register):
    from desktop.services import autos, penalties
    from desktop.views.enforcement.catalog_view import MeasuresScreen

    today = local_today()
    auto = draw_up(db, people.fiscal, "ART27", today - timedelta(days=3), driver_id=register.joao,
                   vehicle_id=register.car)
    seizure = penalties.record_measure(db, people.fiscal, penalties.MeasureDraft(
        AdministrativeMeasure.VEHICLE_SEIZURE, today - timedelta(days=3), auto_id=auto.id, place="Pátio municipal"))
    penalties.record_measure(db, people.fiscal, penalties.MeasureDraft(
        AdministrativeMeasure.REGULARIZATION_NOTICE, today - timedelta(days=3), auto_id=auto.id))
    screen = MeasuresScreen(db, people.atendente)
    qtbot.addWidget(screen)
    screen.resize(1150, 500)
    assert not screen.costs_button.isEnabled()
    screen.table.select_where(lambda m: m.kind is AdministrativeMeasure.REGULARIZATION_NOTICE)
    assert not screen.costs_button.isEnabled() and "não gera despesas" in screen.costs_button.toolTip()
    screen.table.select_where(lambda m: m.id == seizure.id)
    assert screen.costs_button.isEnabled()
    dialog = screen.costs_dialog()
    qtbot.addWidget(dialog)
    dialog.amount_edit.set_value(Decimal("250.00"))
    dialog.reason_edit.setText("guincho e 3 diárias no pátio")
    assert dialog.save()
    screen.reload()
    (row,) = [m for m in screen.table.visible_rows() if m.id == seizure.id]
    assert row.cost_reais == Decimal("250.00")
    (costs,) = [e for e in autos.get_auto(db, SYSTEM_ACTOR, auto.id).entries if str(e.kind) == "costs"]
    assert costs.amount_reais == Decimal("250.00") and "Art. 28" in costs.reason
    shoot(screen, "enforcement_measures_costs.png")
