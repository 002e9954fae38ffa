"""packed programs, games' failures, one live worker per token, revoked tokens,
server-side sessions

Revision ID: 0002
Revises: 0001
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "sessions",
        sa.Column("id", sa.String(length=64), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("sessions", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_sessions_account_id"), ["account_id"], unique=False)
    with op.batch_alter_table("versions", schema=None) as batch_op:
        batch_op.add_column(sa.Column("program_sha256", sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column("program_size", sa.Integer(), nullable=True))
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("failures", sa.Integer(), nullable=False, server_default="0"))
    with op.batch_alter_table("workers", schema=None) as batch_op:
        batch_op.add_column(sa.Column("instance", sa.String(length=64), nullable=True))
        batch_op.add_column(
            sa.Column("revoked", sa.Boolean(), nullable=False, server_default=sa.false())
        )


def downgrade() -> None:
    op.drop_table("sessions")
    with op.batch_alter_table("workers", schema=None) as batch_op:
        batch_op.drop_column("revoked")
        batch_op.drop_column("instance")
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_column("failures")
    with op.batch_alter_table("versions", schema=None) as batch_op:
        batch_op.drop_column("program_size")
        batch_op.drop_column("program_sha256")
