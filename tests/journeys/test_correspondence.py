"""Journeys of the correspondence desk (issue 26; Art. 22, §§1-2), on SQLite and PostgreSQL, through the pinned
commands:

1. an auto → its notice → `dispatch batch` (notice with its Code 128 code, AR slip, mailing list) → a desk "scan"
   of the batch (pdftoppm, rotated 1-3°, grey, JPEG q60, pages shuffled) → `dispatch scan` → `dispatch receive`
   → the auto notified and its defense term running from the joining date; `export dispatches` lists it;
2. an ofício (data request to a platform) e-mailed through a real SMTP server → the platform's reply imported
   (.eml) → joined, the platform notified on the joining.
"""
from __future__ import annotations

import csv
import io
import random
import re
import shutil
import subprocess
from datetime import date

import pytest
from PIL import Image

from desktop.services.actors import SYSTEM_ACTOR
from desktop import cli
from desktop.domain.correspondence import DispatchForm, DispatchState, make_code
from desktop.domain.workflow import AutoStatus
from desktop.services import autos, correspondence as desk, data_requests
from desktop.services.correspondence import SmtpSettings
from desktop.services.data_requests import DataRequestDraft
from desktop.services.documents import printing
from tests.db.correspondence_factories import SmtpSink, at, auto_with_notice, reply_to
from tests.db.enforcement_factories import make_platform, staff

pytestmark = pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="poppler-utils (pdftoppm) ausente")


def desk_scan(pdf: bytes, tmp_path, seed: int = 7) -> bytes:
    """The batch as a desk scanner returns it: 150 dpi, grey, rotated 1-3°, JPEG quality 60, pages shuffled,
    saved as one multi-page PDF of images."""
    rnd = random.Random(seed)
    src = tmp_path / "lote.pdf"
    src.write_bytes(pdf)
    subprocess.run(["pdftoppm", "-r", "150", "-png", str(src), str(tmp_path / "pg")], check=True)
    pages = []
    for path in sorted(tmp_path.glob("pg-*.png")):
        img = Image.open(path).convert("L")
        img = img.rotate(rnd.choice((-1, 1)) * rnd.uniform(1.0, 3.0), expand=True, fillcolor=255)
        jpeg = io.BytesIO()
        img.save(jpeg, "JPEG", quality=60)
        pages.append(Image.open(io.BytesIO(jpeg.getvalue())))
    rnd.shuffle(pages)
    out = io.BytesIO()
    pages[0].save(out, "PDF", save_all=True, append_images=pages[1:], resolution=150)
    return out.getvalue()


def test_journey_auto_batch_scanned_ar_joined_and_the_defense_term_from_the_joining(db, make_actor, tmp_path,
                                                                                      capsys):
    fiscal = staff(make_actor)[0]
    at(date(2026, 11, 10))
    auto, issued = auto_with_notice(db, fiscal, date(2026, 11, 9))
    d = desk.register_auto_notice(db, fiscal, auto.id, issued.info.id)

    batch_pdf = tmp_path / "expedicao.pdf"
    assert cli.main(["--db", db.url, "dispatch", "batch", "--out", str(batch_pdf)]) == 0
    assert "1 objeto" in capsys.readouterr().out
    assert cli.main(["--db", db.url, "dispatch", "batch", "--out", str(tmp_path / "vazio.pdf")]) == 0
    assert capsys.readouterr().out.strip() == "nada a expedir"

    scan = tmp_path / "digitalizacao.pdf"
    scan.write_bytes(desk_scan(batch_pdf.read_bytes(), tmp_path))
    assert cli.main(["--db", db.url, "dispatch", "scan", str(scan)]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 3   # notice, AR slip, mailing list
    coded = [ln for ln in lines if d.code in ln]
    assert len(coded) == 2 and all(re.fullmatch(rf"página \d: {d.code} — Notificação nº NT-0001/{issued.info.number[-4:]}", ln)
                                   for ln in coded)
    assert sum(ln.endswith("sem código legível") for ln in lines) == 1   # the mailing list
    ar_page = int(coded[0].split(":")[0].split()[1])

    lines_by_page = desk.read_scan(db, fiscal, [(scan.name, scan.read_bytes())])
    proof = tmp_path / "ar.png"
    proof.write_bytes(lines_by_page[ar_page - 1].png)
    at(date(2026, 11, 20))
    assert cli.main(["--db", db.url, "dispatch", "receive", d.code, "--on", "17/11/2026", "--by", "Maria Souza",
                     "--proof", str(proof)]) == 0
    assert "prova juntada em 20/11/2026" in capsys.readouterr().out
    info = autos.get_auto_info(db, SYSTEM_ACTOR, auto.id)
    assert info.status is AutoStatus.NOTIFIED and info.notice_joined_on == date(2026, 11, 20)
    expected = autos.get_auto_info(db, SYSTEM_ACTOR, auto.id).defense_deadline
    assert expected is not None and expected > date(2026, 11, 20)

    at(date(2026, 11, 21))
    assert cli.main(["--db", db.url, "dispatch", "receive", d.code, "--on", "18/11/2026", "--by", "Outro",
                     "--proof", str(proof)]) == 1
    assert "já foi juntada em 20/11/2026" in capsys.readouterr().err
    unknown = make_code(2026, 999999)
    assert cli.main(["--db", db.url, "dispatch", "receive", unknown, "--returned", "mudou-se",
                     "--proof", str(proof)]) == 1
    assert f"Código de expedição desconhecido: {unknown}" in capsys.readouterr().err
    assert cli.main(["--db", db.url, "dispatch", "receive", unknown[:-1] + str((int(unknown[-1]) + 1) % 10),
                     "--returned", "mudou-se", "--proof", str(proof)]) == 1
    assert "confira os dígitos" in capsys.readouterr().err

    out = tmp_path / "expedicoes.csv"
    assert cli.main(["--db", db.url, "export", "dispatches", "--out", str(out)]) == 0
    rows = list(csv.reader(io.StringIO(out.read_text(encoding="utf-8-sig")), delimiter=";"))
    assert rows[0] == ["Código", "Documento", "Destinatário", "Forma", "Enviado em", "Recebido em", "Recebido por",
                       "Devolvido (motivo)", "Juntado em", "Processo"]
    assert rows[1][0] == d.code and rows[1][5] == "17/11/2026" and rows[1][6] == "Maria Souza"
    assert rows[1][8] == "20/11/2026" and rows[1][9] == f"Auto nº {auto.number}"


def test_journey_emailed_oficio_to_a_platform_and_its_imported_reply(db, make_actor):
    from desktop.models import MunicipalitySettings, Platform

    fiscal = staff(make_actor)[0]
    at(date(2026, 11, 10))
    with db.session() as s:
        s.add(MunicipalitySettings(id=1, name="Chapada dos Guimarães", uf="MT", ouvidoria_phone="(65) 3301-1234",
                                   secretariat="Secretaria Municipal de Finanças"))
    platform_id = make_platform(db, "Vai Já")
    with db.session() as s:
        s.get(Platform, platform_id).email = "juridico@vaija.example"
    request = data_requests.create_data_request(db, fiscal, DataRequestDraft(
        platform_id=platform_id, justification="Denúncia de cobrança acima da tarifa.",
        period_start=date(2026, 10, 1), period_end=date(2026, 10, 31), investigation=True))
    issued = printing.print_data_request(db, fiscal, request.number)
    d = desk.register_data_request(db, fiscal, request.id, issued.info.id)
    assert d.form is DispatchForm.ELECTRONIC and d.email == "juridico@vaija.example"

    with SmtpSink() as smtp:
        sent = desk.send_email(db, fiscal, d.code, SmtpSettings("127.0.0.1", smtp.port, "none",
                                                                 sender="fiscalizacao@chapada.mt.gov.br"))
    got = smtp.messages[0]
    assert got["To"] == "juridico@vaija.example" and sent.state is DispatchState.SENT
    pdf = next(got.iter_attachments()).get_content()
    assert pdf == issued.pdf   # the archived ofício itself

    at(date(2026, 11, 12))
    joined = desk.import_reply(db, fiscal, reply_to(got, "Jurídico Vai Já <juridico@vaija.example>",
                                                    when="Wed, 11 Nov 2026 16:40:00 -0400"), "resposta.eml")
    assert joined.state is DispatchState.JOINED and joined.received_on == date(2026, 11, 11)
    assert joined.joined_on == date(2026, 11, 12) and joined.term_starts_on == date(2026, 11, 12)
    after = data_requests.get_data_request(db, fiscal, request.id)
    assert after.notified_at is not None and after.notified_at.date() == date(2026, 11, 12)
