"""A scanned sticker against the register (Art. 14; Art. 3 §1; Art. 8 §2; Art. 16 §2; Art. 24, I, b, c, e):
every signed field compared; a true sticker of an authorization no longer active says why, each situation in
its own word (issue 11 "Sticker check against the register"; issue 12 item 11)."""
from datetime import date

import pytest

from desktop.domain import sticker_check as sc

TODAY = date(2026, 11, 29)
UNTIL = date(2026, 12, 31)
SIGNED = sc.SignedSticker("0007/2026", "QAB1D23", UNTIL)
LABELS = {"active": "Ativa", "suspended": "Suspensa", "impeded": "Impedida", "revoked": "Revogada",
          "cassada": "Cassada", "expired": "Expirada", "refused": "Indeferida", "approved": "Aprovada"}


def entry(status="active", valid_until=UNTIL, plate="QAB1D23", former=(), **kw) -> sc.RegisterEntry:
    return sc.RegisterEntry("0007/2026", status, LABELS[status], valid_until, plate, frozenset(former), **kw)


@pytest.mark.parametrize("signed, register, status, words", [
    # Art. 14: the sticker carries the register's number, plate and validity — anything else was altered
    (SIGNED, None, sc.TAMPERED, ("ADULTERADO", "não consta do cadastro", "Art. 27")),
    (SIGNED, entry(plate="RST4E56"), sc.TAMPERED, ("ADULTERADO", "QAB1D23", "RST4E56")),
    (sc.SignedSticker("0007/2026", "QAB1D23", date(2032, 12, 31)), entry(), sc.TAMPERED,
     ("ADULTERADO", "31/12/2032", "31/12/2026")),
    (SIGNED, entry(valid_until=None), sc.TAMPERED, ("ADULTERADO",)),
    # Art. 8, §2: the sticker of a replaced vehicle no longer holds
    (SIGNED, entry(plate="RST4E56", former=("QAB1D23",)), sc.REPLACED, ("substituído", "RST4E56", "Art. 8º, §2º")),
    # Art. 24, I, b and Art. 16, §2: suspended or impeded after printing
    (SIGNED, entry("suspended", suspended_until=date(2027, 11, 29)), sc.SUSPENDED,
     ("SUSPENSA até 29/11/2027", "Art. 24, I, b")),
    (SIGNED, entry("impeded", regularize_by=date(2026, 12, 4)), sc.SUSPENDED, ("IMPEDIDA até 04/12/2026",
                                                                               "Art. 16, §2º")),
    # Art. 24, I, c and e: revoked and cassada, each by its own word (a cassada one is not "revogada")
    (SIGNED, entry("revoked"), sc.REVOKED, ("REVOGADA", "Art. 24, I, c")),
    (SIGNED, entry("cassada"), sc.CASSADA, ("CASSADA", "Art. 24, I, e")),
    # Art. 3, §1: expired in the register
    (SIGNED, entry("expired"), sc.EXPIRED, ("EXPIRADA", "Art. 3º, §1º")),
    (SIGNED, entry("refused"), sc.NOT_ACTIVE, ("INDEFERIDA", "nunca esteve ativa")),
    # active: valid; an older sticker after a renewal
    (SIGNED, entry(), sc.VALID, ("autêntico", "conferido com o cadastro", "ATIVA", "31/12/2026")),
    (sc.SignedSticker("0007/2026", "QAB1D23", date(2026, 1, 31)), entry(valid_until=date(2027, 1, 31)), sc.EXPIRED,
     ("VENCIDO em 31/01/2026", "renovada até 31/01/2027", "adesivo novo")),
    (sc.SignedSticker("0007/2026", "QAB1D23", date(2026, 12, 1)), entry(valid_until=date(2027, 12, 1)), sc.VALID,
     ("renovada até 01/12/2027",)),
    (sc.SignedSticker("0007/2026", "QAB1D23", date(2026, 11, 1)), entry(valid_until=date(2026, 11, 1)), sc.EXPIRED,
     ("VENCIDO em 01/11/2026",)),
])
def test_art14_sticker_against_the_register(signed, register, status, words):
    verdict = sc.register_verdict(signed, register, TODAY)
    assert verdict.status == status
    for word in words:
        assert word in verdict.message, (word, verdict.message)


def test_issue12_item11_a_cassada_authorization_never_says_revogada():
    verdict = sc.register_verdict(SIGNED, entry("cassada"), TODAY)
    assert "REVOGAD" not in verdict.message.upper() and verdict.status != sc.REVOKED


@pytest.mark.parametrize("signed, status, words", [
    (SIGNED, sc.UNCONFIRMED, ("sem consulta ao cadastro", "0007/2026", "QAB1D23", "válida até 31/12/2026",
                              "CONFIRME A SITUAÇÃO ATUAL")),
    (sc.SignedSticker("0007/2026", "QAB1D23", date(2026, 1, 1)), sc.EXPIRED, ("VENCIDO em 01/01/2026",
                                                                              "CONFIRME A SITUAÇÃO ATUAL")),
])
def test_art14_offline_shows_the_signed_data_and_asks_to_confirm_the_situation(signed, status, words):
    verdict = sc.offline_verdict(signed, TODAY)
    assert verdict.status == status
    for word in words:
        assert word in verdict.message


# Issue 12 item 17: a new sticker supersedes the previous one of the same authorization (Art. 14)
FIRST = sc.StickerIssue("0003/2026", date(2026, 2, 1))
SECOND = sc.StickerIssue("0011/2026", date(2026, 6, 10), "extravio")
THIRD = sc.StickerIssue("0015/2026", date(2026, 9, 3), "dados alterados")


@pytest.mark.parametrize("stickers, typed, status, words", [
    ((FIRST, SECOND), "0003/2026", sc.SUPERSEDED, ("Adesivo nº 0003/2026 SUBSTITUÍDO pelo adesivo nº 0011/2026",
                                                   "10/06/2026", "por extravio", "Art. 14")),
    ((FIRST, SECOND, THIRD), "3/2026", sc.SUPERSEDED, ("substituído".upper(), "nº 0015/2026", "dados alterados")),
    ((FIRST, SECOND, THIRD), "0011/2026", sc.SUPERSEDED, ("nº 0011/2026 SUBSTITUÍDO pelo adesivo nº 0015/2026",)),
    ((FIRST, SECOND), "0011/2026", sc.VALID, ("autêntico",)),
    ((FIRST,), "0003/2026", sc.VALID, ("autêntico",)),
    ((FIRST, SECOND), "0099/2026", sc.TAMPERED, ("ADULTERADO", "nº 0099/2026 não foi emitido")),
    ((FIRST, SECOND), None, sc.VALID, ("2 adesivos emitidos", "o que vale é o nº 0011/2026")),
    ((FIRST,), None, sc.VALID, ("autêntico",)),
])
def test_issue12_item17_a_superseded_sticker_says_which_one_replaced_it(stickers, typed, status, words):
    verdict = sc.register_verdict(SIGNED, entry(stickers=stickers), TODAY, typed)
    assert verdict.status == status, verdict.message
    for word in words:
        assert word in verdict.message
    if stickers == (FIRST,) or typed == "0011/2026":
        assert "adesivos emitidos" not in verdict.message


def test_issue12_item17_a_superseded_sticker_of_a_suspended_authorization_still_says_suspended():
    verdict = sc.register_verdict(SIGNED, entry("suspended", stickers=(FIRST, SECOND)), TODAY, "0003/2026")
    assert verdict.status == sc.SUSPENDED
