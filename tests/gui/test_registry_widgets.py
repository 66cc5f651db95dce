"""The generic pieces of the register screens: the paged list (server-side paging, sorting, debounced filter),
masked CPF/CNPJ inputs checked by the domain validators, plates, dates with "sem data", the document viewer."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date

import pytest
from PySide6.QtCore import Qt

from desktop.domain.text import fold


@dataclass(frozen=True)
class Row:
    id: int
    name: str


NAMES = ["João da Silva", "Maria Conceição", "José Pereira", "Ana Souza"]


def _rows(n):
    return [Row(i, f"{NAMES[i % 4]} {i:06d}") for i in range(n)]


class FakeService:
    """Stands for a service list function: filters (accent-insensitive), sorts and slices, counting the calls."""

    def __init__(self, rows):
        self.rows = rows
        self.calls = []

    def __call__(self, query, offset, limit):
        self.calls.append((query, offset, limit))
        rows = [r for r in self.rows if all(w in fold(r.name) for w in fold(query.text).split())]
        if query.sort == "name":
            rows.sort(key=lambda r: fold(r.name), reverse=query.descending)
        return rows[offset:offset + limit]


def _columns():
    from desktop.views.registry.paged import ListColumn

    return [ListColumn("Código", lambda r: r.id, sort_key="id"), ListColumn("Nome", lambda r: r.name,
                                                                              sort_key="name")]


def test_paged_model_fetches_pages_as_needed_and_passes_qtmodeltester(qtmodeltester):
    from desktop.views.registry.paged import ListQuery, PagedTableModel

    service = FakeService(_rows(1000))
    model = PagedTableModel(_columns(), service, page_size=100)
    model.set_query(ListQuery())
    assert model.rowCount() == 100 and model.canFetchMore()
    model.fetchMore()
    assert model.rowCount() == 200
    assert [c[1] for c in service.calls] == [0, 100]   # one page per call, never the whole table
    qtmodeltester.check(model, force_py=True)
    model.sort(1, Qt.SortOrder.DescendingOrder)
    assert service.calls[-1][0].sort == "name" and service.calls[-1][0].descending
    assert model.rowCount() == 100 and fold(model.row_at(0).name).startswith("maria")


def test_paged_list_filters_as_you_type_after_150_ms_accent_insensitive(qtbot):
    from desktop.views.registry.paged import PagedList

    service = FakeService(_rows(1000))
    widget = PagedList(_columns(), service, filter_placeholder="Filtrar condutores…", page_size=100)
    qtbot.addWidget(widget)
    widget.apply_filter()
    before = len(service.calls)
    qtbot.keyClicks(widget.filter_edit, "joao")
    assert len(service.calls) == before            # debounced: no query per keystroke
    qtbot.waitUntil(lambda: len(service.calls) == before + 1, timeout=1000)
    assert widget.model.query.text == "joao"
    assert widget.model.rowCount() == 100 and all(r.name.startswith("João") for r in widget.visible_rows())
    widget.filter_edit.setText("conceicao 000001")
    widget.apply_filter()
    assert [r.id for r in widget.visible_rows()] == [1]
    assert widget.count_label.text() == "1 registro"
    # Sorting: a sortable column asks the service; the others keep the order and the arrow where it was.
    header = widget.view.horizontalHeader()
    widget.filter_edit.clear()
    widget.apply_filter()
    header.setSortIndicator(1, Qt.SortOrder.DescendingOrder)
    assert widget.model.query.sort == "name" and widget.model.query.descending
    widget.model._columns[0] = type(widget.model.column(0))("Código", lambda r: r.id)   # not sortable now
    calls = len(service.calls)
    header.setSortIndicator(0, Qt.SortOrder.AscendingOrder)
    assert len(service.calls) == calls and header.sortIndicatorSection() == 1


@pytest.mark.parametrize("typed, good", [("52998224725", True), ("52998224724", False), ("123", False)])
def test_cpf_edit_has_mask_and_domain_validator(qtbot, typed, good):
    from desktop.views.registry.fields import DocumentNumberEdit

    edit = DocumentNumberEdit("cpf")
    qtbot.addWidget(edit)
    qtbot.keyClicks(edit, typed)
    assert edit.check() is good
    assert edit.message_label.isHidden() is good
    if good:
        assert edit.text() == "529.982.247-25" and edit.value() == "52998224725"
    else:
        assert "CPF" in edit.message_label.text()


def test_cnpj_edit_accepts_alphanumeric_cnpj_upper_case(qtbot):
    from desktop.views.registry.fields import DocumentNumberEdit

    edit = DocumentNumberEdit("cnpj")
    qtbot.addWidget(edit)
    qtbot.keyClicks(edit, "11222333000181")
    assert edit.text() == "11.222.333/0001-81" and edit.check()


def test_optional_date_edit_is_empty_without_a_sentinel_and_typed_dates_are_kept(qtbot):
    """Issue 29 point 2: no "sem data" text, no 01/01/1900 kept; typing replaces the field (was: a sentinel)."""
    from hands import press, type_into
    from desktop.views.registry.fields import OptionalDateEdit

    edit = OptionalDateEdit()
    qtbot.addWidget(edit)
    edit.show()
    assert edit.value() is None and edit.text() == ""
    type_into(edit, "10032027")
    press("Return")
    assert edit.value() == date(2027, 3, 10) and edit.text() == "10/03/2027"
    type_into(edit, "")
    press("Return")
    assert edit.value() is None


def test_document_viewer_shows_images_and_pdfs_inside_the_program(qtbot):
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice
    from PySide6.QtGui import QColor, QImage

    from desktop.views.registry.fields import DocumentViewer

    image = QImage(40, 30, QImage.Format.Format_RGB32)
    image.fill(QColor("white"))
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")
    viewer = DocumentViewer()
    qtbot.addWidget(viewer)
    viewer.show_document(bytes(data.data()), "image/png")
    assert viewer.kind == "image"
    viewer.show_document(sample_pdf(), "application/pdf")
    assert viewer.kind == "pdf" and viewer._pdf.pageCount() == 1
    viewer.show_document(b"not a pdf", "application/pdf")
    assert viewer.kind == "error" and "PDF" in viewer.message.text()


def sample_pdf() -> bytes:
    from io import BytesIO

    from reportlab.pdfgen import canvas

    out = BytesIO()
    page = canvas.Canvas(out)
    page.drawString(72, 720, "CNH digitalizada")
    page.save()
    return out.getvalue()


def test_register_screens_do_not_import_reportlab_or_pandas_at_import_time():
    """Opening Cadastros stays fast: the register screens load the services (and SQLAlchemy, already loaded by the
    database the login opened) but not ReportLab or pandas, which load when a document is printed or a file read.
    (The login window itself loads none of them: tests/gui/test_app_startup.py.)"""
    import subprocess
    import sys

    code = ("import sys\n"
            "import desktop.views.registry, desktop.views.registry.drivers, desktop.views.registry.vehicles\n"
            "import desktop.views.registry.platforms, desktop.views.registry.driver_wizard\n"
            "import desktop.views.registry.vehicle_wizard, desktop.views.authorizations\n"
            "import desktop.views.authorizations.detail, desktop.views.authorizations.changes\n"
            "print(sorted(m for m in ('reportlab', 'pandas', 'openpyxl', 'matplotlib') if m in sys.modules))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={**__import__("os").environ, "QT_QPA_PLATFORM": "offscreen"})
    assert out.stdout.strip() == "[]"
