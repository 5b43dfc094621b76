"""The metadata store's tables (its SQLite schema) and the schema version an index records."""

from __future__ import annotations

# 2: references packed per (file, name), see store/refs.py; 3: file texts for grep (store/grams.py)
SCHEMA_VERSION = "3"

TABLES = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS files (
    id INTEGER PRIMARY KEY,
    path TEXT NOT NULL UNIQUE,
    size INTEGER NOT NULL,
    mtime REAL NOT NULL,
    hash TEXT NOT NULL,
    language TEXT,
    indexed_at REAL NOT NULL,
    warning TEXT
);
CREATE TABLE IF NOT EXISTS chunks (
    id INTEGER PRIMARY KEY,
    file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
    path TEXT NOT NULL,
    kind TEXT NOT NULL,
    name TEXT NOT NULL,
    qualified_name TEXT NOT NULL,
    parent TEXT,
    language TEXT NOT NULL,
    start_line INTEGER NOT NULL,
    end_line INTEGER NOT NULL,
    signature TEXT NOT NULL DEFAULT '',
    docstring TEXT NOT NULL DEFAULT '',
    decorators TEXT NOT NULL DEFAULT '[]',
    route TEXT,
    text TEXT NOT NULL,
    embed_hash TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS chunks_file ON chunks(file_id);
CREATE INDEX IF NOT EXISTS chunks_embed ON chunks(embed_hash);
CREATE INDEX IF NOT EXISTS chunks_name ON chunks(name COLLATE NOCASE);
CREATE TABLE IF NOT EXISTS vectors (hash TEXT PRIMARY KEY, vec BLOB NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS skipped (path TEXT PRIMARY KEY, reason TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS failures (
    path TEXT PRIMARY KEY, count INTEGER NOT NULL, size INTEGER NOT NULL, mtime REAL NOT NULL,
    error TEXT NOT NULL
) WITHOUT ROWID;
"""
