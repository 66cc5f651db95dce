"""Issue 6 — the gestor's judgment dialog (Art. 22): upheld, partly upheld with a reduced amount, annulled; the
reasoning is required; the dialog shows the resulting amount; the ledger gets the reduction or the reversal."""
from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

from enforcement_fixtures import *  # noqa: F401,F403 — fixtures: people, register, lookups
from enforcement_fixtures import draw_up, shoot

from desktop.domain import local_today
from desktop.domain.penalties import NotificationForm
from desktop.views.enforcement.dialogs import JudgmentDialog


def auto_in_defense(db, people, register, code="ART26-IV"):
    """An auto drawn up three days ago, notified with proof two days ago, with a defense filed today."""
    from desktop.services import process

    today = local_today()
    auto = draw_up(db, people.fiscal, code, today - timedelta(days=3), driver_id=register.joao)
    auto = process.record_notification(
        db, people.fiscal, auto.id,
        process.NotificationDraft(addressee="driver", form=NotificationForm.POST, sent_on=today - timedelta(days=2),
                                  proof_joined_on=today - timedelta(days=2)), auto.version)
    return process.file_defense(db, people.atendente, auto.id, today, "Alega que o passageiro chamou pelo app.",
                                expected_version=auto.version)


def open_dialog(qtbot, db, actor, auto):
    dialog = JudgmentDialog(db, actor, auto)
    qtbot.addWidget(dialog)
    return dialog


def test_art22_partly_upheld_reduces_the_fine_and_posts_a_reduction(qtbot, db, people, register):
    from desktop.services import autos, ledger
    from desktop.services.process import Outcome

    auto = auto_in_defense(db, people, register)
    dialog = open_dialog(qtbot, db, people.gestor, auto)
    assert not dialog.form.isRowVisible(dialog._rows["reduced_upfm"])   # only for "partly upheld"
    from desktop.domain.penalties import Penalty

    dialog.extra_checks[Penalty.REVOCATION].setChecked(True)
    assert dialog.draft().extra_penalties == frozenset({Penalty.REVOCATION})
    dialog.extra_checks[Penalty.REVOCATION].setChecked(False)
    assert "30 UPFM = R$ 3.373,50" in dialog.result_label.text()
    dialog.set_outcome(Outcome.PARTLY_UPHELD)
    assert dialog.form.isRowVisible(dialog._rows["reduced_upfm"])
    dialog.reduced_edit.setText("15")
    assert "15 UPFM = R$ 1.686,75" in dialog.result_label.text()
    assert "redução de 15 UPFM" in dialog.result_label.text()
    assert not dialog.save()                                             # no reasoning yet
    assert dialog.errors.is_invalid("reasoning")
    dialog.reasoning_edit.setPlainText("Circunstâncias atenuantes comprovadas; multa reduzida à metade.")
    shoot(dialog, "judgment_partly_upheld.png")
    assert dialog.save()
    judged = dialog.result_value
    assert str(judged.status) == "judged" and Decimal(judged.amount_upfm) == Decimal(15)
    detail = autos.get_auto(db, auto.id, people.gestor)
    kinds = [str(e.kind) for e in detail.entries]
    assert "reduction" in kinds
    assert ledger.auto_balance(db, auto.id) == Decimal(15)


def test_art22_annulled_reverses_the_fine_and_leaves_a_zero_balance(qtbot, db, people, register):
    from desktop.services import ledger
    from desktop.services.process import Outcome

    auto = auto_in_defense(db, people, register)
    dialog = open_dialog(qtbot, db, people.gestor, auto)
    dialog.set_outcome(Outcome.ANNULLED)
    assert not dialog.form.isRowVisible(dialog._rows["reduced_upfm"])
    assert not dialog.form.isRowVisible(dialog._rows["extra_penalties"])   # nothing to add to a void auto
    assert "0 UPFM = R$ 0,00" in dialog.result_label.text() and "estornada" in dialog.result_label.text()
    dialog.reasoning_edit.setPlainText("Defesa procedente: o embarque foi contratado pela plataforma.")
    shoot(dialog, "judgment_annulled.png")
    assert dialog.save()
    assert str(dialog.result_value.status) == "annulled"
    assert ledger.auto_balance(db, auto.id) == Decimal(0)


def test_a_reduction_not_below_the_fine_is_refused_next_to_the_field(qtbot, db, people, register):
    from desktop.services.process import Outcome

    auto = auto_in_defense(db, people, register)
    dialog = open_dialog(qtbot, db, people.gestor, auto)
    dialog.set_outcome(Outcome.PARTLY_UPHELD)
    dialog.reduced_edit.setText("30")
    dialog.reasoning_edit.setPlainText("Sem redução de fato.")
    assert not dialog.save()
    assert dialog.errors.is_invalid("reduced_upfm")
    assert "menor que 30 UPFM" in dialog.errors.message("reduced_upfm")


def test_a_fiscal_cannot_judge_the_service_says_why(qtbot, db, people, register):
    """SPEC §4: roles are enforced in the service layer, whatever the screen shows."""
    auto = auto_in_defense(db, people, register)
    dialog = open_dialog(qtbot, db, people.fiscal, auto)
    dialog.reasoning_edit.setPlainText("Mantido.")
    assert not dialog.save()
    assert "Gestor" in dialog.general_error.text()
    assert dialog.general_error.isVisibleTo(dialog)
