"""What a doc comment says of its definition in prose, for the one-line summaries results and outlines show.

Javadoc, KDoc, PHPDoc, JSDoc, YARD and Doxygen put a description first and block tags after it (``@param``,
``@return``, ``\\throws``): the tags describe parameters, and a summary made of them (``@return $this``,
``@internal``) tells an agent nothing. A deprecation tag is no loss: results carry it in their own field.
"""

from __future__ import annotations

import re

__all__ = ["description"]

# A block tag opens its line (after a comment's ``*``): a lower-case ``@word`` (an upper-case one, ``@Composable``,
# is an annotation named in prose), one of Doxygen's block commands after a backslash, or a C# XML doc element.
_BLOCK_TAG = re.compile(
    r"^\s*(?:\*\s*)?(?:@[a-z]\w*|\\(?:param|tparam|returns?|retval|throws?|exception|see|sa|note|warning"
    r"|deprecated|since|author|pre|post|internal)\b"
    r"|<(?:param|typeparam|returns|value|exception|remarks|example|seealso|permission|include)\b)"
)
# Inline markup, read as the words it shows: ``<see cref="T:Foo"/>`` and ``{@link Foo#bar label}`` as their name
# or label, ``<c>x</c>`` and ``{@code x}`` as their text.
_INLINE = (
    (re.compile(r'<(?:see|seealso)\s+(?:cref|langword|href)="(?:[A-Z]:)?([^"]*)"\s*/>'), r"\1"),
    (re.compile(r'<(?:paramref|typeparamref)\s+name="([^"]*)"\s*/>'), r"\1"),
    (re.compile(r"<(c|code|b|i|em|strong)>(.*?)</\1>", re.S), r"\2"),
    (re.compile(r"\{@(?:code|literal)\s+([^}]*)\}"), r"\1"),
)
# ``{@link Foo#bar(int, String) label}``: the label, else the reference (``#bar(...)`` reads ``bar(...)``)
_LINK = re.compile(r"\{@link(?:plain)?\s+#?([^\s}(]+(?:\([^)]*\))?)(?:\s+([^}]+))?\}")
_BRIEF = re.compile(r"^(\s*(?:\*\s*)?)[@\\]brief\s+")  # Doxygen's summary command: its text is the description
_INHERIT = re.compile(r"^\s*(?:\{@inheritDoc\}|<inheritdoc\b[^>]*/>)\s*$", re.I)  # "the overridden member's doc"


def description(doc: str) -> str:
    """``doc`` up to its first block tag, without a line that only inherits the parent's doc (``{@inheritDoc}``,
    ``<inheritdoc/>``), its inline markup read as the words it shows; ``""`` when nothing else is left."""
    kept: list[str] = []
    for line in doc.splitlines():
        brief = _BRIEF.match(line)
        if brief:
            line = brief.group(1) + line[brief.end():]
        elif _BLOCK_TAG.match(line):
            break
        if not _INHERIT.match(line):
            kept.append(line)
    text = "\n".join(kept).strip()
    for pattern, words in _INLINE:
        text = pattern.sub(words, text)
    return _LINK.sub(lambda m: (m.group(2) or m.group(1)).strip(), text)
