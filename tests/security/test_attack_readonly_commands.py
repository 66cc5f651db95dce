"""Issue 11, attack 8: a false "íntegro". Read-only commands (`audit verify`, `export`, `users list`) never
create nor migrate a database: a mistyped path is a clear error with exit 2, and the file is not created.
Also the published termo (`audit checkpoint --out`) read back by `audit verify --against`."""
from __future__ import annotations

import pytest
from pypdf import PdfReader

from desktop import cli
from desktop.db import sqlite_url
from desktop.services import audit
from desktop.services import checkpoints

from tests.security.conftest import ADMIN_PASSWORD, tamper


@pytest.mark.parametrize("command", [["audit", "verify"], ["users", "list"],
                                     ["export", "drivers", "--out", "x.csv"]])
def test_issue11_attack8_read_only_command_on_a_mistyped_path_creates_nothing(tmp_path, capsys, command):
    missing = tmp_path / "digitado-errado.sqlite3"
    code = cli.main(["--db", sqlite_url(missing), *command])
    err = capsys.readouterr().err
    assert code == 2
    assert "não existe" in err and "nada foi criado" in err
    assert not missing.exists()
    assert list(tmp_path.iterdir()) == []


def test_issue11_attack8_read_only_command_on_an_empty_postgresql_schema_is_refused(make_pg_schema, capsys):
    url = make_pg_schema()
    assert cli.main(["--db", url, "audit", "verify"]) == 2
    assert "não é um banco deste programa" in capsys.readouterr().err
    from sqlalchemy import create_engine, inspect

    engine = create_engine(url)
    try:
        assert inspect(engine).get_table_names() == []   # nothing was migrated into it
    finally:
        engine.dispose()


def test_issue11_attack8_a_sqlite_file_that_is_not_ours_is_not_migrated(tmp_path, capsys):
    import sqlite3

    path = tmp_path / "outro.sqlite3"
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE notas (t TEXT)")
    con.commit()
    con.close()
    assert cli.main(["--db", sqlite_url(path), "audit", "verify"]) == 2
    con = sqlite3.connect(path)
    assert [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")] == ["notas"]
    con.close()


def test_issue11_termo_pdf_carries_the_signed_head_and_verify_against_it(db, configured, tmp_path, capsys,
                                                                        monkeypatch):
    from desktop.services import users
    out = tmp_path / "termo.pdf"
    # issue 28: a named gestor, with office and matrícula, signs the termo at the terminal (password asked)
    me = users.get_user(db, configured, configured.user_id)
    users.update_user(db, configured, me.id, users.UserDraft(me.username, me.full_name, me.roles, office="Gestora",
                                                             registration="4.001-7"), me.version)
    monkeypatch.setattr("getpass.getpass", lambda prompt="": ADMIN_PASSWORD)
    assert cli.main(["--db", db.url, "audit", "checkpoint", "--out", str(out), "--user", "gestora"]) == 0, \
        capsys.readouterr().err
    printed = capsys.readouterr().out
    published = audit.read_published_checkpoint(out)
    stored = audit.latest_checkpoint(db)
    assert published.line == stored.line and stored.short_hash in printed
    text = "".join(page.extract_text() for page in PdfReader(out).pages)
    assert "TERMO DE VERIFICAÇÃO" in text and stored.short_hash in text
    assert "íntegro" in text
    assert cli.main(["--db", db.url, "audit", "verify", "--against", str(out)]) == 0
    assert "ponto(s) de verificação" in capsys.readouterr().out
    # the tail and every stored checkpoint removed: the published termo still shows it
    tamper(db, "DELETE FROM audit_checkpoints", f"DELETE FROM audit_entries WHERE id >= {stored.last_id}")
    assert cli.main(["--db", db.url, "audit", "verify"]) == 0
    capsys.readouterr()
    assert cli.main(["--db", db.url, "audit", "verify", "--against", str(out)]) == 1
    err = capsys.readouterr().err
    assert "ROMPIDO" in err and "final do registro foi removido" in err


def test_issue11_termo_text_fallback_reads_the_printed_line(db, configured, tmp_path):
    cp = checkpoints.make_checkpoint(db, configured)
    paper = tmp_path / "digitado.txt"
    paper.write_text(f"Publicado no Diário Oficial:\n{cp.line}\n", encoding="utf-8")
    assert audit.read_published_checkpoint(paper).line == cp.line
    with pytest.raises(ValueError):
        audit.parse_checkpoint("nada aqui")
