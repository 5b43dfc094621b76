"""The one base class of every error codesift raises on purpose.

``except CodesiftError`` catches them all; each also derives from the built-in exception its callers
expect (``ValueError`` for a bad argument, ``RuntimeError`` for a state problem, ...), and its message
says what to do.
"""

from __future__ import annotations


class CodesiftError(Exception):
    """Base class of codesift's own errors; the message is meant for the person or agent reading it."""


class ConfigError(CodesiftError, ValueError):
    """A setting has a bad value; the message names it."""
