"""The checksums tantivy writes at the end of every segment file, checked before a search reads them.

A segment file is its body, then a footer: JSON (``{"version": …, "crc": CRC32 of the body}``), the JSON's length
and the magic number 1337, both as little-endian u32 (tantivy's ``directory/footer.rs``). tantivy reads the footer's
magic and version when it opens a file but never the checksum, so bytes changed inside a file change the scores
without a word, or panic deep inside a search (and a panic prints its trace on stderr before codesift can speak).
"""

from __future__ import annotations

import json
import struct
import zlib
from pathlib import Path

MAGIC = 1337
# The index formats whose footer checksum is the CRC32 of the body (tantivy 0.11 to 0.27 at least); a file of a later
# format is not judged, lest a change of checksum there read as damage and rebuild the index at every open.
LAST_KNOWN_FORMAT = 7
COMPONENTS = ("idx", "pos", "term", "store", "fast", "fieldnorm")  # one file each per segment
# Files checked when their sum is no bigger than this (about 230k chunks; ~22 ms at the 3 GB/s measured), once a
# process. why: docs/design-decisions.md#keyword-checksums
CHECK_MAX = 64 << 20
BLOCK = 1 << 20


def file_damage(path: Path) -> str | None:
    """Why the segment file at ``path`` fails its footer, or None when its checksum holds (or its format is newer than
    this code knows). The body is read in blocks (a whole-file read of 32 MiB took twice as long)."""
    with path.open("rb") as f:
        size = f.seek(0, 2)
        if size < 8:
            return "it is too short to hold a footer"
        f.seek(size - 8)
        length, magic = struct.unpack("<II", f.read(8))
        if magic != MAGIC or length > size - 8:
            return "its footer is missing"
        f.seek(size - 8 - length)
        try:
            footer = json.loads(f.read(length))
            crc, version = footer["crc"], footer["version"]["index_format_version"]
        except (ValueError, TypeError, KeyError):
            return "its footer is unreadable"
        if not isinstance(version, int) or version > LAST_KNOWN_FORMAT:
            return None
        f.seek(0)
        left, running = size - 8 - length, 0
        while left > 0 and (block := f.read(min(left, BLOCK))):
            running, left = zlib.crc32(block, running), left - len(block)
    return None if running == crc else "it does not match its checksum"


def committed_files(folder: Path) -> list[Path]:
    """The files of the segments ``meta.json`` names (a writer's uncommitted files are not among them); an
    unreadable ``meta.json`` names none (opening the index reports it)."""
    try:
        meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
        segments = list(meta["segments"])
    except (OSError, ValueError, TypeError, KeyError):
        return []
    files = []
    for segment in segments:
        if not isinstance(segment, dict) or not isinstance(segment.get("segment_id"), str):
            continue
        stem = segment["segment_id"].replace("-", "")
        files += [folder / f"{stem}.{component}" for component in COMPONENTS]
        deletes = segment.get("deletes")
        if isinstance(deletes, dict) and isinstance(deletes.get("opstamp"), int):
            files.append(folder / f"{stem}.{deletes['opstamp']}.del")
    return files


def damaged_file(folder: Path, limit: int = CHECK_MAX) -> str | None:
    """Why the keyword index in ``folder`` is damaged, told by its committed files' footers: ``<file>: <why>``,
    or None (also when the files together exceed ``limit`` bytes: not checked). A writer at work meanwhile is no
    matter: a committed file is never written again."""
    files = committed_files(folder)
    if sum(map(_size, files)) > limit:
        return None
    for path in files:
        try:
            why = file_damage(path)
        except OSError:  # gone since meta.json was read (a writer's merge), or unreadable: opening the index tells
            continue
        if why is not None:
            return f"{path.name}: {why}"
    return None


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0
