"""Issue 28: every act as a judge, a bank and a citizen's lawyer would read it — rendered from the scenario, read
back with pypdf: the signer with office and matrícula (Lei 9.784/99, art. 22, § 1º), moments with their zone,
the edital's publication elements, a failed laudo item that says what is wrong, the credential's masked CNH and
required photo, the demo mark on every piece that can be cut out, and no text running into other text."""
from dataclasses import replace
from datetime import date, datetime
from decimal import Decimal

import overlap
import pytest
import reports_scenario as s

from desktop.errors import ConflictError
from desktop.reports import certificate, credential, data_request, edital, inspection, sticker
from desktop.reports._pdf import DEMO_MARK
from desktop.reports.common import DocumentMeta, Signer, fmt_moment


def text_of(data: bytes) -> str:
    return " ".join(s.pdf_text(data).split())


DEMO = replace(s.HEADER, demo=True)


def signed_by(text: str, signer: Signer) -> bool:
    name, office, registration = signer.lines
    return name in text and office in text and registration in text


def test_signer_needs_name_office_and_registration():
    with pytest.raises(ValueError, match="cargo e matrícula"):
        Signer("Carlos Mendes", "", "4.001-7")
    with pytest.raises(ValueError):
        Signer("Carlos Mendes", "Secretário", " ")
    assert s.GESTOR.inline == "Carlos Mendes, Secretário Municipal de Finanças, matrícula nº 4.001-7"


@pytest.mark.parametrize("render, ctx, signer", [
    (certificate.render, s.certificate_ctx, s.GESTOR),
    (edital.render, s.edital_ctx, s.GESTOR),
    (data_request.render, s.data_request_ctx, s.GESTOR),
    (inspection.render, s.inspection_ctx, s.INSPECTOR),
])
def test_lei9784_art22_par1_every_act_prints_its_signer_office_and_registration(render, ctx, signer):
    text = text_of(render(ctx()))
    assert signed_by(text, signer)
    for impostor in ("Autoridade competente", "rotina automática", "Linha de comando", "Secretário(a) Municipal"):
        assert impostor not in text


def test_an_act_without_its_signer_is_not_rendered():
    for render, ctx in ((edital.render, s.edital_ctx), (data_request.render, s.data_request_ctx),
                        (inspection.render, s.inspection_ctx)):
        with pytest.raises(ValueError, match="assina"):
            render(replace(ctx(), signer=None))


def test_every_moment_prints_its_zone_and_the_ofício_deadline_brasilia_too():
    from zoneinfo import ZoneInfo
    utc = datetime(2026, 12, 3, 4, 9, tzinfo=ZoneInfo("UTC"))
    assert fmt_moment(utc) == "03/12/2026 às 00:09 (horário de Cuiabá, UTC−04:00)"
    assert fmt_moment(utc, brasilia=True).endswith("isto é, 01:09 no horário de Brasília (UTC−03:00)")
    text = text_of(data_request.render(s.data_request_ctx()))
    assert "até 17/03/2026 às 10:15 (horário de Cuiabá, UTC−04:00), isto é, 11:15 no horário de Brasília" in text
    assert "emitido em 29/11/2026 às 14:03 (horário de Cuiabá, UTC−04:00)" in text     # the footer too


def test_art22_par1_edital_names_the_infraction_in_words_and_its_publication_elements():
    text = text_of(edital.render(s.edital_ctx()))
    assert "Embarcar usuário diretamente na via pública" in text and "código ART26-IV" in text
    for element in ("Elementos da publicação", "Chapada dos Guimarães–MT, 2 de abril de 2026", "Autoridade",
                    "Carlos Mendes, Secretário Municipal de Finanças, matrícula nº 4.001-7",
                    "Quadro de editais (II)", "afixado em", "permanência mínima de 15 dias",
                    "Imprensa oficial (IV)", "edição nº", "página"):
        assert element in text, element
    assert "Jornal (III)" not in text          # only the means the notifications used


def test_art16_par2_a_failed_item_says_what_is_wrong():
    text = text_of(inspection.render(s.inspection_ctx(approved=False)))
    assert "NÃO CONFORME: Pneu gasto" in text and "NÃO CONFORME: Adesivo na porta traseira" in text
    assert "Pendências a regularizar: Pneus e conservação: Pneu gasto" in text
    lines = tuple(replace(line, note="") if not line.ok else line for line in s.inspection_ctx().lines)
    bare = text_of(inspection.render(replace(s.inspection_ctx(), lines=lines)))
    assert "NÃO CONFORME: não atende ao requisito (Art. 13, XIV; Art. 15, I)" in bare


def test_art13_I_credential_refused_without_the_photo():
    with pytest.raises(ConflictError, match="pessoal e intransferível"):
        credential.make_context(
            s.HEADER, s.meta(), driver_name="Joana", cpf="12345678909", cnh_number="01234567890", cnh_category="B",
            authorization_number="0007/2026", valid_until=date(2026, 12, 31), plate="QAB1D23", vehicle="Onix",
            private_key=s.KEYS.private_bytes, photo=None)


def test_demo_mark_on_each_of_the_8_stickers_of_a_sheet_and_on_both_sides_of_the_credential():
    ctx = replace(s.sticker_ctx(8, sticker.LAYOUT_SHEET), header=DEMO)
    text = s.pdf_text(sticker.render(ctx))
    assert text.count(DEMO_MARK) == 1 + 8            # the sheet's and each sticker's own
    page = s.pdf_text(sticker.render(replace(s.sticker_ctx(1), header=DEMO)))
    assert page.count(DEMO_MARK) == 2
    card = s.pdf_text(credential.render(replace(s.credential_ctx(), header=DEMO)))
    assert card.count(DEMO_MARK) == 3                # the sheet, the front and the back
    assert DEMO_MARK not in s.pdf_text(sticker.render(s.sticker_ctx(8, sticker.LAYOUT_SHEET)))


def test_demo_marks_fall_inside_each_sticker():
    """The mark of each cut-out piece is centred on it: the page shows ink of the mark's colour in the middle
    of all 8 stickers (read from the picture pdftoppm draws)."""
    from PIL import Image
    from reportlab.lib.units import mm
    ctx = replace(s.sticker_ctx(8, sticker.LAYOUT_SHEET), header=DEMO)
    png = s.png_pages(sticker.render(ctx), dpi=50)[0]
    image = Image.open(png).convert("RGB")
    scale = 50 / 72
    w, h = sticker.STICKER_W_MM * mm, sticker.STICKER_H_MM * mm
    gap_x, gap_y = 6 * mm, 7 * mm
    left = (595.2756 - (2 * w + gap_x)) / 2
    top = 841.8898 - 12 * mm
    reddish = 0
    for i in range(8):
        col, row = i % 2, i // 2
        x, y = left + col * (w + gap_x), top - (row + 1) * h - row * gap_y
        box = image.crop((int((x + w * 0.3) * scale), int((841.8898 - y - h * 0.7) * scale),
                          int((x + w * 0.55) * scale), int((841.8898 - y - h * 0.3) * scale)))
        px = box.load()
        if any(px[i, j][0] > px[i, j][1] + 40 and px[i, j][0] > px[i, j][2] + 40
               for i in range(box.width) for j in range(box.height)):
            reddish += 1
    assert reddish == 8


def test_batch_sticker_footer_does_not_overprint_its_page_label():
    long_name = DocumentMeta("0042/2026", s.ISSUED_AT, "Maria Aparecida dos Santos Albuquerque de Figueiredo")
    ctx = replace(s.sticker_ctx(8, sticker.LAYOUT_SHEET), meta=long_name)
    runs = [r for r in overlap.runs(sticker.render(ctx)) if r.text.startswith(("Documento nº", "Folha"))]
    assert len(runs) == 2
    footer, label = sorted(runs, key=lambda r: r.x0)
    assert footer.x1 < label.x0, (footer, label)


@pytest.mark.parametrize("render, ctx", [
    (certificate.render, s.certificate_ctx),
    (edital.render, lambda: s.edital_ctx(40)),
    (data_request.render, s.data_request_ctx),
    (inspection.render, lambda: s.inspection_ctx(False)),
    (inspection.render, lambda: s.inspection_ctx(True)),
    (credential.render, s.credential_ctx),
])
def test_no_text_runs_into_other_text(render, ctx):
    overlap.assert_no_overlap(render(ctx()))


def test_the_overlap_check_catches_overprinted_text():
    """The check itself: two strings drawn at the same place are found."""
    import io

    from desktop.reports import _pdf
    buffer = io.BytesIO()
    c = _pdf.new_canvas(buffer, "teste")
    c.setFont(_pdf.fonts()[0], 10)
    c.drawString(100, 100, "(rotina automática)")
    c.drawString(150, 100, "Folha 1 de 8")
    c.drawString(100, 300, "sozinho")
    c.showPage()
    c.save()
    bad = overlap.overlaps(buffer.getvalue())
    assert [(a.text, b.text) for a, b in bad] == [("(rotina automática)", "Folha 1 de 8")]


def test_art8_par2_certificate_of_a_vehicle_in_its_last_year_asks_for_a_substitute_to_renew():
    last = replace(s.certificate_ctx(), manufacture_year=2016, limited_by_vehicle_age=True)
    text = text_of(certificate.render(last))
    assert "Este veículo não poderá servir após 31/12/2026" in text
    assert "substituição do veículo" in text and "Art. 8º, § 2º" in text
    assert "substituição" not in text_of(certificate.render(s.certificate_ctx()))    # a 2019 vehicle renews


# --- issue 28 point 4: a fine still under defense or appeal — paying it waives neither ----------------------------
def test_art22_dam_of_a_fine_under_appeal_says_payment_is_no_waiver_and_a_final_one_does_not():
    from desktop.domain.guides import fine_payment_note
    from desktop.reports import guide

    note = fine_payment_note("0003/2026", "judged")
    pdf = guide.render(replace(s.guide_ctx(), notes=(note,)))
    overlap.assert_no_overlap(pdf)
    text = text_of(pdf)
    assert "o pagamento não implica renúncia ao recurso" in text and "Auto nº 0003/2026 no prazo de recurso" in text
    assert "Art. 22, caput" in text and "restituída" in text
    for status in ("drawn_up", "notified", "in_defense", "in_appeal"):
        assert "não implica renúncia ao recurso" in fine_payment_note("0003/2026", status), status
    for status in ("final", "overdue", "divida_ativa", "paid"):
        assert fine_payment_note("0003/2026", status) == "", status
    assert "renúncia" not in text_of(guide.render(s.guide_ctx()))


# --- issue 28 point 2: notices and the auto are signed with name, office and matrícula ------------------------------
@pytest.mark.parametrize("kind", list(s.notice_ctxs()))
def test_lei9784_every_notice_prints_its_signer_office_and_registration(kind):
    from desktop.reports import notices

    ctx = s.notice_ctxs()[kind]
    text = text_of(notices.render(ctx))
    assert signed_by(text, s.GESTOR), kind
    assert "Autoridade competente" not in text and "Secretaria Municipal Recebi" not in text
    with pytest.raises(ValueError, match="assina"):
        notices.render(replace(ctx, signer=None))


def test_art19_lei9784_the_auto_is_signed_by_its_agent_with_office_and_registration():
    from desktop.reports import auto

    text = text_of(auto.render(s.auto_ctx()))
    assert text.count("Matrícula nº 3.001-2") == 2 and "Fiscal de Transportes — Secretaria Municipal" in text
    assert signed_by(text, s.FISCAL)


def test_art3_par2_the_renewal_notice_title_is_the_notices_number_not_the_authorizations():
    from desktop.reports import notices

    text = text_of(notices.render(s.notice_ctxs()[notices.RENEWAL_REMINDER]))
    assert "AVISO DE VENCIMENTO Nº 0015/2026" in text
    assert "Referência: Autorização nº 0007/2026, válida até 31/12/2026" in text
    assert "AUTORIZAÇÃO Nº 0015/2026" not in text.upper()


# --- issue 28 point 9: the certidão de dívida ativa, every element of Lei 6.830/80 art. 2º § 5º / CTN art. 202 -----
def _certidao_ctx(**changes):
    from desktop.reports import divida_ativa
    ctx = divida_ativa.CertidaoContext(
        s.HEADER, s.meta(), "0004/2026", date(2026, 6, 1), "Livro eletrônico 2026", 4, "Joana Araújo Conceição",
        "12345678909", "Rua Cipriano Curvo, 100, Centro", "Rota Certa Tecnologia Ltda — CNPJ 11.222.333/0001-81",
        "0003/2026", date(2026, 3, 14), "ART26-IV", "Embarque de usuário diretamente na via pública", "Art. 26, IV",
        Decimal("30"), Decimal("5.55"), Decimal("166.50"), Decimal("111.00"), Decimal("1211.10"), date(2026, 5, 20),
        Decimal("2"), Decimal("1"), s.GESTOR)
    return replace(ctx, **changes)


def test_art25_certidao_de_divida_ativa_prints_every_element_of_lei6830_and_ctn202_no_overlap():
    from desktop.reports import divida_ativa

    pdf = divida_ativa.render(_certidao_ctx())
    overlap.assert_no_overlap(pdf)
    text = text_of(pdf)
    for element in ("INSCRIÇÃO Nº 0004/2026", "Joana Araújo Conceição", "123.456.789-09", "Rua Cipriano Curvo",
                    "Corresponsável", "Rota Certa", "Auto de Infração nº 0003/2026", "Dívida ativa não tributária",
                    "Art. 25 e Art. 26, IV da Lei", "Art. 28", "30,00 UPFM × R$ 5,55", "R$ 166,50", "R$ 111,00",
                    "R$ 1.211,10", "Total inscrito R$ 1.322,10", "Termo inicial dos encargos 21/05/2026",
                    "multa de mora de 2,00 %", "juros de mora de 1,00 % ao mês", "01/06/2026", "folha 4"):
        assert element in text, element
    assert signed_by(text, s.GESTOR)
    unset = text_of(divida_ativa.render(_certidao_ctx(fine_percent=None)))
    assert "não cadastrados neste sistema" in unset
    with pytest.raises(ValueError, match="assina"):
        divida_ativa.render(_certidao_ctx(signer=None))


# --- issue 28 point 4: the estimated ISSQN is a lançamento — its notice per platform and competência ---------------
def _issqn_notice_ctx(**changes):
    from desktop.reports import issqn_notice
    lines = tuple(issqn_notice.NoticeLine(plate, "Joana Araújo Conceição", "12345678909", code, name, 31,
                                          Decimal(base), Decimal("3"), Decimal(estimate), Decimal(amount))
                  for plate, code, name, base, estimate, amount in (
                      ("QAB1D23", "INTEGRAL", "Dedicação integral", "3000.00", "90.00", "45.00"),
                      ("QAB2C02", "PARCIAL", "Dedicação parcial", "1000.01", "30.00", "30.00")))
    ctx = issqn_notice.IssqnNoticeContext(
        s.HEADER, s.meta(), "NT-0007/2026", "Rota Certa Tecnologia Ltda", "11222333000181",
        "Av. Paulista, 1000, São Paulo–SP", 2026, 10, lines, date(2026, 11, 10), 30,
        "Secretaria Municipal de Finanças — Rua Quinco Caldas, 50, Centro", False, "0031/2026", s.FISCAL)
    return replace(ctx, **changes)


def test_art11_par1_issqn_lancamento_notice_has_vehicles_classes_bases_rate_amount_term_and_place():
    from desktop.reports import issqn_notice

    pdf = issqn_notice.render(_issqn_notice_ctx())
    overlap.assert_no_overlap(pdf)
    text = text_of(pdf)
    for element in ("NOTIFICAÇÃO DE LANÇAMENTO DO ISSQN ESTIMADO Nº NT-0007/2026", "Competência 10/2026",
                    "CTN, arts. 142, 145 e 148", "Rota Certa Tecnologia Ltda", "11.222.333/0001-81",
                    "QAB1D23", "QAB2C02", "INTEGRAL — Dedicação integral", "PARCIAL", "R$ 3.000,00", "R$ 1.000,01",
                    "3,00 %", "R$ 90,00", "R$ 45,00", "R$ 30,00", "Total R$ 75,00", "2 veículo(s)",
                    "Valor lançado R$ 75,00", "Vencimento 10/11/2026 — guia (DAM) nº 0031/2026",
                    "30 dias, contados do recebimento desta notificação (CTN, art. 145, I",
                    "Onde impugnar Secretaria Municipal de Finanças — Rua Quinco Caldas, 50",
                    "repartido entre elas", "***.456.789-**"):
        assert element in text, element
    assert "123.456.789-09" not in text            # the drivers' CPF masked (LGPD)
    assert signed_by(text, s.FISCAL)
    with pytest.raises(ValueError, match="assina"):
        issqn_notice.render(_issqn_notice_ctx(signer=None))


def test_art12_par2_the_attendance_list_is_signed_by_who_issues_it_beside_the_instructor():
    from desktop.reports import attendance

    text = text_of(attendance.render(s.attendance_ctx()))
    assert signed_by(text, s.GESTOR) and "Regina Campos" in text and "Instrutor(a)" in text
    with pytest.raises(ValueError, match="assina"):
        attendance.render(replace(s.attendance_ctx(), signer=None))
