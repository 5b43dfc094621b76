"""Source parsing: files -> :class:`~codesift.datatypes.Chunk` lists (definitions, blocks, windows)."""

from codesift.parse.chunks import extract_chunks

__all__ = ["extract_chunks"]
