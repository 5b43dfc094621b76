"""Source bytes as text (UTF-8, or UTF-16 with a BOM) and their content hash, for indexing and for live reads."""

from __future__ import annotations

import xxhash

INVALID_UTF8_SHARE = 0.01  # above this share of replacement characters the file is flagged


def content_hash(data: bytes | str) -> str:
    if isinstance(data, str):
        data = data.encode("utf-8", errors="surrogatepass")
    return xxhash.xxh3_128_hexdigest(data)


def decode_source(data: bytes) -> tuple[str, str | None]:
    """Text of a file and an optional warning; UTF-16 with a BOM is honoured."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16"), None
        except UnicodeDecodeError:
            pass
    text = data.decode("utf-8", errors="replace")
    if text.count("\ufffd") > max(1, len(text) * INVALID_UTF8_SHARE):
        return text, "invalid_utf8"
    return text.removeprefix("\ufeff"), None
