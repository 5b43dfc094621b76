"""The semantic side's state in one phrase, from the index's counts."""

from __future__ import annotations

from collections.abc import Mapping


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
    chunks, embedded = int(status.get("chunks") or 0), int(status.get("embedded") or 0)
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
