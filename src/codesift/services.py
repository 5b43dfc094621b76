"""Several services in one index: ``[[services]]`` in ``codesift.toml`` and where their files are read.

Each service's files are stored under the path prefix ``<name>/``, so every tool, filter and the Qdrant
payload see them as that service. A service is a local folder (``path``) or a commit of a local git
repository (``git`` + ``ref``), read without a checkout (``codesift.gitblobs``).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from .config import ConfigError

if TYPE_CHECKING:  # pragma: no cover
    from .config import Config
    from .search import Filters
    from .store.sqlite import MetaStore

SERVICE_KEYS = ("name", "path", "git", "ref", "include", "exclude")
_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9._-]*")
MODE_KEY = "services_index"  # meta: "1" once the index holds the configured services (``index --all``)
META_PREFIX = "service:"  # meta per service: JSON {kind, source, commit, settings}


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
    from .include import pattern_errors

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


def services_active(store: "MetaStore", specs: tuple[ServiceSpec, ...]) -> bool:
    """Whether the index holds the configured services (built by ``index --all``)."""
    return bool(specs) and store.get_meta(MODE_KEY, "0") == "1"


def recorded(store: "MetaStore", name: str) -> dict[str, object]:
    """What the last ``index --all`` recorded about service ``name`` ({} when nothing)."""
    raw = store.get_meta(META_PREFIX + name)
    try:
        return json.loads(raw) if raw else {}
    except ValueError:
        return {}


@dataclass(frozen=True, slots=True)
class Location:
    """Where an indexed path's bytes are: a live file (``file``) or a blob (``repo`` at ``commit``)."""

    file: str | None = None
    repo: str | None = None
    commit: str | None = None
    inner: str = ""
    service: str | None = None


class Sources:
    """Maps an indexed path to its source: under the root, in a path service's folder, or a git blob."""

    def __init__(self, root: Path, specs: tuple[ServiceSpec, ...], store: "MetaStore") -> None:
        self.root, self.store = root, store
        self.specs = {s.name: s for s in specs}

    def active(self) -> bool:
        return services_active(self.store, tuple(self.specs.values()))

    def locate(self, rel: str) -> Location:
        """The source of the indexed path ``rel`` (relative to the root, ``/``-separated)."""
        name, _, inner = rel.partition("/")
        spec = self.specs.get(name) if inner and self.active() else None
        if spec is None:
            return Location(file=str(self.root / rel))
        if spec.folder is not None:
            return Location(file=str(spec.folder / inner), inner=inner, service=name)
        commit = str(recorded(self.store, name).get("commit") or "")
        if not commit:
            raise OSError(f"service {name!r} has no indexed commit: run `codesift index --all`")
        return Location(repo=str(spec.repo), commit=commit, inner=inner, service=name)

    def read(self, rel: str) -> bytes:
        """The bytes of ``rel`` as the index sees them now; raises OSError."""
        from .gitblobs import read_blob

        loc = self.locate(rel)
        if loc.file is not None:
            with open(loc.file, "rb") as fh:
                return fh.read()
        assert loc.repo is not None and loc.commit is not None
        return read_blob(loc.repo, loc.commit, loc.inner)


def services_to_update(config: "Config", store: "MetaStore", requested: bool) -> tuple[ServiceSpec, ...] | None:
    """The services an update indexes: all configured ones with ``index --all`` or once an index was so
    built (a search's refresh must not drop them); None: the root's tree, as without services."""
    if requested and not config.services:
        raise ServiceConfigError("index --all needs [[services]] tables in codesift.toml (name, path or git + ref)")
    if requested or services_active(store, config.services):
        return config.services
    if store.get_meta(MODE_KEY, "0") == "1":  # the list was emptied: back to indexing the tree
        store.set_meta(MODE_KEY, "0")
    return None


def check_path_in_services(filters: "Filters") -> None:
    """A plain path prefix must lie in one of the services filtered on; raises FilterError otherwise."""
    from .filters import FilterError, under
    from .store.keyword import normalise_path_filter

    path = normalise_path_filter(filters.path or "")
    if filters.services and path and not any(c in path for c in "*?[") and not under(path, filters.services):
        raise FilterError(f"path and service disagree: path {filters.path!r} is not in service "
                          f"{', '.join(filters.services)} (paths are relative to the root: <service>/...); "
                          "give one or the other")


def service_sources(root: Path, specs: tuple[ServiceSpec, ...], store: "MetaStore") -> list[dict[str, object]]:
    """``list_sources`` for configured services: name, files, symbols, languages, kind, source and the
    indexed commit (a git service's, or the checkout's when a folder lies in a git work tree)."""
    counts = {row[0]: row for row in store.service_counts()}
    languages = store.service_languages()
    out: list[dict[str, object]] = []
    for spec in specs:
        rec = recorded(store, spec.name)
        _, files, symbols = counts.get(spec.name, (spec.name, 0, 0))
        out.append({"root": str(root), "service": spec.name, "name": spec.name, "kind": spec.kind,
                    "source": str(spec.repo or spec.folder), "ref": spec.ref if spec.repo else None,
                    "files": files, "symbols": symbols, "languages": languages.get(spec.name, {}),
                    "commit": rec.get("commit")})
    return out
