"""The command line: ``codesift`` (:mod:`codesift.cli.app`) and one module per command group, over
:class:`codesift.Index`."""

from codesift.cli.app import main

__all__ = ["main"]
