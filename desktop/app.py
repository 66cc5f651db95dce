"""The desktop program: `run_gui(db_url)` (called by `python -m desktop` with no command).

Start-up order (issue 2): QApplication in Brazilian Portuguese → open the database (migrating; a failure shows the
URL and the reason and offers the database settings) → the setup wizard when the database is new → login → the
main window.

Start-up must be fast (issue 2: ≤ 0.8 s to the login window, ≤ 1.2 s to the main window): only QtCore, QtGui and
QtWidgets are imported here; every screen is imported when first needed, and pandas, openpyxl and ReportLab never
on this path. `bench/bench_startup.py` measures it through the probe below (environment variable
DESKTOP_STARTUP_PROBE=1: print time stamps as JSON lines on stdout, log in with DESKTOP_PROBE_USER /
DESKTOP_PROBE_PASSWORD when given, and quit once the main window has been painted).
"""
from __future__ import annotations

import json
import os
import re
import sys
import time


class _Probe:
    """Start-up time stamps for the benchmark. Inert unless DESKTOP_STARTUP_PROBE is set."""

    def __init__(self) -> None:
        self.enabled = bool(os.environ.get("DESKTOP_STARTUP_PROBE"))
        self.user = os.environ.get("DESKTOP_PROBE_USER", "")
        self.password = os.environ.get("DESKTOP_PROBE_PASSWORD", "")
        self._filters: list = []

    def mark(self, event: str) -> None:
        if self.enabled:
            print(json.dumps({"event": event, "time": time.time()}), flush=True)

    def on_first_paint(self, widget, event: str, then=None) -> None:
        """Mark `event` when `widget` has painted for the first time, then call `then()`."""
        if not self.enabled:
            return
        from PySide6.QtCore import QEvent, QObject, QTimer

        probe = self

        class _FirstPaint(QObject):
            def eventFilter(self, obj, ev):  # noqa: N802 — Qt name
                if ev.type() == QEvent.Type.Paint and not getattr(self, "seen", False):
                    self.seen = True
                    # after this paint has finished
                    QTimer.singleShot(0, lambda: (probe.mark(event), then() if then else None))
                return False

        watcher = _FirstPaint(widget)
        widget.installEventFilter(watcher)
        self._filters.append(watcher)


def _safe_url(url: str) -> str:
    """The URL without its password, to show in a message."""
    return re.sub(r"(://[^:/@]+):[^@]*@", r"\1:***@", url or "")


def _install_translations(app) -> None:
    """Qt's own pt_BR translations, so standard buttons read "Cancelar", "Salvar", "Sim"..."""
    from PySide6.QtCore import QLibraryInfo, QTranslator

    folder = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
    app._translators = []  # keep them alive as long as the application
    for name in ("qtbase_pt_BR",):
        translator = QTranslator(app)
        if translator.load(name, folder):
            app.installTranslator(translator)
            app._translators.append(translator)


def create_application():
    """The QApplication with the names and the Brazilian locale (reuses the existing one in tests)."""
    from PySide6.QtCore import QLocale
    from PySide6.QtWidgets import QApplication

    from desktop import APP_NAME, APP_ORG, __version__

    app = QApplication.instance()
    if app is None:
        app = QApplication(sys.argv[:1])
    app.setOrganizationName(APP_ORG)
    app.setApplicationName(APP_NAME)
    app.setApplicationVersion(__version__)
    QLocale.setDefault(QLocale(QLocale.Language.Portuguese, QLocale.Country.Brazil))
    if not getattr(app, "_translators", None):
        _install_translations(app)
    return app


def open_database_interactively(db_url: str | None, parent=None):
    """Open (and migrate) the database; on failure say why, with the URL, and offer the settings dialog.

    Returns the Database, or None when the user gives up.
    """
    from PySide6.QtWidgets import QMessageBox

    from desktop.db import open_database, resolve_url

    while True:
        try:
            url = resolve_url(db_url)
        except Exception as error:  # noqa: BLE001 — e.g. a damaged settings file
            url, reason = db_url or "", error
        else:
            try:
                return open_database(url, migrate=True)
            except Exception as error:  # noqa: BLE001 — any driver error is shown, never a traceback
                reason = error
        from desktop.views.widgets import error_text

        box = QMessageBox(QMessageBox.Icon.Critical, "Banco de dados indisponível",
                          "Não foi possível abrir o banco de dados.", parent=parent)
        box.setInformativeText(f"Endereço: {_safe_url(url)}\n\nMotivo: {error_text(reason)}")
        configure = box.addButton("Configurar banco de dados…", QMessageBox.ButtonRole.ActionRole)
        retry = box.addButton("Tentar novamente", QMessageBox.ButtonRole.AcceptRole)
        box.addButton("Sair", QMessageBox.ButtonRole.RejectRole)
        box.exec()
        clicked = box.clickedButton()
        if clicked is configure:
            from desktop.views.database_settings import DatabaseSettingsDialog

            if DatabaseSettingsDialog(current=None, parent=parent).exec():
                db_url = None  # use what was just saved (DESKTOP_DB_URL, when set, still wins)
        elif clicked is not retry:
            return None


def _install_excepthook() -> None:
    """An unexpected error shows a message instead of vanishing into a console nobody sees."""
    previous = sys.excepthook

    def hook(kind, value, tb):
        previous(kind, value, tb)
        try:
            from PySide6.QtWidgets import QMessageBox

            from desktop.views.widgets import error_text

            QMessageBox.critical(None, "Erro inesperado",
                                 f"{error_text(value)}\n\nA operação foi interrompida; os dados gravados antes "
                                 "continuam no banco.")
        except Exception:  # noqa: BLE001 — never raise from the hook itself
            pass

    sys.excepthook = hook


def run_gui(db_url: str | None = None) -> int:
    probe = _Probe()
    probe.mark("run_gui")
    from PySide6.QtWidgets import QDialog

    app = create_application()
    probe.mark("qapplication")
    _install_excepthook()

    db = open_database_interactively(db_url)
    if db is None:
        return 1
    probe.mark("database_open")
    try:
        from desktop.services.setup import needs_setup

        username = ""
        if needs_setup(db):
            from desktop.views.setup_wizard import SetupWizard

            wizard = SetupWizard(db)
            if wizard.exec() != QDialog.DialogCode.Accepted:
                return 0
            username = wizard.actor.username

        from desktop.views.login import LoginDialog

        login = LoginDialog(db, username=username)
        if probe.enabled:
            def auto_login():
                if probe.user:
                    login.username_edit.setText(probe.user)
                    login.password_edit.setText(probe.password)
                    probe.mark("login_submit")
                    if not login.try_login():
                        print(json.dumps({"event": "login_failed", "message": login.message.text()}), flush=True)
                        login.reject()
                else:
                    login.reject()

            probe.on_first_paint(login, "login_shown", auto_login)
        if login.exec() != QDialog.DialogCode.Accepted:
            return 0
        probe.mark("login_accepted")

        from desktop.views.main_window import MainWindow

        window = MainWindow(db, login.actor)
        probe.on_first_paint(window, "main_shown", app.quit)
        window.show()
        return app.exec()
    finally:
        from desktop.tasks import shutdown

        shutdown()
        db.dispose()
