"""What a reference table holds (:class:`RefSpec`).

Each table is a tree-sitter query whose capture names say what an identifier node is at that
spot (the vocabulary is described in ``references.py``), plus the node types the driver needs to
find member names, walk assignment targets and compute qualifiers.

Query performance rule: a pattern that constrains a *later* child of a node which nests on its
first child (``a.b.c.d``: ``attribute`` nests on ``object``) keeps one pending state per
ancestor while the whole chain is walked, which is quadratic on long chains.  Member accesses are
therefore captured as whole nodes (``@call.member``) and their name child is looked up in Python
through ``RefSpec.members``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

# Special ``members`` values: the member name is the node's first / last named child.
FIRST_CHILD = "<first>"
LAST_CHILD = "<last>"


@dataclass(frozen=True)
class RefSpec:
    """How references look in one grammar."""

    # Query blocks; a block that does not compile against the installed grammar is dropped alone.
    query: tuple[str, ...]
    # Member-access node type -> field (or FIRST_CHILD / LAST_CHILD) holding the member's name.
    # Used for ``@<role>.member`` captures and for the member written by ``obj.name = ...``.
    members: Mapping[str, str] = field(default_factory=dict)
    # Walking an ``@store`` target: identifier node types that get bound (skipped) ...
    store_names: frozenset[str] = frozenset({"identifier"})
    # ... node types whose named children are all walked (destructuring patterns) ...
    store_containers: frozenset[str] = frozenset()
    # ... and wrappers whose binding part is one field (``[a = 1] = ...``: ``left``).
    store_fields: Mapping[str, str] = field(default_factory=dict)
    # Parents (member accesses, scoped / dotted paths) in which a name's qualifier is the text
    # of the parent before the name, separator removed: ``a.b`` in ``a.b.c``, ``std::io``.
    qualified_parents: frozenset[str] = frozenset()
    # Nodes wrapping a name inside its member access or path (C++ ``ns::f<T>``: template_function).
    member_wrappers: frozenset[str] = frozenset()
    # Import statement node type -> field holding the module: an imported name's qualifier.
    import_sources: Mapping[str, str] = field(default_factory=dict)
    # Identifiers are NFKC-normalised by the language (Python: ``ｗｉｄｔｈ`` is ``width``).
    nfkc: bool = False
    # Elements of a callable pair (PHP ``[$this, 'method']``): a call named by a string in one of them takes the
    # element before it as its receiver (``$this``; ``Foo`` for ``Foo::class``).
    callable_pairs: frozenset[str] = frozenset()
