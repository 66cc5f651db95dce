"""A late data request's next step (issue 24 item 12; Art. 4 §2; Art. 22): the law types no fine for a platform that
misses the 24 hours, so the auto against it is offered with the decree code citing Art. 4 when there is one, else
with the code left to the fiscal (the issue: "a late request offers no next step — the auto against the platform")."""
import pytest

from desktop.domain.data_requests import DATA_REQUEST_STEPS, LateRequestFacts, DataRequestStatus
from desktop.domain.platform_lists import cites_data_request, late_request_code
from desktop.domain.roles import Role
from desktop.domain.steps import available_actions


@pytest.mark.parametrize("article, cites", [
    pytest.param("Decreto nº 10/2026, art. 9º (Lei, Art. 4º, §2º)", True, id="art4-par2-decree-citing-art4"),
    pytest.param("Art. 4, §2", True, id="art4-plain"),
    pytest.param("Art. 40", False, id="art40-is-not-art4"),
    pytest.param("Decreto nº 10/2026, art. 7º (Lei, Art. 5º, VIII)", False, id="art5-viii-is-the-list"),
    pytest.param(None, False, id="no-article"),
])
def test_art4_which_codes_cite_the_data_request(article, cites):
    assert cites_data_request(article) is cites


def test_art4_par2_the_first_code_citing_art4_is_offered():
    codes = [("ART26-I", "Art. 26, I"), ("DEC-07", "Decreto, art. 7º (Lei, Art. 5º, VIII)"),
             ("DEC-09", "Decreto, art. 9º (Lei, Art. 4º, §2º)")]
    assert late_request_code(codes) == "DEC-09" and late_request_code(codes[:2]) is None


@pytest.mark.parametrize("status, facts, roles, enabled", [
    pytest.param(DataRequestStatus.SENT, LateRequestFacts(True, "DEC-09"), {Role.FISCAL}, True,
                 id="art4-par2-late-with-a-decree-code-the-fiscal-may-draw-up"),
    pytest.param(DataRequestStatus.ANSWERED, LateRequestFacts(True, "DEC-09"), {Role.FISCAL}, True,
                 id="art4-par2-answered-late-still-may-be-drawn-up"),
    pytest.param(DataRequestStatus.SENT, LateRequestFacts(False, None), {Role.FISCAL}, False,
                 id="art4-par2-within-the-24-hours-nothing-to-draw-up"),
    pytest.param(DataRequestStatus.SENT, LateRequestFacts(True, None), {Role.FISCAL}, True,
                 id="art22-no-decree-code-the-fiscal-chooses-the-code"),
    pytest.param(DataRequestStatus.SENT, LateRequestFacts(True, "DEC-09"), {Role.ATENDENTE}, False,
                 id="art19-only-the-fiscal-draws-up"),
    pytest.param(DataRequestStatus.CANCELLED, LateRequestFacts(True, "DEC-09"), {Role.FISCAL}, False,
                 id="art4-a-cancelled-request-offers-nothing"),
])
def test_art4_par2_the_late_requests_auto_step(status, facts, roles, enabled):
    [step] = [a for a in available_actions(DATA_REQUEST_STEPS, status, roles, facts) if a.key == "late_auto"]
    assert step.enabled is enabled


@pytest.mark.parametrize("status, has_auto, joined, offered", [
    pytest.param("absent", False, "2026-11-12", True, id="art26-iii-absent-with-its-notice-proven-is-offered"),
    pytest.param("absent", False, None, False, id="art22-par2-no-proof-of-the-convocation-no-infraction"),
    pytest.param("absent", True, "2026-11-12", False, id="art26-iii-already-in-an-auto"),
    pytest.param("excused", False, "2026-11-12", False, id="art12-par2-a-justified-absence-is-not-offered"),
    pytest.param("present", False, "2026-11-12", False, id="art12-par2-present-is-not-offered"),
])
def test_art22_par2_an_absence_is_offered_for_an_auto_only_after_the_convocations_proof(status, has_auto, joined,
                                                                                        offered):
    """Issue 24 item 12: course absences with no proven convocation notice were offered for an auto."""
    from desktop.domain.courses import absence_offered_for_auto

    assert absence_offered_for_auto(status, has_auto, joined) is offered
