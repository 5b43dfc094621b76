"""Source bytes as text (UTF-8, UTF-16 with a BOM, or Windows-1252 / Latin-1 where a file plainly is
that) and their content hash, for indexing and for live reads."""

from __future__ import annotations

import re

import xxhash

INVALID_UTF8_SHARE = 0.01  # above this share of replacement characters the file is flagged
LEGACY_RUN = 4  # longest run of non-ASCII bytes a Latin-1 text has (``Größe`` has 2); binary has longer
_HIGH_RUN = re.compile(rb"[\x80-\xff]+")
_UTF8_SEQUENCE = re.compile(rb"[\xc2-\xdf][\x80-\xbf]|[\xe0-\xef][\x80-\xbf]{2}|[\xf0-\xf4][\x80-\xbf]{3}")
_TEXT_EXTRA = frozenset("\xa0\xad")  # no-break space and soft hyphen: text, though not "printable"


def content_hash(data: bytes | str) -> str:
    if isinstance(data, str):
        data = data.encode("utf-8", errors="surrogatepass")
    return xxhash.xxh3_128_hexdigest(data)


def decode_source(data: bytes) -> tuple[str, str | None]:
    """Text of a file and an optional warning. UTF-16 with a BOM is honoured; then UTF-8; a file that is
    not UTF-8 but reads as Windows-1252 text (:func:`legacy_text`) is decoded as that, with no warning.
    Anything else is read as UTF-8 with U+FFFD for the bad bytes, flagged ``invalid_utf8`` when more than
    :data:`INVALID_UTF8_SHARE` of the text was replaced."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16"), None
        except UnicodeDecodeError:
            pass
    try:
        return data.decode("utf-8").removeprefix("\ufeff"), None
    except UnicodeDecodeError:
        pass
    legacy = legacy_text(data)
    if legacy is not None:
        return legacy, None
    text = data.decode("utf-8", errors="replace")
    if text.count("\ufffd") > max(1, len(text) * INVALID_UTF8_SHARE):
        return text, "invalid_utf8"
    return text.removeprefix("\ufeff"), None


def legacy_text(data: bytes) -> str | None:
    """``data`` (not valid UTF-8) as Windows-1252, a superset of Latin-1's printable characters, when it
    plainly is such text: no well-formed UTF-8 sequence in it (that is UTF-8 with a few bad bytes), no byte
    Windows-1252 leaves undefined, and every run of non-ASCII bytes short (at most :data:`LEGACY_RUN`)
    and printable (accented letters, quotes, dashes; not control characters). Else None."""
    if _UTF8_SEQUENCE.search(data):
        return None
    for run in _HIGH_RUN.finditer(data):
        chunk = run.group()
        if len(chunk) > LEGACY_RUN:
            return None
        try:
            chars = chunk.decode("cp1252")
        except UnicodeDecodeError:
            return None
        if not all(c.isprintable() or c in _TEXT_EXTRA for c in chars):
            return None
    return data.decode("cp1252")
