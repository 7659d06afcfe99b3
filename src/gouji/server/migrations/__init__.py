"""Alembic migrations of the server's database, run at startup by :func:`gouji.server.storage.migrate`."""
