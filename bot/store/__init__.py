"""SQLite storage through aiosqlite: connections, migrations and repositories."""
