"""Accounts (issue 42), beside guest play: a name and a password, sessions in a cookie, seats that belong to
the account that took them, and profiles with statistics.

- :mod:`.passwords` — Argon2id hashing, off the event loop, a few at a time;
- :mod:`.store` — the account's rows (functions of the :class:`~gouji.server.storage.Store`, run on the writer
  or on a reader's thread);
- :mod:`.sessions` — the session cookie, who a request is, and the throttles of signing in and up;
- :mod:`.api` — the HTTP routes (``/api/accounts``, ``/api/session``, ``/api/me``, ``/api/players/{name}``)."""
