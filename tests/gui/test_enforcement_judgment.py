"""Issue 6 and issue 12 items 1-2 — the gestor's judgment dialog (Art. 22): upheld, partly upheld (a requalification
to another catalogue code and/or a penalty left out), annulled; the reasoning is required; only the penalties the
catalogue names are shown; the dialog shows the resulting fine; the ledger gets the requalification or reversal."""
from __future__ import annotations

from hands import activate, choose_in_combo, click_button, tick, type_into  # noqa: E402 (tests/gui on the path)

from datetime import timedelta
from decimal import Decimal

from enforcement_fixtures import *  # noqa: F401,F403 — fixtures: people, register, lookups
from enforcement_fixtures import draw_up, shoot

from desktop.domain import local_today
from desktop.domain.penalties import NotificationForm
from desktop.views.enforcement.dialogs import JudgmentDialog
from desktop.services.actors import SYSTEM_ACTOR


def auto_in_defense(db, people, register, code="ART26-IV"):
    """An auto drawn up three days ago, notified with proof two days ago, with a defense filed today."""
    from desktop.services.autos import process

    today = local_today()
    auto = draw_up(db, people.fiscal, code, today - timedelta(days=3), driver_id=register.joao)
    auto = process.record_notification(
        db, people.fiscal, auto.id,
        process.NotificationDraft(addressee="driver", form=NotificationForm.POST, sent_on=today - timedelta(days=2),
                                  proof_joined_on=today - timedelta(days=2)), auto.version)
    return process.file_defense(db, people.atendente, auto.id, today, "Alega que o passageiro chamou pelo app.",
                                expected_version=auto.version)


def open_dialog(qtbot, db, actor, auto):
    """The dialog on screen and active, as the gestor sees it; everything after this is mouse and keys."""
    dialog = JudgmentDialog(db, actor, auto)
    qtbot.addWidget(dialog)
    activate(dialog)
    return dialog


def decide(dialog, outcome):
    """Click the decision's radio button."""
    tick(dialog.outcome_buttons[outcome])
    assert dialog.outcome() == outcome


def choose_code(dialog, code):
    choose_in_combo(dialog.code_combo, dialog.code_combo.itemText(dialog.code_combo.findData(code)))


def judge(dialog) -> bool:
    """Click «Julgar»: True when the dialog accepted (saved and closed), False when it stays open saying why."""
    from PySide6.QtWidgets import QDialog

    click_button(dialog.ok_button)
    return dialog.result() == QDialog.DialogCode.Accepted and not dialog.isVisible()


def test_issue12_item1_partly_upheld_requalifies_through_the_code_picker(qtbot, db, people, register):
    """The first wave took a free amount ("15 UPFM" for a grave); now "mantido em parte" picks another catalogue
    code, whose Art. 25 amount applies, and the ledger gets a requalification entry naming it."""
    from desktop.services import autos, ledger
    from desktop.services.autos.process import Outcome

    auto = auto_in_defense(db, people, register)
    dialog = open_dialog(qtbot, db, people.gestor, auto)
    assert not dialog.form.isRowVisible(dialog._rows["requalified_code"])   # only for "partly upheld"
    assert not hasattr(dialog, "reduced_edit")                            # no free amount any more
    assert "30 UPFM = R$ 3.373,50" in dialog.result_label.text()
    decide(dialog, Outcome.PARTLY_UPHELD)
    assert dialog.form.isRowVisible(dialog._rows["requalified_code"])
    offered = [dialog.code_combo.itemData(i) for i in range(dialog.code_combo.count())]
    assert offered == [None, "ART26-VI", "ART26-III", "ART26-I", "ART26-II"]  # never above 30 UPFM (Art. 25)
    choose_code(dialog, "ART26-III")
    assert "ART26-III — 20 UPFM = R$ 2.249,00" in dialog.result_label.text()
    assert "requalificação de −10 UPFM" in dialog.result_label.text()
    assert dialog.form.isRowVisible(dialog._rows["art13_item"])         # Art. 26, III asks the inciso (issue 24)
    assert not judge(dialog)                                             # no reasoning yet
    assert dialog.errors.is_invalid("reasoning")
    type_into(dialog.reasoning_edit, "O condutor descumpriu o dever do Art. 13, XII, não o embarque do Art. 26, IV.")
    assert not judge(dialog) and dialog.errors.is_invalid("art13_item")  # the inciso is required
    choose_in_combo(dialog.art13_combo, dialog.art13_combo.itemText(dialog.art13_combo.findData("XII")))
    shoot(dialog, "judgment_partly_upheld.png")
    assert judge(dialog)
    judged = dialog.result_value
    assert str(judged.status) == "judged" and Decimal(judged.amount_upfm) == Decimal(20)
    assert (judged.code, judged.original_code) == ("ART26-III", "ART26-IV")
    detail = autos.get_auto(db, people.gestor, auto.id)
    requalification = [e for e in detail.entries if str(e.kind) == "requalification"]
    assert len(requalification) == 1 and "ART26-III" in requalification[0].reason
    assert ledger.auto_balance(db, SYSTEM_ACTOR, auto.id) == Decimal(20)


def test_issue12_item2_the_dialog_shows_only_the_penalties_the_code_names(qtbot, db, people, register):
    """A first ART26-IV offers no revocation, cassation or deregistration (the first wave offered all four);
    an ART26-VI offers its 12-month suspension citing Art. 26, VI, b — kept when upheld, droppable in part."""
    from desktop.services.autos.process import Outcome

    dialog = open_dialog(qtbot, db, people.gestor, auto_in_defense(db, people, register))
    assert dialog.penalty_checks == {} and dialog.no_penalty_label.isVisibleTo(dialog)
    auto = auto_in_defense(db, people, register, code="ART26-VI")
    dialog = open_dialog(qtbot, db, people.gestor, auto)
    (check,) = dialog.penalty_checks.values()
    assert check.text() == "Suspensão da autorização por 12 meses (Art. 26, VI, b; Art. 24, parágrafo único)"
    assert check.isChecked() and not check.isEnabled()                   # upheld: every penalty of the code
    decide(dialog, Outcome.PARTLY_UPHELD)
    assert check.isEnabled()
    hint = dialog.sizeHint()   # fits the 1366×768 office screen above a Windows taskbar (issue 12 item 23)
    assert hint.width() <= 1366 and hint.height() <= 728, hint
    tick(check)                                                          # unticked with the mouse
    assert not check.isChecked()
    assert dialog.draft().penalties == frozenset() and dialog.draft().requalified_code is None
    assert "só a multa" in dialog.result_label.text()
    type_into(dialog.reasoning_edit, "A suspensão não se justifica: primeira ocorrência, sem passageiros.")
    assert judge(dialog)
    assert str(dialog.result_value.status) == "judged"


def test_art22_annulled_reverses_the_fine_and_leaves_a_zero_balance(qtbot, db, people, register):
    from desktop.services import ledger
    from desktop.services.autos.process import Outcome

    auto = auto_in_defense(db, people, register)
    dialog = open_dialog(qtbot, db, people.gestor, auto)
    decide(dialog, Outcome.ANNULLED)
    assert not dialog.form.isRowVisible(dialog._rows["requalified_code"])
    assert not dialog.form.isRowVisible(dialog._rows["penalties"])   # nothing to apply on a void auto
    assert "0 UPFM = R$ 0,00" in dialog.result_label.text() and "estornada" in dialog.result_label.text()
    type_into(dialog.reasoning_edit, "Defesa procedente: o embarque foi contratado pela plataforma.")
    shoot(dialog, "judgment_annulled.png")
    assert judge(dialog)
    assert str(dialog.result_value.status) == "annulled"
    assert ledger.auto_balance(db, SYSTEM_ACTOR, auto.id) == Decimal(0)


def test_a_partial_decision_that_changes_nothing_is_refused_next_to_the_field(qtbot, db, people, register):
    from desktop.services.autos.process import Outcome

    auto = auto_in_defense(db, people, register)
    dialog = open_dialog(qtbot, db, people.gestor, auto)
    decide(dialog, Outcome.PARTLY_UPHELD)
    type_into(dialog.reasoning_edit, "Sem mudança de fato.")
    assert not judge(dialog)
    assert dialog.errors.is_invalid("requalified_code")
    assert "escolha o novo código" in dialog.errors.message("requalified_code")


def test_a_fiscal_cannot_judge_the_service_says_why(qtbot, db, people, register):
    """SPEC §4: roles are enforced in the service layer, whatever the screen shows."""
    auto = auto_in_defense(db, people, register)
    dialog = open_dialog(qtbot, db, people.fiscal, auto)
    type_into(dialog.reasoning_edit, "Mantido.")
    assert not judge(dialog)
    assert "Gestor" in dialog.general_error.text()
    assert dialog.general_error.isVisibleTo(dialog)
