"""Vehicles (Art. 2, 8 §1 I, 8 §3, 15): validation, registration, the individual lessor's limit of 3 vehicles
(also with two desks at once), stale saves, list and detail (issue 4). Each test runs on SQLite and PostgreSQL."""
from __future__ import annotations

import threading
from datetime import date

import pytest
from registry_factories import TODAY, cnpj, cpf, desk, individual_lessor, vehicle_draft  # noqa: F401

from desktop.errors import ConflictError, DesktopError, PermissionDenied, StaleRecordError, ValidationError
from desktop.services import vehicles as svc
from desktop.services.vehicles import LessorDraft


def test_art2_validate_vehicle_lists_every_problem_at_once():
    draft = vehicle_draft(doors=2, seats=8, air_conditioning=False, registration_municipality="Cuiabá",
                          compulsory_insurance_paid=False)
    problems = {p.field: p.article for p in svc.validate_vehicle(draft, TODAY)}
    assert problems["doors"] == "Art. 2, §1"
    assert problems["seats"] == "Art. 2, caput"
    assert problems["air_conditioning"].startswith("Art. 2, §1")
    assert problems["municipality"].startswith("Art. 8, §1, I")
    assert problems["compulsory_insurance_paid"] == "Art. 15, parágrafo único, IV"


def test_art2_par1_2015_vehicle_refused_in_2026(db, desk):
    draft = vehicle_draft(manufacture_year=2015, model_year=2016)
    with pytest.raises(ValidationError) as err:
        svc.register_vehicle(db, desk.clerk, draft, on=date(2026, 3, 10))
    assert [(p.field, p.article) for p in err.value.problems] == [("manufacture_year", "Art. 2, §§1-2")]


def test_art2_par2_2016_vehicle_serves_through_31_december_2026(db, desk):
    info = svc.register_vehicle(db, desk.clerk, vehicle_draft(manufacture_year=2016, model_year=2016),
                                on=date(2026, 12, 31))
    assert info.last_service_day == date(2026, 12, 31)


def test_register_vehicle_and_detail(db, desk):
    info = svc.register_vehicle(db, desk.clerk, vehicle_draft(plate="abc-1234"))
    assert info.plate == "ABC1234" and info.plate_display == "ABC-1234"
    assert info.ownership_label.startswith("Próprio")
    detail = svc.vehicle_detail(db, desk.fiscal, info.id)
    assert detail.problems == ()
    assert detail.timeline[0].what == "Veículo cadastrado"


def test_duplicate_plate_is_a_conflict(db, desk):
    svc.register_vehicle(db, desk.clerk, vehicle_draft(plate="QWE1A23"))
    with pytest.raises(ConflictError, match="placa"):
        svc.register_vehicle(db, desk.clerk, vehicle_draft(plate="QWE-1A23"))


def test_art8_par3_ii_relative_needs_owner_and_relationship():
    problems = {p.field for p in svc.validate_vehicle(vehicle_draft(ownership_mode="relative"), TODAY)}
    assert {"owner_name", "owner_document", "owner_relationship"} <= problems


def test_art8_par3_iii_company_lessor_needs_cnpj(db, desk):
    bad = vehicle_draft(ownership_mode="company_lease", lessor=individual_lessor(cpf()))
    assert any(p.field == "lessor" for p in svc.validate_vehicle(bad, TODAY))
    good = vehicle_draft(ownership_mode="company_lease",
                         lessor=LessorDraft(kind="company", document_number=cnpj(), name="Locadora Sol Ltda"))
    info = svc.register_vehicle(db, desk.clerk, good)
    assert info.lessor_kind == "company" and info.lessor_name == "Locadora Sol Ltda"
    assert "/" in info.lessor_document_display


def test_art8_par3_iv_fourth_vehicle_of_one_individual_lessor_is_refused(db, desk):
    lessor = individual_lessor(cpf())
    for _ in range(3):
        svc.register_vehicle(db, desk.clerk, vehicle_draft(ownership_mode="individual_lease", lessor=lessor))
    assert svc.lessor_problem(db, desk.clerk, lessor.document_number).article == "Art. 8, §3, IV"
    with pytest.raises(ValidationError) as err:
        svc.register_vehicle(db, desk.clerk, vehicle_draft(ownership_mode="individual_lease", lessor=lessor))
    assert [(p.field, p.article) for p in err.value.problems] == [("lessor", "Art. 8, §3, IV")]
    assert svc.list_vehicles(db, desk.clerk).total == 3


def test_art8_par3_iv_deregistered_vehicle_frees_a_place(db, desk):
    lessor = individual_lessor(cpf())
    infos = [svc.register_vehicle(db, desk.clerk, vehicle_draft(ownership_mode="individual_lease", lessor=lessor))
             for _ in range(3)]
    svc.deregister_vehicle(db, desk.manager, infos[0].id, "Vendido", "Portaria 7/2026", TODAY, infos[0].version)
    assert svc.register_vehicle(db, desk.clerk, vehicle_draft(ownership_mode="individual_lease", lessor=lessor))


def test_art8_par3_iv_moving_a_vehicle_to_a_full_lessor_is_refused(db, desk):
    lessor = individual_lessor(cpf())
    for _ in range(3):
        svc.register_vehicle(db, desk.clerk, vehicle_draft(ownership_mode="individual_lease", lessor=lessor))
    own = svc.register_vehicle(db, desk.clerk, vehicle_draft())
    moved = vehicle_draft(plate=own.plate, renavam=own.renavam, ownership_mode="individual_lease", lessor=lessor)
    with pytest.raises(ValidationError, match="máximo"):
        svc.update_vehicle(db, desk.clerk, own.id, moved, own.version)


def test_art8_par3_iv_two_desks_adding_the_4th_at_once_only_one_wins(db, desk):
    lessor = individual_lessor(cpf())
    for _ in range(2):
        svc.register_vehicle(db, desk.clerk, vehicle_draft(ownership_mode="individual_lease", lessor=lessor))
    drafts = [vehicle_draft(ownership_mode="individual_lease", lessor=lessor) for _ in range(2)]
    barrier = threading.Barrier(2)
    outcomes: list[object] = []

    def add(draft):
        barrier.wait()
        try:
            outcomes.append(svc.register_vehicle(db, desk.clerk, draft))
        except DesktopError as exc:
            outcomes.append(exc)

    threads = [threading.Thread(target=add, args=(d,)) for d in drafts]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    refused = [o for o in outcomes if isinstance(o, DesktopError)]
    assert len(outcomes) == 2 and len(refused) == 1
    assert "Art. 8, §3, IV" in str(refused[0]) or "ocupado" in str(refused[0])
    assert svc.list_vehicles(db, desk.clerk).total == 3


def test_stale_vehicle_save_is_refused(db, desk):
    info = svc.register_vehicle(db, desk.clerk, vehicle_draft(colour="Prata"))
    same = dict(plate=info.plate, renavam=info.renavam)
    svc.update_vehicle(db, desk.clerk, info.id, vehicle_draft(colour="Preto", **same), info.version)
    with pytest.raises(StaleRecordError):
        svc.update_vehicle(db, desk.clerk, info.id, vehicle_draft(colour="Branco", **same), info.version)
    assert svc.get_vehicle(db, desk.clerk, info.id).colour == "Preto"


def test_vistoriador_cannot_register_a_vehicle(db, desk):
    with pytest.raises(PermissionDenied):
        svc.register_vehicle(db, desk.inspector, vehicle_draft())


def test_list_vehicles_by_plate_prefix_with_or_without_dash(db, desk):
    svc.register_vehicle(db, desk.clerk, vehicle_draft(plate="KLM1234"))
    svc.register_vehicle(db, desk.clerk, vehicle_draft(plate="KLN1B34"))
    assert [r.plate_display for r in svc.list_vehicles(db, desk.clerk, "klm-1").rows] == ["KLM-1234"]
    assert svc.list_vehicles(db, desk.clerk, "kl").total == 2
    assert [r.plate_display for r in svc.list_vehicles(db, desk.clerk, "", sort="plate", descending=True).rows] \
        == ["KLN1B34", "KLM-1234"]


def test_art24_i_f_vehicle_deregistration_is_recorded(db, desk):
    info = svc.register_vehicle(db, desk.clerk, vehicle_draft())
    out = svc.deregister_vehicle(db, desk.manager, info.id, "Sinistro com perda total", "Portaria 3/2026", TODAY,
                                 info.version)
    assert out.status == "deregistered" and out.deregistered_on == TODAY
    detail = svc.vehicle_detail(db, desk.clerk, info.id)
    assert any(p.field == "status" for p in detail.problems)
    assert detail.timeline[0].what == "Veículo descadastrado" and "Portaria 3/2026" in detail.timeline[0].detail


def test_crlv_scan_attached_in_the_wizard_belongs_to_the_saved_vehicle(db, desk):
    from desktop.services.attachments import attach_document, list_documents

    from tests.files import tiny_jpeg

    jpeg = tiny_jpeg()
    scan = attach_document(db, desk.clerk, jpeg, "crlv.jpg", "crlv", number="CRLV-2026")
    assert scan.mime == "image/jpeg" and scan.vehicle_id is None and scan.is_image
    info = svc.register_vehicle(db, desk.clerk, vehicle_draft(crlv_document_id=scan.id))
    assert [d.id for d in list_documents(db, desk.fiscal, vehicle_id=info.id)] == [scan.id]
    # a scan that already belongs to a record is not moved to another one
    other = svc.register_vehicle(db, desk.clerk, vehicle_draft(crlv_document_id=scan.id))
    assert list_documents(db, desk.fiscal, vehicle_id=other.id) == []
    assert svc.vehicle_detail(db, desk.clerk, info.id).documents[0].number == "CRLV-2026"


def test_art22_vehicle_row_names_the_driver_of_its_live_authorization(db, desk):
    from registry_factories import active, new_vehicle

    a = active(db, desk)
    spare = new_vehicle(db, desk)
    rows = {r.id: r for r in svc.list_vehicles(db, desk.fiscal).rows}
    assert (rows[a.vehicle_id].driver_id, rows[a.vehicle_id].driver_name) == (a.driver_id, a.driver_name)
    assert rows[spare.id].driver_id is None and rows[spare.id].driver_name is None


def test_art8_par3_iv_find_lessor_gives_name_and_vehicle_count(db, desk):
    lessor = individual_lessor(cpf(), name="Maria Locadora")
    assert svc.find_lessor(db, desk.clerk, lessor.document_number) is None
    first = svc.register_vehicle(db, desk.clerk, vehicle_draft(ownership_mode="individual_lease", lessor=lessor))
    found = svc.find_lessor(db, desk.clerk, lessor.document_number)
    assert (found.name, found.kind, found.vehicle_count, found.problem) == ("Maria Locadora", "individual", 1, None)
    assert found.count_text == "Maria Locadora já tem 1 veículo(s) no cadastro (máximo 3, Art. 8, §3, IV)."
    assert svc.find_lessor(db, desk.clerk, lessor.document_number, vehicle_id=first.id).vehicle_count == 0
    for _ in range(2):
        svc.register_vehicle(db, desk.clerk, vehicle_draft(ownership_mode="individual_lease", lessor=lessor))
    full = svc.find_lessor(db, desk.clerk, found.document_display)        # the masked CPF works too
    assert full.vehicle_count == 3 and full.problem.article == "Art. 8, §3, IV"
    company = LessorDraft(kind="company", document_number=cnpj(), name="Locadora Sol Ltda")
    svc.register_vehicle(db, desk.clerk, vehicle_draft(ownership_mode="company_lease", lessor=company))
    sol = svc.find_lessor(db, desk.clerk, company.document_number)
    assert (sol.kind, sol.vehicle_count, sol.problem) == ("company", 1, None) and "/" in sol.document_display
    assert svc.find_lessor(db, desk.clerk, "123") is None


def test_refused_registration_leaves_no_crlv_scan_behind(db, desk):
    from sqlalchemy import func, select

    from desktop.models import Document
    from desktop.services.registry.scans import Scan

    svc.register_vehicle(db, desk.clerk, vehicle_draft(plate="QWE1A24"))
    from tests.files import tiny_jpeg

    scan = Scan(tiny_jpeg(), "crlv.jpg")
    with pytest.raises(ConflictError, match="placa"):
        svc.register_vehicle(db, desk.clerk, vehicle_draft(plate="QWE-1A24", crlv_scan=scan))
    with db.session(write=False) as s:
        assert s.scalar(select(func.count()).select_from(Document)) == 0
