"""Replies to e-mailed notices (issue 26; Art. 22, §1, VI) read from the files mail programs save: .eml and
Outlook .msg (a Compound File Binary built byte by byte in tests/files.py, read back with olefile), and the
broken or hostile files a desk may be handed — each refused with a Portuguese message naming the file."""
from __future__ import annotations

from datetime import datetime, timezone
from email.message import EmailMessage

import pytest

from desktop.errors import ValidationError
from desktop.importers.mail_reply import MAX_REPLY_BYTES, EML_MIME, MSG_MIME, message_ids, read_reply
from tests.files import compound_file, outlook_msg, tiny_pdf

SENT = "<EX20260000013.1@chapada.example>"


def _eml(**headers) -> bytes:
    msg = EmailMessage()
    for key, value in headers.items():
        msg[key.replace("_", "-")] = value
    msg.set_content("Recebido.")
    return msg.as_bytes()


def test_art22_par1_VI_an_eml_reply_gives_what_it_answers():
    reply = read_reply(_eml(From="Plataforma <juridico@plataforma.example>", In_Reply_To=SENT,
                            References=f"<outro@x.example> {SENT}", Message_ID="<r1@plataforma.example>",
                            Date="Tue, 24 Nov 2026 09:12:00 -0400", Subject="RE: Ofício"), "resposta.eml")
    assert reply.ids == (SENT, "<outro@x.example>") and reply.message_id == "<r1@plataforma.example>"
    assert reply.sender == "juridico@plataforma.example" and reply.mime == EML_MIME
    assert reply.sent_at == datetime(2026, 11, 24, 13, 12, tzinfo=timezone.utc)


@pytest.mark.parametrize("unicode", [True, False], ids=["utf16", "8bit"])
def test_art22_par1_VI_an_outlook_msg_reply_is_read_from_its_mapi_properties(unicode):
    when = datetime(2026, 11, 24, 13, 12, tzinfo=timezone.utc)
    content = outlook_msg(in_reply_to=SENT, references=SENT, submitted=when, unicode=unicode,
                          subject="RE: Notificação de autuação")
    reply = read_reply(content, "Resposta.msg")
    assert reply.ids == (SENT,) and reply.message_id == "<resposta-msg@plataforma.example>"
    assert reply.sender == "juridico@plataforma.example" and reply.subject == "RE: Notificação de autuação"
    assert reply.sent_at == when and reply.mime == MSG_MIME


def test_a_msg_with_only_transport_headers_and_an_exchange_sender_uses_the_headers():
    headers = (f"From: Juridico <juridico@plataforma.example>\r\nIn-Reply-To: {SENT}\r\n"
               "Date: Tue, 24 Nov 2026 09:12:00 -0400\r\nMessage-ID: <h@plataforma.example>\r\n")
    reply = read_reply(outlook_msg(headers=headers, sender="/O=PLATAFORMA/OU=EXCHANGE/CN=JURIDICO",
                                   message_id=None), "r.msg")
    assert reply.ids == (SENT,) and reply.sender == "juridico@plataforma.example"
    assert reply.message_id == "<h@plataforma.example>" and reply.sent_at.year == 2026


def test_a_big_msg_keeps_its_large_streams_in_regular_sectors():
    content = outlook_msg(in_reply_to=SENT, body="texto citado " * 2000)     # > 4096 bytes: not in the mini stream
    assert read_reply(content, "grande.msg").ids == (SENT,)


@pytest.mark.parametrize("content, name, words", [
    (b"", "vazio.msg", "está vazio"),
    (tiny_pdf("não é e-mail"), "notificacao.msg", "não é um arquivo .msg do Outlook"),
    (b"\x00\x01\x02 binario \x00" * 50, "lixo.eml", "não é uma mensagem de e-mail"),
    (b"apenas um texto qualquer sem cabecalhos\n", "texto.eml", "nenhum cabeçalho"),
    (_eml(From="a@b.example", Subject="Oi"), "nova.eml", "não responde a nenhum e-mail"),
], ids=["empty", "not-ole", "binary", "no-headers", "no-reply-ids"])
def test_files_that_are_not_replies_are_refused_naming_the_file(content, name, words):
    with pytest.raises(ValidationError) as caught:
        read_reply(content, name)
    (problem,) = caught.value.problems
    assert problem.field == "file" and problem.message.startswith(name + ":") and words in problem.message


def test_a_truncated_or_damaged_msg_is_refused_as_damaged():
    whole = outlook_msg(in_reply_to=SENT, body="x" * 6000)
    for broken in (whole[:700], whole[:len(whole) // 2], whole[:512] + b"\xff" * (len(whole) - 512)):
        with pytest.raises(ValidationError) as caught:
            read_reply(broken, "quebrado.msg")
        assert "quebrado.msg:" in caught.value.problems[0].message
        assert "danificado" in caught.value.problems[0].message or "não responde" in caught.value.problems[0].message


def test_an_ole_file_that_is_no_message_and_a_msg_without_reply_ids_are_refused():
    with pytest.raises(ValidationError, match="não uma mensagem do Outlook"):
        read_reply(compound_file({"WordDocument": b"\x00" * 100}), "documento.msg")
    with pytest.raises(ValidationError, match="não responde a nenhum e-mail"):
        read_reply(outlook_msg(), "nova.msg")


def test_a_file_larger_than_a_reply_is_refused_before_it_is_parsed():
    with pytest.raises(ValidationError, match="mais de 20 MB"):
        read_reply(b"From: a@b\r\n" + b"x" * MAX_REPLY_BYTES, "enorme.eml")


@pytest.mark.parametrize("text, ids", [
    ("<a@b> <c@d>", ["<a@b>", "<c@d>"]), ("a@b", ["<a@b>"]), ("", []), (None, []), ("texto solto", []),
])
def test_message_ids_of_a_header(text, ids):
    assert message_ids(text) == ids
