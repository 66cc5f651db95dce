"""The sticker key is written only by the owner role (issue 25 item 5, PostgreSQL).

As the desks' application role, `UPDATE municipality SET signing_public_key = <attacker key>` changed the
key the sticker check trusts, with no audit entry. `migrate.grant_app_role` now grants the application role UPDATE
on every column of municipality but that one, and no UPDATE/DELETE on signing_keys; these triggers close
what column rights cannot: once a key exists, a new key row, and an audit entry that announces a key
(`signing_key.*`, what the check anchors a key on), are refused unless the role owns the table (the owner, through
`setup-server` or `audit rotate-key` run with the owner's URL; a superuser). The first set-up, run by a desk, still
creates the first key. SQLite has no roles: there the anchoring check (services.audit.anchored_key_fingerprints)
is what refuses a swapped key.

Revision ID: 0017
Revises: 0014
"""
from __future__ import annotations

from alembic import op

revision = "0017"
down_revision = "0016"  # chain: 0014 → 0015 (money) → 0016 (process) → 0017 (edges) → 0018 (documents) → 0019 (correspondence)
branch_labels = None
depends_on = None

_FUNCTION = """
CREATE OR REPLACE FUNCTION signing_key_owner_only() RETURNS trigger AS $$
BEGIN
    IF pg_has_role(current_user, (SELECT relowner FROM pg_class WHERE oid = TG_RELID), 'USAGE') THEN
        RETURN NEW;
    END IF;
    IF TG_TABLE_NAME = 'signing_keys' THEN
        IF EXISTS (SELECT 1 FROM signing_keys) THEN
            RAISE EXCEPTION 'chave de assinatura: só o papel dono do banco grava uma chave nova'
                USING ERRCODE = '42501';
        END IF;
    ELSIF NEW.action LIKE 'signing\\_key.%' AND EXISTS (
            SELECT 1 FROM audit_entries WHERE action LIKE 'signing\\_key.%') THEN
        RAISE EXCEPTION 'chave de assinatura: só o papel dono do banco registra uma chave nova'
            USING ERRCODE = '42501';
    END IF;
    RETURN NEW;
END
$$ LANGUAGE plpgsql
"""


def upgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute(_FUNCTION)
    op.execute("CREATE TRIGGER trg_signing_keys_owner_only BEFORE INSERT ON signing_keys "
               "FOR EACH ROW EXECUTE FUNCTION signing_key_owner_only()")
    op.execute("CREATE TRIGGER trg_audit_signing_key_owner_only BEFORE INSERT ON audit_entries "
               "FOR EACH ROW WHEN (NEW.action LIKE 'signing\\_key.%') EXECUTE FUNCTION signing_key_owner_only()")


def downgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute("DROP TRIGGER IF EXISTS trg_audit_signing_key_owner_only ON audit_entries")
    op.execute("DROP TRIGGER IF EXISTS trg_signing_keys_owner_only ON signing_keys")
    op.execute("DROP FUNCTION IF EXISTS signing_key_owner_only()")
