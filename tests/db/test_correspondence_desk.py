"""The correspondence desk (issue 26; Art. 22, §§1-2) on SQLite and PostgreSQL: the register, the day's batch,
receiving and joining the AR (the defense term from the joining date), refusing a second joining, the return and
the edital, e-mail through a real SMTP server and the imported reply."""
from __future__ import annotations

import io
from datetime import date
from decimal import Decimal

import pytest
from pypdf import PdfReader

from desktop.services.actors import SYSTEM_ACTOR
from desktop.domain.correspondence import DispatchForm, DispatchState, code_is_valid
from desktop.domain.workflow import AutoStatus
from desktop.errors import ConflictError, NotFound, PermissionDenied, ValidationError
from desktop.domain.roles import Role
from desktop.services import autos, correspondence as desk
from desktop.services.correspondence import SmtpSettings
from tests.db.correspondence_factories import SmtpSink, at, auto_with_notice, reply_to
from tests.db.enforcement_factories import staff
from tests.files import tiny_pdf


@pytest.fixture
def people(db, make_actor):
    return staff(make_actor)


@pytest.fixture
def posted(db, people):
    at(date(2026, 11, 10))
    auto, issued = auto_with_notice(db, people[0], date(2026, 11, 9))
    d = desk.register_auto_notice(db, people[0], auto.id, issued.info.id)
    return auto, issued, d


def test_art22_par1_V_a_printed_notice_enters_the_register_with_its_code(db, people, posted):
    auto, issued, d = posted
    assert desk.desk_counts(db, people[0]).waiting == 1
    assert code_is_valid(d.code) and d.state is DispatchState.PENDING
    assert d.form is DispatchForm.POST and d.case_label == f"Auto nº {auto.number}"
    assert "Rua Quinze de Novembro, 120" in d.address and d.document_number == issued.info.number
    assert d.actions == ("send",)
    with pytest.raises(PermissionDenied):
        desk.register_auto_notice(db, desk.Actor(None, "x", "X", frozenset({Role.VISTORIADOR})), auto.id,
                                  issued.info.id)


def test_art22_par1_V_the_batch_has_notice_ar_slip_and_mailing_list_and_its_reprint_keeps_the_codes(
        db, people, posted):
    auto, issued, d = posted
    result = desk.day_batch(db, people[0])
    assert [i.code for i in result.items] == [d.code]
    text = [p.extract_text() for p in PdfReader(io.BytesIO(result.pdf)).pages]
    assert "NOTIFICAÇÃO DE AUTUAÇÃO" in text[0] and "EX" in text[0]
    assert "AVISO DE RECEBIMENTO" in text[-2] and "REMETENTE" in text[-2] and "Rua Quinze" in text[-2]
    assert "LISTA DE POSTAGEM" in text[-1] and d.code in text[-1]
    assert desk.get_dispatch(db, people[0], d.code).state is DispatchState.SENT
    assert desk.day_batch(db, people[0]) is None   # nothing more to send
    copy = desk.reprint_batch(db, people[0], result.batch_id)
    copy_text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(copy)).pages)
    assert "2ª VIA" in copy_text and d.code in copy_text
    assert len(desk.list_dispatches(db, people[0])) == 1   # no new codes
    at(date(2026, 12, 10))
    assert desk.desk_counts(db, people[0]) == desk.DeskCounts(0, 0, 0, 0)   # 30 days out: not yet late
    at(date(2026, 12, 11))
    assert desk.desk_counts(db, people[0]).ars_overdue == 1


def test_art22_par2_receiving_the_ar_joins_the_proof_and_the_defense_term_starts_on_the_joining(
        db, people, posted):
    auto, issued, d = posted
    desk.day_batch(db, people[0])
    at(date(2026, 11, 20))
    proof = ("ar.pdf", tiny_pdf("AR assinado"), "application/pdf")
    got = desk.receive(db, people[0], d.code, received_on=date(2026, 11, 16), received_by="Maria Souza",
                       proof=proof)
    assert got.state is DispatchState.JOINED and got.joined_on == date(2026, 11, 20)
    assert got.term_starts_on == date(2026, 11, 20) and got.received_by == "Maria Souza"
    info = autos.get_auto_info(db, SYSTEM_ACTOR, auto.id)
    assert info.status is AutoStatus.NOTIFIED and info.notice_joined_on == date(2026, 11, 20)
    assert autos.get_auto(db, SYSTEM_ACTOR, auto.id).notifications[0].proof_joined_on == date(2026, 11, 20)
    with pytest.raises(ConflictError, match=r"já foi juntada em 20/11/2026, recebido por Maria Souza"):
        desk.receive(db, people[0], d.code, received_on=date(2026, 11, 17), received_by="Outro", proof=proof)
    with pytest.raises(NotFound):
        desk.receive(db, people[0], "EX20269999990", received_on=date(2026, 11, 17), received_by="Outro",
                     proof=proof)


def test_art22_par2_a_receipt_needs_the_date_and_the_receiver(db, people, posted):
    auto, issued, d = posted
    desk.day_batch(db, people[0])
    with pytest.raises(ValidationError) as err:
        desk.receive(db, people[0], d.code, received_on=None, received_by="", proof=("a.pdf", tiny_pdf(), "application/pdf"))
    assert {p.field for p in err.value.problems} == {"received_on", "received_by"}
    assert desk.get_dispatch(db, people[0], d.code).state is DispatchState.SENT   # nothing half-saved


def test_art22_par1_II_a_returned_ar_goes_to_the_edital_whose_affixing_is_the_proof(db, people, posted):
    auto, issued, d = posted
    desk.day_batch(db, people[0])
    at(date(2026, 11, 19))
    got = desk.receive(db, people[0], d.code, returned="Mudou-se", proof=("ar.pdf", tiny_pdf("dev"), "application/pdf"))
    assert got.state is DispatchState.RETURNED and got.return_reason == "mudou-se" and got.actions == ("edital",)
    assert desk.desk_counts(db, people[0]).for_edital == 1
    at(date(2026, 11, 23))
    edital = desk.post_edital(db, people[0])
    assert "EDITAL" in PdfReader(io.BytesIO(edital.pdf)).pages[0].extract_text().upper()
    info = autos.get_auto_info(db, SYSTEM_ACTOR, auto.id)
    assert info.status is AutoStatus.NOTIFIED and info.notice_joined_on == date(2026, 11, 23)
    after = desk.get_dispatch(db, people[0], d.code)
    assert after.state is DispatchState.JOINED and after.edital_posted_on == date(2026, 11, 23)


def test_art22_par1_VI_email_through_smtp_archives_the_eml_and_the_reply_joins_it(db, people):
    at(date(2026, 11, 10))
    auto, issued = auto_with_notice(db, people[0], date(2026, 11, 9), email_address="condutor@example.com")
    d = desk.register_auto_notice(db, people[0], auto.id, issued.info.id, form=DispatchForm.ELECTRONIC)
    assert d.actions == ("email",)
    with SmtpSink() as smtp:
        sent = desk.send_email(db, people[0], d.code, SmtpSettings("127.0.0.1", smtp.port, "none",
                                                                    sender="fiscalizacao@chapada.mt.gov.br"))
    assert len(smtp.messages) == 1 and str(smtp.messages[0]["Message-ID"]).strip() == sent.message_id
    got = smtp.messages[0]
    assert got["To"] == "condutor@example.com" and d.code in str(got["Subject"])
    assert [p.get_filename() for p in got.iter_attachments()] == [issued.info.number.replace("/", "-") + ".pdf"]
    assert sent.state is DispatchState.SENT
    at(date(2026, 11, 25))
    joined = desk.import_reply(db, people[0], reply_to(got, "condutor@example.com"), "resposta.eml")
    assert joined.state is DispatchState.JOINED and joined.received_on == date(2026, 11, 24)
    assert joined.joined_on == date(2026, 11, 25) and joined.received_by == "condutor@example.com"
    assert autos.get_auto_info(db, SYSTEM_ACTOR, auto.id).notice_joined_on == date(2026, 11, 25)
    with pytest.raises(ConflictError):
        desk.import_reply(db, people[0], reply_to(got, "condutor@example.com"), "resposta.eml")


def test_art22_par1_VI_an_outlook_msg_reply_is_matched_archived_and_joined(db, people):
    """Issue 26: the reply saved from Outlook (.msg) joins the proof as the .eml does; the file is kept as it came."""
    from datetime import datetime

    from desktop.domain.clock import TIMEZONE
    from desktop.models import Document
    from tests.files import outlook_msg

    at(date(2026, 11, 10))
    auto, issued = auto_with_notice(db, people[0], date(2026, 11, 9), email_address="condutor@example.com")
    d = desk.register_auto_notice(db, people[0], auto.id, issued.info.id, form=DispatchForm.ELECTRONIC)
    with SmtpSink() as smtp:
        sent = desk.send_email(db, people[0], d.code, SmtpSettings("127.0.0.1", smtp.port, "none",
                                                                    sender="fiscalizacao@chapada.mt.gov.br"))
    at(date(2026, 11, 25))
    with pytest.raises(ValidationError, match="não responde a nenhum e-mail"):
        desk.import_reply(db, people[0], outlook_msg(), "nova.msg")
    reply = outlook_msg(in_reply_to=sent.message_id, references=sent.message_id, sender="condutor@example.com",
                        submitted=datetime(2026, 11, 23, 16, 0, tzinfo=TIMEZONE))
    joined = desk.import_reply(db, people[0], reply, "RE Notificação.msg")
    assert joined.state is DispatchState.JOINED and joined.received_on == date(2026, 11, 23)
    assert joined.received_by == "condutor@example.com" and joined.joined_on == date(2026, 11, 25)
    with db.session(write=False) as s:
        doc = s.get(Document, joined.proof_document_id)
        assert doc.mime == "application/vnd.ms-outlook" and bytes(doc.content) == reply
    with pytest.raises(ConflictError, match="já foi juntada"):
        desk.import_reply(db, people[0], reply, "RE Notificação.msg")


def test_art22_par1_VI_an_unanswered_email_offers_the_post_after_n_days(db, people):
    at(date(2026, 11, 2))
    auto, issued = auto_with_notice(db, people[0], date(2026, 11, 2), email_address="c@example.com")
    d = desk.register_auto_notice(db, people[0], auto.id, issued.info.id, form=DispatchForm.ELECTRONIC)
    with SmtpSink() as smtp:
        desk.send_email(db, people[0], d.code, SmtpSettings("127.0.0.1", smtp.port, "none", sender="a@b.gov.br"))
    with pytest.raises(ConflictError):
        desk.offer_post(db, people[0], d.code)
    at(date(2026, 11, 13))
    assert desk.desk_counts(db, people[0]).unanswered == 1
    by_post = desk.offer_post(db, people[0], d.code)
    assert by_post.form is DispatchForm.POST and by_post.code != d.code and "Rua Quinze" in by_post.address


def test_a_reply_to_no_known_email_is_refused(db, people):
    from email.message import EmailMessage

    msg = EmailMessage()
    msg["From"], msg["Subject"], msg["Message-ID"] = "x@y.com", "oi", "<nada@lugar>"
    msg.set_content("sem referência")
    with pytest.raises(ValidationError, match="não responde"):
        desk.import_reply(db, people[0], msg.as_bytes(), "x.eml")
    msg["In-Reply-To"] = "<desconhecido@lugar>"
    with pytest.raises(NotFound):
        desk.import_reply(db, people[0], msg.as_bytes(), "x.eml")


def test_art22_par1_VI_the_days_without_answer_are_a_dated_parameter(db, people):
    from tests.db.enforcement_factories import set_parameter

    set_parameter(db, "dispatch.email_answer_days", date(2026, 1, 1), Decimal(3))
    at(date(2026, 11, 2))
    auto, issued = auto_with_notice(db, people[0], date(2026, 11, 2), email_address="c@example.com")
    d = desk.register_auto_notice(db, people[0], auto.id, issued.info.id, form=DispatchForm.ELECTRONIC)
    with SmtpSink() as smtp:
        desk.send_email(db, people[0], d.code, SmtpSettings("127.0.0.1", smtp.port, "none", sender="a@b.gov.br"))
    at(date(2026, 11, 4))
    assert desk.desk_counts(db, people[0]).unanswered == 0
    at(date(2026, 11, 5))
    assert desk.desk_counts(db, people[0]).unanswered == 1


def test_scan_reads_jpeg_images_and_lists_pages_without_a_code(db, people, posted, tmp_path):
    import shutil
    import subprocess

    from PIL import Image

    if shutil.which("pdftoppm") is None:
        pytest.skip("poppler-utils (pdftoppm) ausente")
    auto, issued, d = posted
    result = desk.day_batch(db, people[0])
    (tmp_path / "lote.pdf").write_bytes(result.pdf)
    subprocess.run(["pdftoppm", "-r", "150", "-f", "2", "-l", "2", "-png", str(tmp_path / "lote.pdf"),
                    str(tmp_path / "ar")], check=True)
    page = Image.open(next(tmp_path.glob("ar-*.png"))).convert("L").rotate(2.5, expand=True, fillcolor=255)
    jpeg, blank = io.BytesIO(), io.BytesIO()
    page.save(jpeg, "JPEG", quality=60)
    Image.new("L", (800, 1100), 255).save(blank, "JPEG")
    lines = desk.read_scan(db, people[0], [("ar.jpg", jpeg.getvalue()), ("branco.jpg", blank.getvalue())])
    assert [ln.text for ln in lines] == [f"página 1: {d.code} — Notificação nº NT-0001/{issued.info.number[-4:]}",
                                         "página 2: sem código legível"]


def test_a_notice_of_an_auto_already_notified_is_tracked_without_a_second_notification(db, people, posted):
    from tests.db.enforcement_factories import notify

    auto, issued, d = posted
    notify(db, people[0], autos.get_auto_info(db, SYSTEM_ACTOR, auto.id), date(2026, 11, 10))   # notified in person first
    result = desk.day_batch(db, people[0])
    assert [i.code for i in result.items] == [d.code]
    assert len(autos.get_auto(db, SYSTEM_ACTOR, auto.id).notifications) == 1
    at(date(2026, 11, 16))
    got = desk.receive(db, people[0], d.code, received_on=date(2026, 11, 13), received_by="Maria",
                       proof=("ar.pdf", tiny_pdf("AR"), "application/pdf"))
    assert got.state is DispatchState.JOINED
    assert autos.get_auto_info(db, SYSTEM_ACTOR, auto.id).notice_joined_on == date(2026, 11, 10)   # the first proof counts


def test_the_screens_page_filters_by_state_and_text_and_refuses_an_unknown_filter(db, people, posted):
    auto, issued, d = posted
    page = desk.dispatch_page(db, people[0], "pending")
    assert page.total == 1 and page.rows[0].code == d.code
    assert desk.dispatch_page(db, people[0], "sent").total == 0
    assert desk.dispatch_page(db, people[0], text=d.code[:8]).total == 1
    assert desk.dispatch_page(db, people[0], text=d.recipient_name.split()[0].upper()).total == 1
    assert desk.dispatch_page(db, people[0], text=auto.number).total == 1
    assert desk.dispatch_page(db, people[0], text="ninguem com este nome").total == 0
    with pytest.raises(ValidationError, match="Filtro desconhecido"):
        desk.dispatch_page(db, people[0], "paid")


# ------------------------------------------------------------------ issue 26: a notice printed on another screen
def test_a_notice_printed_on_its_own_screen_is_offered_for_the_register_once_per_addressee(db, people):
    """Every notice the program prints for a person enters the register: the autuação notice printed in
    Fiscalização (not through the desk) is listed as printed and not registered; registered by post it leaves the
    list, goes to the day's batch, and a second registration of the same notice for the same person is refused
    naming the code it has."""
    at(date(2026, 11, 10))
    auto, issued = auto_with_notice(db, people[0], date(2026, 11, 9))
    waiting = desk.printed_notices(db, people[0])
    mine = [n for n in waiting if n.issued_document_id == issued.info.id]
    assert len(mine) == 1 and mine[0].addressee == "driver" and mine[0].case_label == f"Auto nº {auto.number}"
    assert "Rua Quinze de Novembro" in mine[0].where and mine[0].number == issued.info.number
    d = desk.register_printed(db, people[0], issued.info.id, "driver", DispatchForm.POST)
    assert d.state == DispatchState.PENDING and code_is_valid(d.code) and d.case_label == f"Auto nº {auto.number}"
    assert not [n for n in desk.printed_notices(db, people[0]) if n.issued_document_id == issued.info.id]
    with pytest.raises(ConflictError, match="já está no registro"):
        desk.register_printed(db, people[0], issued.info.id, "driver", DispatchForm.POST)
    with pytest.raises(ValidationError):
        desk.register_printed(db, people[0], issued.info.id, "platform", DispatchForm.POST)   # no platform here
    batch = desk.day_batch(db, people[0])
    assert batch is not None and [i.code for i in batch.items] == [d.code]


def test_registering_a_printed_notice_needs_a_sender_and_the_address_of_its_form(db, people, make_actor):
    at(date(2026, 11, 10))
    auto, issued = auto_with_notice(db, people[0], date(2026, 11, 9))
    with pytest.raises(PermissionDenied):
        desk.register_printed(db, make_actor(Role.VISTORIADOR), issued.info.id, "driver", DispatchForm.POST)
    with pytest.raises(ValidationError) as exc:      # the driver has no e-mail: not by electronic means
        desk.register_printed(db, people[0], issued.info.id, "driver", DispatchForm.ELECTRONIC)
    assert any(p.field == "email" for p in exc.value.problems)
    assert [n.issued_document_id for n in desk.printed_notices(db, people[0])] == [issued.info.id]
