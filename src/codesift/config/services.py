"""Several services in one index: ``[[services]]`` in ``codesift.toml`` and where their files are read.

Each service's files are stored under the path prefix ``<name>/``, so every tool, filter and the Qdrant
payload see them as that service. A service is a local folder (``path``) or a commit of a local git
repository (``git`` + ``ref``), read without a checkout (``codesift.indexing.gitblobs``).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from codesift.errors import ConfigError

SERVICE_KEYS = ("name", "path", "git", "ref", "include", "exclude")
_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9._-]*")


class ServiceConfigError(ConfigError):
    """A ``[[services]]`` entry is malformed; the message names the entry and the key."""


@dataclass(frozen=True, slots=True)
class ServiceSpec:
    """One configured service. ``folder`` for a path service; ``repo`` and ``ref`` for a git one."""

    name: str
    folder: Path | None = None
    repo: Path | None = None
    ref: str = "HEAD"
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()

    @property
    def kind(self) -> str:
        return "git" if self.repo is not None else "path"

    @property
    def prefix(self) -> str:
        return self.name + "/"

    def settings_key(self, max_file_size: int) -> str:
        """What, besides the commit, decides a git service's file list (a change lists it again)."""
        return json.dumps([str(self.repo or self.folder), self.include, self.exclude, max_file_size])


def parse_services(value: object, source: object, root: Path) -> tuple[ServiceSpec, ...]:
    """``[[services]]`` tables as :class:`ServiceSpec`; raises :class:`ServiceConfigError`."""
    from codesift.config.include import pattern_errors

    if not isinstance(value, list) or not all(isinstance(t, dict) for t in value):
        raise ServiceConfigError(f"{source}: services must be [[services]] tables (name, path or git + ref)")
    out: list[ServiceSpec] = []
    for n, table in enumerate(value, 1):
        where = f"{source}: [[services]] #{n}"
        unknown = sorted(set(table) - set(SERVICE_KEYS))
        if unknown:
            raise ServiceConfigError(f"{where}: unknown key {unknown[0]!r} (known: {', '.join(SERVICE_KEYS)})")
        name = table.get("name")
        if not isinstance(name, str) or not name.strip():
            raise ServiceConfigError(f"{where}: missing name (a folder-like name such as 'api')")
        where = f"{source}: service {name!r}"
        if not _NAME.fullmatch(name) or name == ".codesift":
            raise ServiceConfigError(f"{where}: a name is letters, digits, '.', '_' or '-' (no '/'), "
                                     "not starting with '.' or '-'")
        if any(s.name == name for s in out):
            raise ServiceConfigError(f"{where}: duplicate name; each service needs its own")
        path, git, ref = table.get("path"), table.get("git"), table.get("ref")
        if path is not None and git is not None:
            raise ServiceConfigError(f"{where}: give either path (a folder) or git (a repository) + ref, not both")
        if path is None and git is None:
            raise ServiceConfigError(f"{where}: needs path (a folder) or git (a repository) + ref")
        for key, given in (("path", path), ("git", git), ("ref", ref)):
            if given is not None and (not isinstance(given, str) or not given.strip()):
                raise ServiceConfigError(f"{where}: {key} must be a non-empty string")
        if ref is not None and git is None:
            raise ServiceConfigError(f"{where}: ref goes with git (a path service is read as it is on disk)")
        if isinstance(ref, str) and ref.startswith("-"):
            raise ServiceConfigError(f"{where}: invalid git ref {ref!r}")
        patterns: dict[str, tuple[str, ...]] = {}
        for key in ("include", "exclude"):
            given = table.get(key, [])
            given = [given] if isinstance(given, str) else given
            errors = pattern_errors(given)
            if errors:
                raise ServiceConfigError(f"{where}: " + "; ".join(e.replace("include", key, 1) for e in errors))
            patterns[key] = tuple(given)
        place = (root / Path(str(path or git)).expanduser()).resolve()
        out.append(ServiceSpec(name, folder=place if path is not None else None,
                               repo=place if git is not None else None, ref=str(ref or "HEAD"),
                               include=patterns["include"], exclude=patterns["exclude"]))
    return tuple(out)
