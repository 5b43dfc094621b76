"""MCP tools of the graph tools; :func:`build_server` adds what :func:`tools` returns."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .mcp_server import IndexService


def tools(svc: "IndexService") -> dict[Callable[..., Any], str]:
    """Tool function → description, bound to svc."""
    return {}
