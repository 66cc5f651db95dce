"""desktop.app: the real start-up sequence (issue 2) — login window first, database opened in the background,
then the main window; a database that cannot be opened is explained with its URL and reason."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from PySide6.QtWidgets import QMessageBox

ROOT = Path(__file__).resolve().parents[2]


def test_program_starts_to_the_login_and_the_main_window(db, admin, tmp_path):
    url = db.url
    db.dispose()
    env = dict(os.environ, DESKTOP_STARTUP_PROBE="1", DESKTOP_PROBE_USER="admin",
               DESKTOP_PROBE_PASSWORD="senha-forte-2025", QT_QPA_PLATFORM="offscreen")
    started = time.time()
    result = subprocess.run([sys.executable, "-m", "desktop", "--db", url], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=180)
    assert result.returncode == 0, result.stderr[-3000:]
    events = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    names = [e["event"] for e in events]
    # the login window is painted first; the database opens behind it
    assert names == ["run_gui", "qapplication", "login_shown", "database_open", "login_submit", "login_accepted",
                     "main_shown"], names
    times = [e["time"] for e in events]
    assert times == sorted(times) and times[0] >= started


def test_wrong_probe_password_fails_the_start(db, admin):
    url = db.url
    db.dispose()
    env = dict(os.environ, DESKTOP_STARTUP_PROBE="1", DESKTOP_PROBE_USER="admin", DESKTOP_PROBE_PASSWORD="errada-1",
               QT_QPA_PLATFORM="offscreen")
    result = subprocess.run([sys.executable, "-m", "desktop", "--db", url], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=180)
    failed = [json.loads(line) for line in result.stdout.splitlines() if '"login_failed"' in line]
    assert failed and failed[0]["message"].startswith("Usuário ou senha incorretos.")
    assert result.returncode == 2


def _answer_box(monkeypatch, button_text, seen):
    def fake_exec(box):
        seen.append((box.text(), box.informativeText(), [b.text() for b in box.buttons()]))
        box.chosen = next(b for b in box.buttons() if b.text() == button_text)
        return 0

    monkeypatch.setattr(QMessageBox, "exec", fake_exec)
    monkeypatch.setattr(QMessageBox, "clickedButton", lambda box: box.chosen)


def test_unreachable_database_shows_the_url_without_password_and_the_reason(qtbot, monkeypatch):
    from desktop.app import ask_after_open_failure

    seen = []
    _answer_box(monkeypatch, "Sair", seen)
    answer = ask_after_open_failure("postgresql+psycopg://fiscal:segredo@10.0.0.9:5432/transporte",
                                    ConnectionRefusedError("connection refused"))
    assert answer == "quit"
    text, informative, buttons = seen[0]
    assert text == "Não foi possível abrir o banco de dados."
    assert "Endereço: postgresql+psycopg://fiscal:***@10.0.0.9:5432/transporte" in informative
    assert "segredo" not in informative
    assert "Motivo: Erro inesperado: connection refused" in informative
    assert sorted(buttons) == ["Configurar banco de dados…", "Sair", "Tentar novamente"]


def test_start_up_with_a_broken_database_offers_the_settings_and_can_give_up(qtbot, monkeypatch):
    from desktop import app as app_module

    answers = iter(["retry", "quit"])
    asked = []

    def fake_ask(db_url, error, parent=None):
        asked.append((db_url, str(error)))
        return next(answers)

    monkeypatch.setattr(app_module, "ask_after_open_failure", fake_ask)
    quits = []
    monkeypatch.setattr(app_module.Startup, "_quit", lambda self: quits.append(self.exit_code))
    startup = app_module.Startup(app_module.create_application(), "postgresql+psycopg://postgres@127.0.0.1:1/nada",
                                 app_module._Probe())
    qtbot.addWidget(startup.login)
    startup.start()
    assert startup.login.isVisible() and not startup.login.login_button.isEnabled()
    assert startup.login.database_label.text().startswith("Abrindo o banco de dados")
    qtbot.waitUntil(lambda: bool(quits), timeout=60000)
    assert len(asked) == 2, "asked again after 'Tentar novamente'"
    assert quits == [1]
    assert startup.db is None


def test_new_database_goes_through_the_setup_wizard_then_the_login(qtbot, monkeypatch, db):
    """Issue 2: on first start the wizard comes before the login; the login is then ready for the new admin."""
    from desktop import app as app_module
    from desktop.services import setup
    from desktop.views.setup_wizard import SetupWizard

    url = db.url
    db.dispose()
    wizards = []

    def finish_wizard(wizard):
        wizards.append(wizard)
        from decimal import Decimal

        wizard.actor = setup.initialize(wizard.db, setup.MunicipalityDraft(
            name="Chapada dos Guimarães", uf="MT", secretariat="Secretaria de Finanças",
            ouvidoria_phone="(65) 3301-1234", upfm_year=2026, upfm_value=Decimal("112.45")),
            setup.AdminDraft("maria.silva", "Maria Silva", "senha-forte-2025"))
        return SetupWizard.DialogCode.Accepted

    monkeypatch.setattr(SetupWizard, "exec", finish_wizard)
    startup = app_module.Startup(app_module.create_application(), url, app_module._Probe())
    qtbot.addWidget(startup.login)
    startup.start()
    qtbot.waitUntil(lambda: startup.db is not None and startup.login.login_button.isEnabled(), timeout=60000)
    assert len(wizards) == 1
    assert startup.login.isVisible()
    assert startup.login.username_edit.text() == "maria.silva"
    assert startup.login.database_label.text() == f"Banco de dados: {startup.db.describe()}"
    startup.login.password_edit.setText("senha-forte-2025")
    assert startup.login.try_login()
    assert startup.window is not None and startup.window.user_label.text() == "Usuário: Maria Silva (maria.silva)"
    qtbot.addWidget(startup.window)
    startup.db.dispose()


# -- issue 12 item 24: the libraries of a real window on Linux --------------------------------------------------
def _loader(missing):
    return lambda soname: soname not in missing


def test_issue12_item24_missing_xcb_libraries_are_named_with_their_packages():
    from desktop.app import missing_libraries_message, missing_xcb_libraries

    missing = missing_xcb_libraries(_loader({"libxcb-icccm.so.4", "libxcb-keysyms.so.1"}))
    assert missing == [("libxcb-icccm.so.4", "libxcb-icccm4"), ("libxcb-keysyms.so.1", "libxcb-keysyms1")]
    text = missing_libraries_message(missing)
    assert "faltam bibliotecas do sistema" in text
    assert "libxcb-icccm.so.4  (pacote libxcb-icccm4)" in text
    assert "sudo apt-get install -y libxcb-icccm4 libxcb-keysyms1\n" in text
    assert "libxcb-cursor0" in text  # the line that installs every library of a real window
    assert missing_xcb_libraries(_loader(set())) == []


def test_issue12_item24_every_library_the_xcb_plugin_needs_is_in_the_list():
    """The list follows the PySide6 wheel: every system library libqxcb.so needs (readelf NEEDED) is checked."""
    import shutil

    import PySide6

    from desktop.app import XCB_LIBRARIES

    plugin = Path(PySide6.__file__).parent / "Qt" / "plugins" / "platforms" / "libqxcb.so"
    qpa = Path(PySide6.__file__).parent / "Qt" / "lib" / "libQt6XcbQpa.so.6"
    if not (plugin.exists() and qpa.exists() and shutil.which("readelf")):
        import pytest

        pytest.skip("no Linux xcb plugin or no readelf here")
    needed = set()
    for path in (plugin, qpa):
        out = subprocess.run(["readelf", "-d", str(path)], capture_output=True, text=True).stdout
        needed |= {line.split("[")[1].rstrip("]") for line in out.splitlines() if "(NEEDED)" in line}
    system = {name for name in needed if not name.startswith(("libQt6", "libc.", "libm.", "libstdc++", "libgcc_s",
                                                              "libgthread"))}
    assert system <= {library for library, _package in XCB_LIBRARIES}


def test_issue12_item24_the_check_runs_only_where_qt_draws_through_xcb():
    from desktop.app import EXIT_MISSING_LIBRARIES, check_display_libraries, uses_xcb

    assert uses_xcb({}, "linux")
    assert uses_xcb({"QT_QPA_PLATFORM": "xcb"}, "linux")
    assert uses_xcb({"QT_QPA_PLATFORM": "xcb:no-grab"}, "linux")
    assert not uses_xcb({"QT_QPA_PLATFORM": "offscreen"}, "linux")
    assert not uses_xcb({"QT_QPA_PLATFORM": "wayland;xcb"}, "linux")
    assert not uses_xcb({"WAYLAND_DISPLAY": "wayland-0", "XDG_SESSION_TYPE": "wayland"}, "linux")
    assert not uses_xcb({}, "win32")
    import io

    out = io.StringIO()
    missing = _loader({"libxcb-keysyms.so.1"})
    assert check_display_libraries({"QT_QPA_PLATFORM": "offscreen"}, "linux", missing, out) == 0
    assert check_display_libraries({}, "win32", missing, out) == 0
    assert out.getvalue() == ""
    assert check_display_libraries({}, "linux", missing, out) == EXIT_MISSING_LIBRARIES == 2
    assert "libxcb-keysyms1" in out.getvalue()
    assert check_display_libraries({}, "linux", _loader(set()), out) == 0


def test_issue12_item24_the_program_exits_2_with_the_message_instead_of_aborting(tmp_path):
    """The real command, on the xcb platform, with the loader told that two libraries are missing (a
    sitecustomize replaces desktop.app._dlopen in the child process): exit code 2 and the Portuguese text."""
    (tmp_path / "sitecustomize.py").write_text(
        "import desktop.app as app\n"
        "app._dlopen = lambda name: name not in {'libxcb-icccm.so.4', 'libxcb-keysyms.so.1'}\n",
        encoding="utf-8")
    env = dict(os.environ, QT_QPA_PLATFORM="xcb", PYTHONPATH=os.pathsep.join([str(tmp_path), str(ROOT)]))
    env.pop("WAYLAND_DISPLAY", None)
    result = subprocess.run([sys.executable, "-m", "desktop", "--db", f"sqlite:///{tmp_path / 'x.sqlite3'}"],
                            cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 2, result.stderr[-2000:]
    assert "faltam bibliotecas do sistema" in result.stderr
    assert "sudo apt-get install -y libxcb-icccm4 libxcb-keysyms1" in result.stderr
    assert "Could not load the Qt platform plugin" not in result.stderr
    assert not (tmp_path / "x.sqlite3").exists(), "nothing was opened"


def test_the_login_window_path_imports_no_database_nor_document_library():
    """Issue 22 (bench_startup 0.25 s → 0.57 s): the login window's modules must not load SQLAlchemy, Alembic,
    pandas or ReportLab, nor the whole law through the desktop.domain package (it is lazy, PEP 562): the
    database opens behind the painted window."""
    import os
    import subprocess
    import sys

    code = ("import sys, desktop.app, desktop.views.login\n"
            "print(sorted(m for m in ('sqlalchemy', 'alembic', 'pandas', 'reportlab', 'holidays') if m in sys.modules))\n"
            "print(sorted(m for m in sys.modules if m.startswith('desktop.domain.')))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
    heavy, domain = out.stdout.strip().splitlines()
    assert heavy == "[]"
    assert "desktop.domain.penalties" not in domain and "desktop.domain.dates" not in domain


def test_building_the_command_line_loads_no_database_code():
    """`python -m desktop --db URL` (how the program starts) builds the whole command-line parser before the GUI:
    building it must not load SQLAlchemy or the services (bench_startup went 0.25 s → 1.2 s when desktop.cli_print
    imported the migrations and the documents service at its top, issue 22)."""
    import os
    import subprocess
    import sys

    code = ("import sys, desktop.cli\n"
            "desktop.cli.build_parser()\n"
            "print(sorted(m for m in ('sqlalchemy', 'alembic', 'pandas', 'reportlab', 'desktop.services', "
            "'desktop.migrate', 'desktop.db') if m in sys.modules))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
    assert out.stdout.strip() == "[]"
