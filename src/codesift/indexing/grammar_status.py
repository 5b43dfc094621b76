"""Grammar load failures, made visible: a language whose tree-sitter grammar does not load is indexed as
plain line windows (no symbols, no references). The parse runs in worker processes, so each file's result
carries the failure back (``indexing.prepare.Prepared.grammar_error``); the indexer marks such files
(``files.warning = 'grammar_failed'``), keeps the error text per language in the meta key
``grammar_errors``, and re-parses those files once the grammar loads again. ``status`` shows them.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from codesift.languages import GRAMMAR_LANGUAGES

if TYPE_CHECKING:  # pragma: no cover
    from codesift.store.sqlite import MetaStore

GRAMMAR_FAILED = "grammar_failed"  # files.warning of a file windowed because its grammar did not load
META_KEY = "grammar_errors"


def grammar_failure(language: str) -> str | None:
    """Why ``language``'s grammar failed to load in this process, or None (also for languages without a
    grammar, and for one not tried yet). Read after parsing: the parse is what tries to load it."""
    if language not in GRAMMAR_LANGUAGES:
        return None
    from codesift.parse import grammars

    return grammars.failure(language)


def grammar_failures(store: "MetaStore") -> dict[str, dict[str, object]]:
    """language -> {error, files}: languages whose files the index holds as line windows because the
    grammar failed to load."""
    errors = json.loads(store.get_meta(META_KEY) or "{}")
    if not errors:
        return {}
    counts = store.grammar_failed_counts(GRAMMAR_FAILED)
    return {lang: {"error": err, "files": counts[lang]} for lang, err in sorted(errors.items()) if counts.get(lang)}


def recheck(store: "MetaStore") -> list[str]:
    """Mark the windowed files of each language whose grammar loads now as changed (the next parse
    redoes them); return those languages."""
    failed = json.loads(store.get_meta(META_KEY) or "{}")
    if not failed:
        return []
    from codesift.parse import grammars

    healed = [lang for lang in failed if grammars.get_parser(lang) is not None]
    for lang in healed:
        store.mark_language_changed(lang, GRAMMAR_FAILED)
    if healed:
        store.commit()
    return healed


def save(store: "MetaStore", seen: dict[str, str]) -> None:
    """Keep why each grammar failed (``seen``: this update's errors) for as long as files it failed on
    are in the index (the caller commits)."""
    old = json.loads(store.get_meta(META_KEY) or "{}")
    langs = list(store.grammar_failed_counts(GRAMMAR_FAILED))
    errors = {lang: seen.get(lang) or old.get(lang) or "the grammar did not load" for lang in langs}
    if errors or old:
        store.set_meta(META_KEY, json.dumps(errors, sort_keys=True))
