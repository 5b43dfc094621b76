"""What a doc comment says of its definition in prose, for the one-line summaries results and outlines show.

Javadoc, KDoc, PHPDoc, JSDoc, YARD and Doxygen put a description first and block tags after it (``@param``,
``@return``, ``\\throws``): the tags describe parameters, and a summary made of them (``@return $this``,
``@internal``) tells an agent nothing. A deprecation tag is no loss: results carry it in their own field.
"""

from __future__ import annotations

import re

__all__ = ["description"]

# A block tag opens its line (after a comment's ``*``): a lower-case ``@word`` (an upper-case one, ``@Composable``,
# is an annotation named in prose), or one of Doxygen's block commands after a backslash.
_BLOCK_TAG = re.compile(
    r"^\s*(?:\*\s*)?(?:@[a-z]\w*|\\(?:param|tparam|returns?|retval|throws?|exception|see|sa|note|warning"
    r"|deprecated|since|author|pre|post|internal)\b)"
)
_BRIEF = re.compile(r"^(\s*(?:\*\s*)?)[@\\]brief\s+")  # Doxygen's summary command: its text is the description
_INHERIT = re.compile(r"^\s*(?:\{@inheritDoc\}|<inheritdoc\b[^>]*/>)\s*$", re.I)  # "the overridden member's doc"


def description(doc: str) -> str:
    """``doc`` up to its first block tag, without a line that only inherits the parent's doc (``{@inheritDoc}``,
    ``<inheritdoc/>``); ``""`` when nothing else is left."""
    kept: list[str] = []
    for line in doc.splitlines():
        brief = _BRIEF.match(line)
        if brief:
            line = brief.group(1) + line[brief.end():]
        elif _BLOCK_TAG.match(line):
            break
        if not _INHERIT.match(line):
            kept.append(line)
    return "\n".join(kept).strip()
