"""One scenario for every document test: Chapada dos Guimarães, driver Joana Araújo Conceição, vehicle QAB1D23,
authorization 0007/2026 — with the values the tests look for on the printed page."""
from __future__ import annotations

import io
import subprocess
import tempfile
from datetime import date, datetime, timedelta
from decimal import Decimal
from pathlib import Path

from desktop.reports import (
    attendance, auto, certificate, credential, data_request, edital, guide, inspection, notices, statement, sticker,
)
from desktop.reports.common import TZ, DocumentMeta, MunicipalityHeader, Signer
from desktop.signing import KeyPair, generate_keypair

KEYS: KeyPair = generate_keypair()
ISSUED_AT = datetime(2026, 11, 29, 14, 3, tzinfo=TZ)
PHONE = "(65) 3301-1234"


def brasao_png() -> bytes:
    from PIL import Image, ImageDraw
    image = Image.new("RGBA", (120, 140), (255, 255, 255, 0))
    draw = ImageDraw.Draw(image)
    draw.polygon([(10, 10), (110, 10), (110, 80), (60, 132), (10, 80)], fill=(11, 79, 138), outline=(0, 0, 0))
    draw.rectangle([30, 35, 90, 60], fill=(240, 200, 40))
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


HEADER = MunicipalityHeader(
    name="Chapada dos Guimarães", uf="MT", secretariat="Secretaria Municipal de Finanças",
    ouvidoria_phone=PHONE, brasao_png=brasao_png(), pix_key="12345678000195",
)


# issue 28: who signs each act, with office and matrícula (Lei 9.784/99, art. 22, §1º)
GESTOR = Signer("Carlos Mendes", "Secretário Municipal de Finanças", "4.001-7", "Secretaria Municipal de Finanças")
FISCAL = Signer("Marcos Lima", "Fiscal de Transportes", "3.001-2", "Secretaria Municipal de Finanças")
INSPECTOR = Signer("Paulo Reis", "Vistoriador de Veículos", "2.001-9", "Secretaria Municipal de Finanças")


def meta(number: str = "0042/2026") -> DocumentMeta:
    return DocumentMeta(number, ISSUED_AT, "Ana Souza")


def sticker_ctx(n: int = 1, layout: str = sticker.LAYOUT_PAGE):
    data = [sticker.StickerData(f"{7 + i:04d}/2026", "QAB1D23" if i == 0 else f"QAB{i % 10}C{i % 100:02d}",
                                date(2026, 12, 31), "Chevrolet Onix – prata") for i in range(n)]
    return sticker.make_context(HEADER, meta(), data, KEYS.private_bytes, layout)


def credential_ctx():
    return credential.make_context(
        HEADER, meta(), driver_name="Joana Araújo Conceição", cpf="12345678909", cnh_number="01234567890",
        cnh_category="B", authorization_number="0007/2026", valid_until=date(2026, 12, 31), plate="QAB1D23",
        vehicle="Chevrolet Onix 1.0 – prata", private_key=KEYS.private_bytes, photo=brasao_png(),
    )


def certificate_ctx():
    return certificate.make_context(
        HEADER, meta(), authorization_number="0007/2026", driver_name="Joana Araújo Conceição", cpf="12345678909",
        cnh_number="01234567890", cnh_category="B", address="Rua Cipriano Curvo, 100, Centro, Chapada dos Guimarães–MT",
        plate="QAB1D23", renavam="00123456789", vehicle="Chevrolet Onix 1.0", manufacture_year=2019,
        model_year=2020, colour="prata", ownership="Em nome do condutor proprietário (Art. 8º, §3º, I)",
        fee_paid_on=date(2026, 1, 2), valid_until=date(2026, 12, 31), limited_by_vehicle_age=False,
        renewal_deadline=date(2026, 12, 8), inspection="aprovada em 05/01/2026", signer=GESTOR,
    )


def auto_ctx():
    return auto.make_context(
        HEADER, meta(), auto_number="0003/2026", drawn_up_at=datetime(2026, 3, 14, 22, 40, tzinfo=TZ),
        place="Praça Dom Wunibaldo, Centro", infractor_kind="condutor", infractor_name="Joana Araújo Conceição",
        infractor_document="12345678909", infractor_address="Rua Cipriano Curvo, 100, Centro", plate="QAB1D23",
        authorization_number="0007/2026", code="ART26-IV",
        description="Embarque de usuário diretamente na via pública, sem intermediação da plataforma",
        legal_basis="Art. 26, IV", severity="grave", upfm=Decimal("30"), upfm_value=Decimal("5.55"),
        amount=Decimal("166.50"), penalties="Multa", measures="",
        facts="O agente presenciou a condutora oferecendo corrida a turistas na praça, sem chamada pelo aplicativo.",
        agent=FISCAL, defense_days=15,
    )


RECIPIENT = notices.Recipient("Joana Araújo Conceição", "12345678909", "Rua Cipriano Curvo, 100, Centro",
                              "QAB1D23", "0007/2026")


def notice_ctxs():
    m = meta()
    return {
        notices.AUTUACAO: notices.autuacao(
            HEADER, m, signer=GESTOR, notice_number="0011/2026", recipient=RECIPIENT, auto_number="0003/2026",
            drawn_up_at=datetime(2026, 3, 14, 22, 40, tzinfo=TZ), infraction="ART26-IV – embarque na via pública",
            legal_basis="Art. 26, IV", amount=Decimal("166.50"), defense_days=15, notify_platform="Rota Certa Ltda"),
        notices.PENALTY: notices.penalty(
            HEADER, m, signer=GESTOR, notice_number="0012/2026", recipient=RECIPIENT, auto_number="0003/2026",
            decision_date=date(2026, 4, 20), penalties="Multa de 30 UPFM", amount=Decimal("166.50"),
            due_date=date(2026, 5, 20), appeal_days=15, legal_basis="Art. 26, IV"),
        notices.REGULARIZATION: notices.regularization(
            HEADER, m, signer=GESTOR, notice_number="0013/2026", recipient=RECIPIENT, reference="Laudo de vistoria nº 0005/2026",
            pending_items=("Pneu dianteiro direito gasto", "Adesivo publicitário na porta traseira"),
            deadline=date(2026, 3, 20)),
        notices.INSPECTION_CONVOCATION: notices.inspection_convocation(
            HEADER, m, signer=GESTOR, notice_number="0014/2026", recipient=RECIPIENT,
            scheduled_at=datetime(2026, 12, 10, 9, 30, tzinfo=TZ), place="Pátio da Secretaria, Rua Quinco Caldas, 50",
            inspection_kind="anual", platform="Rota Certa Ltda"),
        notices.RENEWAL_REMINDER: notices.renewal_reminder(
            HEADER, m, signer=GESTOR, notice_number="0015/2026", recipient=RECIPIENT, valid_until=date(2026, 12, 31),
            last_timely_day=date(2026, 12, 8)),
    }


def data_request_ctx():
    return data_request.make_context(
        HEADER, meta(), request_number="0002/2026", platform_name="Rota Certa Tecnologia Ltda",
        platform_cnpj="11222333000181", platform_address="Av. Paulista, 1000, São Paulo–SP",
        justification="Apuração de denúncia de embarque na via pública (Art. 7º) na noite de 14/03/2026.",
        period_start=date(2026, 3, 1), period_end=date(2026, 3, 15), fields=("I", "II", "IV", "V", "VII"),
        other_fields="placa do veículo em cada viagem", investigation=True,
        notified_at=datetime(2026, 3, 16, 10, 15, tzinfo=TZ), signer=GESTOR,
    )


def edital_ctx(n: int = 3):
    words = {"ART26-IV": "Embarcar usuário diretamente na via pública, sem intermediação da plataforma (Art. 26, IV)",
             "ART26-III": "Descumprir dever do condutor previsto no Art. 13 (Art. 26, III)",
             "ART27": "Transporte ilegal: prestação do serviço em desacordo com a Lei (Art. 27)"}
    rows = tuple(edital.EditalRow(f"{3 + i:04d}/2026", name, doc, plate, code, date(2026, 3, 1) + timedelta(days=13 + i),
                                  amount, words[code])
                 for i, (name, doc, plate, code, amount) in enumerate([
                     ("Joana Araújo Conceição", "12345678909", "QAB1D23", "ART26-IV", Decimal("166.50")),
                     ("Rota Certa Tecnologia Ltda", "11222333000181", "", "ART26-III", Decimal("111.00")),
                     ("João Ninguém da Silva", "98765432100", "QAB2C02", "ART27", Decimal("222.00")),
                 ] * ((n + 2) // 3)) if i < n)
    return edital.make_context(HEADER, meta(), edital_number="0001/2026", means=("II", "IV"),
                                publication_date=date(2026, 4, 2), defense_days=15, rows=rows, signer=GESTOR)


def inspection_ctx(approved: bool = False):
    lines = (
        inspection.ChecklistLine("Quatro portas", "Art. 2º, §1º", True),
        inspection.ChecklistLine("Ar-condicionado funcionando", "Art. 2º, §1º; Art. 15, V", True),
        inspection.ChecklistLine("Pneus e conservação", "Art. 13, XIV; Art. 15, I", approved, "" if approved else "Pneu gasto"),
        inspection.ChecklistLine("Sem adesivos publicitários externos", "Art. 13, XV", approved,
                                 "" if approved else "Adesivo na porta traseira"),
        inspection.ChecklistLine("Adesivo municipal no painel, lado direito", "Art. 14", True),
        inspection.ChecklistLine("Higiene e limpeza", "Art. 13, XIII", True),
    )
    return inspection.make_context(
        HEADER, meta(), inspection_number="0005/2026", kind="anual (Art. 16)",
        performed_at=datetime(2026, 3, 13, 9, 0, tzinfo=TZ), place="Pátio da Secretaria", inspector_name="Paulo Reis",
        driver_name="Joana Araújo Conceição", authorization_number="0007/2026", plate="QAB1D23",
        renavam="00123456789", vehicle="Chevrolet Onix 1.0, prata", manufacture_year=2019, odometer_km=84210,
        lines=lines, approved=approved, regularize_until=None if approved else date(2026, 3, 18), signer=INSPECTOR,
    )


def statement_ctx():
    lines = [
        statement.StatementLine(date(2026, 3, 14), "Multa – auto nº 0003/2026 (Art. 26, IV)", "0003/2026",
                                Decimal("30"), Decimal("0"), Decimal("166.50")),
        statement.StatementLine(date(2026, 5, 2), "Pagamento – DAM nº 0009/2026", "0009/2026",
                                Decimal("0"), Decimal("10"), Decimal("55.50")),
        statement.StatementLine(date(2027, 1, 5), "Multa futura", "0001/2027", Decimal("10"), Decimal("0"),
                                Decimal("60.00")),
    ]
    return statement.make_context(HEADER, meta(), infractor_name="Joana Araújo Conceição",
                                   infractor_document="12345678909", as_of=date(2026, 11, 29), lines=lines,
                                   upfm_value_today=Decimal("5.55"))


def attendance_ctx(n: int = 4):
    names = ["Joana Araújo Conceição", "Sebastião Gonçalves", "Márcia Antônia Pires", "Luís Ângelo Frota"]
    rows = tuple(attendance.AttendanceRow(names[i % 4], f"{i:03d}45678909"[:11], f"{7 + i:04d}/2026")
                 for i in range(n))
    return attendance.make_context(HEADER, meta(), session_number="0002/2026",
                                    topic="Normas de conduta e atendimento a pessoas com deficiência",
                                    starts_at=datetime(2026, 12, 3, 14, 0, tzinfo=TZ), place="Auditório da Prefeitura",
                                    instructor="Regina Campos", capacity=30, rows=rows, signer=GESTOR)


def guide_ctx(pix_key: str | None = "12345678000195"):
    header = MunicipalityHeader(HEADER.name, HEADER.uf, HEADER.secretariat, PHONE, HEADER.brasao_png, pix_key)
    return guide.make_context(
        header, meta(), guide_number="0009/2026", purpose="Taxa de autorização (Art. 10; Art. 15, VII)",
        taxpayer_name="Joana Araújo Conceição", taxpayer_document="12345678909",
        taxpayer_address="Rua Cipriano Curvo, 100, Centro, Chapada dos Guimarães–MT",
        reference="Autorização nº 0007/2026 – placa QAB1D23",
        items=[guide.GuideItem("Taxa de autorização — 5 UPFM × R$ 5,55", Decimal("27.75")),
               guide.GuideItem("Remoção e estada do veículo (Art. 28)", Decimal("1211.10"))],
        due_date=date(2026, 12, 15), company_id="0123",
    )


# ------------------------------------------------------------------ reading back
def pdf_text(data: bytes) -> str:
    from pypdf import PdfReader
    return "\n".join(page.extract_text() or "" for page in PdfReader(io.BytesIO(data)).pages)


def page_count(data: bytes) -> int:
    from pypdf import PdfReader
    return len(PdfReader(io.BytesIO(data)).pages)


def png_pages(data: bytes, dpi: int = 300, first: int = 1, last: int = 1) -> list[Path]:
    folder = Path(tempfile.mkdtemp(prefix="pdfpng"))
    pdf = folder / "doc.pdf"
    pdf.write_bytes(data)
    subprocess.run(["pdftoppm", "-r", str(dpi), "-png", "-f", str(first), "-l", str(last), str(pdf),
                    str(folder / "page")], check=True)
    return sorted(folder.glob("page*.png"))


def decode(png: Path):
    import zxingcpp
    from PIL import Image
    return zxingcpp.read_barcodes(Image.open(png))
