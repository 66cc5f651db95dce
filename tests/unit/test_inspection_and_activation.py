"""Inspection (Art. 9, 15, 16), activation of an authorization (Art. 9, 10, 15) and suspensions' ends."""
from datetime import date

import pytest

from desktop.domain import (
    INSPECTION_CHECKLIST,
    BusinessCalendar,
    InspectionKind,
    Prior,
    activation_problems,
    assess,
    inspection_problems,
    platform_list_due,
    presentation_deadline,
    regularization_deadline,
)

D = date
PLAIN = BusinessCalendar()
ALL_PASS = {i.key: True for i in INSPECTION_CHECKLIST if i.key != "municipal_sticker"}


def test_spec3_inspection_checklist_cites_every_article():
    cited = {part for item in INSPECTION_CHECKLIST for part in item.article.split("; ")}
    # Art. 15 §ún. VI ("aprovação em vistoria") is the inspection itself, not one of its lines
    expected = {f"Art. 15, parágrafo único, {r}" for r in ("I", "II", "III", "IV", "V", "VII", "VIII")}
    expected |= {"Art. 2, §1", "Art. 2, caput", "Art. 13, XIII", "Art. 13, XIV", "Art. 13, XV", "Art. 14"}
    assert cited == expected
    assert len({i.key for i in INSPECTION_CHECKLIST}) == len(INSPECTION_CHECKLIST)


def test_art16_all_lines_passed_approves():
    assert inspection_problems(ALL_PASS) == []


@pytest.mark.parametrize("item", [pytest.param(i, id=f"{i.article}-{i.key}") for i in INSPECTION_CHECKLIST
                                  if i.key != "municipal_sticker"])
def test_art16_par2_each_failed_line_fails_the_inspection(item):
    [problem] = inspection_problems({**ALL_PASS, item.key: False})
    assert (problem.field, problem.article) == (item.key, item.article)
    assert problem.message.startswith("Reprovado")
    [unchecked] = inspection_problems({k: v for k, v in ALL_PASS.items() if k != item.key})
    assert unchecked.field == item.key and "não verificado" in unchecked.message


def test_art14_sticker_checked_only_when_recorded():
    assert inspection_problems({**ALL_PASS, "municipal_sticker": True}) == []
    [problem] = inspection_problems({**ALL_PASS, "municipal_sticker": False})
    assert problem.article == "Art. 14"
    assert inspection_problems({**ALL_PASS, "wings": True})[0].field == "wings"


@pytest.mark.parametrize("kind, label, article", [
    pytest.param(InspectionKind.INITIAL, "Inicial", "Art. 9", id="art9-initial"),
    pytest.param(InspectionKind.ANNUAL, "Anual", "Art. 16, caput", id="art16-annual"),
    pytest.param(InspectionKind.EXTRAORDINARY, "Extraordinária", "Art. 16, §1", id="art16-par1-extraordinary"),
    pytest.param(InspectionKind.SUBSTITUTION, "Substituição de veículo", "Art. 8, §2", id="art8-par2-substitution"),
    pytest.param(InspectionKind.REINSPECTION, "Revistoria", "Art. 16, §2", id="art16-par2-reinspection"),
])
def test_spec3_inspection_kinds(kind, label, article):
    assert (kind.label, kind.article) == (label, article)


@pytest.mark.parametrize("start, fn, expected", [
    pytest.param(D(2026, 9, 2), presentation_deadline, D(2026, 9, 8), id="art9-5-days-ends-on-07-09"),
    pytest.param(D(2026, 3, 4), presentation_deadline, D(2026, 3, 9), id="art9-5-days"),
    pytest.param(D(2026, 3, 2), regularization_deadline, D(2026, 3, 9), id="art16-par2-5-days-ends-saturday"),
    pytest.param(D(2026, 10, 28), regularization_deadline, D(2026, 11, 3), id="art16-par2-ends-on-finados"),
    pytest.param(D(2026, 1, 5), platform_list_due, D(2026, 3, 6), id="art5-viii-60-days"),
])
def test_terms_of_art9_art16_art5(start, fn, expected):
    assert fn(start, PLAIN) == expected


@pytest.mark.parametrize("fee, inspection, waived, year, fields", [
    pytest.param(D(2026, 3, 1), D(2026, 3, 5), False, 2020, [], id="fee-then-inspection"),
    pytest.param(D(2026, 3, 5), D(2026, 3, 1), False, 2020, [], id="inspection-then-fee"),
    pytest.param(D(2026, 3, 1), None, True, 2020, [], id="art9-par1-inspection-waived"),
    pytest.param(None, D(2026, 3, 1), False, 2020, ["fee_paid_on"], id="art10-no-fee-no-activation"),
    pytest.param(D(2026, 3, 1), None, False, 2020, ["inspection"], id="art15-vi-no-inspection"),
    pytest.param(None, None, False, 2020, ["fee_paid_on", "inspection"], id="neither"),
    pytest.param(D(2026, 3, 20), D(2026, 3, 1), False, 2020, ["fee_paid_on"], id="fee-in-the-future"),
    pytest.param(D(2026, 3, 1), D(2026, 3, 1), False, 2015, ["manufacture_year"], id="art2-par2-too-old"),
])
def test_spec3_activation_needs_fee_and_inspection_in_either_order(fee, inspection, waived, year, fields):
    problems = activation_problems(D(2026, 3, 10), fee, inspection, waived, year)
    assert [p.field for p in problems] == fields
    assert all(p.article for p in problems)


@pytest.mark.parametrize("code, prior, start, end", [
    # SPEC §3: N days counting the first; 12 months end the day before the same date a year later (issue 24 item 2)
    pytest.param("ART26-IV", True, D(2026, 6, 1), D(2026, 6, 30), id="art26-par1-30-days"),
    pytest.param("ART26-V", False, D(2026, 6, 1), D(2027, 5, 31), id="art24-par-unico-12-months"),
    pytest.param("ART26-VI", False, D(2028, 2, 29), D(2029, 2, 28), id="art26-vi-12-months-from-29-february"),
    pytest.param("ART26-I", False, D(2026, 6, 1), None, id="art26-i-no-suspension"),
])
def test_art24_suspension_ends(code, prior, start, end):
    priors = [Prior(code, D(2026, 1, 1))] if prior else []
    assessment = assess(code, D(2026, 5, 10), priors)
    assert assessment.suspends is (end is not None)
    assert assessment.suspension_end(start) == end


# ------------------------------------------------------------------ which inspection, when (domain data)

from desktop.domain.inspection import (  # noqa: E402 — grouped with the tests that read them
    BOOKING_STEPS,
    INSPECTION_MACHINE,
    BookingFacts,
    InspectionStatus,
    booking_actions,
    booking_refusal,
    failure_preview,
    inspection_outcome,
    kind_problem,
    kind_statuses,
)
from desktop.domain.roles import Role  # noqa: E402
from desktop.domain.workflow import TransitionNotAllowed, transition  # noqa: E402


@pytest.mark.parametrize("kind, status, applies", [
    ("initial", "approved", True),          # Art. 9: the approved request's vehicle, before activation
    ("initial", "active", False),
    ("initial", "impeded", False),
    ("substitution", "approved", True),     # Art. 8, §2: the new vehicle
    ("substitution", "impeded", True),
    ("substitution", "active", False),
    ("reinspection", "approved", True),     # Art. 16, §2: after a failed first inspection
    ("reinspection", "impeded", True),      # Art. 16, §2: after a failed inspection of an active one
    ("reinspection", "active", False),
    ("annual", "active", True),             # Art. 16, caput
    ("annual", "impeded", False),
    ("annual", "approved", False),
    ("extraordinary", "active", True),      # Art. 16, §1
    ("extraordinary", "impeded", True),
    ("extraordinary", "suspended", False),
    ("annual", "expired", False),
])
def test_art9_art16_art8_par2_which_authorization_statuses_allow_each_inspection_kind(kind, status, applies):
    problem = kind_problem(kind, status)
    assert (problem is None) == applies
    assert (status in kind_statuses(kind)) == applies
    if problem is not None:
        assert problem.article == InspectionKind(kind).article and problem.article in problem.message


def test_an_unknown_kind_is_a_form_problem():
    assert kind_problem("yearly", "active").message == "Escolha o tipo de vistoria."


@pytest.mark.parametrize("current, target, allowed", [
    ("scheduled", "scheduled", True),   # moved (remarcada) with a reason
    ("scheduled", "done", True),
    ("scheduled", "no_show", True),     # Art. 26, I
    ("scheduled", "cancelled", True),
    ("done", "scheduled", False),       # a re-inspection is a new booking (Art. 16, §2)
    ("done", "cancelled", False),
    ("no_show", "done", False),
    ("cancelled", "scheduled", False),
])
def test_inspection_state_machine_refuses_every_move_it_does_not_list(current, target, allowed):
    if allowed:
        assert transition(INSPECTION_MACHINE, current, target) == InspectionStatus(target)
    else:
        with pytest.raises(TransitionNotAllowed, match="Vistoria"):
            transition(INSPECTION_MACHINE, current, target)
    assert INSPECTION_MACHINE.terminal == {InspectionStatus.DONE, InspectionStatus.NO_SHOW,
                                           InspectionStatus.CANCELLED}


TODAY = D(2026, 3, 10)
CLERK, INSPECTOR, FISCAL = {Role.ATENDENTE}, {Role.VISTORIADOR}, {Role.FISCAL}


@pytest.mark.parametrize("status, roles, day, key, enabled, reason", [
    ("scheduled", CLERK, TODAY, "move", True, ""),
    ("scheduled", FISCAL, TODAY, "move", False, "exige o perfil"),
    ("done", CLERK, TODAY, "move", False, "situação for Agendada (agora: Realizada)"),
    ("scheduled", CLERK, TODAY, "cancel", True, ""),
    ("no_show", CLERK, TODAY, "cancel", False, "agora: Não compareceu"),
    ("scheduled", INSPECTOR, TODAY, "run", True, ""),                 # Art. 15: on the day
    ("scheduled", INSPECTOR, D(2026, 3, 11), "run", False, "marcada para 11/03/2026"),
    ("scheduled", CLERK, TODAY, "run", False, "exige o perfil Vistoriador"),
    ("scheduled", INSPECTOR, D(2026, 3, 9), "no_show", True, ""),     # Art. 26, I: on the day or after
    ("scheduled", INSPECTOR, D(2026, 3, 11), "no_show", False, "ainda não aconteceu"),
    ("scheduled", FISCAL, TODAY, "convocation", True, ""),
    ("done", FISCAL, TODAY, "convocation", False, "agora: Realizada"),
    ("done", INSPECTOR, TODAY, "report", True, ""),                    # the laudo of a done inspection
    ("scheduled", INSPECTOR, TODAY, "report", False, "situação for Realizada"),
    ("done", CLERK, TODAY, "report", False, "exige o perfil"),
])
def test_booking_actions_say_what_is_possible_now_and_why_not(status, roles, day, key, enabled, reason):
    facts = BookingFacts(day, TODAY)
    action = next(a for a in booking_actions(status, roles, facts) if a.key == key)
    assert action.enabled == enabled
    assert reason in action.reason
    assert (booking_refusal(key, status, roles, facts) is None) == enabled
    if not enabled:
        assert "Indisponível" in action.tooltip


def test_every_booking_step_follows_the_machine_and_cites_what_it_needs():
    for step in BOOKING_STEPS:
        for status in step.statuses:
            assert status in {s.value for s in InspectionStatus}
    assert {s.key for s in BOOKING_STEPS} == {"move", "cancel", "run", "no_show", "convocation", "report"}


@pytest.mark.parametrize("approved, before, after, words, absent", [
    # Issue 12 item 8 — a failed FIRST inspection: the request never operated, so it is not impeded; it
    # stays Aprovada until the vehicle is approved (Art. 9) and the re-inspection has 5 days (Art. 16, §2).
    (False, "approved", "approved", ("continua Aprovada", "Art. 9", "até 16/03/2026", "Art. 16, §2"), "impedida"),
    (False, "active", "impeded", ("fica impedida", "até 16/03/2026", "Art. 16, §2"), "Aprovada"),
    (False, "impeded", "impeded", ("continua impedida", "novo prazo"), "Aprovada"),
    (True, "impeded", "active", ("deixa de estar impedida", "Art. 16, §2"), "reprovada"),
    (True, "approved", "approved", ("quando a taxa for paga",), "impedida"),
    (True, "approved", "active", ("está ativa",), "impedida"),
])
def test_art9_art16_par2_what_a_result_does_to_the_authorization(approved, before, after, words, absent):
    text = inspection_outcome(approved, before, after, D(2026, 3, 16))
    for word in words:
        assert word in text
    assert absent not in text


def test_art9_the_checklist_form_says_a_failure_before_activation_does_not_impede():
    assert "impedida" not in failure_preview("approved") and "Art. 9" in failure_preview("approved")
    assert "impedida" in failure_preview("active") and "Art. 16, §2" in failure_preview("active")


def test_the_inspections_service_imports_no_private_name_of_another_service():
    """Issue 10 item 1: one service calls another's session form (`_in`), never its private helpers or a fake
    Database standing for a transaction."""
    import ast
    from pathlib import Path

    import desktop.services.inspections as package

    folder = Path(package.__file__).parent
    for path in sorted(folder.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("desktop.services") \
                    and not (node.module or "").startswith("desktop.services.inspections"):
                private = [a.name for a in node.names if a.name.startswith("_")]
                assert not private, f"{path.name} importa nomes privados de {node.module}: {private}"
            if isinstance(node, ast.ClassDef):
                assert node.name != "_InTransaction", path.name


# issue 24 item 8: the convocation cites its own kind's article; the sticker (Art. 14) only after approval; the
# Art. 26, I fine only to an authorized driver (Art. 20).
from desktop.domain.inspection import InspectionKind as _Kind, convocation_terms  # noqa: E402


@pytest.mark.parametrize("kind, basis, sticker, fine", [
    pytest.param(_Kind.INITIAL, "Art. 9", False, False, id="art9-initial-applicant-no-sticker-no-fine"),
    pytest.param(_Kind.ANNUAL, "Art. 16, caput", True, True, id="art16-annual"),
    pytest.param(_Kind.EXTRAORDINARY, "Art. 16, §1", True, True, id="art16-par1-extraordinary"),
    pytest.param(_Kind.REINSPECTION, "Art. 16, §2", True, True, id="art16-par2-reinspection-cites-par2"),
    pytest.param(_Kind.SUBSTITUTION, "Art. 8, §2", False, True, id="art8-par2-substitute-vehicle"),
])
def test_art9_art14_art16_art20_convocation_cites_its_kind(kind, basis, sticker, fine):
    terms = convocation_terms(kind)
    assert (terms.basis, terms.asks_sticker, terms.fine_applies) == (basis, sticker, fine)
