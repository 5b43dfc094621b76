"""What the dense model reads for a chunk and for a query.

The local model reads 128 word pieces (``embed.local.MAX_TOKENS``): a preamble naming the symbol, then
some ten lines of code. Past that, a long function used to be embedded as its first lines alone; 43–46 %
of the bench corpora's chunks are longer than the window and more than half of their word pieces were
never read. A long chunk is now embedded as its preamble, the first ``HEAD_CHARS`` characters of its doc
and code (whole lines), then the *vocabulary of the rest*: each word of the remaining code, comments and
strings once, in order of first use, without the languages' keywords and the words the head already has.
The model reads what the whole function talks about instead of its first lines (measured, and how
``HEAD_CHARS`` was chosen: docs/design-decisions.md#long-chunk-text).
"""

from __future__ import annotations

import re

from codesift.datatypes import Chunk
from codesift.text.tokens import words_for_model

# Characters of (camel-split) text the model's window holds: ~128 word pieces at the 3.0–3.5 characters
# a piece measured on the bench corpora's code. A shorter text reaches the model as it is.
WINDOW_CHARS = 400
# Doc and code kept verbatim after the preamble, cut back to a line end.
HEAD_CHARS = 120
# Further window vectors of a long chunk (window_texts); 0 embeds none.
MAX_WINDOWS = 6

_WORD = re.compile(r"[A-Za-z][a-z]{2,}|[A-Z]{2,}")
# Keywords and builtins of the indexed languages: every body repeats them, they say nothing of this one.
_KEYWORDS = frozenset("""
func return nil err if else for var const type struct true false string int self this new public private
protected static void let fn mut pub impl def class import package final none null undefined break
continue switch case default range len make append bool byte interface map the and not with from elif try
except raise throw throws catch async await function export require module use crate match while
""".split())


def embed_text(chunk: Chunk, path: str) -> str:
    """What the dense model reads: a preamble naming the symbol, then its docstring and code, with
    camelCase split into words (:func:`~codesift.text.tokens.words_for_model`); a text longer than the
    model's window keeps its head and then the vocabulary of the rest (:func:`vocabulary_tail`)."""
    preamble, body = _preamble_and_body(chunk, path)
    text = preamble + body
    if len(text) <= WINDOW_CHARS:
        return text
    return vocabulary_tail(text, len(preamble) + HEAD_CHARS)


def _preamble_and_body(chunk: Chunk, path: str) -> tuple[str, str]:
    """The preamble naming the symbol, and its docstring (unless the code holds it) and code, split for the model."""
    preamble = words_for_model(f"{chunk.language} {chunk.kind} {chunk.qualified_name}\n{path}\n")
    doc = chunk.docstring if chunk.docstring and chunk.docstring not in chunk.text else ""
    return preamble, words_for_model((doc + "\n" if doc else "") + chunk.text)


def vocabulary_tail(text: str, head_chars: int) -> str:
    """``text`` cut at the last line end before ``head_chars``, followed by one line of the words of the
    rest: each once, in order of first use, leaving out keywords and words the head already has."""
    cut = text.rfind("\n", 0, head_chars)
    cut = cut if cut > 0 else head_chars
    head, rest = text[:cut], text[cut:]
    seen = {w.lower() for w in _WORD.findall(head)} | _KEYWORDS
    words: dict[str, None] = {}
    for word in _WORD.findall(rest):
        word = word.lower()
        if word not in seen:
            words[word] = None
    return head + "\n" + " ".join(words)


def window_texts(chunk: Chunk, path: str, limit: int = MAX_WINDOWS) -> list[str]:
    """The further texts the dense model reads of a chunk longer than its window: the code past the first
    window, cut at line ends into window-sized pieces, each behind the chunk's preamble; at most ``limit``,
    evenly spaced over the chunk. Empty for a chunk the model reads whole.

    :func:`embed_text` gives a long function one vector of its head and vocabulary; a query that describes a
    step deep inside it (``Command.run``'s default command, its before hooks) meets that step's window, and
    the chunk's vector score is the best of its vectors (``store.windows.WindowedVectors``)."""
    preamble, body = _preamble_and_body(chunk, path)
    room = WINDOW_CHARS - len(preamble)
    if limit <= 0 or len(preamble) + len(body) <= WINDOW_CHARS or room < WINDOW_CHARS // 4:
        return []
    pieces: list[str] = []
    piece = ""
    for line in body.splitlines():
        if piece and len(piece) + len(line) + 1 > room:
            pieces.append(piece)
            piece = ""
        piece += line[:room] + "\n"
    if piece.strip():
        pieces.append(piece)
    pieces = [p for p in pieces[1:] if p.strip()]  # the first is the head embed_text already reads
    if len(pieces) > limit:
        step = (len(pieces) - 1) / (limit - 1) if limit > 1 else 0.0
        pieces = [pieces[round(i * step)] for i in range(limit)]
    return [preamble + p for p in pieces]


def query_embed_text(preamble: str, query: str) -> str:
    """What the dense model reads for a search: the preamble (``"python function: "``) and the query,
    its identifiers split like the documents'."""
    return preamble + words_for_model(query)
