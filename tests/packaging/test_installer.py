"""installer.iss against pyproject.toml and the PyInstaller spec (issue 17): the version, the bundle's folder and
executable names, the per-user install, the Start-menu entries and an uninstall that never touches the data.

The installer is compiled on Windows (iscc), which CI does not have: this test is what keeps it from drifting
from the bundle that CI builds and smoke-tests on Linux (packaging/desktop.spec, packaging/smoke_bundle.sh).
"""
import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ISS = ROOT / "installer.iss"
SPEC = ROOT / "packaging" / "desktop.spec"


def _sections(text: str) -> dict[str, list[str]]:
    sections: dict[str, list[str]] = {}
    current = None
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(";"):
            continue
        if line.startswith("[") and line.endswith("]"):
            current = line[1:-1]
            sections.setdefault(current, [])
        elif current is not None:
            sections[current].append(line)
    return sections


def _defines(text: str) -> dict[str, str]:
    return dict(re.findall(r'^#define\s+(\w+)\s+"([^"]*)"', text, re.MULTILINE))


def _expand(value: str, defines: dict[str, str]) -> str:
    return re.sub(r"\{#(\w+)\}", lambda m: defines[m.group(1)], value)


def _entries(lines: list[str], defines) -> list[dict[str, str]]:
    """`Name: "x"; Filename: "y"` lines as dicts (Inno's doubled quotes kept as one)."""
    out = []
    for line in lines:
        fields = {}
        for key, value in re.findall(r'(\w+):\s*("(?:[^"]|"")*"|[^;]+)', line):
            value = value.strip()
            if value.startswith('"'):
                value = value[1:-1].replace('""', '"')
            fields[key] = _expand(value, defines)
        out.append(fields)
    return out


@pytest.fixture(scope="module")
def iss():
    text = ISS.read_text(encoding="utf-8")
    defines = _defines(text)
    sections = _sections(text)
    setup = dict(line.split("=", 1) for line in sections["Setup"])
    return text, defines, sections, {k.strip(): _expand(v.strip(), defines) for k, v in setup.items()}


def _spec_constant(name: str) -> str:
    match = re.search(rf'^{name}\s*=\s*"([^"]+)"', SPEC.read_text(encoding="utf-8"), re.MULTILINE)
    assert match, f"{name} não encontrado em {SPEC}"
    return match.group(1)


def test_version_is_pyprojects_and_the_programs(iss):
    _text, defines, _sections, setup = iss
    version = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    import desktop
    assert defines["AppVersion"] == version == desktop.__version__
    assert setup["AppVersion"] == version and setup["VersionInfoVersion"] == version
    assert version in setup["OutputBaseFilename"]
    # the spec reads the same file (and refuses to build when desktop/__init__.py differs)
    assert 'tomllib.loads((ROOT / "pyproject.toml")' in SPEC.read_text(encoding="utf-8")


def test_the_installer_takes_the_folder_and_executable_the_spec_builds(iss):
    _text, defines, sections, _setup = iss
    bundle = _spec_constant("APP_NAME")
    assert defines["BundleName"] == bundle
    assert defines["AppExe"] == f"{bundle}.exe"
    files = _entries(sections["Files"], defines)
    assert any(f["Source"] == f"dist\\{bundle}\\*" and f["DestDir"] == "{app}" and "recursesubdirs" in f["Flags"]
               for f in files)
    # the spec's one-folder COLLECT is named after APP_NAME, its EXE too
    spec = SPEC.read_text(encoding="utf-8")
    assert "name=APP_NAME" in spec and re.search(r"COLLECT\([^)]*name=APP_NAME", spec)


def test_per_user_install_without_administrator_rights(iss):
    _text, _defines, _sections, setup = iss
    assert setup["PrivilegesRequired"] == "lowest"
    assert "PrivilegesRequiredOverridesAllowed" not in setup       # no "install for all users" prompt
    assert setup["DefaultDirName"].startswith("{userpf}\\")
    assert setup["AppId"] == "{{6C1F6E52-2F4B-4C1E-9D1A-2103C2025A01}"   # changing it breaks upgrade in place
    assert setup["UsePreviousAppDir"] == "yes"


def test_start_menu_has_program_backup_and_manual(iss):
    _text, defines, sections, _setup = iss
    icons = _entries(sections["Icons"], defines)
    group = [i for i in icons if i["Name"].startswith("{group}\\")]
    program = [i for i in group if i["Filename"] == "{app}\\" + defines["AppExe"] and "Parameters" not in i]
    assert program, "falta o atalho do programa"
    backup = [i for i in group if i.get("Parameters", "").startswith("backup --out ")]
    assert backup and backup[0]["Filename"] == "{app}\\" + defines["AppExe"]
    assert backup[0]["Parameters"].count('"') == 2 and "{userdocs}" in backup[0]["Parameters"]
    manual = [i for i in group if i["Filename"].endswith("manual.pdf")]
    assert manual and manual[0]["Filename"] == "{app}\\docs\\manual\\manual.pdf"
    files = _entries(sections["Files"], defines)
    assert any(f["Source"] == "resources\\manual\\manual.pdf" and f["DestDir"] == "{app}\\docs\\manual" for f in files)


def test_backup_shortcut_runs_a_command_the_program_has():
    from desktop.cli import build_parser
    args = build_parser().parse_args(["backup", "--out", "copia.sqlite3"])
    assert args.func.__name__ == "cmd_backup"


def test_uninstall_and_upgrade_never_touch_the_data_folder(iss):
    _text, defines, sections, setup = iss
    from desktop.settings import APP_NAME
    assert defines["DataFolderName"] == APP_NAME
    assert "UninstallDelete" not in sections
    for line in sections.get("InstallDelete", []):
        name = _entries([line], defines)[0]["Name"]
        assert name.startswith("{app}\\"), line
    data_refs = ("{localappdata}", "{userappdata}", "{commonappdata}", APP_NAME)
    for section in ("Files", "Dirs", "InstallDelete", "Icons", "Run"):
        for line in sections.get(section, []):
            for entry in _entries([line], defines):
                for key in ("DestDir", "Name"):
                    if section == "Icons" and key == "Name":
                        continue
                    assert not any(ref in entry.get(key, "") for ref in data_refs), line
    # the program folder is not the data folder
    assert APP_NAME not in setup["DefaultDirName"]


def test_spec_bundles_what_the_program_reads_from_disk():
    spec = SPEC.read_text(encoding="utf-8")
    for needed in ('"resources" / "fonts"', '"resources" / "icons"', '"resources" / "brasao"',
                   '"migrations" / "versions" / "*.py"', '"migrations" / "env.py"', "collect_submodules(\"desktop\""):
        assert needed in spec, needed
    for unused in ("PySide6.QtWebEngineCore", "PySide6.Qt3DCore", "PySide6.QtMultimedia", "PySide6.QtQuick",
                   "PySide6.QtDesigner", '"pytest"', '"hypothesis"'):
        assert unused in spec, f"{unused} deve ficar fora do pacote"
    for folder in (ROOT / "resources" / "fonts", ROOT / "resources" / "icons", ROOT / "resources" / "brasao"):
        assert any(folder.iterdir()), folder
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert any(req.lower().startswith("pyinstaller") for req in pyproject["project"]["optional-dependencies"]["build"])
