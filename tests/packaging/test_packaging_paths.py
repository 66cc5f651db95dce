"""Where the program finds its own files (issue 17, desktop.paths), the frozen launcher's console-less commands
(packaging/launcher.py) and `check-install` (desktop.install_check)."""
import importlib.util
import sys
from pathlib import Path

import pytest

from desktop import install_check, paths
from desktop.reports import fonts

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def fresh_paths():
    paths.resources_dir.cache_clear()
    yield
    paths.resources_dir.cache_clear()


def _fake_resources(folder: Path) -> Path:
    (folder / "fonts").mkdir(parents=True)
    for name in ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf"):
        (folder / "fonts" / name).write_bytes((ROOT / "resources" / "fonts" / name).read_bytes())
    return folder


def test_source_checkout_finds_the_repository_resources(fresh_paths):
    assert not paths.is_frozen() and paths.bundle_dir() is None
    assert paths.resources_dir() == ROOT / "resources"
    assert paths.resource("icons", "cadastros.svg").is_file()
    assert fonts.resources_dir is paths.resources_dir          # one helper, re-exported
    assert (paths.migrations_dir() / "env.py").is_file()


def test_frozen_program_uses_the_bundle_folder_first(fresh_paths, monkeypatch, tmp_path):
    bundle = tmp_path / "TransporteAplicativo" / "_internal"
    _fake_resources(bundle / "resources")
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "_MEIPASS", str(bundle), raising=False)
    monkeypatch.setattr(sys, "executable", str(tmp_path / "TransporteAplicativo" / "TransporteAplicativo.exe"))
    assert paths.is_frozen() and paths.bundle_dir() == bundle
    assert paths.executable_dir() == tmp_path / "TransporteAplicativo"
    assert paths.resource_candidates()[:2] == [bundle / "resources", tmp_path / "TransporteAplicativo" / "resources"]
    assert paths.resources_dir() == bundle / "resources"
    assert fonts.font_file(fonts.REGULAR) == bundle / "resources" / "fonts" / "DejaVuSans.ttf"


def test_the_environment_override_wins_even_when_frozen(fresh_paths, monkeypatch, tmp_path):
    override = _fake_resources(tmp_path / "outra")
    _fake_resources(tmp_path / "bundle" / "resources")
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "_MEIPASS", str(tmp_path / "bundle"), raising=False)
    monkeypatch.setenv("DESKTOP_RESOURCES", str(override))
    assert paths.resources_dir() == override


def test_without_system_fonts_a_missing_font_is_none(fresh_paths, monkeypatch, tmp_path):
    (tmp_path / "vazio").mkdir()
    monkeypatch.setattr(paths, "resource_candidates", lambda: [tmp_path / "vazio"])
    monkeypatch.setenv("DESKTOP_NO_SYSTEM_FONTS", "1")
    assert paths.resources_dir() == tmp_path / "vazio"
    assert fonts.font_file(fonts.REGULAR) is None


def test_demo_brasao_is_the_png_of_resources(fresh_paths):
    from desktop.demo.brasao import demo_brasao_png
    png = demo_brasao_png()
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) < 2 * 1024 * 1024   # setup's limit for a brasão


# ------------------------------------------------------------------------------------------------ check-install
def test_check_install_passes_in_the_checkout(fresh_paths, qapp, capsys):
    assert install_check.run(with_qt=True) == 0
    out = capsys.readouterr().out
    assert "FALHA" not in out and "verificações em ordem" in out
    for name in ("fonte DejaVuSans", "ícones", "migrações", "processos do lote de adesivos", "Qt imagens", "QtPdf",
                 "impressão (Qt)"):
        assert f"OK    {name}" in out


def test_check_install_names_what_is_missing(fresh_paths, monkeypatch, tmp_path, capsys):
    (tmp_path / "vazio").mkdir()
    monkeypatch.setattr(paths, "resource_candidates", lambda: [tmp_path / "vazio"])
    monkeypatch.setenv("DESKTOP_NO_SYSTEM_FONTS", "1")
    assert install_check.run(with_qt=False) == 1
    out = capsys.readouterr().out
    assert "FALHA fonte DejaVuSans: não encontrada" in out
    assert "FALHA ícones: faltam: cadastros.svg" in out
    assert "FALHA brasão da demonstração" in out


def test_check_install_in_a_bundle_refuses_resources_from_outside_it(fresh_paths, monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "_MEIPASS", str(tmp_path / "bundle"), raising=False)
    monkeypatch.setattr(sys, "executable", str(tmp_path / "bundle" / "TransporteAplicativo"))
    checks = {c.name: c for c in install_check.file_checks()}   # the checkout's resources/ is found…
    assert not checks["recursos"].ok                             # …but it is not inside the bundle


def test_check_install_is_a_cli_command(fresh_paths, capsys):
    from desktop.cli import main
    assert main(["check-install", "--no-qt"]) == 0
    assert "OK    migrações" in capsys.readouterr().out


# ------------------------------------------------------------------------------------------------ the launcher
def _launcher():
    spec = importlib.util.spec_from_file_location("bundle_launcher", ROOT / "packaging" / "launcher.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_windowed_program_shows_a_commands_messages_in_a_box(monkeypatch):
    launcher = _launcher()
    shown = []
    monkeypatch.setattr(sys, "stdout", None)
    monkeypatch.setattr(sys, "stderr", None)
    code = launcher.run(["audit"], show=lambda c, text: shown.append((c, text)))
    assert code == 2
    assert shown and shown[0][0] == 2 and "indique a ação do comando audit" in shown[0][1]


def test_with_a_console_the_launcher_prints_as_python_m_desktop(capsys):
    launcher = _launcher()
    shown = []
    assert launcher.run(["audit"], show=lambda c, text: shown.append(text)) == 2
    assert not shown and "indique a ação do comando audit" in capsys.readouterr().err


def test_only_a_command_word_is_a_command():
    launcher = _launcher()
    assert launcher.starts_gui([]) and launcher.starts_gui(["--db", "sqlite:///x.sqlite3"])
    assert launcher.starts_gui(["--db=postgresql+psycopg://u@h/b"])
    assert not launcher.starts_gui(["backup", "--out", "c.sqlite3"])
    assert not launcher.starts_gui(["--db", "sqlite:///x", "audit", "verify"])
    assert not launcher.starts_gui(["--help"])
