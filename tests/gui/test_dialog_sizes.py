"""Issue 12 item 23: every dialog fits a 1366×768 office screen less a Windows taskbar (1366×728) and scrolls
inside when it must. The driver wizard (980×760), the auto form (1100×720) and the PDF preview used to lose their
buttons under the taskbar.

Every QDialog subclass of `desktop.views` is found by walking the package (a new dialog is checked without
anyone adding it here: one without a recipe below fails the test), built over a demonstration database, and
its size hint, minimum size and initial size are checked, before and after it is shown.
"""
from __future__ import annotations

import importlib
import inspect
import pkgutil
import shutil

import pytest
from PySide6.QtCore import QSize
from PySide6.QtWidgets import QDialog

import desktop.views
from desktop.domain.roles import Role
from desktop.services.actors import Actor

SCREEN = QSize(1366, 728)  # 1366×768 less the 40 px of a Windows taskbar


def all_dialog_classes() -> dict[str, type]:
    found: dict[str, type] = {}
    for module_info in pkgutil.walk_packages(desktop.views.__path__, "desktop.views."):
        module = importlib.import_module(module_info.name)
        for name, obj in vars(module).items():
            if inspect.isclass(obj) and issubclass(obj, QDialog) and obj.__module__ == module.__name__:
                found[f"{obj.__module__}.{name}"] = obj
    return found


@pytest.fixture(scope="module")
def demo_template(tmp_path_factory):
    from desktop.migrate import open_database
    from desktop.demo.entry import load_demo   # with the platforms and trips of the second wave

    path = tmp_path_factory.mktemp("demo-dialogs") / "demo.sqlite3"
    db = open_database(f"sqlite:///{path}")
    load_demo(db, drivers=40)
    db.dispose()
    return path


@pytest.fixture
def demo(demo_template, tmp_path):
    from desktop.migrate import open_database

    path = tmp_path / "demo.sqlite3"
    shutil.copyfile(demo_template, path)
    database = open_database(f"sqlite:///{path}")
    yield database
    database.dispose()


class Records:
    """Real records of the demonstration, as the screens get them from the services."""

    def __init__(self, db):
        from sqlalchemy import select

        from desktop.models import AdministrativeMeasure, Auto, AutoNotification, Inspection, Platform, User
        from desktop.services import users
        from desktop.services.autos import get_auto
        from desktop.services.inspections.booking import list_bookings

        self.db = db
        with db.session(write=False) as s:
            admin_id = s.scalar(select(User.id).where(User.username == "admin"))
            measure_auto = s.scalar(select(AdministrativeMeasure.auto_id).limit(1))
            notified_auto = s.scalar(select(AutoNotification.auto_id).limit(1))
            booked = s.scalar(select(Inspection.authorization_id).where(Inspection.status == "scheduled").limit(1))
            if booked is None:
                booked = s.scalar(select(Inspection.authorization_id).limit(1))
            self.platform_id = s.scalar(select(Platform.id).limit(1))
            self.authorization_id = booked
            any_auto = s.scalar(select(Auto.id).limit(1))
        self.actor = Actor(user_id=admin_id, username="admin", full_name="Administrador", roles=frozenset(Role))
        detail = get_auto(db, self.actor, notified_auto or any_auto)
        self.auto, self.notifications = detail.auto, list(detail.notifications)
        measured = get_auto(db, self.actor, measure_auto) if measure_auto else detail
        self.measure_auto = measured.auto
        self.measure = measured.measures[0] if measured.measures else None
        self.user = users.list_users(db, self.actor)[0]
        self.names = {u.id: u.full_name for u in users.list_users(db, self.actor)}
        self.booking = list_bookings(db, self.actor, booked)[0]
        from desktop.models import PaymentGuide, TripRoutePoint, TripRow, Vehicle

        with db.session(write=False) as s:
            self.guide_number = s.scalar(select(PaymentGuide.number).order_by(PaymentGuide.id).limit(1))
            self.vehicle_id = s.scalar(select(Vehicle.id).limit(1))
            self.trip_id = (s.scalar(select(TripRoutePoint.trip_id).limit(1))
                            or s.scalar(select(TripRow.id).limit(1)))

    def dispatches(self):
        """The demo's correspondence desk (issue 26): its dispatches, the sent one first."""
        from desktop.services import correspondence

        rows = correspondence.list_dispatches(self.db, self.actor)
        assert rows, "the demo writes a few dispatches"
        return tuple(sorted(rows, key=lambda d: d.state != "sent"))

    def printed_notices(self):
        """Notices printed outside the desk (issue 26), or two made up when the demo registered all of its own."""
        from datetime import date

        from desktop.services import correspondence

        rows = correspondence.printed_notices(self.db, self.actor)
        return rows or (
            correspondence.PrintedNotice(1, "0012/2026", "Notificação", date(2026, 11, 30), "Auto nº 0012/2026",
                                         "driver", "Maria da Conceição Aparecida dos Santos",
                                         "Rua Quinze de Novembro, 120\nCentro – Chapada dos Guimarães\nCEP 78195-000",
                                         ""),
            correspondence.PrintedNotice(2, "0003/2026", "Requisição de dados (Art. 4º)", date(2026, 11, 29),
                                         "Requisição nº 0003/2026", "platform", "ChapadaCar Tecnologia Ltda.",
                                         "Av. Rio Branco, 100", "juridico@chapadacar.example"))

    def scan_lines(self):
        from desktop.services.correspondence import ScanLine

        first = self.dispatches()[0]
        return (ScanLine(1, "pilha-de-ars.pdf", first.code, first, _png()),
                ScanLine(2, "pilha-de-ars.pdf", None, None, _png()))

    def guide(self):
        from desktop.services import guides

        return guides.get_guide(self.db, self.actor, self.guide_number)

    def issqn_series(self):
        from desktop.services import issqn

        return issqn.platform_series(self.db, self.actor, 2026, 10)

    def route(self):
        from desktop.services import trips

        return trips.route(self.db, self.actor, self.trip_id)


def _pdf() -> bytes:
    from reportlab.pdfgen import canvas  # a one-page PDF for the preview
    import io

    buffer = io.BytesIO()
    c = canvas.Canvas(buffer)
    c.drawString(100, 750, "Documento de teste")
    c.showPage()
    c.save()
    return buffer.getvalue()


def _png() -> bytes:
    from PySide6.QtCore import QBuffer, QByteArray
    from PySide6.QtGui import QImage

    image = QImage(2000, 2800, QImage.Format.Format_RGB32)  # a scan the size of an A4 page at 240 dpi
    image.fill(0xFFFFFF)
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QBuffer.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")
    return bytes(data)


def _recipes(r: Records):
    """class name → a function building the dialog as its screen does."""
    from desktop.services import parameters
    from desktop.views.registry.dialogs import FieldSpec

    db, a = r.db, r.actor
    many_fields = [FieldSpec(f"f{i}", f"Campo {i}", "multiline" if i % 3 == 0 else "text", required=False)
                   for i in range(14)]

    def current_sticker():
        from desktop.domain import local_now
        from desktop.services.documents.archive import IssuedSummary

        return IssuedSummary(number="0001/2026", kind="sticker", kind_label="Adesivo", record_type="authorization",
                             record_id=1, issued_at=local_now(), sha256="0" * 64, copies=1,
                             issued_by_name="Atendente Lia")

    return {
        "HolidayDialog": lambda: ("admin.holidays", db, a, 2026),
        "NewValueDialog": lambda: ("admin.parameters", db, a, parameters.PARAMETERS["upfm_value"]),
        "PasswordDialog": lambda: ("admin.users", db, a, r.user),
        "UserDialog": lambda: ("admin.users", db, a),
        "AuthorizationWindow": lambda: ("authorizations.detail", db, a, r.authorization_id),
        "RequestDialog": lambda: ("authorizations.request", db, a),
        "DatabaseSettingsDialog": lambda: ("database_settings", "sqlite:///x.sqlite3"),
        "AutoFormDialog": lambda: ("enforcement.auto_form", db, a),
        "CodeDialog": lambda: ("enforcement.catalog_view", db, a),
        "AutoDialog": lambda: ("enforcement.dialogs", db, a, r.auto, "Auto"),
        "AutoReasonDialog": lambda: ("enforcement.dialogs", db, a, r.auto, "Cancelar auto",
                                     "Explique o motivo. " * 20, lambda reason: None),
        "CostsDialog": lambda: ("enforcement.dialogs", db, a, r.measure),
        "DateActionDialog": lambda: ("enforcement.dialogs", db, a, r.auto, "Registrar", "Explicação. " * 20,
                                     lambda on: None),
        "DefenseDialog": lambda: ("enforcement.dialogs", db, a, r.auto, "defense"),
        "JoinProofDialog": lambda: ("enforcement.dialogs", db, a, r.auto, r.notifications),
        "JudgmentDialog": lambda: ("enforcement.dialogs", db, a, r.auto),
        "PenaltyDecisionDialog": lambda: ("enforcement.dialogs", db, a, r.auto),   # issue 24 item 1
        "ResolveDialog": lambda: ("finance.bank_return", "Atribuir pagamento",
                                  "Pagamento de R$ 120,00 sem guia em aberto (linha 3). " * 3, True),   # issue 23
        "MeasureDialog": lambda: ("enforcement.dialogs", db, a, r.measure_auto),
        "MeasureReleaseDialog": lambda: ("enforcement.dialogs", db, a, r.measure),
        "NotificationDialog": lambda: ("enforcement.dialogs", db, a, r.auto),
        "PaymentDialog": lambda: ("enforcement.dialogs", db, a, r.auto),
        "ServiceDialog": lambda: ("enforcement.forms", "Serviço"),
        "ReasonDialog": lambda: (None, "Motivo", "Informe o motivo. " * 10),
        "BookDialog": lambda: ("inspections.dialogs", db, a, r.names),
        "MoveDialog": lambda: ("inspections.dialogs", db, a, r.booking, r.names),
        "RunInspectionDialog": lambda: ("inspections.dialogs", db, a, r.booking),
        "LoginDialog": lambda: ("login", db),
        "ChangePasswordDialog": lambda: ("password", db, a),
        "PdfPreviewDialog": lambda: ("pdf_preview", _pdf(), "Prévia"),
        "DataRequestDialog": lambda: ("platforms", db, a, r.platform_id),
        "ActionDialog": lambda: ("registry.dialogs", "Ação", "Uma ação com muitos campos. " * 8, many_fields,
                                 lambda values: None),
        "DriverWizard": lambda: ("registry.driver_wizard", db, a),
        "DocumentDialog": lambda: ("registry.fields", "Documento", _png(), "image/png"),
        "PlatformDialog": lambda: ("registry.platforms", db, a),
        "VehicleWizard": lambda: ("registry.vehicle_wizard", db, a),
        "ReissueDialog": lambda: ("reports.issue", "Adesivo do veículo (Art. 14)", "0001/2026", current_sticker()),
        "SetupWizard": lambda: ("setup_wizard", db),
        "StickerCheckDialog": lambda: ("sticker_check", db),
        "FormDialog": lambda: ("widgets",),
        # the second wave (issues 12, 13, 15): full paths where a short name is taken by another room's dialog
        "desktop.views.enforcement.dialogs.PaymentDialog": lambda: ("enforcement.dialogs", db, a, r.auto),
        "desktop.views.enforcement.dialogs.WaiverDialog": lambda: ("enforcement.dialogs", db, a, r.auto),
        "desktop.views.enforcement.widgets.ReasonDialog": lambda: (None, "Motivo", "Informe o motivo. " * 10),
        "desktop.views.inspections.dialogs.ReasonDialog": lambda: (None, "Motivo", "Informe o motivo. " * 10),
        "desktop.views.finance.guides.PaymentDialog": lambda: ("finance.guides", db, a, r.guide()),
        "desktop.views.finance.guides.ReasonDialog": lambda: (None, "Reemitir guia", "Explique o motivo. " * 10),
        "desktop.views.finance.issqn.ChartDialog": lambda: (None, r.issqn_series(), 2026, 10),
        "desktop.views.finance.issqn.ClassDecisionDialog": lambda: (None, db, a, r.vehicle_id, "ABC1D23"),
        "desktop.views.finance.issqn.ClassesDialog": lambda: (None, db, a),
        "desktop.views.finance.issqn.ReasonDialog": lambda: (None, "Cancelar guia", "Explique o motivo. " * 10,
                                                             lambda reason: None),
        "desktop.views.trips.route_view.RouteDialog": lambda: (None, db, a, r.route()),
        # issue 26: the correspondence desk
        "desktop.views.correspondence.dialogs.ReceiveDialog": lambda: (None, db, a, r.dispatches()[0]),
        "desktop.views.correspondence.dialogs.EditalDialog": lambda: (None, db, a, r.dispatches()),
        "desktop.views.correspondence.scans.ScansDialog": lambda: (None, db, a, r.scan_lines()),
        "desktop.views.correspondence.dialogs.RegisterPrintedDialog": lambda: (None, db, a, r.printed_notices()),
    }


def _fits(size: QSize) -> bool:
    return size.width() <= SCREEN.width() and size.height() <= SCREEN.height()


def _recipe_for(recipes: dict, path: str):
    """A dialog's recipe: by its full path first (two rooms may name a dialog alike), else by its class name."""
    return recipes.get(path) or recipes.get(path.rsplit(".", 1)[1])


def test_item23_every_dialog_class_has_a_recipe():
    recipes = {name: True for name in _recipe_names()}
    missing = sorted(path for path in all_dialog_classes() if _recipe_for(recipes, path) is None)
    assert not missing, f"dialogs without a size check: {missing}"


def _recipe_names() -> set[str]:
    class Dummy:
        db = actor = auto = measure = measure_auto = user = names = booking = notifications = None
        platform_id = authorization_id = vehicle_id = None

    return set(_recipes(Dummy()))


@pytest.mark.parametrize("path", sorted(all_dialog_classes()))
def test_item23_every_dialog_fits_1366x728(qtbot, demo, monkeypatch, path):
    from desktop.views.operations import Op

    # a dialog that loads in the background at start (a preview, a list) must not need the worker here
    monkeypatch.setattr(Op, "_run_in_background", lambda self: self._succeeded(self._call()) or True)
    cls = all_dialog_classes()[path]
    records = Records(demo)
    args = _recipe_for(_recipes(records), path)()[1:]
    dialog = cls(*args)
    qtbot.addWidget(dialog)
    hint, minimum, initial = dialog.sizeHint(), dialog.minimumSize(), dialog.size()
    assert _fits(hint), f"{path}: size hint {hint.width()}×{hint.height()} > 1366×728"
    assert _fits(minimum), f"{path}: minimum size {minimum.width()}×{minimum.height()} > 1366×728"
    assert _fits(initial), f"{path}: initial size {initial.width()}×{initial.height()} > 1366×728"
    assert _fits(dialog.minimumSizeHint()), f"{path}: minimum size hint {dialog.minimumSizeHint()}"
    dialog.show()
    qtbot.waitExposed(dialog)
    shown = dialog.size()
    assert _fits(shown), f"{path}: shown at {shown.width()}×{shown.height()} > 1366×728"
    dialog.close()
