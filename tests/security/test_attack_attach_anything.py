"""Issue 11, attack 9: attach anything as evidence. The one attachment policy (`services.attachments.
check_attachment`) refuses 50 MB, a ZIP presented as a PDF, "%PDF-" followed by anything, a broken image, and
keeps a name like `../../etc/passwd.pdf` only as text."""
from __future__ import annotations

import io
import zipfile

import pytest

from desktop.errors import ValidationError
from desktop.services.attachments import attach_document, check_attachment, safe_filename


def _pdf() -> bytes:
    from reportlab.pdfgen.canvas import Canvas

    buffer = io.BytesIO()
    c = Canvas(buffer)
    c.drawString(100, 700, "Prova")
    c.save()
    return buffer.getvalue()


def _png() -> bytes:
    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", (8, 8), "white").save(buffer, "PNG")
    return buffer.getvalue()


def _zip() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as z:
        z.writestr("dentro.txt", "qualquer coisa")
    return buffer.getvalue()


def _refused(content, declared=None, words=""):
    with pytest.raises(ValidationError) as exc:
        check_attachment(content, "prova.pdf", declared)
    text = " ".join(p.message for p in exc.value.problems)
    assert words in text, text
    return text


def test_issue11_attack9_real_pdf_and_image_pass_with_the_type_read_from_the_content():
    pdf = check_attachment(_pdf(), "auto.pdf", "application/pdf")
    assert pdf.mime == "application/pdf" and pdf.filename == "auto.pdf" and len(pdf.sha256) == 64
    assert check_attachment(_png(), "foto.jpg").mime == "image/png"   # the name may lie; the bytes decide


def test_issue11_attack9_fifty_megabytes_are_refused():
    _refused(b"%PDF-1.7\n" + b"0" * (50 * 1024 * 1024), words="o máximo é 20 MB")


def test_issue11_attack9_a_zip_declared_as_pdf_is_refused():
    _refused(_zip(), "application/pdf", words="Formato não aceito")


def test_issue11_attack9_pdf_magic_followed_by_anything_is_refused():
    _refused(b"%PDF-" + _zip(), "application/pdf", words="não abre como PDF")
    _refused(b"%PDF-1.4 apolice", words="não abre como PDF")


def test_issue11_attack9_a_declared_type_the_content_does_not_match_is_refused():
    _refused(_png(), "application/pdf", words="apresentado como PDF, mas o conteúdo é PNG")


def test_issue11_attack9_a_truncated_image_is_refused():
    _refused(_png()[:40], words="não pôde ser lida")


@pytest.mark.parametrize("name, kept", [
    ("../../etc/passwd.pdf", "passwd.pdf"),
    ("..\\\\..\\\\Windows\\\\system.ini", "system.ini"),
    ("C:\\\\Users\\\\fiscal\\\\auto 12.pdf", "auto 12.pdf"),
    ("\x00\x07.oculto\n.pdf", "oculto.pdf"),
    ("", "anexo.pdf"),
    ("/", "anexo.pdf"),
])
def test_issue11_attack9_the_original_name_is_kept_only_as_text(name, kept):
    assert safe_filename(name, "application/pdf") == kept


def test_issue11_attack9_attach_document_keeps_the_name_as_text(db, make_actor):
    from desktop.domain.roles import Role

    info = attach_document(db, make_actor(Role.ATENDENTE), _pdf(), "../../etc/passwd.pdf", "Apólice APP")
    assert info.filename == "passwd.pdf"
