"""The platforms' 60-day lists (Art. 5, VIII): import all or nothing with the file's hash, the delivery date and
who imported; reconciliation with the register (Art. 3, 8, 13 XVIII-XIX, 27); due and overdue lists; the export
with the pinned headers. Each test runs on SQLite and PostgreSQL."""
from __future__ import annotations

import csv
import hashlib
from datetime import timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from registry_factories import TODAY, active, approved, cpf, desk, new_driver, new_vehicle, renavam  # noqa: F401
from sqlalchemy import func, select
from validate_docbr import CNH

from desktop.domain.platform_lists import LIST_COLUMNS
from desktop.errors import ConflictError, PermissionDenied, ValidationError
from desktop.models import AuditEntry, Driver, Vehicle
from desktop.models.platforms import PlatformList, PlatformListRow
from desktop.services import platform_lists as svc
from desktop.services import platforms
from desktop.services.platforms import PlatformDraft

HEADER = list(LIST_COLUMNS.values())


def make_platform(db, desk, cnpj="11.222.333/0001-81", registered=TODAY - timedelta(days=200)):
    return platforms.create_platform(db, desk.clerk, PlatformDraft(
        cnpj=cnpj, legal_name="Mobilidade Chapada Ltda", trade_name="Vai Já",
        municipal_registration_number=f"IM-{cnpj}", municipal_registration_date=registered))


_REGISTERED_CNH: dict[str, str] = {}       # cpf -> the CNH the register holds (a list line repeats it)
_REGISTERED_RENAVAM: dict[str, str] = {}   # plate -> the RENAVAM the register holds


def pair_of(db, authorization):
    with db.session(write=False) as s:
        d = s.get(Driver, authorization.driver_id)
        v = s.get(Vehicle, authorization.vehicle_id)
        _REGISTERED_CNH[d.cpf] = d.cnh_number
        _REGISTERED_RENAVAM[v.plate] = v.renavam
        return d.cpf, d.name, v.plate, v.renavam


def line(cpf_, plate, owner=None, renavam_=None, name="Condutor", cnh=None):
    return [cpf_, name, cnh or _REGISTERED_CNH.get(cpf_) or CNH().generate(), plate,
            renavam_ or _REGISTERED_RENAVAM.get(plate) or renavam(), owner or cpf_, name]


def csv_of(*rows, header=HEADER) -> bytes:
    return ("\r\n".join(";".join(r) for r in [header, *rows]) + "\r\n").encode("utf-8")


def count_rows(db) -> int:
    with db.session(write=False) as s:
        return s.scalar(select(func.count()).select_from(PlatformListRow))


def test_art5_viii_import_keeps_hash_delivery_date_and_who(db, desk):
    p = make_platform(db, desk)
    a = active(db, desk)
    c, name, plate, ren = pair_of(db, a)
    content = csv_of(line(c, plate, renavam_=ren, name=name))
    report = svc.import_list(db, desk.fiscal, p.id, content, "/tmp/lista.csv", TODAY - timedelta(days=1))
    assert report.rows == 1 and report.by_situation == ()
    assert "Nenhuma divergência" in report.summary()
    with db.session(write=False) as s:
        plist = s.get(PlatformList, report.list_id)
        assert plist.file_sha256 == hashlib.sha256(content).hexdigest()
        assert plist.received_on == TODAY - timedelta(days=1) and plist.imported_by == desk.fiscal.user_id
        assert plist.filename == "lista.csv" and plist.next_due_on == report.next_due_on
        assert s.scalar(select(func.count()).select_from(AuditEntry)
                        .where(AuditEntry.action == "platform_list.import")) == 1
    summary = svc.lists_of(db, desk.clerk, p.id)
    assert [(x.row_count, x.imported_by_name) for x in summary] == [(1, "Fábio Fiscal")]


def test_art5_viii_refused_file_stores_nothing_and_names_every_line(db, desk):
    p = make_platform(db, desk)
    good = line(cpf(), "ABC1234")
    bad = line("529.982.247-24", "ABC1D23")
    with pytest.raises(ValidationError) as err:
        svc.import_list(db, desk.fiscal, p.id, csv_of(good, bad, good), "l.csv", TODAY)
    messages = [pr.message for pr in err.value.problems]
    assert messages[0].startswith("linha 3, coluna CPF do condutor:")
    assert messages[1].startswith("linha 3, coluna CPF/CNPJ do proprietário:")  # the owner is the same CPF
    assert messages[2].startswith("linha 4, coluna Placa:") and "linha 2" in messages[2]
    assert count_rows(db) == 0
    with db.session(write=False) as s:
        assert s.scalar(select(func.count()).select_from(PlatformList)) == 0


def test_same_file_twice_refused_and_future_delivery_refused(db, desk):
    p = make_platform(db, desk)
    content = csv_of(line(cpf(), "ABC1234"))
    svc.import_list(db, desk.fiscal, p.id, content, "l.csv", TODAY)
    with pytest.raises(ConflictError, match="já foi importado"):
        svc.import_list(db, desk.fiscal, p.id, content, "l.csv", TODAY)
    with pytest.raises(ValidationError, match="futura"):
        svc.import_list(db, desk.fiscal, p.id, csv_of(line(cpf(), "ABC1235")), "l.csv", TODAY + timedelta(days=1))


def test_only_office_roles_import(db, desk):
    p = make_platform(db, desk)
    with pytest.raises(PermissionDenied):
        svc.import_list(db, desk.inspector, p.id, csv_of(line(cpf(), "ABC1234")), "l.csv", TODAY)


def test_reconciliation_every_kind_with_its_article(db, desk):
    p = make_platform(db, desk)
    ok = active(db, desk)
    swapped_a, swapped_b = active(db, desk), active(db, desk)
    owner_changed = active(db, desk)
    left_off = active(db, desk)
    in_analysis = approved(db, desk)
    c_ok, n_ok, pl_ok, r_ok = pair_of(db, ok)
    c_a, _, pl_a, _ = pair_of(db, swapped_a)
    c_oc, _, pl_oc, _ = pair_of(db, owner_changed)
    c_ia, _, pl_ia, _ = pair_of(db, in_analysis)
    _, left_name, _, _ = pair_of(db, left_off)
    c_b, _, pl_b, _ = pair_of(db, swapped_b)
    unknown_vehicle_only = line(c_ok, "ZZZ9Z99")      # second vehicle for an authorized driver: also a pair
    content = csv_of(
        line(c_ok, pl_ok, renavam_=r_ok),                          # 2: all agrees
        line(c_a, pl_b, owner=c_b),                                # 3: par diferente (Art. 8, 13 XIX)
        line(c_oc, pl_oc, owner="11144477735"),                    # 4: proprietário diferente (Art. 13 XVIII)
        line(c_ia, pl_ia),                                         # 5: sem autorização (approved, not active)
        line(cpf(), "QZZ1A23"),                                    # 6: condutor e veículo desconhecidos
        unknown_vehicle_only,                                      # 7: veículo desconhecido + par diferente
    )
    report = svc.import_list(db, desk.fiscal, p.id, content, "l.csv", TODAY)
    counts = dict(report.by_situation)
    assert counts == {"sem autorização": 1, "par diferente da autorização": 2, "proprietário diferente": 1,
                      "veículo desconhecido": 2, "condutor desconhecido": 1}
    rec = svc.reconciliation(db, desk.clerk, platform_id=p.id)
    by_line = {}
    for x in rec.lines:
        by_line.setdefault(x.line, []).append((x.label, x.article))
    assert 2 not in by_line
    assert by_line[3] == [("par diferente da autorização", "Art. 8; Art. 13, XIX")]
    assert by_line[4] == [("proprietário diferente", "Art. 13, XVIII")]
    assert by_line[5] == [("sem autorização", "Art. 3; Art. 27")]
    assert by_line[6] == [("condutor desconhecido", "Art. 3; Art. 27"), ("veículo desconhecido", "Art. 3; Art. 27")]
    off = [x for x in rec.lines if x.line is None]
    # left_off and swapped_b (whose driver is not listed) are authorized drivers on no list (Art. 5, VIII)
    assert {x.label for x in off} == {"autorizado fora das listas"} and len(off) == 2
    assert any(left_name in x.detail for x in off)


def test_reconcile_again_after_the_register_changes(db, desk):
    p = make_platform(db, desk)
    a = approved(db, desk)
    c, _, plate, _ = pair_of(db, a)
    report = svc.import_list(db, desk.fiscal, p.id, csv_of(line(c, plate)), "l.csv", TODAY)
    assert dict(report.by_situation) == {"sem autorização": 1}
    from decimal import Decimal

    from desktop.services import authorizations as auth
    a = auth.record_inspection_result(db, desk.inspector, a.id, True, on=TODAY, expected_version=a.version)
    auth.record_fee_payment(db, desk.clerk, a.id, TODAY, f"G{a.id:06d}", Decimal("150.00"), a.version)
    assert svc.reconcile_list(db, desk.fiscal, report.list_id) == {}
    with db.session(write=False) as s:
        assert s.scalar(select(PlatformListRow.discrepancy)) is None


def test_export_reconciliation_pinned_headers(db, desk, tmp_path):
    p = make_platform(db, desk)
    svc.import_list(db, desk.fiscal, p.id, csv_of(line(cpf(), "QZZ1A23")), "l.csv", TODAY)
    out = tmp_path / "conc.csv"
    n = svc.export_reconciliation(db, desk.fiscal, out, platform_id=p.id)
    rows = list(csv.reader(out.read_text(encoding="utf-8-sig").splitlines(), delimiter=";"))
    assert rows[0] == ["Linha", "CPF do condutor", "Placa", "Situação", "Artigo", "Detalhe"]
    assert n == 2 and [r[3] for r in rows[1:]] == ["condutor desconhecido", "veículo desconhecido"]
    assert rows[1][0] == "2" and rows[1][2] == "QZZ1A23"


def test_art5_viii_due_60_days_after_last_and_overdue(db, desk):
    p = make_platform(db, desk, registered=TODAY - timedelta(days=300))
    (due,) = svc.due_dates(db, desk.clerk, TODAY)
    assert due.last_delivered_on is None and due.overdue               # never delivered, registered 300 days ago
    svc.import_list(db, desk.fiscal, p.id, csv_of(line(cpf(), "ABC1234")), "a.csv", TODAY - timedelta(days=90))
    (due,) = svc.due_dates(db, desk.clerk, TODAY)
    assert due.next_due_on >= TODAY - timedelta(days=30) and due.overdue
    assert [d.platform_id for d in svc.overdue_lists(db, desk.clerk, TODAY)] == [p.id]
    late = svc.import_list(db, desk.fiscal, p.id, csv_of(line(cpf(), "ABC1235")), "b.csv", TODAY)
    assert late.late and "com atraso" in late.summary()
    (due,) = svc.due_dates(db, desk.clerk, TODAY)
    assert not due.overdue and due.next_due_on >= TODAY + timedelta(days=60)
    lists = svc.lists_of(db, desk.clerk, p.id)
    assert [x.late for x in lists] == [True, True]  # both came after their due day


def test_demo_lists_on_time_late_overdue_with_discrepancies(db, desk):
    from desktop.services.actors import SYSTEM_ACTOR

    p1 = make_platform(db, desk, "11.222.333/0001-81", TODAY - timedelta(days=130))
    p2 = make_platform(db, desk, "11.444.777/0001-61", TODAY - timedelta(days=130))
    p3 = make_platform(db, desk, "60.701.190/0001-04", TODAY - timedelta(days=130))
    for _ in range(9):
        active(db, desk)
    with db.session() as s:
        made = svc.make_demo_lists_in(s, SYSTEM_ACTOR, TODAY)
    assert made == {"lists": 6, "platforms": 3}
    status = {d.platform_id: d.overdue for d in svc.due_dates(db, desk.clerk, TODAY)}
    assert status == {p1.id: False, p2.id: False, p3.id: True}
    assert [x.late for x in svc.lists_of(db, desk.clerk, p2.id)] == [True, False]
    labels = set()
    for p in (p1, p2, p3):
        labels |= set(svc.reconciliation(db, desk.clerk, platform_id=p.id).counts())
    assert labels == {"par diferente da autorização", "proprietário diferente", "condutor desconhecido",
                      "veículo desconhecido", "autorizado fora das listas"}


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                   HealthCheck.too_slow])
@given(st.binary(max_size=300))
def test_fuzz_random_bytes_refused_with_a_message_zero_rows(db, desk, content):
    p = make_platform(db, desk, "34.028.316/0001-03") if not hasattr(db, "_fuzz_p") else db._fuzz_p
    db._fuzz_p = p
    try:
        svc.import_list(db, desk.fiscal, p.id, content, "x.csv", TODAY)
    except ValidationError as exc:
        assert exc.problems and all(pr.message for pr in exc.problems)
    assert count_rows(db) == 0


# ------------------------------------------------------------------------------------------------- commands

def test_cli_import_platform_list_and_export_reconciliation(db, desk, tmp_path, capsys):
    from pathlib import Path

    from desktop import cli

    example = Path(__file__).resolve().parents[2] / "docs" / "examples" / "lista-plataforma-exemplo.csv"
    make_platform(db, desk)
    delivered = (TODAY - timedelta(days=1)).strftime("%d/%m/%Y")
    code = cli.main(["--db", db.url, "import", "platform-list", "--platform", "11.222.333/0001-81",
                     "--delivered", delivered, str(example)])
    out = capsys.readouterr()
    assert code == 0, out.err
    assert "5 linhas" in out.out and "condutor desconhecido: 5" in out.out and "veículo desconhecido: 5" in out.out
    target = tmp_path / "conc.csv"
    assert cli.main(["--db", db.url, "export", "reconciliation", "--platform", "11222333000181",
                     "--out", str(target)]) == 0
    rows = list(csv.reader(target.read_text(encoding="utf-8-sig").splitlines(), delimiter=";"))
    assert rows[0] == list(svc.EXPORT_HEADERS) and len(rows) == 11


def test_cli_refused_list_exit_1_every_error_line_nothing_stored(db, desk, tmp_path, capsys):
    from desktop import cli

    make_platform(db, desk)
    bad = tmp_path / "ruim.csv"
    bad.write_bytes(csv_of(line("529.982.247-24", "ABC1234", owner="52998224725"), line(cpf(), "AB-12")))
    code = cli.main(["--db", db.url, "import", "platform-list", "--platform", "11.222.333/0001-81",
                     "--delivered", TODAY.strftime("%d/%m/%Y"), str(bad)])
    err = capsys.readouterr().err
    assert code == 1
    assert "linha 2, coluna CPF do condutor:" in err and "linha 3, coluna Placa:" in err
    assert count_rows(db) == 0
    assert cli.main(["--db", db.url, "import", "platform-list", "--platform", "11.222.333/0001-81",
                     "--delivered", "31/02/2026", str(bad)]) == 1
    assert "DD/MM/AAAA" in capsys.readouterr().err


def test_issue14_the_demo_holds_lists_on_time_late_and_overdue_and_data_requests_in_each_state(db):
    """A new user sees each case of the Plataformas module in the demo database (issue 14, "Done when")."""
    from sqlalchemy import func, select

    from desktop.models import DataRequest, PlatformList, PlatformListRow
    from desktop.demo import entry as demo
    from desktop.services import data_requests, platform_lists
    from desktop.services.actors import SYSTEM_ACTOR

    demo.load_demo(db, drivers=40, seed=14)
    dues = platform_lists.due_dates(db, SYSTEM_ACTOR)
    assert any(d.overdue for d in dues) and any(not d.overdue for d in dues)
    with db.session(write=False) as s:
        assert s.scalar(select(func.count()).select_from(PlatformList)) >= 3
        kinds = set(s.scalars(select(PlatformListRow.discrepancy).distinct()))
        platform_ids = set(s.scalars(select(DataRequest.platform_id)))
    assert len(kinds - {None}) >= 3, kinds
    requests = [r for pid in platform_ids for r in data_requests.data_requests_of(db, SYSTEM_ACTOR, pid)]
    assert len(requests) >= 4


def test_issue14_art5_viii_the_routine_of_the_day_counts_the_overdue_lists(db):
    from desktop.demo import entry as demo
    from desktop.services.daily import run_daily_jobs

    demo.load_demo(db, drivers=40, seed=14)
    report = run_daily_jobs(db)
    assert report.overdue_platform_lists >= 1
    assert "lista de 60 dias vencida (Art. 5, VIII)" in report.describe()


# --- issue 14 (leftovers): CNH and RENAVAM on the rows; the screen reads the findings stored at import ---------

def _other(make, than):
    value = make()
    while value == than:
        value = make()
    return value


def test_art5_viii_cnh_and_renavam_are_kept_on_the_rows_and_compared_with_the_register(db, desk):
    from validate_docbr import RENAVAM

    p = make_platform(db, desk)
    a = active(db, desk)
    c, name, plate, ren = pair_of(db, a)
    listed_cnh = _other(CNH().generate, _REGISTERED_CNH[c])
    listed_renavam = _other(RENAVAM().generate, ren)
    report = svc.import_list(db, desk.fiscal, p.id, csv_of(line(c, plate, name=name, cnh=listed_cnh,
                                                                renavam_=listed_renavam)), "l.csv", TODAY)
    assert dict(report.by_situation) == {"CNH diferente do cadastro": 1, "RENAVAM diferente do cadastro": 1}
    assert report.renavam_differs == ((2, listed_renavam, ren),)
    with db.session(write=False) as s:
        row = s.execute(select(PlatformListRow)).scalar_one()
        assert (row.cnh, row.renavam) == (listed_cnh, listed_renavam)
    rec = svc.reconciliation(db, desk.fiscal, platform_id=p.id)
    found = {line_.label: line_ for line_ in rec.lines}
    assert found["CNH diferente do cadastro"].article == "Art. 5, VIII; Art. 13, XVIII"
    assert listed_cnh in found["CNH diferente do cadastro"].detail
    assert _REGISTERED_CNH[c] in found["CNH diferente do cadastro"].detail
    assert ren in found["RENAVAM diferente do cadastro"].detail
    # the register is updated (the driver communicated his new CNH): a new reconciliation clears that finding
    with db.session() as s:
        s.get(Driver, a.driver_id).cnh_number = listed_cnh
    counts = svc.reconcile_list(db, desk.fiscal, rec.list_id)
    assert counts == {"RENAVAM diferente do cadastro": 1}
    assert [x.label for x in svc.reconciliation(db, desk.fiscal, platform_id=p.id).lines] == [
        "RENAVAM diferente do cadastro"]


def test_issue14_the_reconciliation_screen_reads_stored_findings_without_the_register(db, desk, monkeypatch):
    p = make_platform(db, desk)
    a = active(db, desk)
    left_off = active(db, desk)
    c, name, plate, _ = pair_of(db, a)
    _, left_name, _, _ = pair_of(db, left_off)
    svc.import_list(db, desk.fiscal, p.id, csv_of(line(c, plate, name=name), line(cpf(), "QZZ1A23")), "l.csv",
                    TODAY)
    expected = svc.reconciliation(db, desk.fiscal, platform_id=p.id)

    def no_recompute(_session):
        raise AssertionError("a tela da conciliação não deve reler o cadastro inteiro")

    monkeypatch.setattr(svc, "_register_in", no_recompute)
    rec = svc.reconciliation(db, desk.fiscal, platform_id=p.id)
    assert rec.lines == expected.lines
    assert [(x.line, x.label) for x in rec.lines] == [
        (3, "condutor desconhecido"), (3, "veículo desconhecido"), (None, "autorizado fora das listas")]
    assert left_name in rec.lines[-1].detail and rec.lines[-1].driver_id == left_off.driver_id


# --- issue 14 (leftovers): the overdue list — notice to regularize (Art. 24, II, a) and the decree code offer ----

def _initialize(db):
    from decimal import Decimal

    from desktop.services.setup import AdminDraft, MunicipalityDraft, initialize

    initialize(db, MunicipalityDraft(
        name="Chapada dos Guimarães", uf="MT", secretariat="Secretaria Municipal de Mobilidade",
        ouvidoria_phone="(65) 3301-1234", upfm_year=2026, upfm_value=Decimal("5.55")),
        AdminDraft("chefe", "Chefe da Secretaria", "senha-forte-2025"))


def test_art24_ii_a_overdue_list_gets_the_notice_to_regularize(db, desk):
    from io import BytesIO

    from pypdf import PdfReader

    from desktop.models import IssuedDocument

    _initialize(db)
    late = make_platform(db, desk, registered=TODAY - timedelta(days=200))      # never delivered: overdue
    offer = svc.late_list_offer(db, desk.fiscal, late.id)
    assert offer.overdue and offer.days_overdue > 0 and offer.code is None
    assert offer.regularize_by is not None and offer.regularize_by >= TODAY + timedelta(days=5)   # parameter
    assert "não tipifica multa" in offer.measure and "Art. 24, II, a" in offer.measure
    issued = svc.print_overdue_list_notice(db, desk.fiscal, late.id)
    text = " ".join(page.extract_text() for page in PdfReader(BytesIO(issued.pdf)).pages).replace("\n", " ")
    assert "NOTIFICAÇÃO PARA REGULARIZAÇÃO" in text and "Mobilidade Chapada Ltda" in text
    assert "Art. 5º, VIII" in text and "Art. 24, II, a" in text
    assert f"{offer.regularize_by:%d/%m/%Y}" in text and f"{offer.due_on:%d/%m/%Y}" in text
    with db.session(write=False) as s:
        doc = s.execute(select(IssuedDocument).where(IssuedDocument.kind == "notice")).scalar_one()
        assert (doc.record_type, doc.record_id) == ("platform", late.id)
    # a platform whose list is on time has nothing to regularize
    on_time = make_platform(db, desk, cnpj="04.252.011/0001-10", registered=TODAY - timedelta(days=10))
    assert not svc.late_list_offer(db, desk.fiscal, on_time.id).overdue
    with pytest.raises(ConflictError, match="não está em atraso"):
        svc.print_overdue_list_notice(db, desk.fiscal, on_time.id)


def test_art24_late_list_offers_the_decree_code_that_cites_art5_viii(db, desk):
    from desktop.domain.penalties import Severity
    from desktop.services import catalog
    from desktop.services.catalog import CodeDraft

    _initialize(db)
    catalog.ensure_catalog(db)
    late = make_platform(db, desk, registered=TODAY - timedelta(days=200))
    catalog.add_code(db, desk.manager, CodeDraft(
        code="DEC-07", article="Decreto nº 10/2026, art. 7º (Lei, Art. 5º, VIII)", severity=Severity.LEVE,
        description="Plataforma que não entrega a relação de 60 dias", valid_from=TODAY - timedelta(days=1)))
    offer = svc.late_list_offer(db, desk.fiscal, late.id)
    assert offer.code == "DEC-07" and "DEC-07" in offer.measure
    assert offer.code_description == "Plataforma que não entrega a relação de 60 dias"


def test_art5_viii_an_auto_drawn_up_from_a_line_is_bound_to_it_and_only_one(db, desk):
    """issue 27 journey (d): the auto of a discrepancy is kept with its line (the reconciliation shows its number,
    the audit says so) and a second auto for the same line is refused; a line without discrepancy takes none."""
    from datetime import time

    from desktop.services import autos
    from desktop.services.autos import AutoDraft
    from tests.db.enforcement_factories import setup_upfm

    setup_upfm(db)
    p = make_platform(db, desk)
    ok, swapped_a, swapped_b = active(db, desk), active(db, desk), active(db, desk)
    c_ok, _, pl_ok, r_ok = pair_of(db, ok)
    c_a, _, _, _ = pair_of(db, swapped_a)
    c_b, _, pl_b, _ = pair_of(db, swapped_b)
    svc.import_list(db, desk.fiscal, p.id, csv_of(line(c_ok, pl_ok, renavam_=r_ok), line(c_a, pl_b, owner=c_b)),
                    "l.csv", TODAY)
    mismatch = next(x for x in svc.reconciliation(db, desk.fiscal, platform_id=p.id).lines if x.line == 3)
    assert mismatch.auto_number is None and mismatch.row_id is not None

    def draft(row_id):
        return AutoDraft(on=TODAY, at=time(10, 0), place="Secretaria", code="ART26-III", art13_item="XIX",
                         description="Condutor listado com o veículo de outro condutor.",
                         driver_id=mismatch.driver_id, vehicle_id=mismatch.vehicle_id, platform_id=p.id,
                         platform_list_row_id=row_id)

    info = autos.draw_up_auto(db, desk.fiscal, draft(mismatch.row_id))
    again = next(x for x in svc.reconciliation(db, desk.fiscal, platform_id=p.id).lines if x.line == 3)
    assert again.auto_number == info.number
    with pytest.raises(ValidationError) as twice:
        autos.draw_up_auto(db, desk.fiscal, draft(mismatch.row_id))
    assert any(pr.field == "platform_list_row_id" and info.number in pr.message for pr in twice.value.problems)
    with db.session(write=False) as s:
        in_order = s.scalar(select(PlatformListRow.id).where(PlatformListRow.line_number == 2))
        row = s.get(PlatformListRow, mismatch.row_id)
        assert row.resolution == f"Auto de infração nº {info.number}"
        assert s.scalar(select(func.count()).select_from(AuditEntry).where(
            AuditEntry.action == "platform_list.row_auto", AuditEntry.entity_id == str(row.id))) == 1
    with pytest.raises(ValidationError) as clean:
        autos.draw_up_auto(db, desk.fiscal, draft(in_order))
    assert any("não tem divergência" in pr.message for pr in clean.value.problems)
