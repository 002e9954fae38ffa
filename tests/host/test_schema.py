"""The migrations make the schema the models declare: a fresh database brought to
the newest migration differs from :mod:`arbiter.host.models` in nothing alembic can
see (a table, a column, its type or nullability, an index, a unique constraint, a
foreign key), on SQLite and on PostgreSQL. A model changed without its migration (or
a migration that forgets a column) fails here, not on a contest's first write."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from arbiter.host.db import Database
from arbiter.host.models import Base


def test_the_migrated_schema_is_the_models_schema(database_url: str) -> None:
    db = Database(database_url)
    with db.engine.connect() as connection:
        context = MigrationContext.configure(
            connection, opts={"compare_type": True, "compare_server_default": False}
        )
        differences = compare_metadata(context, Base.metadata)
    assert differences == [], "\n".join(map(str, differences))
