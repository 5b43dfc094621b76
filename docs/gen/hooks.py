"""MkDocs hook (``hooks:`` in mkdocs.yml): fills the generated reference into the pages at build time.

A page holds ``<!-- codesift:generated cli -->`` (or ``mcp``, ``config``) where its body goes; the body is
built by :mod:`reference` from the code as it is, so ``--help``, the MCP registry and the configuration
classes stay the single source.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import reference  # noqa: E402


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    return reference.expand(markdown)
