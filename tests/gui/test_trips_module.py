"""The Viagens module (issue 15): a fiscal imports a platform's trip file in the background (the report lists the
passenger columns dropped, Art. 4 caput), sees the fares per driver with the chart over months and exports them to
Excel, draws a trip's route on the plain canvas and prints it, and drafts an auto from a street-hailed trip
(Art. 7, Art. 26 IV) with the trip as evidence."""
from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from enforcement_fixtures import *  # noqa: F401,F403 - people, register fixtures
from enforcement_fixtures import _cpf

from desktop.domain.trips import CSV_COLUMNS
from desktop.views.table import ROW_ROLE

PASSENGER = "Zuleica Passageira Quixabeira"


def trips_file(tmp_path, rows, name="viagens.csv"):
    header = ["Nome do passageiro", "Telefone do passageiro", *CSV_COLUMNS.values()]
    lines = [";".join(header)]
    for ext, cpf, plate, start, hail in rows:
        values = {"ID da viagem": ext, "Placa": plate, "CPF do condutor": cpf, "Início": start, "Fim": "",
                  "Origem lat": "-15,4600", "Origem lon": "-55,7500", "Destino lat": "-15,4300",
                  "Destino lon": "-55,7100", "Distância (m)": "5300", "Duração (s)": "1200",
                  "Valor total (R$)": "25,50", "Tarifa base (R$)": "5,00", "Valor por distância (R$)": "12,00",
                  "Valor por tempo (R$)": "6,00", "Taxa da plataforma (R$)": "2,50", "Outros (R$)": "0",
                  "Avaliação": "4,5", "Tipo de chamada": hail}
        lines.append(";".join([PASSENGER, "65999887766", *[values[h] for h in CSV_COLUMNS.values()]]))
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture
def page(qtbot, db, people, register):
    from desktop.views.trips import TripsPage

    widget = TripsPage(db, people.fiscal)
    qtbot.addWidget(widget)
    widget.resize(1200, 800)
    widget.select_platform(register.platform)
    return widget


@pytest.fixture
def imported(qtbot, page, tmp_path):
    joao = _cpf(123456789)
    path = trips_file(tmp_path, [("V-001", joao, "QBC1D23", "18/11/2026 08:00:00", "aplicativo"),
                                 ("V-002", joao, "QBC1D23", "18/11/2026 09:00:00", "via pública"),
                                 ("V-003", joao, "QBC1D23", "12/10/2026 09:00:00", "aplicativo")])
    routes = tmp_path / "rotas.csv"
    routes.write_text("ID da viagem;Momento;Lat;Lon\n"
                      "V-002;18/11/2026 09:00:00;-15,4600;-55,7500\n"
                      "V-002;18/11/2026 09:05:00;-15,4550;-55,7400\n"
                      "V-002;18/11/2026 09:12:00;-15,4420;-55,7250\n"
                      "V-002;18/11/2026 09:20:00;-15,4300;-55,7100\n", encoding="utf-8")
    assert page.import_files(str(path), str(routes))
    qtbot.waitUntil(lambda: page.last_report is not None or page.last_error is not None, timeout=20000)
    assert page.last_error is None, page.report.toPlainText()
    return page


def test_module_in_the_main_window_for_fiscal_and_gestor_only():
    from desktop.domain.roles import Role
    from desktop.views.main_window import MODULES

    entry = next(m for m in MODULES if m.key == "viagens")
    assert entry.label == "Viagens" and entry.factory == "desktop.views.trips.page:TripsPage"
    assert entry.roles == frozenset({Role.FISCAL, Role.GESTOR})


def test_art4_import_in_background_reports_the_dropped_passenger_columns(imported):
    text = imported.report.toPlainText()
    assert "Viagens importadas: 3" in text and "Pontos de rota: 4" in text
    assert "Nome do passageiro" in text and "Telefone do passageiro" in text and PASSENGER not in text
    assert imported.imports_table.model.rowCount() == 1
    row = imported.imports_table.model.row_at(0)
    assert row.trips == 3 and "Nome do passageiro" in row.dropped_columns


def test_art4_a_bad_line_is_shown_and_nothing_is_stored(qtbot, page, tmp_path):
    from desktop.services import trips

    path = trips_file(tmp_path, [("V-1", _cpf(123456789), "QBC1D23", "18/11/2026 08:00:00", "aplicativo"),
                                 ("V-2", "123", "QBC1D23", "18/11/2026 08:00:00", "táxi")])
    page.import_files(str(path))
    qtbot.waitUntil(lambda: page.last_error is not None, timeout=20000)
    text = page.report.toPlainText()
    assert "nada foi gravado" in text and "linha 3, coluna «CPF do condutor»" in text
    assert "linha 3, coluna «Tipo de chamada»" in text
    assert trips.imports(page.db, page.actor) == ()


def test_art4_cancel_during_import_leaves_nothing(qtbot, page, tmp_path, monkeypatch):
    from desktop.importers import trips as reader
    from desktop.services import trips

    monkeypatch.setattr(reader, "CHUNK_ROWS", 50)
    joao = _cpf(123456789)
    path = trips_file(tmp_path, [(f"C-{i:05d}", joao, "QBC1D23", "18/11/2026 08:00:00", "aplicativo")
                                 for i in range(3000)])
    page.import_files(str(path))
    page.import_op.task.cancel()
    qtbot.waitUntil(lambda: page.last_error is not None or page.last_report is not None, timeout=20000)
    assert page.last_report is None and "cancelada" in page.report.toPlainText()
    assert trips.imports(page.db, page.actor) == ()


def test_fares_per_driver_with_chart_over_months_and_excel_export(qtbot, imported, tmp_path):
    from openpyxl import load_workbook

    imported.tabs.setCurrentIndex(1)
    assert imported.show_fares()
    assert imported.fares_table.model.rowCount() == 1
    line = imported.fares_table.model.row_at(0)
    assert (line.driver_name, line.trips, str(line.total)) == ("João da Silva", 2, "51.00")
    assert imported.draw_chart()
    assert imported.chart.canvas is not None
    assert [m.month for m in imported.chart.months] == ["2026-10", "2026-11"]
    out = tmp_path / "tarifas.xlsx"
    imported.export_fares_to(str(out))
    qtbot.waitUntil(out.exists, timeout=20000)
    qtbot.wait(200)
    sheet = load_workbook(out).active
    rows = list(sheet.iter_rows(values_only=True))
    assert rows[0] == ("Competência", "Placa", "CPF do condutor", "Viagens", "Distância (km)", "Valor total (R$)",
                       "Avaliação média")
    assert rows[1][0] == "2026-11" and rows[1][3] == 2


def _infractions(qtbot, page):
    page.tabs.setCurrentIndex(2)
    page.show_infractions()
    qtbot.waitUntil(lambda: page.findings_page is not None, timeout=20000)
    return page.findings_page


def test_route_drawn_on_the_plain_canvas_and_printed(qtbot, imported, tmp_path, messages):
    found = _infractions(qtbot, imported)
    assert {f.rule.code for f in found.findings} >= {"ART26-IV", "ART27"}
    assert imported.select_finding(lambda f: f.trip.external_id == "V-002" and f.rule.code == "ART26-IV")
    dialog = imported.open_route()
    qtbot.addWidget(dialog)
    qtbot.waitExposed(dialog)
    dialog.canvas.repaint()
    qtbot.waitUntil(lambda: dialog.canvas.drawn > 0, timeout=5000)
    assert len(dialog.canvas.points) == 4 and dialog.canvas.scale_text.endswith("m")
    image = dialog.canvas.grab().toImage()
    teal = sum(1 for x in range(0, image.width(), 3) for y in range(0, image.height(), 3)
               if image.pixelColor(x, y).name() == "#00838f")
    assert teal > 20, "the route line is drawn"
    pdf = tmp_path / "trajeto.pdf"
    assert dialog.print_to(str(pdf))
    qtbot.waitUntil(lambda: dialog.issued is not None, timeout=20000)
    assert pdf.read_bytes().startswith(b"%PDF")
    dialog.close()


def test_art7_art26_iv_lavrar_auto_from_a_street_hailed_trip_keeps_it_as_evidence(qtbot, db, imported, register,
                                                                                  messages):
    from sqlalchemy import select

    from desktop.models.platforms import AutoTripEvidence

    _infractions(qtbot, imported)
    assert imported.select_finding(lambda f: f.rule.code == "ART26-IV")
    finding = imported.findings_table.selected()
    assert finding.trip.external_id == "V-002"
    form = imported.auto_form(finding)
    qtbot.addWidget(form)
    assert form.driver_picker.value() == register.joao and form.vehicle_picker.value() == register.car
    assert form.code_combo.currentData() == "ART26-IV"
    assert "V-002" in form.description_edit.toPlainText() and "Art. 7" in form.description_edit.toPlainText()
    assert form.draft().evidence_trip_ids == (finding.trip.id,)
    assert form.save(), form.general_error.text()
    with db.session(write=False) as s:
        rows = s.execute(select(AutoTripEvidence.auto_id, AutoTripEvidence.trip_id)).all()
    assert rows == [(form.saved.id, finding.trip.id)]
    # issue 24 item 10 (Art. 19: one fact, one auto): the list shows the trip's auto, read on the screen
    imported.findings_page = None
    found = _infractions(qtbot, imported)
    assert {f.auto_number for f in found.findings if f.trip.id == finding.trip.id} == {form.saved.number}
    table = imported.findings_table
    column = next(c for c in range(table.proxy.columnCount())
                  if table.proxy.headerData(c, Qt.Orientation.Horizontal) == "Auto")
    shown = {table.proxy.index(r, column).data(): table.proxy.index(r, 0).data(ROW_ROLE).trip.external_id
             for r in range(table.proxy.rowCount())}
    assert shown[form.saved.number] == "V-002" and "—" in shown


def test_open_statistics_shown_with_k_anonymity_and_exported(qtbot, imported, tmp_path):
    imported.tabs.setCurrentIndex(3)
    assert imported.show_statistics()
    row = imported.stats_table.model.row_at(0)
    assert row.platform_name == "Roda Fácil" and row.trips == -1   # 2 trips < 10
    out = tmp_path / "estatisticas.csv"
    assert imported.export_statistics_to(str(out))
    assert out.read_text(encoding="utf-8").splitlines()[1] == f"{row.platform_id},Roda Fácil,2026-11," + ",".join(["-1"] * 7)
