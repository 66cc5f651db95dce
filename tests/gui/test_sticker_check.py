"""Verificar adesivo (Art. 14): the scanned QR text is checked offline (Ed25519 signature with the municipality's
key) and against the authorization's current status; the verdict is shown big: válido, expirado, suspenso,
revogado, falsificado, ilegível."""
from __future__ import annotations

from datetime import timedelta

import pytest

from test_reports_module_scenario import *  # noqa: F401,F403 — fixtures: clerk, authorizations
from test_reports_module_scenario import shoot, valid_until, wait_task

from desktop.domain import local_today


def payload(db, number="0007/2026", plate="QAB0D00", until=None) -> str:
    from desktop.services.setup import signing_private_key
    from desktop.signing import sign_sticker
    return sign_sticker(signing_private_key(db), number, plate, until or valid_until())


def make_widget(qtbot, db):
    from desktop.views.sticker_check import StickerCheckWidget
    widget = StickerCheckWidget(db)
    qtbot.addWidget(widget)
    widget.resize(760, 420)
    widget.show()
    return widget


def check(qtbot, widget, text: str) -> str:
    widget.text_edit.setText(text)
    wait_task(qtbot, widget.check(), timeout=10000)
    return widget.verdict_word()


def test_art14_a_real_sticker_payload_is_valid_with_its_number_plate_and_validity(qtbot, db, authorizations):
    from desktop.views.formatting import format_date

    widget = make_widget(qtbot, db)
    assert check(qtbot, widget, payload(db)).lower() == "válido"
    assert widget.verdict.isVisible() and "#2e7d32" in widget.verdict.styleSheet()
    assert widget.details.isVisible()
    assert (widget.number_label.text(), widget.plate_label.text()) == ("0007/2026", "QAB0D00")
    assert widget.valid_label.text() == format_date(valid_until())
    assert widget.message.text().startswith("Adesivo autêntico")
    assert widget.text_edit.selectedText() == widget.text_edit.text()   # the next scan replaces it
    shoot(widget, "10-verificar-adesivo-valido")


def test_art14_a_tampered_payload_is_forged(qtbot, db, authorizations):
    widget = make_widget(qtbot, db)
    real = payload(db)
    tampered = real.replace("QAB0D00", "QAB0D99")
    assert check(qtbot, widget, tampered).lower() == "falsificado"
    assert "#c62828" in widget.verdict.styleSheet() and "Art. 27" in widget.message.text()
    assert "NÃO CONFIÁVEIS" in widget.details_title.text()
    shoot(widget, "11-verificar-adesivo-falsificado")
    assert check(qtbot, widget, "https://exemplo.com/qualquer-coisa").lower() == "ilegível"
    assert not widget.details.isVisible() and "Código não reconhecido" in widget.message.text()
    shoot(widget, "12-verificar-adesivo-ilegivel")


def test_art24_suspension_after_printing_and_art3_expiry_are_shown(qtbot, db, authorizations):
    from desktop.models import Authorization

    widget = make_widget(qtbot, db)
    old = payload(db, "0008/2026", "QAB1D01", until=local_today() - timedelta(days=3))
    assert check(qtbot, widget, old).lower() == "expirado"
    assert "VENCIDO" in widget.message.text()
    shoot(widget, "13-verificar-adesivo-expirado")
    with db.session() as s:
        row = s.query(Authorization).filter_by(number="0009/2026").one()
        row.status, row.suspended_until = "suspended", local_today() + timedelta(days=30)
    assert check(qtbot, widget, payload(db, "0009/2026", "QAB2D02")).lower() == "suspenso"
    assert "Art. 24" in widget.message.text()
    shoot(widget, "14-verificar-adesivo-suspenso")
    with db.session() as s:
        s.query(Authorization).filter_by(number="0009/2026").one().status = "revoked"
    assert check(qtbot, widget, payload(db, "0009/2026", "QAB2D02")).lower() == "revogado"


# the offscreen platform cannot raise a window and says so (a real desktop raises it)
@pytest.mark.qt_log_ignore(r"This plugin does not support (raise|propagateSizeHints)\(\)")
def test_sticker_check_opens_from_the_reports_page_in_its_own_window(qtbot, db, clerk, authorizations):
    from desktop.views.reports import ReportsPage

    page = ReportsPage(db, clerk)
    qtbot.addWidget(page)
    page.show()
    tab = page.show_tab("check")
    assert page.tabs.tabText(page.tabs.currentIndex()) == "Verificar adesivo"
    assert check(qtbot, tab, payload(db)).lower() == "válido"
    dialog = page.open_check_window()
    assert dialog.windowTitle() == "Verificar adesivo" and dialog.isVisible()
    dialog.widget.text_edit.setText("")
    dialog.widget.check()
    assert dialog.widget.verdict_word() == "NÃO VERIFICADO"
    assert "Leia o QR code" in dialog.widget.message.text()
    shoot(dialog, "15-verificar-adesivo-janela")
    dialog.close()


def test_issue12_11_a_cassada_authorization_says_cassado_not_revogado(qtbot, db, authorizations):
    from desktop.models import Authorization

    widget = make_widget(qtbot, db)
    with db.session() as s:
        s.query(Authorization).filter_by(number="0009/2026").one().status = "cassada"
    assert check(qtbot, widget, payload(db, "0009/2026", "QAB2D02")) == "CASSADO"
    assert "CASSADA" in widget.message.text() and "REVOGAD" not in widget.message.text().upper()


def test_issue11_a_signed_sticker_with_five_more_years_is_adulterado(qtbot, db, authorizations):
    widget = make_widget(qtbot, db)
    forged = payload(db, until=valid_until() + timedelta(days=5 * 365))
    assert check(qtbot, widget, forged) == "ADULTERADO"
    assert "#c62828" in widget.verdict.styleSheet() and "NÃO SÃO OS DO CADASTRO" in widget.details_title.text()
    shoot(widget, "16-verificar-adesivo-adulterado")


def test_issue11_with_the_database_out_of_reach_the_check_is_offline_and_asks_to_confirm(qtbot, db, authorizations,
                                                                                        monkeypatch):
    from sqlalchemy.exc import OperationalError

    from desktop.services.documents import sticker_check as service

    widget = make_widget(qtbot, db)
    assert check(qtbot, widget, payload(db)).lower() == "válido"        # the public key is kept

    def unreachable(*_args, **_kwargs):
        raise OperationalError("SELECT 1", None, ConnectionError("servidor fora do ar"))
    monkeypatch.setattr(service, "check_sticker", unreachable)   # the server goes away
    assert check(qtbot, widget, payload(db)) == "CONFIRMAR SITUAÇÃO"
    assert "CONFIRME A SITUAÇÃO ATUAL" in widget.message.text() and widget.details.isVisible()
    assert widget.number_label.text() == "0007/2026" and "NÃO consultada" in widget.details_title.text()
    shoot(widget, "17-verificar-adesivo-sem-cadastro")


def test_issue12_17_the_old_sticker_with_its_printed_number_says_substituido_by_the_new_one(
        qtbot, db, clerk, authorizations):
    """Art. 14: a sticker issued again (damaged) supersedes the previous one; the agent types the number printed
    on the old sticker and the check says which sticker replaced it."""
    from desktop.services import documents

    first = documents.print_sticker(db, clerk, "0007/2026")
    second = documents.print_kind(db, clerk, "sticker", "0007/2026", reason="damaged")
    widget = make_widget(qtbot, db)
    widget.sticker_number_edit.setText(first.info.number)
    assert check(qtbot, widget, payload(db)) == "SUBSTITUÍDO"
    assert f"substituído pelo adesivo nº {second.info.number}".upper() in widget.message.text().upper()
    assert "dano" in widget.message.text()
    widget.clear()
    assert widget.sticker_number_edit.text() == ""
    widget.sticker_number_edit.setText(second.info.number)
    assert check(qtbot, widget, payload(db)) == "VÁLIDO"
    shoot(widget, "17-verificar-adesivo-substituido")
