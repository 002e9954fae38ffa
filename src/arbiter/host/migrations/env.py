"""Alembic's entry: runs the contest server's migrations on the connection
:func:`arbiter.host.db.migrate` hands it (no ``alembic.ini``, no URL of its own)."""

from alembic import context

from arbiter.host.models import Base

connection = context.config.attributes["connection"]
# SQLite changes a table by copying it (batch mode); PostgreSQL alters it in place
context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
