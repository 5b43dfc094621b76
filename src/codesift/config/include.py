"""``include`` patterns (``codesift.toml``): files to index although git or a default rule leaves them out.

The patterns are gitignore-style, relative to the indexed root: ``vendor/acme/``, ``/generated/**/*.py``,
``*.po``. A file that matches is indexed even when a ``.gitignore`` ignores it or it lies in a vendored
folder (``node_modules``, ``vendor``, ``build``, …) or its name marks it generated, minified or a lockfile.
``ignore`` and ``.codesiftignore`` still win (they are the user's own exclusions), and so do the checks on
content: binaries and files over ``max_file_size`` stay out.

To bring files back from an ignored folder, discovery has to look inside it: :meth:`IncludeRules.may_contain`
says which folders can hold a match, from the literal start of each pattern. A pattern with no ``/`` before
its end (``*.po``) can match at any depth, so every ignored folder is looked into; anchor patterns
(``/vendor/acme/``) to keep that walk small.
"""

from __future__ import annotations

from collections.abc import Sequence

from pathspec import GitIgnoreSpec

__all__ = ["IncludeRules", "pattern_errors"]

_GLOB_CHARS = "*?[\\"


def pattern_errors(patterns: object) -> list[str]:
    """What is wrong with a configured ``include`` value (an empty list when nothing is)."""
    if isinstance(patterns, str) or not isinstance(patterns, (list, tuple)):
        return [f"include must be a list of gitignore-style patterns, got {patterns!r}"]
    errors = []
    for p in patterns:
        if not isinstance(p, str):
            errors.append(f"include pattern {p!r} is not a string")
        elif not p.strip() or p.strip() in ("!", "/"):
            errors.append(f"include pattern {p!r} names nothing")
        elif p.lstrip().startswith("#"):
            errors.append(f"include pattern {p!r} is a comment in gitignore syntax")
        elif "\0" in p or "\n" in p:
            errors.append(f"include pattern {p!r} holds a NUL or a line break")
        else:
            try:
                GitIgnoreSpec.from_lines([p])
            except ValueError as exc:
                errors.append(f"include pattern {p!r} is not a valid gitignore pattern: {exc}")
    return errors


def _literal_dir(pattern: str) -> str | None:
    """The folder a pattern is confined to ("" = the root); None when it can match at any depth."""
    body = pattern.strip()
    if "/" not in body.rstrip("/"):
        return None  # `*.po`, `generated/`: gitignore matches these at any depth
    body = body.lstrip("/")
    cut = min((i for i, ch in enumerate(body) if ch in _GLOB_CHARS), default=len(body))
    literal = body[:cut]
    if cut == len(body):
        return literal.rstrip("/") + "/"  # `vendor/acme/` or `vendor/x.py`: walk down to it
    return literal[: literal.rfind("/") + 1]  # `vendor/a*/x.py`: the folder above the first glob


class IncludeRules:
    """Compiled ``include`` patterns; falsy when there are none."""

    def __init__(self, patterns: Sequence[str] = ()) -> None:
        self.patterns = tuple(p for p in patterns if p.strip())
        self.spec = GitIgnoreSpec.from_lines(self.patterns) if self.patterns else None
        dirs = [_literal_dir(p) for p in self.patterns if not p.lstrip().startswith("!")]
        self._anywhere = any(d is None for d in dirs)
        self._dirs = tuple(d for d in dirs if d is not None)

    def __bool__(self) -> bool:
        return self.spec is not None

    def matches(self, rel: str) -> bool:
        """Whether the file ``rel`` (relative to the root, "/"-separated) is asked for."""
        return self.spec is not None and self.spec.match_file(rel)

    def may_contain(self, reldir: str) -> bool:
        """Whether the folder ``reldir`` ("a/b/") can hold a file some pattern asks for."""
        if self.spec is None:
            return False
        if self._anywhere:
            return True
        reldir = reldir.rstrip("/") + "/"
        return any(d.startswith(reldir) or reldir.startswith(d) for d in self._dirs)
