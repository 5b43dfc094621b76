"""Input limits shared by the API, the CLI and the MCP server, so all three accept and refuse the same.

Each check returns the cleaned value or raises :class:`InputError` (a ``ValueError``) whose message is
what a person or an agent reads, word for word, on every surface: the CLI prints it as one line and
exits 2, the MCP server answers it as a one-line tool error, the API raises it.
"""

from __future__ import annotations

from codesift.errors import CodesiftError

MAX_QUERY_CHARS = 2_000  # a search query: far more than any question; a pasted file is not a query
MAX_NAME_CHARS = 300  # a (qualified) symbol name for find_symbol / find_usages
MAX_SEARCH_LIMIT = 1_000  # results of one search (page on with offset)
MAX_USAGES_LIMIT = 10_000  # references listed by one find_usages call


def check_limit(limit: object, most: int, what: str = "limit") -> int:
    """A result count between 1 and ``most``; refuses anything else with the range in the message."""
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= most:
        raise InputError(f"{what} must be a whole number from 1 to {most:,}, got {limit!r}")
    return limit


class InputError(CodesiftError, ValueError):
    """An argument no tool can use (empty, too long); the message says what to pass instead."""


def clean(value: object) -> str:
    """``value`` as text any engine can take: NUL bytes become spaces, lone surrogates (from undecodable
    argv) U+FFFD, surrounding whitespace goes."""
    text = "" if value is None else str(value)
    return text.replace("\x00", " ").encode("utf-8", "replace").decode().strip()


def check_query(query: object) -> str:
    """A search query, cleaned; refuses an empty (or whitespace-only) one and one over MAX_QUERY_CHARS."""
    text = clean(query)
    if not text:
        raise InputError("the query is empty: say what to look for, in words or identifiers")
    if len(text) > MAX_QUERY_CHARS:
        raise InputError(f"the query is {len(text):,} characters long; at most {MAX_QUERY_CHARS:,} are "
                         "accepted: keep the words that matter")
    return text


def check_name(name: object) -> str:
    """A symbol name, cleaned; refuses an empty (or whitespace-only) one and one over MAX_NAME_CHARS."""
    text = clean(name)
    if not text:
        raise InputError("the name is empty: give a name or part of one, e.g. 'rebuild_auth' or 'Session.get'")
    if len(text) > MAX_NAME_CHARS:
        raise InputError(f"the name is {len(text):,} characters long; at most {MAX_NAME_CHARS:,} are accepted")
    return text
