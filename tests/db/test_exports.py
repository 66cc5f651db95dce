"""Exports (issue 2): CSV as Brazilian Excel reads it, XLSX, stable Portuguese headers, LGPD audit."""
from __future__ import annotations

import csv
from datetime import date

import pytest
from sqlalchemy import select

from desktop.demo import load_demo
from desktop.domain.roles import Role
from desktop.errors import PermissionDenied, ValidationError
from desktop.models import AuditEntry
from desktop.services import exports

TODAY = date(2026, 11, 29)


def test_headers_are_pinned():
    # Spreadsheets of the office depend on these names (issue 2): change only by adding at the end.
    assert exports.AUTHORIZATION_HEADERS[:5] == ("Número", "Situação", "Condutor", "CPF", "Placa")
    assert "Válida até" in exports.AUTHORIZATION_HEADERS
    assert exports.AUTO_HEADERS[:3] == ("Número", "Situação", "Código")
    for name in ("Infrator", "UPFM", "Valor (R$)"):
        assert name in exports.AUTO_HEADERS
    assert set(exports.HEADERS) == {"platforms", "drivers", "vehicles", "authorizations", "inspections", "autos",
                                    "ledger", "divida_ativa", "dispatches"}
    assert exports.HEADERS["dispatches"] == (   # issue 26, pinned for the office's scripts
        "Código", "Documento", "Destinatário", "Forma", "Enviado em", "Recebido em", "Recebido por",
        "Devolvido (motivo)", "Juntado em", "Processo")
    assert exports.DIVIDA_ATIVA_HEADERS[:3] == ("Débito", "Auto / guia", "Devedor")   # issue 13


def _read_csv(path):
    raw = path.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")                     # UTF-8 BOM for Excel
    with open(path, encoding="utf-8-sig", newline="") as fh:
        return list(csv.reader(fh, delimiter=";"))


def test_every_export_writes_headers_rows_and_an_audit_entry(db, admin_actor, tmp_path):
    load_demo(db, drivers=60, seed=7, today=TODAY)
    from desktop.domain.correspondence import make_code
    from desktop.models import Dispatch

    with db.session() as s:   # the demo sends no post: one dispatch of the register (issue 26)
        s.add(Dispatch(code=make_code(2026, 1), document_kind="notice", document_number="0001/2026",
                       document_title="Notificação nº 0001/2026", recipient_name="Condutor da Demonstração",
                       address="Rua A, 1", form="post", case_type="auto", case_id=1, case_label="Auto nº 0001/2026"))
    for kind, headers in exports.HEADERS.items():
        result = exports.export(db, admin_actor, kind, tmp_path / f"{kind}.csv")
        rows = _read_csv(result.path)
        assert tuple(rows[0]) == headers
        assert len(rows) - 1 == result.rows > 0, kind
        assert all(len(r) == len(headers) for r in rows)
    with db.session(write=False) as s:
        entries = s.scalars(select(AuditEntry).where(AuditEntry.action == "export")).all()
    assert {e.entity for e in entries} == set(exports.HEADERS)
    assert all(e.username == "admin" for e in entries)
    assert any('"personal_data":true' in (e.after or "") for e in entries)


def test_authorization_csv_has_labels_dates_and_masks(db, admin_actor, tmp_path):
    load_demo(db, drivers=40, seed=3, today=TODAY)
    rows = _read_csv(exports.export(db, admin_actor, "authorizations", tmp_path / "a.csv").path)
    header = rows[0]
    data = [dict(zip(header, r)) for r in rows[1:]]
    labels = {d["Situação"] for d in data}
    assert labels == {"Requerida", "Em análise", "Indeferida", "Aprovada", "Ativa", "Impedida", "Suspensa",
                      "Revogada", "Cassada", "Expirada"}
    active = next(d for d in data if d["Situação"] == "Ativa")
    day, month, year = active["Válida até"].split("/")
    assert len(day) == 2 and len(month) == 2 and len(year) == 4
    assert active["CPF"][3] == "." and active["CPF"][-3] == "-"
    assert "/" in active["Número"]


def test_autos_csv_uses_decimal_comma(db, admin_actor, tmp_path):
    load_demo(db, drivers=30, seed=5, today=TODAY)
    rows = _read_csv(exports.export(db, admin_actor, "autos", tmp_path / "autos.csv").path)
    data = [dict(zip(rows[0], r)) for r in rows[1:]]
    amounts = [d["Valor (R$)"] for d in data]
    assert all("," in a and "." not in a for a in amounts)
    # Art. 25: the amount of the code's severity, or less where a judgment partly upheld the auto (reduction).
    from decimal import Decimal

    from desktop.domain import CATALOG

    for d in data:
        upfm = Decimal(d["UPFM"].replace(".", "").replace(",", "."))
        assert 0 < upfm <= CATALOG[d["Código"]].severity.upfm, d
    assert any(Decimal(d["UPFM"].replace(",", ".")) == CATALOG[d["Código"]].severity.upfm for d in data)


def test_xlsx_export(db, admin_actor, tmp_path):
    from openpyxl import load_workbook

    load_demo(db, drivers=20, seed=9, today=TODAY)
    result = exports.export(db, admin_actor, "drivers", tmp_path / "condutores.xlsx")
    ws = load_workbook(result.path, read_only=True).active
    rows = list(ws.iter_rows(values_only=True))
    assert rows[0] == exports.DRIVER_HEADERS
    assert len(rows) == 21
    assert isinstance(rows[1][2], __import__("datetime").datetime)     # Nascimento is a real date cell


def test_lgpd_roles_and_bad_extension(db, make_actor, tmp_path):
    with pytest.raises(PermissionDenied):
        exports.export(db, make_actor(Role.VISTORIADOR), "drivers", tmp_path / "d.csv")
    with pytest.raises(PermissionDenied):
        exports.export(db, make_actor(Role.ATENDENTE), "autos", tmp_path / "a.csv")
    with pytest.raises(ValidationError):
        exports.export(db, make_actor(Role.GESTOR), "drivers", tmp_path / "d.txt")
    assert not (tmp_path / "d.csv").exists()


def test_issue12_13_exports_say_the_screens_word_for_each_registration_status(db, admin_actor, tmp_path):
    """One word per status everywhere: a registered driver or vehicle is "Cadastrado" on screen and in the
    export (it said "Ativo"), a descadastrado one (Art. 24, I, d) "Descadastrado"."""
    from desktop.services import drivers, vehicles

    load_demo(db, drivers=20, seed=9, today=TODAY)
    for kind, labels in (("drivers", drivers.DRIVER_STATUS_LABELS), ("vehicles", vehicles.VEHICLE_STATUS_LABELS)):
        rows = _read_csv(exports.export(db, admin_actor, kind, tmp_path / f"{kind}.csv").path)
        words = {dict(zip(rows[0], r))["Situação"] for r in rows[1:]}
        assert "Cadastrado" in words and "Ativo" not in words, words
        assert words <= set(labels.values())
