"""results in the shape the tables need: a stored game's round, phase, entrants, game
points and irregular loss as columns of its own; each pair's tallies (and the clock
of their changes); ratings after each round; rounds' sizes; workers' stored results;
export jobs

Revision ID: 0004
Revises: 0003

The columns are filled from what the rows already hold (a game's winner and reason,
its round, its versions), so no record is parsed; the tallies are summed from them.
Ratings after each round are left to the server, which fits every finished round
that has none when it starts (:mod:`arbiter.host.ratings`).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

FAULTS = (
    "illegal move",
    "malformed output",
    "output before its turn",
    "another process",
    "time",
    "memory",
    "crash",
    "false claim",
    "unclaimed win",
    "adjudicated",
    "resignation",
    "aborted",
    "forfeit",
)
"""The reasons a referee (not the rules) ends a game, as this revision knew them."""


def upgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("phase", sa.String(length=16), nullable=False, server_default="test")
        )
        batch_op.add_column(
            sa.Column("round_number", sa.Integer(), nullable=False, server_default="0")
        )
        batch_op.add_column(
            sa.Column("first_account_id", sa.Integer(), nullable=False, server_default="0")
        )
        batch_op.add_column(
            sa.Column("second_account_id", sa.Integer(), nullable=False, server_default="0")
        )
        batch_op.add_column(sa.Column("score_first", sa.Float(), nullable=True))
        batch_op.add_column(
            sa.Column("irregular", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch_op.create_index("ix_games_first_account", ["first_account_id", "state", "id"])
        batch_op.create_index("ix_games_second_account", ["second_account_id", "state", "id"])
        batch_op.create_index("ix_games_phase_round", ["phase", "round_number"])
        batch_op.create_index("ix_games_worker_finished", ["worker", "finished", "id"])
        batch_op.create_index("ix_games_irregular", ["irregular"])
        batch_op.create_index("ix_games_failures", ["failures"])
    with op.batch_alter_table("rounds", schema=None) as batch_op:
        batch_op.add_column(sa.Column("size", sa.Integer(), nullable=False, server_default="0"))
        batch_op.add_column(sa.Column("rated", sa.DateTime(timezone=True), nullable=True))
    with op.batch_alter_table("workers", schema=None) as batch_op:
        batch_op.add_column(sa.Column("stored", sa.Integer(), nullable=False, server_default="0"))
    op.create_table(
        "tallies",
        sa.Column("phase", sa.String(length=16), nullable=False),
        sa.Column("first_id", sa.Integer(), nullable=False),
        sa.Column("second_id", sa.Integer(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("first_wins", sa.Integer(), nullable=False),
        sa.Column("draws", sa.Integer(), nullable=False),
        sa.Column("first_points", sa.Float(), nullable=False),
        sa.Column("second_points", sa.Float(), nullable=False),
        sa.Column("first_faults", sa.Integer(), nullable=False),
        sa.Column("second_faults", sa.Integer(), nullable=False),
        sa.Column("rescored", sa.Integer(), nullable=False),
        sa.Column("stamp", sa.Integer(), nullable=False, server_default="0"),
        sa.PrimaryKeyConstraint("phase", "first_id", "second_id"),
    )
    op.create_index("ix_tallies_phase_stamp", "tallies", ["phase", "stamp"])
    op.create_table(
        "tally_clock",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("value", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.execute(sa.text("INSERT INTO tally_clock (id, value) VALUES (1, 0)"))
    op.create_table(
        "ratings",
        sa.Column("round_id", sa.Integer(), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("elo", sa.Float(), nullable=False),
        sa.Column("error", sa.Float(), nullable=True),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["round_id"], ["rounds.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("round_id", "account_id"),
    )
    op.create_index("ix_ratings_account_id", "ratings", ["account_id"])
    op.create_table(
        "exports",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=True),
        sa.Column("started", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished", sa.DateTime(timezone=True), nullable=True),
        sa.Column("state", sa.String(length=16), nullable=False),
        sa.Column("sources", sa.Boolean(), nullable=False),
        sa.Column("logs", sa.Boolean(), nullable=False),
        sa.Column("done", sa.Integer(), nullable=False),
        sa.Column("total", sa.Integer(), nullable=False),
        sa.Column("file", sa.String(length=200), nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.Column("detail", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    _fill()


def _fill() -> None:
    """The new columns and tallies of the games already stored."""
    faults = ", ".join(f"'{r}'" for r in FAULTS)
    for statement in (
        "UPDATE games SET phase = (SELECT phase FROM rounds WHERE rounds.id = games.round_id),"
        " round_number = (SELECT number FROM rounds WHERE rounds.id = games.round_id),"
        " first_account_id = (SELECT account_id FROM versions WHERE versions.id = games.first_id),"
        " second_account_id ="
        " (SELECT account_id FROM versions WHERE versions.id = games.second_id)",
        "UPDATE games SET score_first = CASE WHEN winner = 0 THEN 1.0 WHEN winner = 1 THEN 0.0"
        " ELSE 0.5 END WHERE state = 'done'",
        f"UPDATE games SET irregular = (state = 'done' AND winner IS NOT NULL"
        f" AND reason IN ({faults}))",
        "UPDATE rounds SET size = (SELECT count(*) FROM games WHERE games.round_id = rounds.id)",
        "UPDATE workers SET stored = (SELECT count(*) FROM games"
        " WHERE games.worker = workers.name AND games.state = 'done')",
        FILL_TALLIES,
    ):
        op.execute(sa.text(statement))


FILL_TALLIES = (
    "INSERT INTO tallies (phase, first_id, second_id, games, first_wins, draws,"
    " first_points, second_points, first_faults, second_faults, rescored)"
    " SELECT phase, first_account_id, second_account_id, count(*),"
    " sum(CASE WHEN winner = 0 THEN 1 ELSE 0 END),"
    " sum(CASE WHEN winner IS NULL THEN 1 ELSE 0 END),"
    " sum(coalesce(points_first, 0)), sum(coalesce(points_second, 0)),"
    " sum(CASE WHEN irregular AND winner = 1 THEN 1 ELSE 0 END),"
    " sum(CASE WHEN irregular AND winner = 0 THEN 1 ELSE 0 END),"
    " sum(CASE WHEN points_first IS NOT NULL AND (points_first <> score_first"
    " OR points_second <> 1 - score_first) THEN 1 ELSE 0 END)"
    " FROM games WHERE state = 'done' GROUP BY phase, first_account_id, second_account_id"
)
"""The tallies summed from the games' columns (also what a test checks them against)."""


def downgrade() -> None:
    # columns dropped in place (SQLite 3.35 and later), not by copying the tables: a
    # copy of ``rounds`` would break the foreign keys of the games that name it
    op.drop_table("exports")
    op.drop_index("ix_ratings_account_id", table_name="ratings")
    op.drop_table("ratings")
    op.drop_table("tally_clock")
    op.drop_index("ix_tallies_phase_stamp", table_name="tallies")
    op.drop_table("tallies")
    with op.batch_alter_table("workers", schema=None, recreate="never") as batch_op:
        batch_op.drop_column("stored")
    with op.batch_alter_table("rounds", schema=None, recreate="never") as batch_op:
        batch_op.drop_column("rated")
        batch_op.drop_column("size")
    with op.batch_alter_table("games", schema=None, recreate="never") as batch_op:
        for index in (
            "ix_games_failures",
            "ix_games_irregular",
            "ix_games_worker_finished",
            "ix_games_phase_round",
            "ix_games_second_account",
            "ix_games_first_account",
        ):
            batch_op.drop_index(index)
        for column in (
            "irregular",
            "score_first",
            "second_account_id",
            "first_account_id",
            "round_number",
            "phase",
        ):
            batch_op.drop_column(column)
