"""The Qdrant backend: the collection, its sync with the SQLite store, BM25 sparse vectors, and reader mode."""
