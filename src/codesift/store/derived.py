"""Derived parts of an index (the keyword index, the vector snapshot): damage found, and repairs made.

Both parts are rebuilt from SQLite, the source of truth. When one is found damaged, a marker beside it
(``<part>.damaged``, holding the reason) tells every process, this one and the next, to set it aside and
rebuild it; once rebuilt, the marker becomes ``<part>.repaired`` (the reason and when), which ``status``
shows, and one line on stderr says so.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

PARTS = {"keyword": "keyword index", "vectors": "vector snapshot"}  # part → what the messages call it


def is_panic(exc: BaseException) -> bool:
    """Whether ``exc`` is a Rust panic surfaced by pyo3 (``pyo3_runtime.PanicException``, a BaseException
    that cannot be imported by name): damaged data read by a native library, never an interrupt."""
    kind = type(exc)
    return kind.__name__ == "PanicException" and kind.__module__ == "pyo3_runtime"


def mark_damaged(folder: Path, part: str, reason: str) -> None:
    """Record that ``part`` of the index in ``folder`` is damaged (kept until it is rebuilt)."""
    try:
        (folder / f"{part}.damaged").write_text(reason[:300], encoding="utf-8")
    except OSError:
        pass  # a read-only index: the damage is still known to this process


def damage_of(folder: Path, part: str) -> str | None:
    """The recorded reason ``part`` is damaged, or None."""
    try:
        return (folder / f"{part}.damaged").read_text(encoding="utf-8", errors="replace") or "damaged"
    except OSError:
        return None


def mark_repaired(folder: Path, part: str, reason: str, what: str) -> None:
    """``part`` was rebuilt: say so once on stderr and keep the record for ``status``."""
    record = {"part": part, "reason": reason[:300], "repaired": what, "at": time.time()}
    print(f"codesift: the {PARTS.get(part, part)} was damaged ({reason[:200]}); {what}", file=sys.stderr)
    try:
        (folder / f"{part}.repaired").write_text(json.dumps(record), encoding="utf-8")
        (folder / f"{part}.damaged").unlink(missing_ok=True)
    except OSError:
        pass


def repairs(folder: Path) -> dict[str, dict[str, object]]:
    """Part → its last repair (reason, what was done, when) and, for a part still damaged, ``damaged``."""
    out: dict[str, dict[str, object]] = {}
    for part in PARTS:
        try:
            record = json.loads((folder / f"{part}.repaired").read_text(encoding="utf-8"))
            if isinstance(record, dict):
                out[part] = record
        except (OSError, ValueError):
            pass
        reason = damage_of(folder, part)
        if reason is not None:
            out[part] = {"part": part, "damaged": reason}
    return out
