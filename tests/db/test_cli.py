"""The ops CLI (issue 2) with the office's arguments: `python -m desktop --db URL ...`, run in this process through
`cli.main()` on the suite's clock (issue 22 point 8: the result never depends on the day the suite runs). The
bundle's smoke test and tests/packaging run the real executable."""
from __future__ import annotations

import contextlib
import csv
import getpass
import io
import re
import shutil
import sys
import uuid
import warnings
from dataclasses import dataclass
from pathlib import Path
from unittest import mock

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from desktop import cli
from desktop.db import sqlite_url
from desktop.services import auth

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Ran:
    returncode: int
    stdout: str
    stderr: str


def run(*args: str, input_text: str | None = None) -> Ran:
    """`python -m desktop ARGS` in this process: what it printed and its exit code. Standard input is
    `input_text` (empty when None), as a pipe: the password prompt reads it as getpass does without a terminal."""
    out, err = io.StringIO(), io.StringIO()
    with mock.patch.object(sys, "stdin", io.StringIO(input_text or "")), \
            mock.patch.object(getpass, "getpass", getpass.fallback_getpass), \
            warnings.catch_warnings():
        warnings.simplefilter("ignore", getpass.GetPassWarning)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = cli.main(list(args))
    return Ran(code, out.getvalue(), err.getvalue())


@pytest.fixture
def fresh_url(db, tmp_path):
    """An EMPTY database (no tables) of the same kind as `db`: a new SQLite file or a new PostgreSQL schema."""
    if db.is_sqlite:
        yield sqlite_url(tmp_path / "vazio.sqlite3")
        return
    from tests.db.conftest import pg_base_url, pg_url_with_schema

    schema = f"cli_{uuid.uuid4().hex[:10]}"
    admin = create_engine(make_url(pg_base_url()), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    try:
        yield pg_url_with_schema(pg_base_url(), schema)
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
        admin.dispose()


def test_migrate_creates_the_tables_then_is_idempotent(fresh_url):
    first = run("--db", fresh_url, "migrate")
    assert first.returncode == 0, first.stderr
    assert "migrado de vazio para" in first.stdout
    second = run("migrate", "--db", fresh_url)             # --db after the command works too
    assert second.returncode == 0 and "já está na versão" in second.stdout


def test_users_add_with_flags_and_errors(db):
    ok = run("--db", db.url, "users", "add", "--username", "Rita.Fiscal", "--name", "Rita de Cássia",
             "--roles", "fiscal,gestor", "--password", "senha-da-rita")
    assert ok.returncode == 0, ok.stderr
    assert "rita.fiscal" in ok.stdout
    actor = auth.login(db, "rita.fiscal", "senha-da-rita")
    assert {r.value for r in actor.roles} == {"fiscal", "gestor"}
    dup = run("--db", db.url, "users", "add", "--username", "rita.fiscal", "--name", "Outra", "--roles", "fiscal",
              "--password", "outra-senha-1")
    assert dup.returncode == 1 and "Já existe" in dup.stderr
    bad_role = run("--db", db.url, "users", "add", "--username", "joao", "--name", "João", "--roles", "prefeito",
                   "--password", "senha-do-joao")
    assert bad_role.returncode == 1 and "Papel desconhecido" in bad_role.stderr
    listing = run("--db", db.url, "users", "list")
    assert listing.returncode == 0 and "rita.fiscal" in listing.stdout
    usage = run("--db", db.url, "users", "add", "--nao-existe")
    assert usage.returncode == 2 and "argumentos não reconhecidos" in usage.stderr


def test_users_add_prompts_for_what_is_missing(db):
    done = run("--db", db.url, "users", "add", "--username", "caio", "--name", "Caio Prado", "--roles",
               "atendente", input_text="")
    # Without a terminal getpass reads the password from stdin: an empty one is refused in Portuguese.
    assert done.returncode == 1 and "senha" in done.stderr.lower()


def _tamper(db) -> None:
    """Change one audit row behind the program's back (bypassing the append-only trigger)."""
    with db.engine.begin() as conn:
        if db.is_sqlite:
            for (name,) in conn.exec_driver_sql(
                    "SELECT name FROM sqlite_master WHERE type='trigger' AND tbl_name='audit_entries'").all():
                conn.exec_driver_sql(f'DROP TRIGGER "{name}"')
        else:
            conn.exec_driver_sql("SET LOCAL session_replication_role = replica")
        conn.exec_driver_sql("UPDATE audit_entries SET username = 'intruso' WHERE id = "
                             "(SELECT MIN(id) FROM audit_entries)")


def test_audit_verify_exit_codes(db, admin_actor):
    from desktop.services import users
    from desktop.domain.roles import Role

    for k in range(3):
        users.create_user(db, admin_actor, users.UserDraft(f"pessoa{k}", f"Pessoa {k}", frozenset({Role.FISCAL}),
                                                           "senha-qualquer-1"))
    good = run("--db", db.url, "audit", "verify")
    assert good.returncode == 0, good.stderr
    assert "íntegro: 3 entradas" in good.stdout
    _tamper(db)
    broken = run("--db", db.url, "audit", "verify")
    assert broken.returncode == 1
    assert re.search(r"ROMPIDO na entrada nº \d+", broken.stderr)


def test_export_csv_headers_and_brazilian_dates(db, tmp_path):
    demo = run("--db", db.url, "demo", "--drivers", "25", "--seed", "5")
    assert demo.returncode == 0, demo.stderr
    assert "Dados de demonstração carregados em" in demo.stdout
    from desktop.demo.loader import STAGES
    assert f"concluído: {len(STAGES)}/{len(STAGES)}" in demo.stderr       # progress lines (one per stage)
    out = tmp_path / "autorizacoes.csv"
    done = run("--db", db.url, "export", "authorizations", "--out", str(out))
    assert done.returncode == 0, done.stderr
    with open(out, encoding="utf-8-sig", newline="") as fh:
        rows = list(csv.reader(fh, delimiter=";"))
    header = rows[0]
    for name in ("Número", "Situação", "Condutor", "CPF", "Placa", "Válida até"):
        assert name in header
    valid = header.index("Válida até")
    assert any(re.fullmatch(r"\d{2}/\d{2}/\d{4}", r[valid]) for r in rows[1:])
    autos = tmp_path / "autos.xlsx"
    assert run("--db", db.url, "export", "autos", "--out", str(autos)).returncode == 0
    assert autos.stat().st_size > 0
    wrong = run("--db", db.url, "export", "condutores", "--out", str(out))
    assert wrong.returncode == 2


def test_backup_and_restore_round_trip(db, tmp_path):
    if db.is_postgresql and shutil.which("pg_dump") is None:
        pytest.skip("pg_dump não instalado")
    assert run("--db", db.url, "users", "add", "--username", "antes", "--name", "Antes", "--roles", "fiscal",
               "--password", "senha-antes-1").returncode == 0
    out = tmp_path / ("copia.sqlite3" if db.is_sqlite else "copia.dump")
    saved = run("--db", db.url, "backup", "--out", str(out))
    assert saved.returncode == 0, saved.stderr
    assert "Cópia gravada" in saved.stdout
    assert run("--db", db.url, "users", "add", "--username", "depois", "--name", "Depois", "--roles", "fiscal",
               "--password", "senha-depois-1").returncode == 0
    db.dispose()
    restored = run("--db", db.url, "restore", str(out))
    assert restored.returncode == 0, restored.stderr
    listing = run("--db", db.url, "users", "list").stdout
    assert "antes" in listing and "depois" not in listing
    not_a_backup = tmp_path / "x.sqlite3"
    not_a_backup.write_text("nada")
    refused = run("--db", db.url, "restore", str(not_a_backup))
    assert refused.returncode == 1 and refused.stderr.startswith("Erro:")


def test_demo_reproducible_by_seed_through_the_cli(db, fresh_url, tmp_path):
    assert run("--db", fresh_url, "migrate").returncode == 0
    for url in (db.url, fresh_url):
        done = run("--db", url, "demo", "--drivers", "30", "--seed", "99")
        assert done.returncode == 0, done.stderr
    a, b = tmp_path / "a.csv", tmp_path / "b.csv"
    assert run("--db", db.url, "export", "authorizations", "--out", str(a)).returncode == 0
    assert run("--db", fresh_url, "export", "authorizations", "--out", str(b)).returncode == 0
    assert a.read_bytes() == b.read_bytes()
    again = run("--db", db.url, "demo", "--drivers", "5")
    assert again.returncode == 1 and "--force" in again.stderr


def test_users_unlock_in_process(db, admin_actor, capsys):
    """`users unlock LOGIN` clears a lock (run in-process: the parsing is the same as above)."""
    from desktop import cli
    from desktop.domain.roles import Role
    from desktop.errors import AccountLocked
    from desktop.services import users

    users.create_user(db, admin_actor, users.UserDraft("bia", "Beatriz", frozenset({Role.ATENDENTE}), "senha-da-bia"))
    with pytest.raises(AccountLocked):
        for _ in range(5):
            try:
                auth.login(db, "bia", "errada")
            except AccountLocked:
                raise
            except Exception:
                continue
    assert cli.main(["--db", db.url, "users", "unlock", "bia"]) == 0
    assert "desbloqueado" in capsys.readouterr().out
    assert auth.login(db, "bia", "senha-da-bia").username == "bia"
    assert cli.main(["--db", db.url, "users", "unlock", "ninguem"]) == 1
    assert "não encontrado" in capsys.readouterr().err
    # The terminal's actions are audited under the operating-system login.
    from sqlalchemy import select

    from desktop.models import AuditEntry

    with db.session(write=False) as s:
        who = s.scalar(select(AuditEntry.username).where(AuditEntry.action == "user.unlock"))
    assert who.startswith("terminal:")
