"""trust boundaries: workers' request keys, failure reports per worker, used nonces,
paused workers, results superseded by a round played again

Revision ID: 0005
Revises: 0004

A token made before this revision holds a secret the server only hashed; its worker
row keeps no request key, so it opens nothing until the organiser makes a new one
(``arbiter host CONTEST.toml --add-worker NAME``). The failures a game already
counts stay counted; reports from here on are one per worker.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("workers", schema=None) as batch_op:
        batch_op.add_column(sa.Column("auth_key", sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column("failures", sa.Integer(), nullable=False, server_default="0"))
        batch_op.add_column(sa.Column("failing", sa.Integer(), nullable=False, server_default="0"))
        batch_op.add_column(
            sa.Column("paused", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch_op.create_unique_constraint("uq_workers_auth_key", ["auth_key"])
    op.create_table(
        "game_failures",
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("worker", sa.String(length=64), primary_key=True),
        sa.Column("culprit", sa.Integer(), nullable=True),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "worker_nonces",
        sa.Column("nonce", sa.String(length=64), primary_key=True),
        sa.Column("seen", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_worker_nonces_seen", "worker_nonces", ["seen"])
    op.create_table(
        "superseded_games",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("round_id", sa.Integer(), sa.ForeignKey("rounds.id"), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("winner", sa.Integer(), nullable=True),
        sa.Column("reason", sa.String(length=64), nullable=False),
        sa.Column("detail", sa.Text(), nullable=False),
        sa.Column("record", sa.Text(), nullable=False),
        sa.Column("finished", sa.DateTime(timezone=True), nullable=True),
        sa.Column("erased", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_superseded_games_game_id", "superseded_games", ["game_id"])
    op.create_index("ix_superseded_games_round_id", "superseded_games", ["round_id"])


def downgrade() -> None:
    op.drop_table("superseded_games")
    op.drop_index("ix_worker_nonces_seen", table_name="worker_nonces")
    op.drop_table("worker_nonces")
    op.drop_table("game_failures")
    with op.batch_alter_table("workers", schema=None) as batch_op:
        batch_op.drop_constraint("uq_workers_auth_key", type_="unique")
        batch_op.drop_column("paused")
        batch_op.drop_column("failing")
        batch_op.drop_column("failures")
        batch_op.drop_column("auth_key")
