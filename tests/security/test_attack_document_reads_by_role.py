"""Issue 25 item 7, the documents' reads: the archived PDFs, the archive's list, the document in force of an
authorization and the list of authorizations awaiting a sticker took no actor, so anyone holding the database
handle — a vistoriador's desk, or no one logged in — read an auto's archived PDF with the infractor's name, the
archive's list (drivers' names) and the pending stickers. Now they take the actor and read the table of
domain/roles.py: an archived document (its bytes, its row in the list, whether one is in force) is read by the
roles that may issue its kind (DOCUMENT_ROLES, the same rule as the reprint); the pending stickers by those who
print stickers. On SQLite and PostgreSQL."""
from __future__ import annotations

import pytest

from desktop.domain.roles import DOCUMENT_ROLES, Role
from desktop.errors import PermissionDenied
from desktop.services import documents
from desktop.services.actors import Actor
from tests.db.enforcement_factories import authorized_driver

PDF = b"%PDF-1.4\n% documento de teste\n%%EOF\n"


@pytest.fixture
def archive(db, make_actor):
    """An authorization with its credential, an auto's PDF and a notice archived; the staff who issued them."""
    fiscal = make_actor(Role.FISCAL, full_name="Fiscal Marcos")
    clerk = make_actor(Role.ATENDENTE, full_name="Atendente Ana")
    vistoriador = make_actor(Role.VISTORIADOR, full_name="Vistoriador Caio")
    _driver, _vehicle, authorization_id = authorized_driver(db, name="Joaquim Infrator da Silva")
    with db.session(write=False) as s:
        from desktop.models import Authorization

        number = s.get(Authorization, authorization_id).number
    auto = documents.issue_document(db, fiscal, "auto", ("auto", 1), PDF)
    credential = documents.issue_document(db, clerk, "credential", ("authorization", authorization_id), PDF)
    notice = documents.issue_document(db, vistoriador, "notice", ("authorization", authorization_id), PDF)
    return {"fiscal": fiscal, "clerk": clerk, "vistoriador": vistoriador, "number": number, "auto": auto,
            "credential": credential, "notice": notice}


def test_a_vistoriador_cannot_open_an_autos_archived_pdf(db, archive):
    assert Role.VISTORIADOR not in DOCUMENT_ROLES.auto
    with pytest.raises(PermissionDenied) as refused:
        documents.archived_bytes(db, archive["vistoriador"], archive["auto"].number)
    assert "Permissão negada" in str(refused.value) and "Fiscal ou Gestor" in str(refused.value)
    with pytest.raises(PermissionDenied):   # nor the front desk's, which does not issue autos
        documents.archived_bytes(db, archive["clerk"], archive["auto"].number)
    # the roles of the table read it; the vistoriador reads the notice he may issue
    assert documents.archived_bytes(db, archive["fiscal"], archive["auto"].number) == PDF
    assert documents.archived_bytes(db, archive["vistoriador"], archive["notice"].number) == PDF


def test_the_archives_list_shows_each_actor_only_the_kinds_the_table_lets_him_read(db, archive):
    kinds = lambda actor: sorted(d.kind for d in documents.list_issued(db, actor))  # noqa: E731
    assert kinds(archive["vistoriador"]) == ["notice"]              # no auto, no credential with the driver's name
    assert kinds(archive["clerk"]) == ["credential", "notice"]
    assert kinds(archive["fiscal"]) == ["auto", "notice"]
    nobody = Actor(user_id=archive["clerk"].user_id, username="sem-papel", full_name="Sem Papel")
    with pytest.raises(PermissionDenied):
        documents.list_issued(db, nobody)


def test_the_document_in_force_and_the_pending_stickers_are_for_the_desk_that_prints_them(db, archive):
    number = archive["number"]
    assert Role.VISTORIADOR not in DOCUMENT_ROLES.credential + DOCUMENT_ROLES.sticker
    with pytest.raises(PermissionDenied):
        documents.current_document(db, archive["vistoriador"], "credential", number)
    with pytest.raises(PermissionDenied):
        documents.pending_sticker_numbers(db, archive["vistoriador"])
    with pytest.raises(PermissionDenied):
        documents.pending_sticker_numbers(db, archive["fiscal"])
    assert documents.current_document(db, archive["clerk"], "credential", number).number == \
        archive["credential"].number
    assert documents.pending_sticker_numbers(db, archive["clerk"]) == [number]


READS = {
    "archived_bytes": lambda db, actor, a: documents.archived_bytes(db, actor, a["notice"].number),
    "list_issued": lambda db, actor, a: documents.list_issued(db, actor),
    "current_document": lambda db, actor, a: documents.current_document(db, actor, "credential", a["number"]),
    "current_document_other_kind": lambda db, actor, a: documents.current_document(db, actor, "guide", a["number"]),
    "pending_sticker_numbers": lambda db, actor, a: documents.pending_sticker_numbers(db, actor),
}


@pytest.mark.parametrize("read", list(READS))
def test_no_actor_reads_no_document(db, archive, read):
    with pytest.raises(PermissionDenied) as refused:
        READS[read](db, None, archive)
    assert "entre no sistema" in str(refused.value)
    with pytest.raises(PermissionDenied):   # an id in the actor's place (an old call's order) is no one either
        READS[read](db, archive["clerk"].user_id, archive)
