"""Storage: SQLite metadata (the source of truth), a keyword index and a vector index derived from it."""
