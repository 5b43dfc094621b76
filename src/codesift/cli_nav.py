"""CLI commands of the nav tools, registered on :data:`codesift.cli.main` (imported at the end of cli.py)."""

from __future__ import annotations

from .cli import main  # noqa: F401 - the group these commands join
