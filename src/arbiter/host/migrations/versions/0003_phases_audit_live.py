"""rounds' phase (test, final, candidate) and candidate, games' live moves,
versions held back as candidates, the organiser's audit log

Revision ID: 0003
Revises: 0002
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("rounds", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("phase", sa.String(length=16), nullable=False, server_default="test")
        )
        batch_op.add_column(sa.Column("candidate_id", sa.Integer(), nullable=True))
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("moves", sa.Text(), nullable=False, server_default=""))
    with op.batch_alter_table("versions", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("trial", sa.Boolean(), nullable=False, server_default=sa.false())
        )
    op.create_table(
        "audit",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=True),
        sa.Column("action", sa.String(length=32), nullable=False),
        sa.Column("subject", sa.String(length=64), nullable=False),
        sa.Column("detail", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"]),
        sa.PrimaryKeyConstraint("id"),
    )


def downgrade() -> None:
    op.drop_table("audit")
    with op.batch_alter_table("versions", schema=None) as batch_op:
        batch_op.drop_column("trial")
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_column("moves")
    with op.batch_alter_table("rounds", schema=None) as batch_op:
        batch_op.drop_column("candidate_id")
        batch_op.drop_column("phase")
