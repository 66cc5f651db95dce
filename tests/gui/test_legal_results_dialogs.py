"""Issue 12 items 3 and 7 under a window: paying before the decision is final leaves the auto where it is and
the "Registrar desistência" button (with the signed waiver attached) makes it final; a payment above the balance
asks a gestor's confirmation and leaves a refund, never a credit."""
from __future__ import annotations

from tests.files import tiny_pdf

from datetime import timedelta
from decimal import Decimal

from enforcement_fixtures import *  # noqa: F401,F403 — fixtures: people, register, lookups
from enforcement_fixtures import draw_up, shoot

from desktop.domain import local_today
from desktop.domain.penalties import NotificationForm
from desktop.views.enforcement.detail import AutoDetailScreen
from desktop.services.actors import SYSTEM_ACTOR


def open_detail(qtbot, db, actor, auto_id):
    screen = AutoDetailScreen(db, actor)
    qtbot.addWidget(screen)
    screen.resize(1150, 720)
    screen.show_auto(auto_id)
    return screen


def judged_auto(db, people, register, code="ART26-VI"):
    from desktop.services.autos import process

    today = local_today()
    auto = draw_up(db, people.fiscal, code, today - timedelta(days=5), driver_id=register.joao,
                   vehicle_id=register.car)
    auto = process.record_notification(db, people.fiscal, auto.id, process.NotificationDraft(
        addressee="driver", form=NotificationForm.DIRECT, sent_on=today - timedelta(days=4),
        proof_joined_on=today - timedelta(days=4)), auto.version)
    auto = process.file_defense(db, people.atendente, auto.id, today - timedelta(days=3), "defesa", auto.version)
    auto = process.judge(db, people.gestor, auto.id, process.JudgmentDraft(
        process.Outcome.UPHELD, today - timedelta(days=1), "Fatos comprovados."), auto.version)
    # Art. 22 §2 (issue 24 item 3): the appeal term runs from the joined proof of the decision's notice
    return process.record_notification(db, people.fiscal, auto.id, process.NotificationDraft(
        addressee="driver", form=NotificationForm.DIRECT, sent_on=today, proof_joined_on=today), auto.version)


def test_issue12_item3_paying_keeps_the_appeal_term_and_the_waiver_button_makes_it_final(qtbot, db, people,
                                                                                         register, tmp_path):
    from desktop.services import ledger

    auto = judged_auto(db, people, register)
    screen = open_detail(qtbot, db, people.atendente, auto.id)
    pay = screen.dialog_for("payment")
    qtbot.addWidget(pay)
    pay.amount_edit.setText(f"{auto.amount_reais}".replace(".", ","))
    assert not pay.confirm_check.isVisibleTo(pay)                       # not above the balance
    assert pay.save()
    screen.after_dialog(pay)
    assert "Julgado" in screen.title.text()                              # paying is not a waiver
    assert {"appeal", "waiver"} <= set(screen.enabled_actions())
    waiver = screen.dialog_for("waiver")
    qtbot.addWidget(waiver)
    assert "não é desistência" in waiver.intro.text()
    assert not waiver.save() and waiver.errors.is_invalid("attachment")  # the written waiver is required
    signed = tmp_path / "desistencia.pdf"
    signed.write_bytes(tiny_pdf("Desisto do recurso"))
    waiver.file_field.set_file(str(signed))
    waiver.statement_edit.setPlainText("Desiste do prazo de recurso.")
    shoot(waiver, "dialog_waiver.png")
    assert waiver.save()
    screen.after_dialog(waiver)
    assert "Pago" in screen.title.text()
    assert screen.amount_grid.text("Decisão definitiva em") == local_today().strftime("%d/%m/%Y")
    assert ledger.auto_balance(db, SYSTEM_ACTOR, auto.id) == Decimal(0)
    assert "Decisão definitiva" in [t.what for t in screen.timeline.model.rows()]


def test_issue12_item7_a_payment_above_the_balance_needs_the_gestors_confirmation(qtbot, db, people, register):
    from desktop.services import ledger

    auto = judged_auto(db, people, register, code="ART26-I")
    screen = open_detail(qtbot, db, people.atendente, auto.id)
    pay = screen.dialog_for("payment")
    qtbot.addWidget(pay)
    pay.amount_edit.setText("1.000.000,00")
    assert pay.confirm_check.isVisibleTo(pay)
    assert not pay.save() and pay.errors.is_invalid("amount_reais")      # an atendente, not confirmed
    assert "maior que o saldo" in pay.errors.message("amount_reais")
    pay.confirm_check.setChecked(True)
    assert not pay.save() and "gestor" in pay.general_error.text()       # only a gestor confirms
    as_gestor = open_detail(qtbot, db, people.gestor, auto.id)
    pay = as_gestor.dialog_for("payment")
    qtbot.addWidget(pay)
    pay.amount_edit.setText("1.000.000,00")
    pay.confirm_check.setChecked(True)
    shoot(pay, "dialog_payment_overpaid.png")
    assert pay.save()
    as_gestor.after_dialog(pay)
    assert ledger.auto_balance(db, SYSTEM_ACTOR, auto.id) == Decimal(0)                 # never a negative credit
    kinds = [e.kind_label for e in as_gestor.entries.model.rows()]
    assert "Restituição devida" in kinds
    (refund,) = ledger.refunds(db, people.gestor)
    assert refund.amount_reais == Decimal("1000000.00") - auto.amount_reais


def test_issue12_item1_a_requalified_auto_shows_prints_and_exports_the_code_and_amount_in_force(
        qtbot, db, people, register, tmp_path):
    """The printed auto said "Multa 15 UPFM" beside the catalogue's 30: now the page, the PDF and the export carry
    the code in force (ART26-III, 20 UPFM, Art. 25 II) and keep the original code in the history."""
    import csv
    import io

    from pypdf import PdfReader

    from desktop.services import exports
    from desktop.services.autos import process

    auto = judged_auto(db, people, register, code="ART26-IV")
    auto = process.file_appeal(db, people.atendente, auto.id, local_today(), "recurso", auto.version)
    process.judge(db, people.gestor, auto.id, process.JudgmentDraft(
        process.Outcome.PARTLY_UPHELD, local_today(), "Requalificado no recurso.", requalified_code="ART26-III", art13_item="XII"),
        auto.version)
    screen = open_detail(qtbot, db, people.fiscal, auto.id)
    assert screen.data_grid.text("Infração").startswith("ART26-III — Art. 26, III (Média)")
    assert "lavrado como ART26-IV" in screen.data_grid.text("Infração")
    assert "20 UPFM = R$ 2.249,00" in screen.amount_grid.text("Multa (valor atual)")
    task = screen.print_auto()
    qtbot.waitUntil(lambda: task.finished, timeout=20000)
    assert task.error is None, task.error
    if screen.preview is not None:
        qtbot.addWidget(screen.preview)
    text = " ".join(" ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(task.result.pdf)).pages)
    assert "ART26-III (requalificado por decisão; lavrado como ART26-IV)" in text
    assert "20 UPFM" in text and "30 UPFM" not in text and "R$ 2.249,00" in text
    admin = people.gestor
    path = exports.export(db, admin, "autos", tmp_path / "autos.csv").path
    with open(path, encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.reader(handle, delimiter=";"))
    data = dict(zip(rows[0], rows[1]))
    assert (data["Código"], data["Código lavrado"], data["UPFM"]) == ("ART26-III", "ART26-IV", "20,00")


def test_issue12_items_1_7_the_ledger_screen_lists_refunds_and_never_reverses_a_requalification(
        qtbot, db, people, register, lookups):
    from desktop.domain.ledger import EntryKind
    from desktop.services import ledger
    from desktop.services.autos import process
    from desktop.views.finance.ledger import LedgerScreen

    auto = judged_auto(db, people, register, code="ART26-IV")
    ledger.record_payment(db, people.atendente, ledger.PaymentDraft(auto.id, local_today(), auto.amount_reais))
    from desktop.services.autos import get_auto_info

    auto = process.file_appeal(db, people.atendente, auto.id, local_today(), "recurso",
                               get_auto_info(db, SYSTEM_ACTOR, auto.id).version)
    process.judge(db, people.gestor, auto.id, process.JudgmentDraft(
        process.Outcome.PARTLY_UPHELD, local_today(), "Requalificado.", requalified_code="ART26-III", art13_item="XII"), auto.version)
    screen = LedgerScreen(db, people.gestor, lookups=lookups)
    qtbot.addWidget(screen)
    screen.kind_combo.setCurrentIndex(screen.kind_combo.findData(EntryKind.REFUND))
    (refund,) = screen.table.loaded_rows()
    assert refund.kind_label == "Restituição devida" and refund.amount_reais == Decimal("1124.50")
    screen.kind_combo.setCurrentIndex(screen.kind_combo.findData(EntryKind.REQUALIFICATION))
    screen.table.select_row(0)
    assert "ART26-III" in screen.table.loaded_rows()[0].reason
    assert not screen.reverse_button.isEnabled()
    qtbot.waitUntil(lambda: screen.totals_task.finished)
