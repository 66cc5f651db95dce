"""A scanned document is never silently replaced (SPEC §2 Document): the database refuses to change its
SHA-256 or to swap its bytes for different ones, and refuses to delete it. A newer proof is a new row.
(Moving the bytes out to the content-addressed folder — content set to NULL, storage_path set — stays allowed.)

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-29 17:20:00
"""
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

MESSAGE = ("Documentos anexados são somente inclusão: o arquivo não pode ser trocado nem apagado "
           "(anexe o novo documento).")
CHANGED = ("NEW.sha256 <> OLD.sha256"
           " OR (NEW.content IS NOT NULL AND OLD.content IS NOT NULL AND NEW.content <> OLD.content)")


def upgrade() -> None:
    quoted = MESSAGE.replace("'", "''")
    if op.get_bind().dialect.name == "sqlite":
        op.execute(f"CREATE TRIGGER trg_documents_keep_bytes BEFORE UPDATE ON documents WHEN {CHANGED} "
                   f"BEGIN SELECT RAISE(ABORT, '{quoted}'); END")
        op.execute(f"CREATE TRIGGER trg_documents_no_delete BEFORE DELETE ON documents "
                   f"BEGIN SELECT RAISE(ABORT, '{quoted}'); END")
    else:
        # refuse_append_only_change() comes from revision 0001.
        op.execute(f"CREATE TRIGGER trg_documents_keep_bytes BEFORE UPDATE ON documents FOR EACH ROW "
                   f"WHEN ({CHANGED}) EXECUTE FUNCTION refuse_append_only_change('{quoted}')")
        op.execute(f"CREATE TRIGGER trg_documents_no_delete BEFORE DELETE ON documents FOR EACH ROW "
                   f"EXECUTE FUNCTION refuse_append_only_change('{quoted}')")
        op.execute(f"CREATE TRIGGER trg_documents_no_truncate BEFORE TRUNCATE ON documents FOR EACH STATEMENT "
                   f"EXECUTE FUNCTION refuse_append_only_change('{quoted}')")


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        op.execute("DROP TRIGGER IF EXISTS trg_documents_keep_bytes")
        op.execute("DROP TRIGGER IF EXISTS trg_documents_no_delete")
    else:
        op.execute("DROP TRIGGER IF EXISTS trg_documents_keep_bytes ON documents")
        op.execute("DROP TRIGGER IF EXISTS trg_documents_no_delete ON documents")
        op.execute("DROP TRIGGER IF EXISTS trg_documents_no_truncate ON documents")
