"""Rust macro arguments read as code: ``assert_eq!(it.group_by(f).count(), 2)`` calls ``group_by`` on ``it``.

tree-sitter leaves a macro's arguments as a flat token tree, so every name in ``assert_eq!(…)``,
``println!(…)``, ``vec![…]`` or a ``quickcheck! { fn prop(…) {…} }`` block would be a bare reference: no
call, no receiver, and usages would pin ``x.len()`` on whatever free function is named ``len``. Most macro
arguments are ordinary expressions or items, so their text is parsed again on its own — as items when it
starts like one, as a block's statements inside braces, else as a parenthesised list of expressions — and
its references replace the token tree's. Text that is no valid Rust (a DSL) still yields its names, as the
error-tolerant parse leaves them.
"""

from __future__ import annotations

import re

from tree_sitter import Node

__all__ = ["MAX_DEPTH", "macro_source"]

MAX_DEPTH = 3  # macro calls nested in macro arguments (``vec![format!(…)]``) read as code this deep
MAX_BYTES = 200_000  # a larger token tree (generated tables) keeps its plain references
_ITEM = re.compile(
    rb"\s*(?:#!?\[|(?:pub(?:\s*\([^)]*\))?\s+)?(?:(?:async|unsafe|const|extern)\s+)*"
    rb"(?:fn|struct|enum|union|impl|trait|mod|use|static|const|type)\b)"
)
# Only text that calls, accesses a member, names a path or holds a block says more parsed than as tokens.
_CODE = re.compile(rb"[A-Za-z_]\w*\s*(?:[.(!{]|::)")
_WRAP_ITEMS = (b"", b"")
_WRAP_BLOCK = (b"fn __(){", b"\n}")  # the function's name is a definition, never a reference
_WRAP_LIST = (b"fn __(){(", b"\n);}")


def _wrapping(opener: bytes, inner: bytes) -> tuple[bytes, bytes]:
    if _ITEM.match(inner):
        return _WRAP_ITEMS
    return _WRAP_BLOCK if opener == b"{" else _WRAP_LIST


def macro_source(token_tree: Node, src: bytes, depth: int) -> tuple[bytes, int] | None:
    """The text of a macro invocation's ``token_tree`` wrapped to parse as Rust code, and the number of lines
    before it in ``src`` (the wrapper adds none); ``None`` where it is not parsed again (nested ``depth``
    levels deep already, or too large) and the token tree's plain references stand."""
    if depth >= MAX_DEPTH or token_tree.end_byte - token_tree.start_byte > MAX_BYTES:
        return None
    inner = src[token_tree.start_byte + 1 : token_tree.end_byte - 1]
    if not _CODE.search(inner):
        return None
    prefix, suffix = _wrapping(src[token_tree.start_byte : token_tree.start_byte + 1], inner)
    return prefix + inner + suffix, token_tree.start_point[0]
