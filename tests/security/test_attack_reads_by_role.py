"""Issue 25 item 7: reads are checked by role in the services. Attacked as a vistoriador (whose work is the
vehicle on the inspection day, Art. 9, 16) and as nobody at all (actor=None): before the fix `get_auto`,
`get_auto_info` and `allowed_actions` answered anyone and `list_autos`/`count_autos` took no actor, so a vistoriador
read the full auto with the infractor's name. On SQLite and PostgreSQL."""
from __future__ import annotations

from datetime import date

import pytest

from desktop.domain.roles import ENFORCEMENT_ROLES, Role
from desktop.errors import PermissionDenied
from desktop.services import autos
from desktop.services.autos import AutoFilter
from desktop.services.enforcement.core import require_reader
from desktop.services.ledger import Infractor
from tests.db.enforcement_factories import (
    authorized_driver,
    draft,
    frozen_today,  # noqa: F401 (autouse: pins today)
    setup_upfm,
    staff,
)


@pytest.fixture
def drawn_up(db, make_actor):
    setup_upfm(db)
    fiscal, gestor, atendente = staff(make_actor)
    driver_id, _, _ = authorized_driver(db, name="Joaquim Infrator da Silva")
    info = autos.draw_up_auto(db, fiscal, draft("ART26-I", date(2026, 3, 2), driver_id=driver_id))
    return info, driver_id, (fiscal, gestor, atendente)


READS = {
    "get_auto": lambda db, actor, info, driver_id: autos.get_auto(db, actor, info.id),
    "get_auto_info": lambda db, actor, info, driver_id: autos.get_auto_info(db, actor, info.id),
    "allowed_actions": lambda db, actor, info, driver_id: autos.allowed_actions(db, actor, info.id),
    "list_autos": lambda db, actor, info, driver_id: autos.list_autos(db, actor, AutoFilter(driver_id=driver_id)),
    "count_autos": lambda db, actor, info, driver_id: autos.count_autos(db, actor, AutoFilter(driver_id=driver_id)),
    "infractor_page": lambda db, actor, info, driver_id: autos.infractor_page(db, actor, Infractor.driver(driver_id)),
}


@pytest.mark.parametrize("read", list(READS))
def test_a_vistoriador_cannot_read_the_auto_or_its_infractor(db, make_actor, drawn_up, read):
    info, driver_id, _ = drawn_up
    vistoriador = make_actor(Role.VISTORIADOR, full_name="Vistoriador Caio")
    with pytest.raises(PermissionDenied) as refused:
        READS[read](db, vistoriador, info, driver_id)
    assert "Joaquim" not in str(refused.value)
    assert "Permissão negada" in str(refused.value)


@pytest.mark.parametrize("read", list(READS))
def test_no_actor_reads_nothing(db, drawn_up, read):
    info, driver_id, _ = drawn_up
    with pytest.raises(PermissionDenied):
        READS[read](db, None, info, driver_id)


def test_the_readers_of_the_table_still_read_the_full_auto(db, drawn_up):
    info, driver_id, people = drawn_up
    for actor in people:   # fiscal, gestor, atendente: all in ENFORCEMENT_ROLES.read
        assert actor.has(*ENFORCEMENT_ROLES.read)
        detail = autos.get_auto(db, actor, info.id)
        assert detail.auto.infractor_name == "Joaquim Infrator da Silva"
        assert autos.count_autos(db, actor, AutoFilter(driver_id=driver_id)) == 1
        assert [a.id for a in autos.list_autos(db, actor, AutoFilter(driver_id=driver_id)).items] == [info.id]


def test_require_reader_lets_no_one_through_without_an_actor():
    with pytest.raises(PermissionDenied):
        require_reader(None)
    with pytest.raises(PermissionDenied):
        require_reader(42)   # an id in the actor's place (an old call's order) is refused, not read as anyone
