"""Backups and restores of the whole database (issue 2; SPEC §4: nothing legal is ever lost).

SQLite: the online backup API (`sqlite3.Connection.backup`) copies a consistent snapshot page by page while other
desks keep working, WAL included — copying the file with `shutil` could take a torn file.
PostgreSQL: `pg_dump --format=custom` (compressed, restorable table by table) and `pg_restore --clean --if-exists`.

A restore first proves the file is a database of this program (it has the `alembic_version` table that the
migrations keep), and on SQLite keeps a copy of the file it replaces beside it.

Issue 11 (a restore must not break the office): the backup's revision is read first. A revision this program
does not know (a newer program's backup, or a forged one) is refused before anything is replaced. On SQLite an
older backup is copied to a temporary file beside the database, migrated THERE, and only then copied into place:
a migration that fails leaves the live database as it was. On PostgreSQL an older dump is restored in one
transaction and migrated afterwards (the CLI does it at once).

Staged restore (issue 11, leftovers): on both databases the backup is first restored beside the live data (a
temporary SQLite file; a temporary PostgreSQL database), migrated there when older, and its audit chain verified
against its own signed checkpoints (`audit.verify`). Only a copy that passes replaces the live data (SQLite:
the backup API into the live file; PostgreSQL: one `pg_restore --single-transaction` of the verified copy). A
failure at any step leaves the current data untouched and says "Nada foi substituído".
"""
from __future__ import annotations

import logging
import os
import shutil
import sqlite3
import subprocess
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from desktop.errors import DesktopError

from desktop.domain.clock import TIMEZONE as TZ  # the one time zone constant
from sqlalchemy.engine import make_url
import time
from desktop.processes import parent_alive
import threading
from desktop.db import create_private_sqlite_file
from desktop.db import known_revisions
from desktop.db import known_head
from desktop import migrate
from desktop.db import Database, sqlite_url
import tempfile
import uuid
from sqlalchemy import create_engine, text
SQLITE_MAGIC = b"SQLite format 3\x00"
PG_CUSTOM_MAGIC = b"PGDMP"
log = logging.getLogger(__name__)


class BackupError(DesktopError):
    """A backup or restore could not be done; the message says why, in Portuguese."""


@dataclass(frozen=True, slots=True)
class BackupResult:
    path: Path
    size_bytes: int
    kind: str             # "sqlite" | "postgresql"
    replaced_copy: Path | None = None   # restore on SQLite: where the replaced file was kept


# ------------------------------------------------------------------------------------------------------------ URLs

def sqlite_path(url: str) -> Path:
    """The file of a `sqlite:///...` URL."""

    u = make_url(url)
    if not u.drivername.startswith("sqlite"):
        raise BackupError(f"O endereço não é de um banco SQLite: {u.render_as_string(hide_password=True)}")
    if not u.database or u.database == ":memory:":
        raise BackupError("Um banco SQLite em memória não tem cópia de segurança.")
    return Path(u.database)


def libpq_args(url: str) -> tuple[list[str], dict[str, str]]:
    """Command-line arguments and environment for pg_dump / pg_restore from a SQLAlchemy URL.

    The password goes in PGPASSWORD (never on the command line, where `ps` would show it).
    """

    u = make_url(url)
    if not u.drivername.startswith("postgresql"):
        raise BackupError(f"O endereço não é de um banco PostgreSQL: {u.render_as_string(hide_password=True)}")
    args: list[str] = []
    if u.host:
        args += ["--host", u.host]
    if u.port:
        args += ["--port", str(u.port)]
    if u.username:
        args += ["--username", u.username]
    args += ["--dbname", u.database or "postgres"]
    env = dict(os.environ)
    options = u.query.get("options")
    if options:
        # e.g. "-csearch_path=office" (the program's tables live in that schema): libpq reads PGOPTIONS.
        env["PGOPTIONS"] = options if isinstance(options, str) else " ".join(options)
    if u.password is not None:
        env["PGPASSWORD"] = str(u.password)
    env.setdefault("PGCONNECT_TIMEOUT", "10")
    return args, env


def pg_schema(url: str) -> str | None:
    """The schema named by `options=-csearch_path=NAME` in the URL (a database shared by several programs)."""

    options = make_url(url).query.get("options")
    if not options:
        return None
    text = options if isinstance(options, str) else " ".join(options)
    for part in text.replace("-c ", "-c").split():
        if part.startswith("-csearch_path="):
            first = part.split("=", 1)[1].split(",")[0].strip().strip('"')
            return first or None
    return None


def _tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        raise BackupError(
            f"O programa {name} do PostgreSQL não foi encontrado. Instale as ferramentas cliente do PostgreSQL "
            f"(da mesma versão do servidor) e tente de novo."
        )
    return path


def _supervise(cmd: list[str], env: dict[str, str], parent_pid: int, conn) -> None:
    """The body of the process that runs a PostgreSQL tool for this one (issue 25 item 9): it starts the tool,
    and if this process dies (kill -9 during a restore) it kills the tool at once — a `pg_restore
    --single-transaction` killed before its COMMIT leaves the live database as it was — instead of letting it
    finish replacing the live data after the command had died."""

    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    out: dict[str, str] = {}
    readers = [threading.Thread(target=lambda n=n, f=f: out.__setitem__(n, f.read()), daemon=True)
               for n, f in (("stdout", proc.stdout), ("stderr", proc.stderr))]
    for r in readers:
        r.start()
    while proc.poll() is None:
        if not parent_alive(parent_pid):
            proc.kill()
            proc.wait()
            os._exit(1)
        time.sleep(0.1)
    for r in readers:
        r.join()
    conn.send((proc.returncode, out.get("stdout", ""), out.get("stderr", "")))
    conn.close()


def run_tool(cmd: list[str], env: dict[str, str]) -> tuple[int, str, str]:
    """Run a PostgreSQL tool so that it dies with this process: through a spawned supervisor that watches this
    process (`_supervise`). Returns (exit code, stdout, stderr)."""
    import multiprocessing  # lazy: multiprocessing loads only when this runs (start-up cost)

    ctx = multiprocessing.get_context("spawn")
    mine, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_supervise, args=(cmd, env, os.getpid(), child), name="pg-tool", daemon=True)
    proc.start()
    child.close()
    try:
        code, stdout, stderr = mine.recv()
    except EOFError:
        proc.join(5)
        return proc.exitcode or 1, "", ""
    finally:
        mine.close()
    proc.join(5)
    return code, stdout, stderr


# pg_restore / pg_dump say what went wrong in English: the usual causes, in Portuguese (issue 25 item 10)
_PG_MESSAGES = (
    ("could not connect", "não foi possível conectar ao servidor PostgreSQL"),
    ("connection to server", "não foi possível conectar ao servidor PostgreSQL"),
    ("password authentication failed", "a senha do banco foi recusada"),
    ("permission denied", "permissão negada ao papel do banco"),
    ("must be owner", "o papel do banco não é o dono dos objetos"),
    ("does not exist", "um objeto esperado não existe no banco"),
    ("already exists", "um objeto da cópia já existe no banco"),
    ("input file appears to be a text format dump", "o arquivo é um dump em texto, não no formato do pg_dump (-Fc)"),
    ("input file does not appear to be a valid archive", "o arquivo não é uma cópia válida do pg_dump"),
    ("unsupported version", "a cópia foi feita por uma versão mais nova do PostgreSQL"),
    ("could not open input file", "o arquivo da cópia não pôde ser aberto"),
    ("out of memory", "o servidor ficou sem memória"),
    ("no space left", "o disco ficou cheio"),
    ("violates", "os dados da cópia violam uma regra do banco"),
    ("canceling statement", "a operação foi cancelada pelo servidor"),
)


def pg_message(text: str) -> str:
    """The Portuguese of a PostgreSQL tool's error output (its English is kept only in the log)."""
    low = (text or "").lower()
    for needle, words in _PG_MESSAGES:
        if needle in low:
            return words
    return "erro do PostgreSQL (detalhes no registro do programa)"


def _run(cmd: list[str], env: dict[str, str], what: str) -> None:
    code, stdout, stderr = run_tool(cmd, env)
    if code != 0:
        detail = (stderr or stdout).strip()
        log.warning("%s failed (exit %s): %s", what, code, detail[-2000:])
        raise BackupError(f"O {what} falhou: {pg_message(detail)} (código {code}).")


# ---------------------------------------------------------------------------------------------------------- backup

def backup(url: str, out: str | os.PathLike) -> BackupResult:
    """Copy the database at `url` to the file `out` (created or replaced)."""
    out_path = Path(out)
    if out_path.parent and not out_path.parent.exists():
        out_path.parent.mkdir(parents=True, exist_ok=True)
    if url.startswith("sqlite"):
        return _backup_sqlite(sqlite_path(url), out_path)
    if url.startswith("postgresql"):
        return _backup_postgresql(url, out_path)
    raise BackupError(f"Tipo de banco não suportado para cópia de segurança: {url.split(':', 1)[0]}")


def _backup_sqlite(src: Path, out: Path) -> BackupResult:
    if not src.exists():
        raise BackupError(f"O arquivo do banco não existe: {src}")
    if out.resolve() == src.resolve():
        raise BackupError("A cópia de segurança não pode ser gravada sobre o próprio banco.")

    tmp = out.with_name(out.name + ".parcial")
    tmp.unlink(missing_ok=True)
    create_private_sqlite_file(tmp)   # a copy of the database is as private as the database (issue 11)
    source = sqlite3.connect(f"file:{src}?mode=ro", uri=True)
    try:
        target = sqlite3.connect(tmp)
        try:
            source.backup(target, pages=4096)
            # A backup file must stand alone: no -wal beside it.
            target.execute("PRAGMA journal_mode=DELETE")
        finally:
            target.close()
    finally:
        source.close()
    os.replace(tmp, out)
    return BackupResult(out, out.stat().st_size, "sqlite")


def _backup_postgresql(url: str, out: Path) -> BackupResult:
    args, env = libpq_args(url)
    tmp = out.with_name(out.name + ".parcial")
    tmp.unlink(missing_ok=True)
    # as private as a SQLite copy (issue 25 item 9: dumps were 0644): created 0600, pg_dump writes into it
    os.close(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600))
    schema = pg_schema(url)
    only = ["--schema", schema] if schema else []
    try:
        _run([_tool("pg_dump"), "--format=custom", "--no-owner", *only, "--file", str(tmp), *args], env, "pg_dump")
        os.chmod(tmp, 0o600)
        os.replace(tmp, out)
    finally:
        tmp.unlink(missing_ok=True)
    return BackupResult(out, out.stat().st_size, "postgresql")


# --------------------------------------------------------------------------------------------------------- restore

def check_sqlite_backup(path: Path) -> str:
    """The migration revision of a SQLite backup of this program; `BackupError` when it is not one."""
    if not path.exists():
        raise BackupError(f"O arquivo não existe: {path}")
    with open(path, "rb") as fh:
        if fh.read(16) != SQLITE_MAGIC:
            raise BackupError(f"O arquivo {path.name} não é um banco SQLite.")
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        row = con.execute(
            "SELECT name FROM sqlite_master WHERE type='table' AND name='alembic_version'"
        ).fetchone()
        if row is None:
            raise BackupError(
                f"O arquivo {path.name} é um banco SQLite, mas não é uma cópia deste programa "
                f"(falta a tabela de versão alembic_version)."
            )
        version = con.execute("SELECT version_num FROM alembic_version").fetchone()
        if con.execute("PRAGMA quick_check").fetchone()[0] != "ok":
            raise BackupError(f"O arquivo {path.name} está danificado (falhou na verificação do SQLite).")
    except sqlite3.DatabaseError as exc:
        raise BackupError(f"O arquivo {path.name} não pôde ser lido como banco SQLite: {exc}") from exc
    finally:
        con.close()
    if version is None:
        raise BackupError(f"O arquivo {path.name} não registra a versão do banco (alembic_version vazia).")
    return version[0]


def check_revision(revision: str | None, name: str) -> str:
    """Refuse a backup whose schema revision this program does not know (newer or unknown); return it."""

    known = known_revisions()
    if revision not in known:
        raise BackupError(
            f"A cópia {name} está na versão {revision or 'desconhecida'} do banco, que este programa não conhece "
            f"(ele vai até a {known[-1] if known else '?'}): é de uma versão mais nova do programa ou não é uma "
            "cópia válida. Nada foi substituído; atualize o programa antes de restaurá-la.")
    return revision


def pg_backup_revision(path: Path) -> str | None:
    """The alembic revision stored in a pg_dump custom archive (read from its data, nothing restored)."""
    proc = subprocess.run([_tool("pg_restore"), "--data-only", "--table=alembic_version", "--file=-", str(path)],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        raise BackupError(f"O arquivo {path.name} não pôde ser lido pelo pg_restore: {pg_message(proc.stderr)}.")
    lines = proc.stdout.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("COPY ") and "alembic_version" in line:
            value = lines[i + 1].strip() if i + 1 < len(lines) else ""
            return None if value in ("", "\\.") else value
    return None


def check_pg_backup(path: Path) -> None:
    """Refuse files that are not pg_dump custom archives of this program."""
    if not path.exists():
        raise BackupError(f"O arquivo não existe: {path}")
    with open(path, "rb") as fh:
        if fh.read(5) != PG_CUSTOM_MAGIC:
            raise BackupError(f"O arquivo {path.name} não é uma cópia do PostgreSQL no formato do pg_dump (-Fc).")
    proc = subprocess.run([_tool("pg_restore"), "--list", str(path)], capture_output=True, text=True)
    if proc.returncode != 0:
        raise BackupError(f"O arquivo {path.name} não pôde ser lido pelo pg_restore: {pg_message(proc.stderr)}.")
    if " TABLE " not in proc.stdout or "alembic_version" not in proc.stdout:
        raise BackupError(
            f"O arquivo {path.name} é uma cópia do PostgreSQL, mas não deste programa (falta alembic_version)."
        )


def restore(url: str, file: str | os.PathLike) -> BackupResult:
    """Replace the database at `url` with the backup `file`. The caller migrates afterwards if needed."""
    path = Path(file)
    if url.startswith("sqlite"):
        return _restore_sqlite(sqlite_path(url), path)
    if url.startswith("postgresql"):
        return _restore_postgresql(url, path)
    raise BackupError(f"Tipo de banco não suportado para restauração: {url.split(':', 1)[0]}")


def _stamp() -> str:
    return datetime.now(TZ).strftime("%Y%m%d-%H%M%S")


def _restore_sqlite(target: Path, source: Path) -> BackupResult:

    revision = check_revision(check_sqlite_backup(source), source.name)
    if target.exists() and source.resolve() == target.resolve():
        raise BackupError("O arquivo escolhido é o próprio banco em uso.")
    staged = _migrated_copy(source, target, migrate_it=revision != known_head())
    try:
        return _put_in_place(target, staged)
    finally:
        for leftover in (staged, staged.with_name(staged.name + "-wal"), staged.with_name(staged.name + "-shm")):
            leftover.unlink(missing_ok=True)


def _migrated_copy(source: Path, target: Path, migrate_it: bool = True) -> Path:
    """The backup copied beside the target, migrated there when older, and its audit chain verified against its
    signed checkpoints (issue 11); the live database is not touched. `BackupError` (and no copy left) otherwise."""

    target.parent.mkdir(parents=True, exist_ok=True)
    staged = target.with_name(f"{target.stem}.restaurando-{_stamp()}{target.suffix or '.sqlite3'}")
    _backup_sqlite(source, staged)
    db = Database(sqlite_url(staged))
    try:
        if migrate_it:
            try:
                migrate.upgrade(db, backup=False)
            except Exception as exc:
                raise BackupError(f"A cópia {source.name} é de uma versão anterior e não pôde ser atualizada "
                                  f"({type(exc).__name__}: {exc}). Nada foi substituído.") from exc
        _verify_audit(db, source.name)
    except BaseException:
        db.dispose()
        for leftover in (staged, staged.with_name(staged.name + "-wal"), staged.with_name(staged.name + "-shm")):
            leftover.unlink(missing_ok=True)
        raise
    db.dispose()
    con = sqlite3.connect(staged)
    try:
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        con.execute("PRAGMA journal_mode=DELETE")
    finally:
        con.close()
    return staged


def _put_in_place(target: Path, source: Path) -> BackupResult:
    kept: Path | None = None
    if target.exists():
        kept = target.with_name(f"{target.stem}.substituido-{_stamp()}{target.suffix or '.sqlite3'}")
        _backup_sqlite(target, kept)
    else:
        target.parent.mkdir(parents=True, exist_ok=True)
    # The backup API writes into the live file under SQLite's own locks (WAL and -shm stay consistent), so a
    # desk that still has the file open sees the restored database rather than a file swapped under it.
    src = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    try:
        dst = sqlite3.connect(target, timeout=30)
        try:
            src.backup(dst, pages=4096)
        finally:
            dst.close()
    finally:
        src.close()
    return BackupResult(target, target.stat().st_size, "sqlite", replaced_copy=kept)


def _verify_audit(db, name: str) -> str:
    """The audit chain of a staged restore, checked against its signed checkpoints; `BackupError` when broken."""
    from desktop.services import audit  # lazy: the audit service (SQLAlchemy) only when a restore is verified

    check = audit.verify(db)
    if not check.ok:
        raise BackupError(f"A cópia {name} foi recusada: o registro de auditoria dela não confere — {check.reason} "
                          "Nada foi substituído.")
    return check.reason


def _pg_admin_url(url: str, database: str) -> str:

    return make_url(url).set(database=database).render_as_string(hide_password=False)


def _restore_postgresql(url: str, source: Path) -> BackupResult:
    """Staged (issue 11): the dump is restored into a NEW database beside the live one, migrated there when it is
    older, its audit chain verified against its signed checkpoints; only then is the verified copy put in place,
    by one `pg_restore --single-transaction` (all or nothing). Any failure before the swap drops the staging
    database and leaves the live data untouched."""


    check_pg_backup(source)
    revision = check_revision(pg_backup_revision(source), source.name)
    live = make_url(url)
    staging = f"{(live.database or 'postgres')[:30]}_restaurando_{uuid.uuid4().hex[:10]}"
    admin = create_engine(live, isolation_level="AUTOCOMMIT")
    staged_url = _pg_admin_url(url, staging)
    try:
        try:
            with admin.connect() as conn:
                conn.execute(text(f'CREATE DATABASE "{staging}" TEMPLATE template0'))
        except Exception as exc:  # noqa: BLE001 — no CREATEDB right, server refused
            log.warning("restore: CREATE DATABASE %s failed: %s", staging, exc)
            raise BackupError("Não foi possível criar o banco temporário da restauração (o papel do banco "
                              f"precisa poder criar bancos: CREATEDB): {pg_message(str(exc))}. Nada foi "
                              "substituído.") from exc
        args, env = libpq_args(staged_url)
        try:
            _run([_tool("pg_restore"), "--no-owner", "--exit-on-error", "--single-transaction", *args,
                  str(source)], env, "pg_restore")
        except BackupError as exc:
            raise BackupError(f"{exc} Nada foi substituído.") from exc
        staged = Database(staged_url)
        try:
            if revision != known_head():
                try:
                    migrate.upgrade(staged, backup=False)
                except Exception as exc:
                    raise BackupError(f"A cópia {source.name} é de uma versão anterior e não pôde ser atualizada "
                                      f"({type(exc).__name__}: {exc}). Nada foi substituído.") from exc
            _verify_audit(staged, source.name)
        finally:
            staged.dispose()
        with tempfile.TemporaryDirectory(prefix="restauracao-") as tmp:
            verified = Path(tmp) / "verificada.dump"
            _backup_postgresql(staged_url, verified)
            args, env = libpq_args(url)
            _run([_tool("pg_restore"), "--clean", "--if-exists", "--no-owner", "--exit-on-error",
                  "--single-transaction", *args, str(verified)], env, "pg_restore")
    finally:
        try:
            with admin.connect() as conn:
                conn.execute(text(f'DROP DATABASE IF EXISTS "{staging}" WITH (FORCE)'))
        finally:
            admin.dispose()
    return BackupResult(source, source.stat().st_size, "postgresql")


# ------------------------------------------------------------------------------------------------------ leftovers

LEFTOVER_MIN_AGE_SECONDS = 600   # a staging file younger than this may belong to a restore running right now


def clean_restore_leftovers(url: str) -> list[str]:
    """What a killed backup or restore left behind (issue 25 item 9), removed at the next start with a line in the
    log; returns what was removed. SQLite: beside the database, `<name>.restaurando-*.sqlite3` (the staged copy,
    with its -wal/-shm/-journal) and `*.parcial` copies (with their -journal), untouched for 10 minutes. PostgreSQL:
    the staging databases `<banco>_restaurando_<código>` nobody is connected to. The live data is never touched (a
    killed `pg_restore --single-transaction` was rolled back by the server; the supervisor of `run_tool` kills it
    with the command)."""
    try:
        if url.startswith("sqlite"):
            return _clean_sqlite_leftovers(sqlite_path(url))
        if url.startswith("postgresql"):
            return _clean_pg_leftovers(url)
    except Exception as exc:  # noqa: BLE001 - cleaning must never keep the program from starting
        log.warning("restore leftovers: could not clean (%s: %s)", type(exc).__name__, exc)
    return []


def _clean_sqlite_leftovers(path: Path) -> list[str]:

    folder = path.parent
    if not folder.is_dir():
        return []
    stem = path.stem
    patterns = [f"{stem}.restaurando-*", f"{path.name}.parcial*", f".{path.name}.*.parcial*"]
    removed = []
    limit = time.time() - LEFTOVER_MIN_AGE_SECONDS
    for pattern in patterns:
        for leftover in sorted(folder.glob(pattern)):
            try:
                if not leftover.is_file() or leftover.stat().st_mtime > limit:
                    continue
                leftover.unlink()
            except OSError as exc:
                log.warning("restore leftovers: %s not removed (%s)", leftover, exc)
                continue
            removed.append(leftover.name)
    if removed:
        log.warning("restore leftovers: removed %d file(s) a killed backup or restore left beside %s: %s",
                    len(removed), path.name, ", ".join(removed))
    return removed


def _clean_pg_leftovers(url: str) -> list[str]:

    live = make_url(url)
    prefix = f"{(live.database or 'postgres')[:30]}_restaurando_"
    admin = create_engine(live, isolation_level="AUTOCOMMIT")
    removed = []
    try:
        with admin.connect() as conn:
            names = conn.execute(text(
                "SELECT d.datname FROM pg_database d WHERE starts_with(d.datname, :p) AND NOT EXISTS "
                "(SELECT 1 FROM pg_stat_activity a WHERE a.datname = d.datname)"), {"p": prefix}).scalars().all()
            for name in names:
                if not name[len(prefix):].isalnum():
                    continue
                try:
                    conn.execute(text(f'DROP DATABASE IF EXISTS "{name}"'))
                except Exception as exc:  # noqa: BLE001 - someone connected meanwhile: next start
                    log.warning("restore leftovers: database %s not dropped (%s)", name, exc)
                    continue
                removed.append(name)
    finally:
        admin.dispose()
    if removed:
        log.warning("restore leftovers: dropped %d staging database(s) a killed restore left: %s", len(removed),
                    ", ".join(removed))
    return removed
