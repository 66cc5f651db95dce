"""Reconciling the platforms' lists (Art. 5, VIII) with the register (Art. 3, 6, 8, 13 XIX)."""
import pytest

from desktop.domain import DiscrepancyKind, reconcile

AUTHORIZED = [("ABC1234", "111.444.777-35"), ("XYZ1D23", "52998224725")]


def test_art5_viii_list_that_matches_the_register_has_no_discrepancy():
    assert reconcile(AUTHORIZED, [("abc-1234", "11144477735"), ("XYZ1D23", "529.982.247-25")]) == []


def test_art5_viii_old_plate_matches_its_mercosul_form():
    assert reconcile(AUTHORIZED, [("ABC1C34", "11144477735"), ("XYZ1D23", "52998224725")]) == []


@pytest.mark.parametrize("listed, kind, article", [
    pytest.param(("DEF5678", "70499962206"), DiscrepancyKind.NOT_AUTHORIZED, "Art. 3; Art. 6",
                 id="art6-listed-without-authorization"),
    pytest.param(("DEF5678", "11144477735"), DiscrepancyKind.PAIR_MISMATCH, "Art. 8; Art. 13, XIX",
                 id="art13-xix-authorized-driver-in-another-vehicle"),
    pytest.param(("ABC1234", "70499962206"), DiscrepancyKind.PAIR_MISMATCH, "Art. 8; Art. 13, XIX",
                 id="art8-authorized-vehicle-with-another-driver"),
])
def test_art5_viii_discrepancies(listed, kind, article):
    found = reconcile(AUTHORIZED, [listed, ("XYZ1D23", "52998224725")])
    kinds = [d.kind for d in found]
    assert kinds[0] is kind and found[0].article == article
    assert found[0].message
    if listed[1] != "11144477735":
        # the driver of ABC1234 appears on no list
        assert DiscrepancyKind.NOT_LISTED in kinds


def test_art13_xix_mismatch_message_names_the_authorized_pair():
    [mismatch] = [d for d in reconcile(AUTHORIZED, [("XYZ1D23", "11144477735")])
                  if d.kind is DiscrepancyKind.PAIR_MISMATCH]
    assert mismatch.authorized_plate == "ABC1C34" and mismatch.authorized_cpf == "52998224725"
    assert "529.982.247-25" in mismatch.message


def test_art5_viii_authorized_driver_on_no_list():
    found = reconcile(AUTHORIZED, [])
    assert {(d.kind, d.cpf) for d in found} == {(DiscrepancyKind.NOT_LISTED, "11144477735"),
                                                (DiscrepancyKind.NOT_LISTED, "52998224725")}
    assert all("fora das listas" in d.message for d in found)


def test_art5_viii_repeated_rows_count_once():
    found = reconcile([], [("DEF5678", "70499962206"), ("def-5678", "704.999.622-06")])
    assert len(found) == 1
