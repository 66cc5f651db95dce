"""Argument parsing of `python -m desktop` (issue 2): Portuguese help, --db anywhere, exit code 2 on misuse."""
from __future__ import annotations

from desktop import cli


def parse(*argv):
    return cli.build_parser().parse_args(list(argv))


def test_db_before_or_after_the_command():
    assert parse("--db", "sqlite:///a.sqlite3", "migrate").db == "sqlite:///a.sqlite3"
    assert parse("migrate", "--db", "sqlite:///b.sqlite3").db == "sqlite:///b.sqlite3"
    assert not hasattr(parse("migrate"), "db")


def test_commands_and_their_options():
    args = parse("demo", "--drivers", "100000", "--seed", "7")
    assert (args.drivers, args.seed, args.force, args.func) == (100000, 7, False, cli.cmd_demo)
    assert parse("demo").drivers == 1000
    args = parse("export", "autos", "--out", "autos.xlsx")
    assert (args.kind, args.out) == ("autos", "autos.xlsx")
    assert parse("restore", "copia.sqlite3").file == "copia.sqlite3"
    assert parse("backup", "--out", "c.dump").out == "c.dump"
    assert parse("audit", "verify").func is cli.cmd_audit_verify
    args = parse("users", "add", "--username", "ana", "--roles", "atendente,gestor")
    assert (args.username, args.roles, args.password) == ("ana", "atendente,gestor", None)


def test_usage_errors_exit_2_with_portuguese_message(capsys):
    assert cli.main(["export", "tudo", "--out", "x.csv"]) == 2
    err = capsys.readouterr().err
    assert "opção inválida" in err and "uso:" in err
    assert cli.main(["demo", "--drivers", "-5"]) == 2
    assert cli.main(["backup"]) == 2
    assert "faltam os argumentos obrigatórios" in capsys.readouterr().err
    assert cli.main(["users"]) == 2


def test_help_is_portuguese(capsys):
    assert cli.main(["--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("uso: python -m desktop")
    assert "mostra esta ajuda e sai" in out and "cópia de segurança" in out
    assert "Códigos de saída" in out


def test_no_command_starts_the_gui(monkeypatch):
    import desktop.app

    seen = []
    monkeypatch.setattr(desktop.app, "run_gui", lambda url: seen.append(url) or 0)
    assert cli.main(["--db", "sqlite:///x.sqlite3"]) == 0
    assert seen == ["sqlite:///x.sqlite3"]
