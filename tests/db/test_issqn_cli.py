"""The pinned commands of issue 13 (ISSQN, Art. 11): `issqn estimate --month`, `export issqn --month --out` and
`guide --issqn AAAA-MM --platform CNPJ --out` — on SQLite and PostgreSQL."""
from __future__ import annotations

import csv
import io

from issqn_factories import build_world, classify
from pypdf import PdfReader

from desktop import cli


def test_cli_issqn_estimate_prints_vehicles_and_total_and_the_unclassified(db, capsys):
    w = build_world(db)
    classify(w, 0)
    classify(w, 1)
    assert cli.main(["--db", db.url, "issqn", "estimate", "--month", "2026-10"]) == 0
    out = capsys.readouterr().out.replace("\xa0", " ")
    assert "Competência 10/2026: 2 veículos, total R$ 180,00." in out
    assert "QAB3C03" in out and "sem classe" in out
    assert cli.main(["--db", db.url, "issqn", "estimate", "--month", "2026-12"]) == 1
    assert "ainda não começou" in capsys.readouterr().err
    assert cli.main(["--db", db.url, "issqn", "estimate", "--month", "outubro"]) == 1
    assert "AAAA-MM" in capsys.readouterr().err


def test_cli_export_issqn_and_guide_issqn_issue_and_print(db, tmp_path, capsys, monkeypatch):
    from datetime import datetime

    from desktop.domain import clock

    w = build_world(db)
    # issued before its due date (10/11): issue 23.3 — a guide issued after it falls due on a later date of its own
    clock.set_clock(clock.ticking(datetime(2026, 11, 9, 10, 0)))
    # issue 28: the guide is issued by a named user who types the password, never by the machine's account
    monkeypatch.setattr("getpass.getpass", lambda prompt="": "senha-forte-2025")
    assert cli.main(["--db", db.url, "guide", "--issqn", "2026-10", "--platform", "11222333000181",
                     "--out", str(tmp_path / "x.pdf")]) == 1
    assert "--user LOGIN" in capsys.readouterr().err
    classify(w, 0)
    classify(w, 2)
    assert cli.main(["--db", db.url, "issqn", "estimate", "--month", "2026-10"]) == 0
    pdf = tmp_path / "dam.pdf"
    assert cli.main(["--db", db.url, "guide", "--issqn", "2026-10", "--platform", "11.222.333/0001-81",
                     "--out", str(pdf), "--user", "chefe"]) == 0
    assert "Guia nº 0001/2026 emitida" in capsys.readouterr().out
    text = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.read_bytes())).pages)
    for expected in ("0001/2026", "Mobilidade Chapada Ltda", "competência 10/2026", "2 veículos", "135,00",
                     "10/11/2026"):
        assert expected in text, expected
    # again: the guide exists, it is printed, not issued twice
    assert cli.main(["--db", db.url, "guide", "--issqn", "2026-10", "--platform", "11222333000181",
                     "--out", str(pdf), "--user", "chefe"]) == 0
    assert "já estava emitida" in capsys.readouterr().out
    out = tmp_path / "issqn.csv"
    assert cli.main(["--db", db.url, "export", "issqn", "--month", "2026-10", "--out", str(out)]) == 0
    rows = list(csv.reader(io.StringIO(out.read_text(encoding="utf-8-sig")), delimiter=";"))
    assert rows[0][0] == "Competência" and rows[0][-1] == "Pago em" and len(rows) == 4
    assert {r[11] for r in rows[1:]} == {"0001/2026", ""}
    assert cli.main(["--db", db.url, "export", "issqn", "--out", str(out)]) == 2
    assert cli.main(["--db", db.url, "guide", "--issqn", "2026-10", "--out", str(pdf)]) == 2
    assert cli.main(["--db", db.url, "guide", "--issqn", "2026-10", "--auto", "0001/2026", "--out", str(pdf)]) == 2
