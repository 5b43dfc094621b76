"""One file's bytes to what the store needs, in a worker process or the writer's: read it safely, parse it into
chunks and references, hash it and the texts the dense model will read."""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from codesift.datatypes import NOT_DEFINITIONS, Chunk
from codesift.indexing.discover import SNIFF_BYTES, is_binary
from codesift.indexing.grammar_status import grammar_failure
from codesift.languages import is_example_path, is_test_path, language_for
from codesift.store import refs
from codesift.store.keyword import keyword_fields
from codesift.text.model_input import embed_text, window_texts
from codesift.text.source import content_hash, decode_source

if TYPE_CHECKING:  # pragma: no cover - the parsers are imported when a file is parsed, not at start-up
    from codesift.parse.references import Reference

def read_source(abspath: str) -> bytes:
    """A file's bytes; raises OSError when it cannot be read or is no longer a regular file.

    Opened non-blocking: a file swapped for a FIFO after discovery must not hang the update.
    """
    fd = os.open(abspath, os.O_RDONLY | getattr(os, "O_BINARY", 0) | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(fd, "rb") as fh:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(f"not a regular file: {abspath}")
        return fh.read()


def parse_file(path: str, data: bytes) -> tuple[str, list[Chunk], list[Reference], str | None]:
    """(language, chunks, references, warning) for one file's bytes; never raises on bad content."""
    from codesift.parse import extract_chunks

    text, warning = decode_source(data)
    language = language_for(path) or "text"
    references: list[Reference] = []
    try:
        chunks = extract_chunks(text, language, path, references)
    except (RecursionError, MemoryError, ValueError, RuntimeError) as exc:  # parser edge cases
        warning = f"parse_failed: {type(exc).__name__}"
        chunks, references = extract_chunks(text, "text", path), []
    return language, chunks, references, warning


@dataclass(slots=True)
class Prepared:
    """Everything about one file that can be computed without the index (in a worker process)."""

    status: str  # ok | unchanged | unreadable | parse_error | skipped (warning: why)
    digest: str = ""
    language: str = ""
    chunks: list[Chunk] = field(default_factory=list)
    references: refs.Packed = field(default_factory=list)
    warning: str | None = None
    hashes: list[str] = field(default_factory=list)
    window_hashes: list[list[str]] = field(default_factory=list)  # each chunk's window texts' (store/windows.py)
    fields: list[tuple[str, str, str, str]] = field(default_factory=list)
    error: BaseException | None = None
    text: str | None = None  # the decoded text, for grep's trigram index (store/grams.py)
    grammar_error: str | None = None  # the language's grammar failed to load: the file got line windows


def windowed(chunk: Chunk, path: str) -> bool:
    """Whether a long chunk gets window vectors (store/windows.py): a definition, outside tests' and examples'
    files. Tests and examples held about half of all windows on the bench corpora, documentation sections, text
    windows and module code a quarter of the rest; search demotes them all and a question about behaviour
    rarely wants them."""
    return chunk.kind not in NOT_DEFINITIONS and not (is_test_path(path) or is_example_path(path))


def prepare_file(path: str, abspath: str | bytes, old_hash: str | None) -> Prepared:
    """Read (or take, as bytes: a git blob), hash, parse and tokenize one file; never raises (failures
    come back as a status)."""
    if isinstance(abspath, bytes):
        data = abspath
        if is_binary(data[:SNIFF_BYTES]):
            return Prepared("skipped", warning="binary")
    else:
        try:
            data = read_source(abspath)
        except OSError as exc:
            return Prepared("unreadable", error=exc)
    digest = content_hash(data)
    if digest == old_hash:
        return Prepared("unchanged", digest=digest)
    try:
        language, chunks, references, warning = parse_file(path, data)
        hashes = [content_hash(embed_text(c, path)) for c in chunks]
        window_hashes = [[content_hash(w) for w in window_texts(c, path)] if windowed(c, path) else [] for c in chunks]
        fields = [keyword_fields(c.name, c.qualified_name, c.docstring, c.text, path, c.kind, c.language)
                  for c in chunks]
    except Exception as exc:  # one bad file must never abort the run
        return Prepared("parse_error", digest=digest, error=RuntimeError(f"{type(exc).__name__}: {exc}"))
    return Prepared("ok", digest, language, chunks, refs.pack(references), warning, hashes, window_hashes, fields,
                    text=decode_source(data)[0], grammar_error=grammar_failure(language))


def prepare_args(args: tuple[str, str | bytes, str | None]) -> Prepared:
    return prepare_file(*args)
