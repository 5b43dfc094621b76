"""The semantic side's state in one phrase, from the index's counts."""

from __future__ import annotations


def describe_embedding(status: dict[str, object]) -> str:
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
        share = embedded * 100 // chunks  # floored: 99.9 % must not read as 100 %
        return (f"incomplete: {embedded:,} of {chunks:,} chunks embedded ({f'{share}%' if share else '<1%'}); "
                "run `codesift index` to finish")
    return f"ok, all {chunks:,} chunks embedded"
