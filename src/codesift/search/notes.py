"""What a search's answer says about its query: a usage question, a name the index does not define, a word
no indexed text holds."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from codesift.query.parsed import ParsedQuery
from codesift.query.shape import QueryShape, looks_like_identifier

if TYPE_CHECKING:  # pragma: no cover
    from codesift.store.sqlite import MetaStore

USAGES_HINT = "search ranks by similarity; every reference to {name}: `codesift usages {name}` (MCP: find_usages)"


def query_notes(store: "MetaStore", query: ParsedQuery, indexed: Callable[[str], bool] | None = None) -> list[str]:
    """What a search's answer should say about its query: that the references of a name are
    find_usages' (``who calls parse_args?``), or the names closest to one the index does not define
    (``rebuld_auth``) or, given ``indexed`` (whether some indexed text holds a word), to a one-word query
    no indexed text holds (``consle``), whose results are then only the dense model's guesses."""
    if (asked := query.usage_target) and store.ids_by_name([asked]):
        return [USAGES_HINT.format(name=asked)]
    idents = query.identifiers
    # snake_case or camelCase: a name; a plain word (``config``) only when no indexed text holds it, as its
    # trigrams are everywhere
    if len(idents) == 1 and query.shape == QueryShape.IDENTIFIER and looks_like_identifier(idents[0]):
        name = idents[0].rsplit(".", 1)[-1]
        if store.ids_by_name([name]):
            return []
        names = close_names(store, name)
        return [f"no definition is named {name}; close names: {', '.join(names)}"] if names else []
    words = query.text.split()
    if indexed is None or len(words) != 1 or len(words[0]) < 4 or indexed(words[0]):
        return []
    names = close_names(store, words[0])
    return [f"no indexed text contains {words[0]!r}; close names: {', '.join(names)}"] if names else []


def close_names(store: "MetaStore", name: str) -> list[str]:
    """The qualified names closest to ``name`` when no name holds it (a typo), else none."""
    hits = [cid for cid, match in store.lookup_names(name, exact=False, limit_partial=5) if match == "similar"]
    return list(dict.fromkeys(row.qualified_name for row in store.chunks_by_id(hits, with_text=False).values()))
