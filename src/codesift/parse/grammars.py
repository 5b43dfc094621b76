"""Lazy, cached access to the tree-sitter grammars shipped as per-language wheels.

Every accessor returns ``None`` instead of raising when a grammar wheel is missing, was built
for an incompatible tree-sitter ABI, or a query does not compile against it: callers then fall
back to plain line windows. Why a grammar or its parser failed is kept (:func:`failure`), so the
indexer can say so instead of degrading silently (see :mod:`codesift.indexing.grammar_status`).
"""

from __future__ import annotations

import importlib
import threading
from functools import lru_cache

from tree_sitter import Language, Parser, Query

# language name -> (module, function returning the language pointer)
_GRAMMAR_FUNCS: dict[str, tuple[str, str]] = {
    "python": ("tree_sitter_python", "language"),
    "javascript": ("tree_sitter_javascript", "language"),
    "typescript": ("tree_sitter_typescript", "language_typescript"),
    "tsx": ("tree_sitter_typescript", "language_tsx"),
    "go": ("tree_sitter_go", "language"),
    "java": ("tree_sitter_java", "language"),
    "rust": ("tree_sitter_rust", "language"),
    "c": ("tree_sitter_c", "language"),
    "cpp": ("tree_sitter_cpp", "language"),
    "c_sharp": ("tree_sitter_c_sharp", "language"),
    "ruby": ("tree_sitter_ruby", "language"),
    "php": ("tree_sitter_php", "language_php"),
    "kotlin": ("tree_sitter_kotlin", "language"),
    "swift": ("tree_sitter_swift", "language"),
    "scala": ("tree_sitter_scala", "language"),
    "lua": ("tree_sitter_lua", "language"),
    "shell": ("tree_sitter_bash", "language"),
    "elixir": ("tree_sitter_elixir", "language"),
    "dart": ("tree_sitter_dart", "language"),
    "haskell": ("tree_sitter_haskell", "language"),
    "zig": ("tree_sitter_zig", "language"),
    "ocaml": ("tree_sitter_ocaml", "language_ocaml"),
    "ocaml_interface": ("tree_sitter_ocaml", "language_ocaml_interface"),
    "julia": ("tree_sitter_julia", "language"),
}

SUPPORTED: frozenset[str] = frozenset(_GRAMMAR_FUNCS)

# Parsers keep per-parse state, so each thread gets its own set.
_local = threading.local()
_errors: dict[str, str] = {}  # language -> why its grammar (or a parser for it) failed, in this process


def _load(name: str) -> Language:
    """Import the grammar wheel of ``name`` and build its ``Language``; raises on any failure."""
    module_name, func_name = _GRAMMAR_FUNCS[name]
    module = importlib.import_module(module_name)
    return Language(getattr(module, func_name)())


def source(name: str) -> tuple[str, str] | None:
    """(module, function) the grammar of ``name`` is loaded from, e.g. ``("tree_sitter_bash", "language")``."""
    return _GRAMMAR_FUNCS.get(name)


def failure(name: str) -> str | None:
    """Why the grammar of ``name`` failed to load in this process (``"ImportError: ..."``), or None."""
    return _errors.get(name)


def failures() -> dict[str, str]:
    """Every grammar failure seen in this process: language -> error text."""
    return dict(_errors)


def reset() -> None:
    """Forget loaded grammars, parsers and failures (tests; a grammar installed meanwhile)."""
    get_language.cache_clear()
    get_query.cache_clear()
    _errors.clear()
    _local.__dict__.pop("parsers", None)


@lru_cache(maxsize=None)
def get_language(name: str) -> Language | None:
    """The tree-sitter ``Language`` for ``name``, or None if it cannot be loaded (the reason is kept)."""
    if name not in _GRAMMAR_FUNCS:
        return None
    try:
        language = _load(name)
    except Exception as exc:  # missing wheel, ABI mismatch, ...: degrade to windows, but say why
        _errors[name] = f"{type(exc).__name__}: {exc}"[:500]
        return None
    _errors.pop(name, None)
    return language


def get_parser(name: str) -> Parser | None:
    """A (thread-local, reused) ``Parser`` for ``name``, or None."""
    parsers: dict[str, Parser | None] | None = getattr(_local, "parsers", None)
    if parsers is None:
        parsers = _local.parsers = {}
    if name not in parsers:
        language = get_language(name)
        try:
            parsers[name] = Parser(language) if language is not None else None
        except Exception as exc:  # e.g. a grammar built for another tree-sitter ABI
            _errors[name] = f"parser: {type(exc).__name__}: {exc}"[:500]
            parsers[name] = None
    return parsers[name]


def has_node_type(name: str, node_type: str) -> bool:
    """Whether the grammar for ``name`` defines the named node type ``node_type``."""
    language = get_language(name)
    if language is None:
        return False
    try:
        return language.id_for_node_kind(node_type, True) is not None
    except Exception:
        return False


@lru_cache(maxsize=None)
def get_query(name: str, source: str) -> Query | None:
    """A compiled (cached) query for language ``name``, or None if it does not compile."""
    language = get_language(name)
    if language is None:
        return None
    try:
        return Query(language, source)
    except Exception:
        return None
