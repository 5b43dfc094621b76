"""The data of the MCP prompts service_overview and system_design."""

from __future__ import annotations

from typing import NotRequired, TypedDict

from codesift.tools.payloads.symbols import LocalSource


# -- the prompts' data --------------------------------------------------------------------------------
class EntryPoint(TypedDict):
    path: str
    line: int
    name: str
    kind: str  # a definition's kind, module (a __main__ block) or file
    why: str
    signature: NotRequired[str]  # definitions and __main__ blocks


class Route(TypedDict):
    route: str
    path: str
    line: int
    handler: str


class ModuleSymbol(TypedDict):
    name: str
    kind: str
    line: int


class MainModule(TypedDict):
    path: str
    symbols: list[ModuleSymbol]


class ServiceOverview(TypedDict):
    """What the service_overview prompt shows of the tree, or of one folder."""

    root: str
    scope: str | None
    files: int
    languages: dict[str, int]
    sources: list[LocalSource]  # the whole tree only
    entry_points: list[EntryPoint]
    main_modules: list[MainModule]
    routes: list[Route]


class ServiceDesign(TypedDict, total=False):
    """system_design: one top-level folder (or configured service): its list_sources entry (a
    :class:`FolderSource` or :class:`ServiceSource`) with what the prompt adds."""

    root: str
    service: str
    name: str
    kind: str
    source: str
    ref: str | None
    files: int
    symbols: int
    languages: dict[str, int]  # a service's key, recounted here for every folder
    commit: str | None
    main_modules: list[MainModule]
    entry_points: list[EntryPoint]
    routes: list[Route]


class SystemDesign(TypedDict):
    """What the system_design prompt shows: each top-level folder."""

    root: str
    languages: dict[str, int]
    services: list[ServiceDesign]
    more_services: list[str]  # the folders past the first twelve, by name
