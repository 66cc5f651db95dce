"""Every document rendered from the scenario, read back with pypdf: the legal words and the record's values
are on the page as real text; codes decode as a scanner reads them (pdftoppm -r 300 + zxing-cpp)."""
import io
from datetime import date, datetime

import pytest
import reports_scenario as s
from pypdf import PdfReader

from desktop.reports import (
    attendance, auto, certificate, credential, data_request, edital, febraban, guide, inspection, notices, pix,
    reprint, statement, sticker,
)
from desktop.reports.common import TZ
from desktop.signing import VALID, verify_sticker


def text_of(data: bytes) -> str:
    """The words of the PDF with line breaks folded into spaces (a cell may wrap a phrase)."""
    return " ".join(s.pdf_text(data).split())


def test_fonts_are_embedded_so_accents_print_and_extract():
    data = certificate.render(s.certificate_ctx())
    page = PdfReader(io.BytesIO(data)).pages[0]
    fonts = page["/Resources"]["/Font"]
    names = {str(fonts[key].get_object()["/BaseFont"]) for key in fonts}
    assert any("DejaVuSans" in name for name in names)
    for key in fonts:
        descendant = fonts[key].get_object()
        if "DejaVuSans" not in str(descendant["/BaseFont"]):
            continue
        descriptor = descendant.get("/FontDescriptor")
        if descriptor is None and "/DescendantFonts" in descendant:
            descriptor = descendant["/DescendantFonts"][0].get_object()["/FontDescriptor"]
        assert "/FontFile2" in descriptor.get_object()        # TrueType program embedded
    text = text_of(data)
    for word in ("AUTORIZAÇÃO", "Conceição", "Araújo", "nº", "Município", "Finanças", "§ 1º"):
        assert word in text


def test_art14_sticker_shows_number_validity_ouvidoria_and_plate():
    data = sticker.render(s.sticker_ctx(1))
    text = text_of(data)
    for expected in ("0007/2026", "31/12/2026", "QAB1D23", s.PHONE, "Art. 14", "Lei nº 2.103/2025",
                     "PREFEITURA MUNICIPAL DE CHAPADA DOS GUIMARÃES", "Secretaria Municipal de Finanças",
                     "Documento nº 0042/2026", "29/11/2026 às 14:03", "Ouvidoria"):
        assert expected in text, expected
    assert s.page_count(data) == 1


def test_art14_sticker_qr_decodes_to_the_signed_payload_and_verifies():
    ctx = s.sticker_ctx(1)
    png = s.png_pages(sticker.render(ctx), dpi=300)[0]
    found = [r.text for r in s.decode(png) if r.format.name == "QRCode"]
    assert found == [ctx.items[0].qr_payload]
    check = verify_sticker(found[0], s.KEYS.public_bytes, datetime(2026, 11, 29).date())
    assert check.status == VALID and check.plate == "QAB1D23"


def test_art14_sticker_sheet_8_per_page_each_qr_its_own():
    ctx = s.sticker_ctx(10, sticker.LAYOUT_SHEET)
    data = sticker.render(ctx)
    assert s.page_count(data) == 2
    text = text_of(data)
    assert all(item.authorization_number in text for item in ctx.items)
    decoded = {r.text for r in s.decode(s.png_pages(data, dpi=300)[0]) if r.format.name == "QRCode"}
    assert decoded == {item.qr_payload for item in ctx.items[:8]}


def test_art14_sticker_batch_in_two_processes_gives_the_same_bytes():
    ctx = s.sticker_ctx(220, sticker.LAYOUT_SHEET)
    assert sticker.render(ctx, workers=2) == sticker.render(ctx)


def test_art13_I_credential_card_with_masked_cpf_and_qr():
    ctx = s.credential_ctx()
    data = credential.render(ctx)
    text = text_of(data)
    for expected in ("CREDENCIAL DO CONDUTOR", "Art. 13, I", "Joana Araújo Conceição", "***.456.789-**",
                     "*******7890 / B", "0007/2026", "31/12/2026", "QAB1D23", "Chevrolet Onix", s.PHONE):
        assert expected in text, expected
    assert "123.456.789-09" not in text                       # LGPD: the card shows the masked CPF
    assert "01234567890" not in text                          # issue 28: and the masked CNH (LGPD, art. 6º, III)
    found = [r.text for r in s.decode(s.png_pages(data, dpi=300)[0]) if r.format.name == "QRCode"]
    assert found == [ctx.qr_payload]
    # issue 28: the QR ties the card to its driver — the masked CPF and CNH are signed into it
    assert found[0].startswith("TPC1|0007/2026|QAB1D23|31/12/2026|***.456.789-**|*******7890|")
    check = verify_sticker(found[0], s.KEYS.public_bytes, date(2026, 12, 1))
    assert check.status == "valid" and "***.456.789-**" in check.message_pt and "*******7890" in check.message_pt
    forged = found[0].replace("***.456.789-**", "***.111.222-**")
    assert verify_sticker(forged, s.KEYS.public_bytes, date(2026, 12, 1)).status == "forged"


def test_credential_card_is_id1_size():
    from reportlab.lib.units import mm
    assert (credential.CARD_W_MM, credential.CARD_H_MM) == (85.6, 54.0)
    assert round(credential.CARD_W_MM * mm, 1) == 242.6


def test_art3_certificate_with_legal_basis_and_validity():
    text = text_of(certificate.render(s.certificate_ctx()))
    for expected in ("TERMO DE AUTORIZAÇÃO Nº 0007/2026", "Lei Municipal nº 2.103, de 04 de junho de 2025",
                     "arts. 3º e 8º", "Art. 3º, § 1º", "Art. 3º, § 2º", "Art. 14", "02/01/2026", "31/12/2026",
                     "08/12/2026", "123.456.789-09", "QAB1D23", "00123456789", "2019/2020", "Carlos Mendes"):
        assert expected in text, expected


def test_art19_auto_in_two_copies_process_and_infractor():
    data = auto.render(s.auto_ctx())
    reader = PdfReader(io.BytesIO(data))
    assert len(reader.pages) == 2
    first, second = (" ".join(page.extract_text().split()) for page in reader.pages)
    assert "VIA DO PROCESSO" in first.upper() and "Via do processo" in first
    assert "Via do infrator" in second
    for page in (first, second):
        for expected in ("AUTO DE INFRAÇÃO Nº 0003/2026", "Art. 19", "Art. 26, IV", "Art. 22, § 2º",
                         "14/03/2026 às 22:40", "QAB1D23", "R$ 166,50", "30 UPFM", "Marcos Lima", "15 dias"):
            assert expected in page, expected


@pytest.mark.parametrize("kind, expected", [
    (notices.AUTUACAO, ("NOTIFICAÇÃO DE AUTUAÇÃO Nº 0011/2026", "Art. 22", "Art. 22, § 2º", "R$ 166,50",
                        "0003/2026", "Rota Certa Ltda", "14/03/2026 às 22:40")),
    # a fine-only case (ART26-IV, first time): no sentence on suspension (issue 24 item 6), the appeal from the joining
    (notices.PENALTY, ("NOTIFICAÇÃO DE PENALIDADE Nº 0012/2026", "20/05/2026", "20/04/2026", "R$ 166,50",
                       "Art. 22, § 2º", "Art. 26, IV")),
    (notices.REGULARIZATION, ("NOTIFICAÇÃO PARA REGULARIZAÇÃO Nº 0013/2026", "20/03/2026", "Art. 16, § 2º",
                              "Art. 24, II, a", "Pneu dianteiro direito gasto", "Art. 26, II")),
    (notices.INSPECTION_CONVOCATION, ("CONVOCAÇÃO PARA VISTORIA Nº 0014/2026", "10/12/2026 às 09:30",
                                      "Art. 26, I", "Art. 16", "Art. 14", "Rota Certa Ltda")),
    (notices.RENEWAL_REMINDER, ("AVISO DE VENCIMENTO Nº 0015/2026", "Autorização nº 0007/2026, válida até 31/12/2026",
                                "31/12/2026", "08/12/2026",
                                "Art. 3º, § 2º", "15 (quinze) dias úteis")),
])
def test_notices_carry_their_article_and_values(kind, expected):
    text = text_of(notices.render(s.notice_ctxs()[kind]))
    for word in expected + ("Joana Araújo Conceição", "123.456.789-09", "QAB1D23", "Documento nº 0042/2026"):
        assert word in text, word


def test_art4_par2_data_request_with_24_hour_term():
    ctx = s.data_request_ctx()
    assert ctx.deadline == datetime(2026, 3, 17, 10, 15, tzinfo=TZ)
    text = text_of(data_request.render(ctx))
    for expected in ("REQUISIÇÃO DE DADOS Nº 0002/2026", "Art. 4º, § 2º", "24 (vinte e quatro) horas",
                     "16/03/2026 às 10:15", "até 17/03/2026 às 10:15", "11.222.333/0001-81",
                     "origem e destino da viagem", "placa do veículo em cada viagem", "01/03/2026", "15/03/2026",
                     "privacidade"):
        assert expected in text, expected
    assert "avaliação, pelo usuário" not in text          # field VI was not asked


def test_art4_data_request_refuses_fields_outside_par1():
    with pytest.raises(ValueError, match="Art. 4º, §1º"):
        data_request.make_context(s.HEADER, s.meta(), request_number="1/2026", platform_name="X",
                                   platform_cnpj="11222333000181", platform_address="", justification="j",
                                   period_start=datetime(2026, 1, 1).date(), period_end=datetime(2026, 1, 2).date(),
                                   fields=("VIII",), other_fields="", investigation=False, notified_at=None)


def test_art22_par1_edital_list_masks_cpf_and_names_the_means():
    data = edital.render(s.edital_ctx(40))
    text = text_of(data)
    assert s.page_count(data) >= 2
    for expected in ("EDITAL DE NOTIFICAÇÃO Nº 0001/2026", "Art. 22, § 1º, II, IV",
                     "afixação no quadro de editais", "Órgão de Imprensa Oficial", "02/04/2026",
                     "***.456.789-**", "11.222.333/0001-81", "R$ 166,50", "0042/2026", "Total de autos relacionados: 40"):
        assert expected in text, expected
    assert "123.456.789-09" not in text


def test_art16_par2_failed_inspection_report_with_5_day_term():
    text = text_of(inspection.render(s.inspection_ctx(approved=False)))
    for expected in ("LAUDO DE VISTORIA Nº 0005/2026", "REPROVADO", "18/03/2026", "Art. 16, § 2º", "NÃO CONFORME",
                     "Art. 13, XV", "Art. 14", "QAB1D23", "84.210 km", "Paulo Reis"):
        assert expected in text, expected
    approved = text_of(inspection.render(s.inspection_ctx(approved=True)))
    assert "APROVADO" in approved and "REPROVADO" not in approved


def test_ledger_statement_balance_at_a_date():
    ctx = s.statement_ctx()
    assert len(ctx.lines) == 2                              # the 2027 entry is after the date asked
    text = text_of(statement.render(ctx))
    for expected in ("EXTRATO DO INFRATOR", "29/11/2026", "Art. 25", "30,00", "10,00", "20,00 UPFM", "R$ 111,00",
                     "R$ 166,50", "14/03/2026", "0003/2026", "123.456.789-09"):
        assert expected in text, expected


def test_art12_par2_course_attendance_list():
    text = text_of(attendance.render(s.attendance_ctx(4)))
    for expected in ("LISTA DE PRESENÇA", "Art. 12, § 2º", "03/12/2026 às 14:00", "Regina Campos",
                     "Sebastião Gonçalves", "4 / 30", "0007/2026"):
        assert expected in text, expected
    with pytest.raises(ValueError):
        s.attendance_ctx(31)


def test_dam_guide_barcode_and_typed_line_decode_and_match():
    ctx = s.guide_ctx()
    data = guide.render(ctx)
    text = text_of(data)
    for expected in ("DOCUMENTO DE ARRECADAÇÃO MUNICIPAL", "0009/2026", "15/12/2026", "R$ 1.238,85", "R$ 27,75",
                     "Art. 10", "Joana Araújo Conceição", "123.456.789-09", febraban.format_typed_line(ctx.typed_line),
                     "Pague com PIX"):
        assert expected in text, expected
    results = s.decode(s.png_pages(data, dpi=300)[0])
    barcodes = [r.text for r in results if r.format.name == "ITF"]
    assert barcodes == [ctx.barcode]
    assert febraban.is_valid_barcode(barcodes[0]) and barcodes[0][4:15] == "00000123885"
    qrs = [r.text for r in results if r.format.name == "QRCode"]
    assert qrs == [ctx.pix_payload] and pix.has_valid_crc(qrs[0]) and "54071238.85" in qrs[0]


def test_dam_guide_without_pix_key_has_no_pix():
    ctx = s.guide_ctx(pix_key=None)
    assert ctx.pix_payload is None
    text = text_of(guide.render(ctx))
    assert "PIX" not in text and febraban.format_typed_line(ctx.typed_line) in text


def test_reprint_is_the_archived_text_plus_the_copy_mark():
    original = notices.render(s.notice_ctxs()[notices.PENALTY])
    when = datetime(2026, 12, 1, 9, 0, tzinfo=TZ)
    copy = reprint.stamp_copy(original, "2ª via", when, "Ana Souza")
    before, after = PdfReader(io.BytesIO(original)).pages, PdfReader(io.BytesIO(copy)).pages
    assert len(before) == len(after)
    mark = reprint.copy_mark("2ª via", when, "Ana Souza")
    for old, new in zip(before, after):
        old_text, new_text = old.extract_text(), new.extract_text()
        assert new_text.startswith(old_text)
        assert new_text[len(old_text):].split() == (mark + " 2ª VIA").split()


def test_reprint_stamps_every_page_of_a_two_copy_auto():
    copy = reprint.stamp_copy(auto.render(s.auto_ctx()))
    pages = PdfReader(io.BytesIO(copy)).pages
    assert len(pages) == 2
    assert all("2ª VIA — reimpressão do documento arquivado" in page.extract_text() for page in pages)


def test_rendering_is_deterministic_so_the_archive_hash_means_something():
    assert notices.render(s.notice_ctxs()[notices.AUTUACAO]) == notices.render(s.notice_ctxs()[notices.AUTUACAO])


def test_issue12_12_a_legal_date_time_prints_in_cuiaba_whatever_zone_it_comes_in():
    """The auto's date-time and the footer's issue moment are both America/Cuiabá (UTC−4): an instant held in
    UTC (12:56Z) prints 08:56 on the auto and in the footer — never the machine's zone."""
    import dataclasses
    from datetime import timezone

    from desktop.reports import auto as auto_report

    moment = datetime(2026, 11, 18, 12, 56, tzinfo=timezone.utc)
    ctx = dataclasses.replace(s.auto_ctx(), drawn_up_at=moment,
                              meta=dataclasses.replace(s.meta(), issued_at=moment))
    text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(auto_report.render(ctx))).pages)
    assert "18/11/2026 às 08:56" in text and "12:56" not in text


@pytest.mark.parametrize("layout", [sticker.LAYOUT_PAGE, sticker.LAYOUT_SHEET])
def test_demo_sticker_pdf_is_sound_its_mark_on_every_page(layout, tmp_path):
    """The translucent demo mark (issue 11) lives in each page's resources: a viewer finds its transparency
    (poppler once said "ExtGState 'gRLs0' is unknown" when it was drawn inside the repeated page form)."""
    import dataclasses
    import subprocess

    ctx = s.sticker_ctx(9, layout)
    ctx = dataclasses.replace(ctx, header=dataclasses.replace(ctx.header, demo=True))
    pdf = tmp_path / "demo.pdf"
    pdf.write_bytes(sticker.render(ctx))
    done = subprocess.run(["pdftoppm", "-r", "30", "-png", str(pdf), str(tmp_path / "p")], capture_output=True,
                          text=True, check=True)
    assert "unknown" not in done.stderr.lower() and "error" not in done.stderr.lower(), done.stderr
    pages = PdfReader(io.BytesIO(pdf.read_bytes())).pages
    assert len(pages) == (9 if layout == sticker.LAYOUT_PAGE else 2)
    assert all("DEMONSTRAÇÃO" in page.extract_text() for page in pages)
