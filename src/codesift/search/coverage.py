"""The semantic side's state in one phrase, from the index's counts, and where its coverage is judged."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass


def share(fraction: float) -> str:
    """A share as a whole percentage that never rounds to a state it is not in: 99.9 % reads "99%",
    never "100%" (then nothing would be left to embed), and 0.2 % reads "<1%", never "0%"."""
    fraction = min(max(float(fraction or 0), 0.0), 1.0)
    whole = int(fraction * 100 + 1e-9)
    return "<1%" if whole == 0 and fraction > 0 else f"{whole}%"


def describe_embedding(status: Mapping[str, object]) -> str:
    """One phrase for the semantic side that never contradicts the counts ("ok" at 0 % did).

    ``embedding_status`` only says whether the model can be used; this also says how much is embedded.
    """
    chunks, embedded = _count(status, "chunks"), _count(status, "embedded")
    if status.get("embedding_status") != "ok":
        return f"unavailable, keyword search only ({embedded:,} of {chunks:,} chunks embedded)"
    if chunks == 0:
        return "ok (nothing indexed yet)"
    if embedded == 0:
        return f"not embedded yet (0 of {chunks:,} chunks); run `codesift index` (keyword search works meanwhile)"
    if embedded < chunks:
        return (f"incomplete: {embedded:,} of {chunks:,} chunks embedded ({share(embedded / chunks)}); "
                "run `codesift index` to finish")
    return f"ok, all {chunks:,} chunks embedded"


def _count(status: Mapping[str, object], key: str) -> int:
    """``status[key]`` as a whole number (0 when missing or None)."""
    value = status.get(key) or 0
    if not isinstance(value, (int, float, str)):
        raise TypeError(f"{key} must be a count, got {value!r}")
    return int(value)


# A file "dominates" the work when it holds at least this share of the index's chunks and at least this many
# (a 3.5 MB generated module of 52k two-line functions held 88 %). Its chunks are embedded last, and whether
# hybrid search uses vectors is judged on the chunks outside it (:func:`judge`): people search the code they
# wrote before generated bulk, and waiting for it kept semantic ranking off for the whole tree for 20 minutes.
DOMINANT_SHARE = 0.25
DOMINANT_MIN_CHUNKS = 1_000


def dominating(chunks_by_file: Mapping[str, int]) -> list[tuple[str, int]]:
    """(path, chunks) of the files that dominate the index's chunks, most chunks first."""
    total = sum(chunks_by_file.values())
    floor = max(DOMINANT_MIN_CHUNKS, DOMINANT_SHARE * total)
    return sorted(((p, n) for p, n in chunks_by_file.items() if n >= floor), key=lambda pn: (-pn[1], pn[0]))


@dataclass(frozen=True, slots=True)
class Coverage:
    """How much of an index is embedded: in all (``chunks``, ``embedded``) and where it is judged (the chunks
    outside the dominating files, ``bulk``: (path, chunks, embedded) each)."""

    chunks: int
    embedded: int
    judged_chunks: int = -1  # -1: the same as ``chunks`` (nothing dominates)
    judged_embedded: int = -1
    bulk: tuple[tuple[str, int, int], ...] = ()

    @property
    def fraction(self) -> float:
        """The share of all chunks embedded."""
        return min(1.0, self.embedded / self.chunks) if self.chunks else 1.0

    @property
    def judged(self) -> float:
        """The share embedded of the chunks that decide whether hybrid search uses vectors."""
        if self.judged_chunks < 0:
            return self.fraction
        return min(1.0, self.judged_embedded / self.judged_chunks) if self.judged_chunks else 1.0

    def bulk_pending(self) -> list[tuple[str, int, int]]:
        """The dominating files not fully embedded yet."""
        return [b for b in self.bulk if b[2] < b[1]]

    def bulk_phrase(self) -> str:
        """``gen/tables.py (52,000 chunks)``, for the notes; '' when nothing dominates."""
        return ", ".join(f"{path} ({chunks:,} chunks)" for path, chunks, _ in self.bulk)


def judge(per_file: Iterable[tuple[str, int, int]]) -> Coverage:
    """The coverage of an index from its files' (path, chunks, embedded): the dominating files are left out of
    the judged share unless nothing else is left."""
    rows = list(per_file)
    chunks, embedded = sum(r[1] for r in rows), sum(r[2] for r in rows)
    big = {p for p, _ in dominating({r[0]: r[1] for r in rows})}
    if not big:
        return Coverage(chunks, embedded)
    bulk = tuple(sorted((r for r in rows if r[0] in big), key=lambda r: (-r[1], r[0])))
    rest = [r for r in rows if r[0] not in big]
    if not sum(r[1] for r in rest):
        return Coverage(chunks, embedded, bulk=bulk)
    return Coverage(chunks, embedded, sum(r[1] for r in rest), sum(r[2] for r in rest), bulk)
