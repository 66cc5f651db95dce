"""Automatic backups (issue 17; SPEC §4: nothing legal is ever lost).

On SQLite the first login of each day (and the turn of the day on a desk left open) makes an online copy of the
database into the folder the administrator chose (a network share, an external disk), named
`transporte-AAAA-MM-DD.sqlite3`, and verifies it: the copy opens, `PRAGMA integrity_check` says "ok", its schema
revision is one this program knows, and the audit chain inside it verifies (`services.audit.verify`). The result
is written beside the copy (`….json`: when, SHA-256, what was checked) so the list of copies survives a
reinstall. Then the rotation of `desktop.domain.backup_rotation` (7 daily, 4 weekly, 12 monthly) removes the
copies no rule keeps. A copy that fails verification is renamed `….falhou` and never counted as a copy.

On PostgreSQL the copy is a `pg_dump -Fc` when `pg_dump` is found on this desk (verified with `pg_restore
--list` and its revision); otherwise the server's backups are the DBA's job and the state says how to check them.

Nothing here raises into the screen: a missing folder, a full disk or a failed verification is an outcome with
a Portuguese message (an alert in the status bar and on the dashboard), never a crash.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import sqlite3
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from desktop.domain.backup_rotation import kept_because
from desktop.domain.clock import now, today
from desktop.domain.problems import Problem
from desktop.domain.roles import BACKUP_ROLES
from desktop.errors import DesktopError, ValidationError
from desktop.services import audit, backup
from desktop.services.actors import Actor, SYSTEM_ACTOR
from desktop.services.permissions import require_role
from desktop.settings import load_settings
from desktop.settings import save_settings
from desktop.db import Database
from desktop.migrate import open_database

PREFIX = "transporte-"
SQLITE_SUFFIX = ".sqlite3"
PG_SUFFIX = ".dump"
FAILED_SUFFIX = ".falhou"
_NAME = re.compile(r"^transporte-(\d{4})-(\d{2})-(\d{2})(\.sqlite3|\.dump)$")

# Outcome statuses
DONE, ALREADY, NOT_CONFIGURED, FOLDER_MISSING, FAILED, DBA = (
    "done", "already", "not_configured", "folder_missing", "failed", "dba")
ALERTS = frozenset({NOT_CONFIGURED, FOLDER_MISSING, FAILED})

DBA_TEXT = ("As cópias de segurança do servidor PostgreSQL são tarefa do administrador do banco (DBA): o programa "
            "não encontrou o pg_dump nesta estação. Para conferir, peça ao DBA a data da última cópia (pg_dump, "
            "pgBackRest ou Barman) e o resultado do último teste de restauração em outro servidor.")


@dataclass(frozen=True, slots=True)
class BackupCopy:
    day: date
    path: Path
    size_bytes: int
    kind: str                 # "sqlite" | "postgresql"
    kept_by: str              # "diária" | "semanal" | "mensal" ("" for a copy the rotation will remove)
    verified: bool | None     # None: no verification recorded
    verification: str         # what was checked, in Portuguese
    sha256: str = ""


@dataclass(frozen=True, slots=True)
class BackupOutcome:
    status: str
    message: str
    copy: BackupCopy | None = None
    removed: tuple[Path, ...] = ()

    @property
    def alert(self) -> bool:
        return self.status in ALERTS


@dataclass(frozen=True, slots=True)
class BackupState:
    """For the status bar and the dashboard: is there a good copy of today?"""
    folder: Path | None
    status: str               # DONE (a verified copy of today) | "stale" | NOT_CONFIGURED | FOLDER_MISSING | FAILED | DBA
    message: str
    last: BackupCopy | None

    @property
    def alert(self) -> bool:
        return self.status != DONE and self.status != DBA


# ----------------------------------------------------------------------------------------------------- the folder

def configured_folder() -> Path | None:

    folder = load_settings().backup_folder
    return Path(folder) if folder else None


def folder_problems(folder: str | os.PathLike | None) -> list[Problem]:
    if folder is None or not str(folder).strip():
        return [Problem("backup_folder", "Escolha a pasta das cópias de segurança.")]
    path = Path(str(folder).strip())
    if not path.is_absolute():
        return [Problem("backup_folder", "Informe o caminho completo da pasta (por exemplo, E:\\Copias).")]
    if not path.is_dir():
        return [Problem("backup_folder", f"A pasta {path} não existe ou não está acessível.")]
    if not os.access(path, os.W_OK):
        return [Problem("backup_folder", f"Não é possível gravar na pasta {path}.")]
    return []


def set_backup_folder(db, actor: Actor, folder: str | os.PathLike) -> Path:
    """The administrator chooses where this desk's copies go (kept in the desk's settings; the choice is audited)."""

    require_role(actor, *BACKUP_ROLES.manage)
    problems = folder_problems(folder)
    if problems:
        raise ValidationError(problems)
    path = Path(str(folder).strip()).resolve()
    before = load_settings().backup_folder
    with db.session() as s:
        audit.record(s, actor, "backup_folder_set", "settings", "backup_folder",
                     {"backup_folder": before}, {"backup_folder": str(path)})
        save_settings(backup_folder=str(path))
    return path


# ------------------------------------------------------------------------------------------------------ the copies

def copy_name(day: date, kind: str) -> str:
    return f"{PREFIX}{day.isoformat()}{SQLITE_SUFFIX if kind == 'sqlite' else PG_SUFFIX}"


def _sidecar(path: Path) -> Path:
    return path.with_name(path.name + ".json")


def _read_sidecar(path: Path) -> dict:
    try:
        data = json.loads(_sidecar(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def list_copies(folder: Path | None = None) -> list[BackupCopy]:
    """The copies in the folder, newest first, each with the rule that keeps it and its recorded verification."""
    folder = folder if folder is not None else configured_folder()
    if folder is None or not folder.is_dir():
        return []
    found: dict[date, Path] = {}
    for entry in folder.iterdir():
        m = _NAME.match(entry.name)
        if not m or not entry.is_file():
            continue
        try:
            day = date(int(m[1]), int(m[2]), int(m[3]))
        except ValueError:
            continue
        found[day] = entry
    kept = kept_because(found)
    copies = []
    for day in sorted(found, reverse=True):
        path = found[day]
        info = _read_sidecar(path)
        copies.append(BackupCopy(
            day=day, path=path, size_bytes=path.stat().st_size,
            kind="sqlite" if path.suffix == SQLITE_SUFFIX else "postgresql",
            kept_by=kept.get(day, ""), verified=info.get("ok") if isinstance(info.get("ok"), bool) else None,
            verification=str(info.get("verification", "sem verificação registrada")),
            sha256=str(info.get("sha256", ""))))
    return copies


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def verify_copy(path: Path) -> tuple[bool, str]:
    """Open the copy and check it: SQLite integrity check, a known schema revision, and the audit chain; a
    PostgreSQL dump: readable by pg_restore, with a known revision. Returns (ok, what was checked or why not)."""
    try:
        if path.suffix == SQLITE_SUFFIX:
            return _verify_sqlite(path)
        backup.check_pg_backup(path)
        revision = backup.check_revision(backup.pg_backup_revision(path), path.name)
        return True, f"arquivo do pg_dump legível (pg_restore --list), versão do banco {revision}"
    except DesktopError as error:
        return False, str(error)
    except (OSError, sqlite3.Error) as error:
        return False, f"a cópia não pôde ser lida: {error}"


def _verify_sqlite(path: Path) -> tuple[bool, str]:
    revision = backup.check_revision(backup.check_sqlite_backup(path), path.name)
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        result = con.execute("PRAGMA integrity_check").fetchone()[0]
    finally:
        con.close()
    if result != "ok":
        return False, f"falhou na verificação de integridade do SQLite: {result}"

    copy_db = Database(f"sqlite:///{path}")
    try:
        check = audit.verify(copy_db)
    finally:
        copy_db.dispose()
    # Opening it through the program switched the copy to WAL: a backup file must stand alone.
    con = sqlite3.connect(path)
    try:
        con.execute("PRAGMA journal_mode=DELETE")
    finally:
        con.close()
    if not check.ok:
        return False, f"o registro de auditoria da cópia não confere: {check.reason}"
    return True, (f"integridade do SQLite ok, versão do banco {revision}, registro de auditoria íntegro "
                  f"({check.checked} entradas)")


def _write_sidecar(path: Path, ok: bool, verification: str, sha: str) -> None:
    data = {"ok": ok, "verification": verification, "sha256": sha, "verified_at": now().isoformat(),
            "size": path.stat().st_size}
    tmp = _sidecar(path).with_suffix(".tmp")
    tmp.write_text(json.dumps(data, ensure_ascii=False, indent=2), encoding="utf-8")
    os.replace(tmp, _sidecar(path))


def _kind(db) -> str:
    return "sqlite" if db.is_sqlite else "postgresql"


def pg_dump_available() -> bool:
    return shutil.which("pg_dump") is not None


def run_auto_backup(db, actor: Actor = SYSTEM_ACTOR, *, on: date | None = None, folder: Path | None = None,
                    force: bool = False) -> BackupOutcome:
    """Make, verify and rotate today's copy unless a verified one exists (`force`: make it again). Never raises
    for a problem of the folder or of the copy: the outcome says what happened."""
    day = on or today()
    folder = folder if folder is not None else configured_folder()
    if db.is_postgresql and not pg_dump_available():
        return BackupOutcome(DBA, DBA_TEXT)
    if folder is None:
        return BackupOutcome(NOT_CONFIGURED, "Cópia de segurança automática não configurada: o administrador "
                                             "deve escolher a pasta em Administração → Cópias de segurança.")
    if not folder.is_dir():
        return BackupOutcome(FOLDER_MISSING, f"Cópia de segurança não feita: a pasta {folder} não está acessível "
                                             "(disco externo desligado ou rede fora do ar?).")
    target = folder / copy_name(day, _kind(db))
    if target.exists() and not force:
        info = _read_sidecar(target)
        if info.get("ok") is True:
            copy = next((c for c in list_copies(folder) if c.day == day), None)
            return BackupOutcome(ALREADY, f"A cópia de segurança de hoje já foi feita ({target.name}).", copy)
    try:
        backup.backup(db.url, target)
    except (DesktopError, OSError, sqlite3.Error) as error:
        return BackupOutcome(FAILED, f"A cópia de segurança falhou: {error}")
    ok, verification = verify_copy(target)
    sha = _sha256(target)
    if not ok:
        failed = target.with_name(target.name + FAILED_SUFFIX)
        os.replace(target, failed)
        _write_sidecar(failed, False, verification, sha)
        _audit(db, actor, "backup_auto_failed", failed, verification, sha)
        return BackupOutcome(FAILED, f"A cópia {target.name} foi feita mas não passou na verificação: "
                                     f"{verification}. Ela foi guardada como {failed.name}.")
    _write_sidecar(target, True, verification, sha)
    _record_in_manifest(folder, target, sha)
    removed = _rotate(folder, day)
    _audit(db, actor, "backup_auto", target, verification, sha, removed)
    copy = next((c for c in list_copies(folder) if c.day == day), None)
    text = f"Cópia de segurança de {day.strftime('%d/%m/%Y')} feita e verificada em {folder}."
    if removed:
        text += f" {len(removed)} cópia(s) antiga(s) removida(s) pela rotação (7 diárias, 4 semanais, 12 mensais)."
    return BackupOutcome(DONE, text, copy, removed)


# The copies this program made, by file name, with their size and SHA-256 (issue 25 item 9): the rotation trusted
# names, and deleted 24 real copies when 23 files named 2027-… appeared in the folder. It now deletes only copies
# listed here whose size still matches, never one dated after today, and counts no other file.
MANIFEST = ".copias-transporte.json"


def _manifest(folder: Path) -> dict[str, dict]:
    try:
        data = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    copies = data.get("copies") if isinstance(data, dict) else None
    return {k: v for k, v in copies.items() if isinstance(v, dict)} if isinstance(copies, dict) else {}


def _write_manifest(folder: Path, copies: dict[str, dict]) -> None:
    tmp = folder / (MANIFEST + ".tmp")
    tmp.write_text(json.dumps({"copies": copies}, ensure_ascii=False, indent=2, sort_keys=True), encoding="utf-8")
    os.replace(tmp, folder / MANIFEST)


def _record_in_manifest(folder: Path, path: Path, sha: str) -> None:
    copies = _manifest(folder)
    copies[path.name] = {"sha256": sha, "size": path.stat().st_size, "made_at": now().isoformat()}
    _write_manifest(folder, copies)


def _ours(folder: Path, copies: list, day: date) -> list:
    """The copies of the list that this program made (in the manifest, same size) and that are not dated in the
    future."""
    made = _manifest(folder)
    ours = []
    for copy in copies:
        entry = made.get(copy.path.name)
        if entry is None or entry.get("size") != copy.size_bytes or copy.day > day:
            continue
        ours.append(copy)
    return ours


def _rotate(folder: Path, day: date | None = None) -> tuple[Path, ...]:
    day = day or today()
    ours = _ours(folder, list_copies(folder), day)
    kept = kept_because(c.day for c in ours)
    made = _manifest(folder)
    removed = []
    for copy in ours:
        if copy.day in kept:
            continue
        made.pop(copy.path.name, None)
        for path in (copy.path, _sidecar(copy.path)):
            try:
                path.unlink(missing_ok=True)
            except OSError:
                continue
        removed.append(copy.path)
    if removed:
        _write_manifest(folder, made)
    return tuple(sorted(removed))


def _audit(db, actor: Actor, action: str, path: Path, verification: str, sha: str,
           removed: tuple[Path, ...] = ()) -> None:
    """The copy is recorded in the audit log of the database it copies (after the copy: it cannot hold itself)."""
    try:
        with db.session() as s:
            audit.record(s, actor, action, "backup", path.name, None,
                         {"file": str(path), "sha256": sha, "verification": verification,
                          "removed": [p.name for p in removed]})
    except DesktopError:
        pass   # a revoked session does not undo a copy that exists; the copy's sidecar holds the same facts


def backup_state(db, folder: Path | None = None, on: date | None = None) -> BackupState:
    """Whether today's copy exists and verified; what to tell the user otherwise."""
    return state_of(db.is_postgresql, folder, on)


def state_of(is_postgresql: bool, folder: Path | None = None, on: date | None = None) -> BackupState:
    """`backup_state` from the kind of database (the dashboard has a session, not the Database)."""
    day = on or today()
    folder = folder if folder is not None else configured_folder()
    if is_postgresql and not pg_dump_available():
        return BackupState(folder, DBA, DBA_TEXT, None)
    if folder is None:
        return BackupState(None, NOT_CONFIGURED, "Cópias de segurança automáticas não configuradas.", None)
    if not folder.is_dir():
        return BackupState(folder, FOLDER_MISSING, f"A pasta das cópias ({folder}) não está acessível.", None)
    copies = list_copies(folder)
    last = copies[0] if copies else None
    if any(p.name.startswith(f"{PREFIX}{day.isoformat()}") and p.name.endswith(FAILED_SUFFIX)
           for p in folder.iterdir()) and not (last and last.day == day and last.verified):
        return BackupState(folder, FAILED, "A cópia de segurança de hoje falhou na verificação.", last)
    if last is None:
        return BackupState(folder, "stale", "Nenhuma cópia de segurança na pasta ainda.", None)
    if last.day == day and last.verified:
        return BackupState(folder, DONE, f"Cópia de segurança de hoje verificada ({last.path.name}).", last)
    age = (day - last.day).days
    return BackupState(folder, "stale", f"A última cópia de segurança é de {last.day.strftime('%d/%m/%Y')} "
                                        f"(há {age} dia(s)).", last)


def restore_copy(db, actor: Actor, copy_path: Path) -> backup.BackupResult:
    """Put a copy back in place of the database (administrador). The copy is verified first; the safety checks of
    `services.backup.restore` apply (unknown revision refused, older copy migrated aside first, the replaced file
    kept). The restore is recorded in the restored database's audit log. The program must be reopened after."""
    require_role(actor, *BACKUP_ROLES.manage)
    ok, verification = verify_copy(copy_path)
    if not ok:
        raise backup.BackupError(f"A cópia {copy_path.name} não passou na verificação e não foi restaurada: "
                                 f"{verification}")
    db.dispose()
    result = backup.restore(db.url, copy_path)

    restored = open_database(db.url, migrate=True)   # an older copy is brought up to date now
    try:
        with restored.session() as s:
            # The acting user may not exist in the restored copy: the entry names them; the system writes it.
            audit.record(s, SYSTEM_ACTOR, "backup_restored", "backup", copy_path.name, None,
                         {"file": str(copy_path), "restored_by": actor.username, "at": now().isoformat(),
                          "replaced_copy": str(result.replaced_copy) if result.replaced_copy else None})
    finally:
        restored.dispose()
    return result
