"""The store: the database behind the unit of work, and the repositories that turn rows into
domain values and back.

Two backends, peers behind one interface (`bot.store.backend`): SQLite through aiosqlite
(`bot.store.sqlite`, the default, one file) and PostgreSQL through asyncpg
(`bot.store.postgres`, several processes on one database). `bot.store.database` opens one by
its location; `bot.store.migrations` finds and checks the migration files both run. A change
goes through the unit of work (`bot.store.uow`): one transaction that applies operations and
writes the changed rows, the action log and the outbox.
"""
