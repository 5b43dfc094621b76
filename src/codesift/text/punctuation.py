"""Index terms for punctuation written as a literal in code: ``'`'`` reads ``backtick``, ``","`` ``comma``.

A description says "split on commas", "strip the backticks", "stop at a double dash"; the code says
``strings.Split(s, ",")``, ``usage[i] == '`'``, ``arg == "--"``. The identifier tokenizer drops
punctuation, so without these names the words of the description meet nothing in the code that does it.
Only short literals made of punctuation and escapes count (``"\\n"``, ``"--"``, ``'{'``): a longer
string is text or a pattern, whose words the tokenizer already reads.
"""

from __future__ import annotations

import re

from codesift.text.tokens import stem

# One string or character literal on one line: a quote, then escapes or other characters, then the same
# quote. Matching whole literals left to right keeps the space between two literals (``"a", "b"``) from
# reading as one; the first branch captures a body of at most five marks, spaces, underscores or escapes.
_LITERAL = re.compile(r"""(["'`])(?:((?:\\[nrt0\\"'`]|(?!\1)[^\w\s\\]|[ _]){1,5})\1|(?:\\.|(?!\1)[^\\\n])*\1)""")
_ESCAPE = re.compile(r"\\.|.", re.S)

_NAMES: dict[str, tuple[str, ...]] = {
    "`": ("backtick", "backquote"),
    '"': ("quote",),
    "'": ("quote", "apostrophe"),
    "\\n": ("newline", "whitespace"),
    "\\r": ("carriage", "whitespace"),
    "\\t": ("tab", "whitespace"),
    " ": ("space", "whitespace"),
    "\\0": ("nul",),
    ",": ("comma",),
    ".": ("dot", "period"),
    ":": ("colon",),
    ";": ("semicolon",),
    "/": ("slash",),
    "\\\\": ("backslash",),
    "-": ("dash", "hyphen"),
    "_": ("underscore",),
    "=": ("equal",),
    "+": ("plus",),
    "*": ("star", "asterisk"),
    "?": ("question",),
    "!": ("exclamation", "bang"),
    "#": ("hash",),
    "$": ("dollar",),
    "%": ("percent",),
    "^": ("caret",),
    "&": ("ampersand",),
    "|": ("pipe",),
    "~": ("tilde",),
    "(": ("paren", "parenthesis"),
    ")": ("paren", "parenthesis"),
    "[": ("bracket",),
    "]": ("bracket",),
    "{": ("brace", "curly"),
    "}": ("brace", "curly"),
    "<": ("angle", "bracket"),
    ">": ("angle", "bracket"),
}
_ESCAPED_SELF = {'\\"': '"', "\\'": "'", "\\`": "`"}


_VERBS = frozenset({"quote", "backquote", "space"})  # "a quoted name", "space-separated"


def _forms(word: str) -> tuple[str, ...]:
    """The index terms of a name and of its plural (and for a verb its past) form (``quote``: quote,
    quot; ``dash``: dash, dashe): the light stemmer leaves some of them apart, and a query may use any."""
    if word.endswith("is"):
        plural = word[:-2] + "es"
    elif word.endswith(("sh", "ch", "x", "s")):
        plural = word + "es"
    else:
        plural = word + "s"
    forms = (word, plural, word + "d") if word in _VERBS else (word, plural)
    return tuple(dict.fromkeys(stem(w) for w in forms))


_TERMS: dict[str, str] = {unit: " ".join(t for w in names for t in _forms(w)) for unit, names in _NAMES.items()}
for _escaped, _plain in _ESCAPED_SELF.items():
    _TERMS[_escaped] = _TERMS[_plain]


def literal_terms(text: str) -> str:
    """The names of the punctuation in ``text``'s short punctuation-only literals, as index terms."""
    if "'" not in text and '"' not in text and "`" not in text:
        return ""
    out: list[str] = []
    for _, body in _LITERAL.findall(text):
        if body:
            units = _ESCAPE.findall(body)
            if all(u in _TERMS for u in units):
                out.extend(dict.fromkeys(_TERMS[u] for u in units))
    return " ".join(out)
