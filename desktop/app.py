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
import ctypes


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
        from PySide6.QtCore import QEvent, QObject, QTimer  # lazy: kept off the start-up path (the login window imports this module)

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


# What Qt's xcb platform plugin (libqxcb.so, libQt6XcbQpa.so.6 of the PySide6 wheel) loads from the system, with
# the Debian/Ubuntu package of each (issue 12 item 24). Without one of them Qt aborts with "Could not load the Qt
# platform plugin "xcb"… no Qt platform plugin could be initialized", which names none of them.
XCB_LIBRARIES = (
    ("libxcb.so.1", "libxcb1"),
    ("libX11.so.6", "libx11-6"),
    ("libX11-xcb.so.1", "libx11-xcb1"),
    ("libxcb-cursor.so.0", "libxcb-cursor0"),
    ("libxcb-icccm.so.4", "libxcb-icccm4"),
    ("libxcb-image.so.0", "libxcb-image0"),
    ("libxcb-keysyms.so.1", "libxcb-keysyms1"),
    ("libxcb-randr.so.0", "libxcb-randr0"),
    ("libxcb-render.so.0", "libxcb-render0"),
    ("libxcb-render-util.so.0", "libxcb-render-util0"),
    ("libxcb-shape.so.0", "libxcb-shape0"),
    ("libxcb-shm.so.0", "libxcb-shm0"),
    ("libxcb-sync.so.1", "libxcb-sync1"),
    ("libxcb-util.so.1", "libxcb-util1"),
    ("libxcb-xfixes.so.0", "libxcb-xfixes0"),
    ("libxcb-xkb.so.1", "libxcb-xkb1"),
    ("libxkbcommon.so.0", "libxkbcommon0"),
    ("libxkbcommon-x11.so.0", "libxkbcommon-x11-0"),
    ("libGL.so.1", "libgl1"),
    ("libEGL.so.1", "libegl1"),
    ("libglib-2.0.so.0", "libglib2.0-0"),
    ("libfontconfig.so.1", "libfontconfig1"),
    ("libdbus-1.so.3", "libdbus-1-3"),
)
EXIT_MISSING_LIBRARIES = 2


def _dlopen(name: str) -> bool:
    """Whether the dynamic loader finds `name` (as Qt's plugin would: by its soname, through ld.so)."""

    try:
        ctypes.CDLL(name)
    except OSError:
        return False
    return True


def uses_xcb(environ=None, platform: str | None = None) -> bool:
    """Whether Qt is going to draw through X11 (xcb): on Linux, when QT_QPA_PLATFORM asks for it first, or when
    it is unset outside a Wayland session (Qt's own default)."""
    environ = os.environ if environ is None else environ
    if not (platform or sys.platform).startswith("linux"):
        return False
    chosen = (environ.get("QT_QPA_PLATFORM") or "").split(";")[0].split(":")[0].strip().lower()
    if chosen:
        return chosen == "xcb"
    return not (environ.get("WAYLAND_DISPLAY") and environ.get("XDG_SESSION_TYPE", "").lower() == "wayland")


def missing_xcb_libraries(load=None) -> list[tuple[str, str]]:
    """The (library, package) pairs of XCB_LIBRARIES the loader cannot find; `load(soname) -> bool` (the dynamic
    loader by default)."""
    load = load or _dlopen
    return [(library, package) for library, package in XCB_LIBRARIES if not load(library)]


def missing_libraries_message(missing) -> str:
    """What to tell the user, in Portuguese: which libraries are missing and the apt-get line that installs
    them (and the line that installs every library of the list, for a machine set up from scratch)."""
    packages = sorted({package for _library, package in missing})
    every = " ".join(sorted({package for _library, package in XCB_LIBRARIES}))
    lines = ["Não foi possível abrir a janela do programa: faltam bibliotecas do sistema que o Qt usa para "
             "desenhar na tela (plataforma xcb, X11):", ""]
    lines += [f"  {library}  (pacote {package})" for library, package in missing]
    lines += ["", "Instale-as (Debian/Ubuntu) com:", f"  sudo apt-get install -y {' '.join(packages)}", "",
              "Ou todas as bibliotecas que a janela usa, de uma vez:",
              f"  sudo apt-get install -y --no-install-recommends {every} fonts-dejavu-core", "",
              "Os comandos de terminal (python -m desktop migrate, backup, demo…) funcionam sem elas."]
    return "\n".join(lines)


def check_display_libraries(environ=None, platform: str | None = None, load=None, out=None) -> int:
    """Before the QApplication exists: 0 when the window can be drawn; otherwise print which libraries are
    missing (stderr) and return EXIT_MISSING_LIBRARIES, instead of letting Qt abort without a useful word."""
    if not uses_xcb(environ, platform):
        return 0
    missing = missing_xcb_libraries(load)
    if not missing:
        return 0
    print(missing_libraries_message(missing), file=out or sys.stderr, flush=True)
    return EXIT_MISSING_LIBRARIES


def _safe_url(url: str) -> str:
    """The URL without its password, to show in a message."""
    return re.sub(r"(://[^:/@]+):[^@]*@", r"\1:***@", url or "")


# Issue 27 point 7: Qt 6's file dialog labels carry mnemonics ("&Look in:", "Files of &type:") that the pt_BR
# catalogue of the wheel does not have (it still translates the old "Look in:" and "Files of type:"), so the
# non-native dialog (Linux) showed them in English beside its translated buttons. What Qt lacks, the office says.
OFFICE_TRANSLATIONS = {
    ("QFileDialog", "&Look in:"): "&Procurar em:",
    ("QFileDialog", "Files of &type:"): "Arquivos do &tipo:",
}


def _office_translator(parent):
    from PySide6.QtCore import QTranslator  # lazy: kept off the start-up path (the login window imports this module)

    class OfficeTranslator(QTranslator):
        """The few Qt strings the pt_BR catalogue lacks (looked up before Qt's own: installed last)."""

        def translate(self, context, source, disambiguation=None, n=-1):  # noqa: ARG002 — Qt's signature
            return OFFICE_TRANSLATIONS.get((context, source))   # None: a null string, the next catalogue answers

        def isEmpty(self) -> bool:  # noqa: N802 — Qt name
            return False

    return OfficeTranslator(parent)


def _install_translations(app) -> None:
    """Qt's own pt_BR translations, so standard buttons read "Cancelar", "Salvar", "Sim"..., and the office's
    own few for what they lack."""
    from PySide6.QtCore import QLibraryInfo, QTranslator  # lazy: kept off the start-up path (the login window imports this module)

    folder = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
    app._translators = []  # keep them alive as long as the application
    for name in ("qtbase_pt_BR",):
        translator = QTranslator(app)
        if translator.load(name, folder):
            app.installTranslator(translator)
            app._translators.append(translator)
    office = _office_translator(app)
    app.installTranslator(office)
    app._translators.append(office)


def create_application():
    """The QApplication with the names and the Brazilian locale (reuses the existing one in tests)."""
    from PySide6.QtCore import QLocale  # lazy: kept off the start-up path (the login window imports this module)
    from PySide6.QtWidgets import QApplication  # lazy: kept off the start-up path (the login window imports this module)

    from desktop import APP_NAME, APP_ORG, __version__  # lazy: kept off the start-up path (the login window imports this module)

    app = QApplication.instance()
    if app is None:
        app = QApplication(sys.argv[:1])
    app.setOrganizationName(APP_ORG)
    app.setApplicationName(APP_NAME)
    app.setApplicationVersion(__version__)
    QLocale.setDefault(QLocale(QLocale.Language.Portuguese, QLocale.Country.Brazil))
    if not getattr(app, "_translators", None):
        _install_translations(app)
    from desktop.views import keyboard   # Enter on buttons, "Descartar os dados digitados?", Tab out of texts

    keyboard.install(app)
    return app


def open_job(state, db_url: str | None):
    """Background part of start-up: open and migrate the database, ask whether it needs the setup wizard, and
    import the modules the next steps need (log in, main window) while the user types the password."""
    from desktop.db import resolve_url  # lazy: kept off the start-up path (the login window imports this module)
    from desktop.migrate import open_database  # lazy: kept off the start-up path (the login window imports this module)
    from desktop.services.backup import clean_restore_leftovers  # lazy: kept off the start-up path (the login window imports this module)

    state.progress(0, 0, "Abrindo o banco de dados…")
    clean_restore_leftovers(resolve_url(db_url))   # what a killed restore left (issue 25 item 9), with a log line
    db = open_database(db_url, migrate=True)
    try:
        from desktop.services.setup import needs_setup  # lazy: kept off the start-up path (the login window imports this module)

        setup_needed = needs_setup(db)
        import desktop.services.auth  # noqa: F401 — the "Entrar" click should not pay for this import
        import desktop.views.main_window  # noqa: F401 — classes only; widgets are created on the UI thread
    except BaseException:
        db.dispose()
        raise
    return db, setup_needed


def describe_target(db_url: str | None) -> str:
    """The URL start-up tries, without its password (for the failure message)."""
    try:
        from desktop.db import resolve_url  # lazy: kept off the start-up path (the login window imports this module)

        return _safe_url(resolve_url(db_url))
    except Exception:  # noqa: BLE001
        return _safe_url(db_url or "")


def ask_after_open_failure(db_url: str | None, error: BaseException, parent=None) -> str:
    """Say why the database could not be opened, with its URL. Returns "retry", "configure" or "quit"."""
    from PySide6.QtWidgets import QMessageBox  # lazy: kept off the start-up path (the login window imports this module)

    from desktop.views.widgets import error_text  # lazy: kept off the start-up path (the login window imports this module)

    box = QMessageBox(QMessageBox.Icon.Critical, "Banco de dados indisponível",
                      "Não foi possível abrir o banco de dados.", parent=parent)
    box.setInformativeText(f"Endereço: {describe_target(db_url)}\n\nMotivo: {error_text(error)}")
    configure = box.addButton("Configurar banco de dados…", QMessageBox.ButtonRole.ActionRole)
    retry = box.addButton("Tentar novamente", QMessageBox.ButtonRole.AcceptRole)
    box.addButton("Sair", QMessageBox.ButtonRole.RejectRole)
    box.exec()
    clicked = box.clickedButton()
    if clicked is configure:
        return "configure"
    if clicked is retry:
        return "retry"
    return "quit"


class Startup:
    """The start-up sequence, driven by the event loop: the login window appears at once while the database
    opens in the background; then the setup wizard (new database) or log in; then the main window."""

    def __init__(self, app, db_url: str | None, probe: _Probe):
        self.app = app
        self.db_url = db_url
        self.probe = probe
        self.db = None
        self.window = None
        self.exit_code = 0
        self.task = None
        from desktop.views.login import LoginDialog  # lazy: kept off the start-up path (the login window imports this module)

        self.login = LoginDialog(None)
        self.login.accepted.connect(self._logged_in)
        self.login.rejected.connect(self._quit)

    def start(self) -> None:
        from PySide6.QtCore import QEvent, QObject, QTimer  # lazy: kept off the start-up path (the login window imports this module)

        startup = self

        class _OpenAfterFirstPaint(QObject):
            """Open the database once the login window has painted: the background import of the database
            layer competes for the interpreter, so starting it earlier would only delay the window."""

            def eventFilter(self, obj, event):  # noqa: N802 — Qt name
                if event.type() == QEvent.Type.Paint:
                    obj.removeEventFilter(self)
                    QTimer.singleShot(0, startup._open_once)
                return False

        self.probe.on_first_paint(self.login, "login_shown")
        self._paint_watch = _OpenAfterFirstPaint(self.login)
        self.login.installEventFilter(self._paint_watch)
        self.login.show()
        QTimer.singleShot(300, self._open_once)  # also when the window is never painted (e.g. minimized)

    def _open_once(self) -> None:
        if self.task is None:
            self._open()

    def _open(self) -> None:
        from desktop.background import Task  # lazy: kept off the start-up path (the login window imports this module)

        self.task = (Task(open_job, self.db_url).success(self._opened).failure(self._open_failed)
                     .run_in_background(self.login, show_progress=False))  # the login window says it

    def _opened(self, result) -> None:
        from PySide6.QtWidgets import QDialog  # lazy: kept off the start-up path (the login window imports this module)

        self.db, setup_needed = result
        self.probe.mark("database_open")
        if setup_needed:
            from desktop.views.setup_wizard import SetupWizard  # lazy: kept off the start-up path (the login window imports this module)

            self.login.hide()
            wizard = SetupWizard(self.db)
            if wizard.exec() != QDialog.DialogCode.Accepted:
                self._quit()
                return
            self.login.set_username(wizard.actor.username)
            self.login.show()
        self.login.set_database(self.db)
        self._probe_login()

    def _open_failed(self, error: BaseException) -> None:
        answer = ask_after_open_failure(self.db_url, error, self.login)
        if answer == "configure":
            from desktop.views.database_settings import DatabaseSettingsDialog  # lazy: kept off the start-up path (the login window imports this module)

            if DatabaseSettingsDialog(current=None, parent=self.login).exec():
                self.db_url = None  # use what was just saved (DESKTOP_DB_URL, when set, still wins)
            self._open()
        elif answer == "retry":
            self._open()
        else:
            self.exit_code = 1
            self._quit()

    def _probe_login(self) -> None:
        probe = self.probe
        if not probe.enabled:
            return
        if not probe.user:
            self.login.reject()
            return
        self.login.username_edit.setText(probe.user)
        self.login.password_edit.setText(probe.password)
        probe.mark("login_submit")
        if not self.login.try_login():
            print(json.dumps({"event": "login_failed", "message": self.login.message.text()}), flush=True)
            self.exit_code = 2
            self.login.reject()

    def _logged_in(self) -> None:
        from desktop.views.main_window import MainWindow  # lazy: kept off the start-up path (the login window imports this module)

        self.probe.mark("login_accepted")
        try:
            self.window = MainWindow(self.db, self.login.actor)
        except Exception as error:  # noqa: BLE001 — no window would be left open: say why and leave
            from PySide6.QtWidgets import QMessageBox  # lazy: kept off the start-up path (the login window imports this module)

            from desktop.views.widgets import error_text  # lazy: kept off the start-up path (the login window imports this module)

            QMessageBox.critical(None, "Erro ao abrir a janela principal", error_text(error))
            self.exit_code = 1
            self._quit()
            return
        self.probe.on_first_paint(self.window, "main_shown", self.app.quit)
        self.window.show_as_remembered()   # maximized on a 1366×768 screen, as the user left it (issue 27 point 3)
        self._start_daily_jobs()
        self.app.setQuitOnLastWindowClosed(True)
        self.login.deleteLater()

    def _start_daily_jobs(self) -> None:
        """Penalties, ends of suspensions and expirations happen on their date (SPEC §3), whatever module the
        user opens: after the first paint, in the background, with the summary in the status bar."""
        from PySide6.QtCore import QTimer  # lazy: kept off the start-up path (the login window imports this module)

        from desktop.views.daily_jobs import DailyJobsRunner  # lazy: kept off the start-up path (the login window imports this module)

        self.daily = DailyJobsRunner(self.db, parent=self.window)
        status = self.window.statusBar()
        self.daily.finished.connect(lambda report: status.showMessage(report.describe(), 20000))
        self.daily.failed.connect(lambda text: status.showMessage("Rotinas do dia não executadas: " + text))
        QTimer.singleShot(800, self.daily.start)
        self._start_auto_backup()

    def _start_auto_backup(self) -> None:
        """The day's automatic copy (issue 17), after the routines of the day, in the background: the first login
        of each day (and the turn of the day on a desk left open) copies, verifies and rotates; the result goes
        to the status bar, an alert never stops the program."""
        from PySide6.QtCore import QTimer  # lazy: kept off the start-up path (the login window imports this module)

        from desktop.views.daily_jobs import DayRoutineRunner, auto_backup_job  # lazy: kept off the start-up path (the login window imports this module)

        actor = self.window.actor
        self.backups = DayRoutineRunner(self.db, job=lambda state, db, today: auto_backup_job(state, db, today, actor),
                                        parent=self.window, entities=())
        self.backups.finished.connect(self.window.show_backup_outcome)
        self.backups.failed.connect(lambda text: self.window.show_backup_outcome(None, text))
        QTimer.singleShot(3000, self.backups.start)

    def _quit(self) -> None:
        self.app.quit()


def _install_excepthook() -> None:
    """An unexpected error shows a message instead of vanishing into a console nobody sees."""
    previous = sys.excepthook

    def hook(kind, value, tb):
        previous(kind, value, tb)
        try:
            from PySide6.QtWidgets import QMessageBox  # lazy: kept off the start-up path (the login window imports this module)

            from desktop.views.widgets import error_text  # lazy: kept off the start-up path (the login window imports this module)

            QMessageBox.critical(None, "Erro inesperado",
                                 f"{error_text(value)}\n\nA operação foi interrompida; os dados gravados antes "
                                 "continuam no banco.")
        except Exception as box_error:  # noqa: BLE001 — never raise from the hook itself
            print(f"Não foi possível mostrar a mensagem de erro: {box_error!r}", file=sys.stderr)

    sys.excepthook = hook


def run_gui(db_url: str | None = None) -> int:
    probe = _Probe()
    probe.mark("run_gui")
    widgets = sys.modules.get("PySide6.QtWidgets")  # checked before Qt is imported: it needs libGL too
    if widgets is None or widgets.QApplication.instance() is None:
        missing = check_display_libraries()
        if missing:
            return missing
    app = create_application()
    probe.mark("qapplication")
    _install_excepthook()
    app.setQuitOnLastWindowClosed(False)  # between the login and the main window no window is visible
    startup = Startup(app, db_url, probe)
    startup.start()
    try:
        code = app.exec()
    finally:
        from desktop.background import shutdown  # lazy: kept off the start-up path (the login window imports this module)

        shutdown()
        if startup.db is not None:
            startup.db.dispose()
    return startup.exit_code or code
