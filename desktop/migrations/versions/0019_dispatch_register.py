"""The correspondence desk (issue 26, Art. 22 §§1-2): the dispatch register (every notice sent, its code, its
recipient, its form, its case, what came back and when its proof was joined) and the day's batches for the post.
Dispatches are never deleted: a trigger refuses DELETE (the message carries "somente inclusão").

Revision ID: 0019
Revises: 0014
Create Date: 2026-12-02 15:20:00
"""
import sqlalchemy as sa
from alembic import op

import desktop.models.types

revision = "0019"
down_revision = "0018"  # chain: 0014 → 0015 (money) → 0016 (process) → 0017 (edges) → 0018 (documents) → 0019 (correspondence)
branch_labels = None
depends_on = None

NO_DELETE = "O registro de expedição é somente inclusão: uma expedição não pode ser apagada."


def upgrade() -> None:
    op.create_table('dispatch_batches',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('sent_on', sa.Date(), nullable=False),
    sa.Column('issued_document_id', sa.Integer(), nullable=True),
    sa.Column('items', sa.Integer(), nullable=False),
    sa.Column('created_by', sa.Integer(), nullable=True),
    sa.Column('created_at', desktop.models.types.AwareDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['created_by'], ['users.id'], name=op.f('fk_dispatch_batches_created_by_users')),
    sa.ForeignKeyConstraint(['issued_document_id'], ['issued_documents.id'], name=op.f('fk_dispatch_batches_issued_document_id_issued_documents')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_dispatch_batches'))
    )
    op.create_table('dispatches',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('code', sa.String(length=20), nullable=False),
    sa.Column('state', sa.String(length=20), nullable=False),
    sa.Column('document_kind', sa.String(length=40), nullable=False),
    sa.Column('issued_document_id', sa.Integer(), nullable=True),
    sa.Column('document_number', sa.String(length=20), nullable=False),
    sa.Column('document_title', sa.String(length=120), nullable=False),
    sa.Column('recipient_name', sa.String(length=200), nullable=False),
    sa.Column('address', sa.Text(), nullable=True),
    sa.Column('email', sa.String(length=254), nullable=True),
    sa.Column('form', sa.String(length=20), nullable=False),
    sa.Column('case_type', sa.String(length=20), nullable=False),
    sa.Column('case_id', sa.Integer(), nullable=False),
    sa.Column('case_label', sa.String(length=60), nullable=False),
    sa.Column('notification_id', sa.Integer(), nullable=True),
    sa.Column('batch_id', sa.Integer(), nullable=True),
    sa.Column('sent_on', sa.Date(), nullable=True),
    sa.Column('received_on', sa.Date(), nullable=True),
    sa.Column('received_by', sa.String(length=200), nullable=True),
    sa.Column('returned_on', sa.Date(), nullable=True),
    sa.Column('return_reason', sa.String(length=40), nullable=True),
    sa.Column('edital_posted_on', sa.Date(), nullable=True),
    sa.Column('joined_on', sa.Date(), nullable=True),
    sa.Column('joined_at', desktop.models.types.AwareDateTime(), nullable=True),
    sa.Column('proof_document_id', sa.Integer(), nullable=True),
    sa.Column('message_id', sa.String(length=250), nullable=True),
    sa.Column('eml_document_id', sa.Integer(), nullable=True),
    sa.Column('created_by', sa.Integer(), nullable=True),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('created_at', desktop.models.types.AwareDateTime(), nullable=False),
    sa.CheckConstraint("case_type IN ('auto', 'inspection', 'course', 'data_request')", name=op.f('ck_dispatches_case_type_valid')),
    sa.CheckConstraint("form IN ('direct', 'notice_board', 'newspaper', 'official_gazette', 'post', 'electronic')", name=op.f('ck_dispatches_form_valid')),
    sa.CheckConstraint("return_reason IN ('mudou-se', 'desconhecido', 'ausente três vezes', 'recusado', 'endereço insuficiente')", name=op.f('ck_dispatches_return_reason_valid')),
    sa.CheckConstraint("state IN ('pending', 'sent', 'received', 'returned', 'edital_posted', 'joined')", name=op.f('ck_dispatches_state_valid')),
    sa.ForeignKeyConstraint(['batch_id'], ['dispatch_batches.id'], name=op.f('fk_dispatches_batch_id_dispatch_batches')),
    sa.ForeignKeyConstraint(['created_by'], ['users.id'], name=op.f('fk_dispatches_created_by_users')),
    sa.ForeignKeyConstraint(['eml_document_id'], ['documents.id'], name=op.f('fk_dispatches_eml_document_id_documents')),
    sa.ForeignKeyConstraint(['issued_document_id'], ['issued_documents.id'], name=op.f('fk_dispatches_issued_document_id_issued_documents')),
    sa.ForeignKeyConstraint(['notification_id'], ['auto_notifications.id'], name=op.f('fk_dispatches_notification_id_auto_notifications')),
    sa.ForeignKeyConstraint(['proof_document_id'], ['documents.id'], name=op.f('fk_dispatches_proof_document_id_documents')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_dispatches')),
    sa.UniqueConstraint('code', name=op.f('uq_dispatches_code')),
    sa.UniqueConstraint('message_id', name=op.f('uq_dispatches_message_id'))
    )
    with op.batch_alter_table('dispatches', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_dispatches_batch_id'), ['batch_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_dispatches_case_type_case_id'), ['case_type', 'case_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_dispatches_state_form'), ['state', 'form'], unique=False)

    quoted = NO_DELETE.replace("'", "''")
    if op.get_bind().dialect.name == "sqlite":
        op.execute(f"CREATE TRIGGER trg_dispatches_no_delete BEFORE DELETE ON dispatches "
                   f"BEGIN SELECT RAISE(ABORT, '{quoted}'); END")
    else:
        op.execute(f"CREATE TRIGGER trg_dispatches_no_delete BEFORE DELETE ON dispatches "
                   f"FOR EACH ROW EXECUTE FUNCTION refuse_append_only_change('{quoted}')")


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        op.execute("DROP TRIGGER IF EXISTS trg_dispatches_no_delete")
    else:
        op.execute("DROP TRIGGER IF EXISTS trg_dispatches_no_delete ON dispatches")
    with op.batch_alter_table('dispatches', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_dispatches_state_form'))
        batch_op.drop_index(batch_op.f('ix_dispatches_case_type_case_id'))
        batch_op.drop_index(batch_op.f('ix_dispatches_batch_id'))
    op.drop_table('dispatches')
    op.drop_table('dispatch_batches')
