"""What packaging/desktop.spec leaves out of the bundle (issue 17), checked without building it: the exclusion
lists never name a module the program imports or loads while it reads trips, draws a chart, migrates a database or
loads the PostgreSQL dialect; pyarrow's modules take no symbol from the libraries the spec drops, and still load
once their DT_NEEDED links are cut (packaging/bundle_libs.py); the ICU data rebuilt with pt/en/root keeps Qt's pt_BR
alphabetical order; the Linux system libraries left out are no wheel's and come with .ci/run's Debian packages; the
Faker locales kept import none of those left out.

The bundle itself is built and run by packaging/smoke_bundle.sh (.ci/run), which imports a trip file through it.
"""
from __future__ import annotations

import ast
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "packaging" / "desktop.spec"
LINUX = sys.platform.startswith("linux")
linux_only = pytest.mark.skipif(not LINUX, reason="the ELF files of the Linux wheels")


def _load_bundle_libs():
    loader = importlib.util.spec_from_file_location("bundle_libs", ROOT / "packaging" / "bundle_libs.py")
    module = importlib.util.module_from_spec(loader)
    loader.loader.exec_module(module)
    return module


bundle_libs = _load_bundle_libs()


def _spec_value(name: str):
    for node in ast.parse(SPEC.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
            return ast.literal_eval(node.value)
    raise AssertionError(f"{name} não está em {SPEC}")


def _excluded(module: str, excludes) -> str | None:
    return next((e for e in excludes if module == e or module.startswith(e + ".")), None)


def _program_imports() -> set[str]:
    """Every absolute module name desktop/ imports, at the top or inside a function."""
    names = set()
    for path in (ROOT / "desktop").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module)
                names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def test_the_exclusions_never_drop_a_module_the_program_imports():
    excludes = _spec_value("excludes")
    imports = _program_imports()
    assert {"pyarrow.compute", "pyarrow.csv", "PySide6.QtPdf"} <= imports     # the walk sees function imports
    dropped = {name: _excluded(name, excludes) for name in imports if _excluded(name, excludes)}
    assert dropped == {}


_WHAT_LOADS = textwrap.dedent("""
    import json, sys
    from desktop.domain.trips import CSV_COLUMNS
    from desktop.importers.trips import TripReader, read_routes
    from desktop import install_check

    row = {"ID da viagem": "T1", "Placa": "ABC1D23", "CPF do condutor": "529.982.247-25",
           "Início": "18/11/2026 08:00:00", "Fim": "18/11/2026 08:20:00", "Valor total (R$)": "10,00",
           "Distância (m)": "5300", "Avaliação": "4,8", "Tipo de chamada": "aplicativo"}
    header = ["Nome do passageiro", *CSV_COLUMNS.values()]
    content = (";".join(header) + "\\n" + ";".join(["Fulana", *(row.get(h, "") for h in CSV_COLUMNS.values())])
               + "\\n").encode()
    reader = TripReader(content)
    chunks = list(reader)
    assert len(chunks) == 1 and len(chunks[0]) == 1 and not reader.state.errors, reader.state.errors
    routes = read_routes("ID da viagem;Momento;Lat;Lon\\nT1;18/11/2026 08:00:00;-15,46;-55,75\\n".encode())
    assert not routes.errors, routes.errors
    checks = install_check.library_checks()
    assert all(check.ok for check in checks), checks
    from matplotlib.backends.backend_qtagg import FigureCanvasQTAgg  # noqa: F401 — the screens' canvas
    # the migrations (Alembic's ddl modules for every database) on a new SQLite file, and the PostgreSQL dialect
    # with its driver, as a desk pointed at the server loads it (no connection needed)
    import os, sqlalchemy
    from desktop.migrate import open_database
    open_database("sqlite:///" + os.path.join(os.environ["WHAT_LOADS_DIR"], "novo.sqlite3"))
    sqlalchemy.create_engine("postgresql+psycopg://ninguem@127.0.0.1:1/nada").dialect
    print(json.dumps(sorted(sys.modules)))
""")


def test_what_the_trip_reader_the_charts_and_the_databases_load_is_in_the_bundle(tmp_path):
    # a process of its own: the modules other tests imported would hide a lazy import of the reader's
    env = {**os.environ, "PYTHONPATH": str(ROOT), "WHAT_LOADS_DIR": str(tmp_path),
           "DESKTOP_SETTINGS_FILE": str(tmp_path / "settings.json"), "DESKTOP_KEY_DIR": str(tmp_path / "keys"),
           "DESKTOP_KEY_STORE": "file"}
    done = subprocess.run([sys.executable, "-c", _WHAT_LOADS], cwd=ROOT, capture_output=True, text=True,
                          env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    loaded = json.loads(done.stdout.strip().splitlines()[-1])
    assert "pyarrow._csv" in loaded and "pyarrow._compute" in loaded
    assert {"alembic.ddl.mysql", "alembic.ddl.mssql", "sqlalchemy.dialects.postgresql.psycopg"} <= set(loaded)
    excludes = _spec_value("excludes")
    # matplotlib.projections tries mpl_toolkits.mplot3d inside a try (a warning in the bundle, no 3-D charts);
    # mako.exceptions (under Alembic) tries pygments the same way, for colours in its HTML tracebacks
    guarded = {"mpl_toolkits.mplot3d", "pygments"}
    assert [name for name in loaded if _excluded(name, excludes) not in (None, *guarded)] == []


def test_the_pyarrow_rule_names_libraries_by_stem_on_both_systems():
    unused = _spec_value("PYARROW_UNUSED_LIBS")
    assert {"parquet", "arrow_dataset", "arrow_acero", "arrow_substrait", "arrow_flight"} <= unused
    # what the program loads must never match (Linux and Windows file names)
    stem = lambda name: name.split(".", 1)[0].removeprefix("lib")   # noqa: E731 — desktop.spec's _lib_stem
    for kept in ("libarrow.so.2600", "arrow.dll", "libarrow_compute.so.2600", "arrow_compute.dll",
                 "libarrow_python.so.2600", "arrow_python.dll"):
        assert stem(kept) not in unused, kept
    assert stem("libparquet.so.2600") == stem("parquet.dll") == "parquet"


def _pyarrow_dir() -> Path:
    import pyarrow

    return Path(pyarrow.__file__).parent


def _pyarrow_loaded_files(folder: Path) -> list[Path]:
    """The ELF files the trip reader loads: pyarrow.lib, _compute, _csv and libarrow_python."""
    files = [next(folder.glob(f"{name}.cpython-*.so")) for name in ("lib", "_compute", "_csv")]
    # libarrow_python.so.2600, the name the modules' DT_NEEDED give (not .so or .so.2600.1.0)
    return files + [next(p for p in folder.glob("libarrow_python.so.*") if p.name.count(".") == 2)]


def _unused_libs(folder: Path) -> dict[str, Path]:
    unused = _spec_value("PYARROW_UNUSED_LIBS")
    return {p.name: p for p in folder.iterdir() if ".so" in p.name and p.name.split(".", 1)[0].removeprefix("lib")
            in unused}


@linux_only
def test_pyarrow_modules_take_no_symbol_from_the_libraries_the_spec_drops():
    folder = _pyarrow_dir()
    loaded, unused = _pyarrow_loaded_files(folder), _unused_libs(folder)
    assert len(loaded) == 4 and any(name.startswith("libparquet.so") for name in unused)
    for binary in loaded:
        for library in unused.values():
            assert bundle_libs.symbols_used_from(binary, library) == set(), (binary.name, library.name)
    # the same reading does see a real use
    libarrow = next(folder.glob("libarrow.so.*"))
    assert len(bundle_libs.symbols_used_from(loaded[0], libarrow)) > 100


@linux_only
def test_cut_links_load_without_the_dropped_libraries(tmp_path):
    folder = _pyarrow_dir()
    loaded, unused = _pyarrow_loaded_files(folder), _unused_libs(folder)
    for path in loaded:
        shutil.copy2(path, tmp_path / path.name)
    for name in ("libarrow.so", "libarrow_compute.so"):      # kept: linked beside the copies ($ORIGIN)
        for path in folder.glob(name + ".*"):
            (tmp_path / path.name).symlink_to(path)
    for path in loaded:
        before = bundle_libs.needed(tmp_path / path.name)
        names = {name for name in before if name in unused}
        assert names, f"{path.name} não lista mais bibliotecas sem uso: a regra do spec pode ser revista"
        assert sorted(bundle_libs.remove_needed(tmp_path / path.name, names)) == sorted(names)
        assert bundle_libs.needed(tmp_path / path.name) == [name for name in before if name not in names]
        assert (tmp_path / path.name).stat().st_size == path.stat().st_size
    probe = textwrap.dedent(f"""
        import ctypes
        ctypes.CDLL({str(tmp_path / loaded[0].name)!r})
        ctypes.CDLL({str(tmp_path / loaded[1].name)!r})
        ctypes.CDLL({str(tmp_path / loaded[2].name)!r})
        print("\\n".join(sorted({{line.split()[-1] for line in open("/proc/self/maps") if ".so" in line}})))
    """)
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    mapped = {Path(line).name for line in done.stdout.split()}
    assert {"libarrow.so.2600", "libarrow_compute.so.2600", "libarrow_python.so.2600"} <= mapped
    assert not mapped & set(unused), mapped & set(unused)


# ------------------------------------------------------------------------------------------------ ICU
@pytest.mark.parametrize("name, kept", [
    ("icudt73l/root.res", True), ("icudt73l/pt.res", True), ("icudt73l/pt_BR.res", True),
    ("icudt73l/en_US_POSIX.res", True), ("icudt73l/coll/pt.res", True), ("icudt73l/coll/ucadata.icu", True),
    ("icudt73l/coll/res_index.res", True), ("icudt73l/curr/pool.res", True), ("icudt73l/zone/tzdbNames.res", True),
    ("icudt73l/supplementalData.res", True), ("icudt73l/zoneinfo64.res", True), ("icudt73l/cnvalias.icu", True),
    ("icudt73l/ibm-5348_P100-1997.cnv", True), ("icudt73l/uts46.nrm", True),
    ("icudt73l/de.res", False), ("icudt73l/zh_Hant_HK.res", False), ("icudt73l/coll/de__PHONEBOOK.res", False),
    ("icudt73l/coll/zh.res", False), ("icudt73l/lang/yue_Hans.res", False), ("icudt73l/brkitr/cjdict.dict", False),
    ("icudt73l/brkitr/word.brk", False), ("icudt73l/translit/root.res", False), ("icudt73l/gb18030.cnv", False),
])
def test_icu_items_kept(name, kept):
    assert bundle_libs.icu_item_kept(name) is kept


def _qt_icu() -> Path:
    import PySide6

    found = sorted((Path(PySide6.__file__).parent / "Qt" / "lib").glob("libicudata.so.*"))
    if not found:
        pytest.skip("este PySide6 não traz o ICU")
    return found[0]


@linux_only
def test_icu_package_is_rewritten_byte_for_byte():
    library = _qt_icu()
    data = library.read_bytes()
    symbol = "icudt" + library.name.rsplit(".", 1)[-1] + "_dat"
    offset, size = bundle_libs._Elf(data).symbol(symbol)
    package = data[offset:offset + size]
    header, items = bundle_libs.icu_items(package)
    assert len(items) > 1000 and [n for n, _ in items] == sorted(n for n, _ in items)
    assert bundle_libs.icu_package(header, items) == package


@linux_only
@pytest.mark.skipif(not (shutil.which("as") and shutil.which("ld")), reason="binutils (as, ld) ausente")
def test_trimmed_icu_keeps_qt_pt_br_order_and_zone_names(tmp_path):
    library = _qt_icu()
    small = bundle_libs.trim_icu_data(library, tmp_path)
    assert small.name == library.name and small.stat().st_size < library.stat().st_size / 5
    probe = textwrap.dedent("""
        import functools
        from PySide6.QtCore import QByteArray, QCollator, QLocale, QTimeZone
        from PySide6.QtGui import QGuiApplication
        app = QGuiApplication([])
        pt = QLocale(QLocale.Language.Portuguese, QLocale.Country.Brazil)
        words = ["f", "é", "Zé", "d", "ç", "açúcar", "e", "c", "Ação", "abacaxi"]
        print(" ".join(sorted(words, key=functools.cmp_to_key(QCollator(pt).compare))))
        print(QTimeZone(QByteArray(b"America/Cuiaba")).displayName(QTimeZone.TimeType.StandardTime,
                                                                    QTimeZone.NameType.LongName, pt))
        print(pt.toUpper("ação"))
        print([line.split()[-1] for line in open("/proc/self/maps") if "libicudata" in line][0])
    """)
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "QT_QPA_PLATFORM": "offscreen", "LD_PRELOAD": str(small)})
    assert done.returncode == 0, done.stderr
    order, zone, upper, mapped = done.stdout.strip().splitlines()
    assert order == "abacaxi Ação açúcar c ç d e é f Zé"
    assert zone.startswith("Horário") and upper == "AÇÃO"
    assert mapped == str(small)


# ------------------------------------------------------------------------------------- system libraries
def _wheel_libraries() -> dict[str, Path]:
    """Every shared library the installed distributions carry (PySide6/Qt/lib, numpy.libs, pyarrow, ...), by name."""
    import site

    found = {}
    for folder in {*site.getsitepackages(), site.getusersitepackages()}:
        if Path(folder).is_dir():
            found.update({p.name: p for p in Path(folder).rglob("*.so*") if p.is_file()})
    return found


def test_the_system_library_list_never_names_a_library_of_a_wheel():
    listed = _spec_value("LINUX_SYSTEM_LIBS")
    assert len(listed) == len(set(listed)) and "libstdc++.so.6" in listed
    wheels = _wheel_libraries()
    assert any(name.startswith("libQt6Core") for name in wheels)         # the walk does see the wheels
    assert sorted(set(listed) & set(wheels)) == [], {name: str(wheels[name]) for name in set(listed) & set(wheels)}
    # what the bundle keeps of the system's: Python, its database engine and TLS, ctypes
    kept = ("libpython", "libsqlite3.", "libssl.", "libcrypto.", "libffi.")
    assert [name for name in listed if name.startswith(kept)] == []


def _ci_packages() -> list[str]:
    """The Debian packages .ci/run installs (its `for pkg in ...; do` list)."""
    text = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    words = text.split("for pkg in", 1)[1].split("; do", 1)[0].replace("\\", " ").split()
    assert "libcups2" in words and "libglib2.0-0" in words
    return words


def _installed_closure(roots: list[str]) -> set[str]:
    """The installed packages `roots` depend on, recursively (Depends and Pre-Depends, the installed alternative)."""
    out = subprocess.run(["dpkg-query", "-W", "-f=${Package}\t${Depends}\t${Pre-Depends}\t${Provides}\n"],
                         capture_output=True, text=True, check=True).stdout
    depends, provided = {}, {}
    for line in out.splitlines():
        name, dep, pre, provides = (line.split("\t") + ["", "", ""])[:4]
        depends[name] = [[alt.split("(")[0].strip().split(":")[0] for alt in group.split("|")]
                         for group in f"{dep},{pre}".split(",") if group.strip()]
        for virtual in provides.split(","):
            if virtual.strip():
                provided.setdefault(virtual.split("(")[0].strip(), name)
    seen, todo = set(), list(roots)
    while todo:
        name = todo.pop()
        name = name if name in depends else provided.get(name, name)
        if name in seen or name not in depends:
            continue
        seen.add(name)
        for group in depends[name]:
            todo += [next((alt for alt in group if alt in depends or alt in provided), group[0])]
    return seen


@linux_only
@pytest.mark.skipif(shutil.which("dpkg-query") is None, reason="not a Debian machine")
def test_each_system_library_left_out_comes_with_the_packages_ci_installs():
    listed = _spec_value("LINUX_SYSTEM_LIBS")
    ldconfig = shutil.which("ldconfig") or "/sbin/ldconfig"      # (in /sbin, outside a user's PATH)
    paths = {}
    for line in subprocess.run([ldconfig, "-p"], capture_output=True, text=True, check=True).stdout.splitlines():
        if "=>" in line and "x86-64" in line:
            paths.setdefault(line.split()[0], line.split("=>")[1].strip())
    missing = [name for name in listed if name not in paths]
    assert missing == [], f"sem .ci/run estas bibliotecas não estão no sistema: {missing}"
    closure = _installed_closure(_ci_packages())
    owners = {}
    for name in listed:
        real = os.path.realpath(paths[name])
        for candidate in (paths[name], real, real.replace("/usr/lib/", "/lib/", 1), real.replace("/lib/", "/usr/lib/", 1)):
            done = subprocess.run(["dpkg", "-S", candidate], capture_output=True, text=True)
            if done.returncode == 0:
                owners[name] = done.stdout.split(":", 1)[0]
                break
    assert sorted(set(listed) - set(owners)) == []
    assert {name: owner for name, owner in owners.items() if owner not in closure} == {}


# ----------------------------------------------------------------------------------------------- Faker
_FAKER_LOADS = textwrap.dedent("""
    import importlib, json, sys
    from faker.config import PROVIDERS
    from faker.providers.person.pt_BR import Provider
    assert Provider.first_names_male and Provider.first_names_female and Provider.last_names
    for provider in PROVIDERS:
        for locale in sys.argv[1:]:
            try:
                importlib.import_module(f"{provider}.{locale}")
            except ModuleNotFoundError as error:
                if error.name != f"{provider}.{locale}":
                    raise       # the locale exists but imports one the bundle leaves out
    print(json.dumps(sorted(name for name in sys.modules if name.startswith("faker."))))
""")


def test_the_faker_locales_the_bundle_keeps_import_nothing_it_leaves_out():
    from faker.config import AVAILABLE_LOCALES

    kept = _spec_value("FAKER_LOCALES")
    assert kept <= set(AVAILABLE_LOCALES) and {"pt_BR", "en_US"} <= kept
    done = subprocess.run([sys.executable, "-c", _FAKER_LOADS, "pt_BR", "en_US"], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    loaded = json.loads(done.stdout.strip().splitlines()[-1])
    # desktop.spec's rule: faker.providers.<provider>.<locale> stays only for a kept locale
    locale_modules = [name for name in loaded if name.startswith("faker.providers.") and len(name.split(".")) >= 4
                      and name.split(".")[3] in AVAILABLE_LOCALES]
    assert "faker.providers.address.en" in locale_modules and "faker.providers.person.pt_BR" in locale_modules
    assert [name for name in locale_modules if name.split(".")[3] not in kept] == []
    # the base providers whose names hold an underscore are no locale (an earlier rule took them for one)
    assert {"faker.providers.date_time", "faker.providers.credit_card", "faker.providers.phone_number"} <= set(loaded)
