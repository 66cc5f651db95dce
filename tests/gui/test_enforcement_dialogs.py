"""Issue 6 — the remaining dialogs of the action bar: payment (Art. 13 XXI; credit at the debit's UPFM value),
joining a proof later (Art. 22 §2), finality after the term, annulment de ofício (Art. 17); and a picture of each
dialog for the eye."""
from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

from enforcement_fixtures import *  # noqa: F401,F403 — fixtures: people, register, lookups
from enforcement_fixtures import draw_up, make_final, shoot

from hands import activate, click_button, find_button, in_modal, type_into
from desktop.domain import local_today
from desktop.domain.penalties import NotificationForm
from desktop.views.enforcement import dialogs
from desktop.views.enforcement.detail import AutoDetailScreen
from desktop.services.actors import SYSTEM_ACTOR


def open_detail(qtbot, db, actor, auto_id):
    screen = AutoDetailScreen(db, actor)
    qtbot.addWidget(screen)
    screen.resize(1150, 720)
    screen.show_auto(auto_id)
    activate(screen)
    return screen


def _ddmmyyyy(day: date) -> str:
    return day.strftime("%d/%m/%Y")


def test_art13_xxi_payment_settles_the_auto(qtbot, db, people, register):
    from desktop.services import ledger

    auto = make_final(db, people, draw_up(db, people.fiscal, "ART26-I", date(2026, 3, 2), driver_id=register.maria))
    screen = open_detail(qtbot, db, people.atendente, auto.id)
    assert "payment" in screen.enabled_actions()

    def pay(dialog):
        assert "10 UPFM = R$ 1.124,50" in dialog.intro.text()
        save = find_button(dialog, "Salvar")
        type_into(dialog.amount_edit, "abc")           # the field takes digits only: nothing typed stays
        click_button(save)
        assert dialog.isVisible() and dialog.errors.is_invalid("amount_reais")
        type_into(dialog.amount_edit, "1.124,50")
        type_into(dialog.guide_edit, "0007/2026")
        shoot(dialog, "dialog_payment.png")
        click_button(save)

    done = in_modal(dialogs.PaymentDialog, pay)
    click_button(screen.buttons["payment"])
    done.check()
    assert "Pago" in screen.title.text()
    assert ledger.auto_balance(db, SYSTEM_ACTOR, auto.id) == Decimal(0)
    assert "payment" not in screen.enabled_actions()


def test_art22_par2_proof_joined_later_starts_the_term(qtbot, db, people, register):
    from desktop.services.autos import process

    today = local_today()
    auto = draw_up(db, people.fiscal, "ART26-IV", today - timedelta(days=4), driver_id=register.joao)
    process.record_notification(db, people.fiscal, auto.id, process.NotificationDraft(
        addressee="driver", form=NotificationForm.POST, sent_on=today - timedelta(days=3)), auto.version)
    screen = open_detail(qtbot, db, people.fiscal, auto.id)
    assert "join_proof" in screen.enabled_actions()
    joined = today - timedelta(days=1)

    def join(dialog):
        type_into(dialog.joined_edit, _ddmmyyyy(joined))
        shoot(dialog, "dialog_join_proof.png")
        click_button(find_button(dialog, "Salvar"))

    done = in_modal(dialogs.JoinProofDialog, join)
    click_button(screen.buttons["join_proof"])
    done.check()
    assert "Notificado" in screen.title.text()
    assert screen.amount_grid.text("Prova juntada em") == _ddmmyyyy(joined)


def test_finalize_after_the_term_and_annul_de_oficio(qtbot, db, people, register):
    from desktop.services import ledger
    from desktop.services.autos import process

    auto = draw_up(db, people.fiscal, "ART26-VI", date(2026, 3, 2), driver_id=register.joao)
    notified = process.record_notification(db, people.fiscal, auto.id, process.NotificationDraft(
        addressee="driver", form=NotificationForm.DIRECT, sent_on=date(2026, 3, 3),
        proof_joined_on=date(2026, 3, 3)), auto.version)
    screen = open_detail(qtbot, db, people.gestor, auto.id)
    assert {"finalize", "judge"} <= set(screen.enabled_actions())   # the defense term is over

    def finalize(dialog):
        confirm = find_button(dialog, "Confirmar")
        type_into(dialog.date_edit, _ddmmyyyy(notified.defense_deadline))    # still inside the term: refused
        click_button(confirm)
        assert dialog.isVisible() and dialog.errors.is_invalid("on")
        type_into(dialog.date_edit, _ddmmyyyy(notified.defense_deadline + timedelta(days=1)))
        shoot(dialog, "dialog_finalize.png")
        click_button(confirm)

    done = in_modal(dialogs.DateActionDialog, finalize)
    click_button(screen.buttons["finalize"])
    done.check()
    assert "Decisão definitiva" in screen.title.text()
    assert "Decisão definitiva" in [t.what for t in screen.timeline.model.rows()]
    assert "annul" in screen.enabled_actions()

    def annul(dialog):
        type_into(dialog.reason_edit, "Erro de identificacao do condutor reconhecido de oficio.")
        shoot(dialog, "dialog_annul.png")
        click_button(find_button(dialog, "Anular"))

    done = in_modal(dialogs.AutoReasonDialog, annul)
    click_button(screen.buttons["annul"])
    done.check()
    assert "Anulado" in screen.title.text()
    assert ledger.auto_balance(db, SYSTEM_ACTOR, auto.id) == Decimal(0)


def test_every_dialog_opens_in_portuguese(qtbot, db, people, register):
    """A picture of the other dialogs (notification, defense, measure, cancel) with their labels."""
    auto = draw_up(db, people.fiscal, "ART26-IV", local_today() - timedelta(days=2), driver_id=register.joao,
                   platform_id=register.platform, vehicle_id=register.car)
    screen = open_detail(qtbot, db, people.gestor, auto.id)
    for key, name, must in (("notify", "dialog_notification.png", "Art. 22, §2"),
                            ("defense", "dialog_defense.png", ""),
                            ("measure", "dialog_measure.png", "Art. 28"),
                            ("cancel", "dialog_cancel.png", "não é apagado")):
        dialog = screen.dialog_for(key)
        qtbot.addWidget(dialog)
        dialog.adjustSize()
        assert auto.number in dialog.windowTitle()
        assert must in dialog.intro.text()
        shoot(dialog, name)


def test_art19_print_auto_in_two_copies_previews_the_archived_pdf(qtbot, db, people, register):
    """Art. 19: the auto is printed in two copies (file and infractor), off the UI thread, and previewed."""
    import io

    from pypdf import PdfReader

    auto = draw_up(db, people.fiscal, "ART26-IV", local_today() - timedelta(days=1), driver_id=register.joao)
    screen = open_detail(qtbot, db, people.fiscal, auto.id)
    task = screen.print_auto()
    qtbot.waitUntil(lambda: task.finished, timeout=20000)
    assert task.error is None, task.error
    assert screen.preview is not None
    qtbot.addWidget(screen.preview)
    text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(task.result.pdf)).pages)
    assert auto.number in text and "infrator" in text.lower()
    assert screen.preview.page_count() >= 1


def test_art22_notice_of_the_auto_is_printed_for_the_infractor(qtbot, db, people, register):
    import io

    from pypdf import PdfReader

    auto = draw_up(db, people.fiscal, "ART26-IV", local_today() - timedelta(days=1), driver_id=register.joao,
                   platform_id=register.platform)
    screen = open_detail(qtbot, db, people.fiscal, auto.id)
    assert [a.text().replace("&", "") for a in screen.print_button.menu().actions()][1].startswith("Notificação da autuação")
    task = screen.print_document("autuacao")
    qtbot.waitUntil(lambda: task.finished, timeout=20000)
    assert task.error is None, task.error
    qtbot.addWidget(screen.preview)
    text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(task.result.pdf)).pages)
    assert auto.number in text and "João da Silva" in text


def test_issue28_the_extract_of_the_process_is_printed_from_the_autos_menu(qtbot, db, people, register):
    """Issue 28 point 1: the present state of the case is a separate act — "Certidão — extrato do processo" in the
    auto's Imprimir menu, chosen with the keyboard, says it is an extract and names the archived auto."""
    import io

    from pypdf import PdfReader

    from hands import press, settle, tab_until

    auto = make_final(db, people, draw_up(db, people.fiscal, "ART26-I", date(2026, 3, 2), driver_id=register.maria))
    screen = open_detail(qtbot, db, people.gestor, auto.id)
    tab_until(screen.print_button)
    menu = screen.print_button.menu()
    press("Space")
    settle(100)
    assert menu.isVisible()
    for _ in range(10):
        if menu.activeAction() is not None and menu.activeAction().text().replace("&", "").startswith("Certidão"):
            break
        press("Down", widget=menu)
    assert menu.activeAction().text().replace("&", "").startswith("Certidão — extrato do processo")
    press("Return", widget=menu)
    qtbot.waitUntil(lambda: screen.preview is not None, timeout=30000)
    qtbot.addWidget(screen.preview)
    text = " ".join(" ".join((p.extract_text() or "") for p in PdfReader(io.BytesIO(screen.preview._bytes)).pages)
                    .split())
    assert "EXTRATO DO PROCESSO" in text and auto.number in text and "situação atual" in text
