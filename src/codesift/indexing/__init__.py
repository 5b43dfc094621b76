"""The write path: discover the files, parse them, store chunks and keyword terms, embed; services, git history."""
