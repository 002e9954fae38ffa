"""several server processes: log-in failures, live streams, the server processes and
the standings they publish, in the database

Revision ID: 0006
Revises: 0005

What one server process used to keep in memory is shared by every process of the
contest; nothing earlier is carried over (the failures and streams of a stopped
server are gone with it).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "login_failures",
        sa.Column("name", sa.String(length=64), primary_key=True),
        sa.Column("address", sa.String(length=64), primary_key=True),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.Column("last", sa.Float(), nullable=False),
        sa.Column("until", sa.Float(), nullable=False),
    )
    op.create_index("ix_login_failures_last", "login_failures", ["last"])
    op.create_table(
        "live_streams",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("address", sa.String(length=64), nullable=False),
        sa.Column("process", sa.String(length=64), nullable=False),
        sa.Column("seen", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_live_streams_address", "live_streams", ["address"])
    op.create_index("ix_live_streams_process", "live_streams", ["process"])
    op.create_table(
        "server_processes",
        sa.Column("name", sa.String(length=64), primary_key=True),
        sa.Column("started", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seen", sa.DateTime(timezone=True), nullable=False),
        sa.Column("leads", sa.Boolean(), nullable=False),
    )
    op.create_table(
        "published_standings",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("payload", sa.Text(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("published_standings")
    op.drop_table("server_processes")
    op.drop_index("ix_live_streams_process", table_name="live_streams")
    op.drop_index("ix_live_streams_address", table_name="live_streams")
    op.drop_table("live_streams")
    op.drop_index("ix_login_failures_last", table_name="login_failures")
    op.drop_table("login_failures")
