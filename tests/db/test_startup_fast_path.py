"""Start-up (issue 2: main window ≤ 1.2 s): a database already at the newest revision opens without importing
Alembic; a database behind it still migrates."""
import subprocess
import sys
from pathlib import Path

from desktop import db as dbmod
from desktop import migrate

ROOT = Path(__file__).resolve().parents[2]


def test_known_head_matches_alembic():
    assert dbmod.known_head() == migrate.head()


def test_current_schema_is_recognised_and_an_old_one_is_not(db):
    assert dbmod.schema_is_current(db)
    head = migrate.head()
    with db.session() as s:
        s.execute(dbmod_text("UPDATE alembic_version SET version_num = '0001'"))
    try:
        assert not dbmod.schema_is_current(db)
    finally:  # the PostgreSQL schema is shared by the session's tests: put the revision back
        with db.session() as s:
            s.execute(dbmod_text(f"UPDATE alembic_version SET version_num = '{head}'"))
    assert dbmod.schema_is_current(db)


def dbmod_text(sql):
    from sqlalchemy import text

    return text(sql)


def test_opening_an_up_to_date_sqlite_file_does_not_import_alembic(tmp_path):
    url = dbmod.sqlite_url(tmp_path / "t.sqlite3")
    migrate.open_database(url).dispose()  # creates and migrates
    code = (
        "import sys\n"
        "from desktop.migrate import open_database\n"
        f"d = open_database({url!r})\n"
        "print('alembic' in sys.modules)\n"
        "d.dispose()\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"


def test_a_new_sqlite_file_is_still_migrated(tmp_path):
    url = dbmod.sqlite_url(tmp_path / "new.sqlite3")
    database = migrate.open_database(url)
    try:
        assert migrate.current(database) == migrate.head()
    finally:
        database.dispose()
