"""Per-language tables for :mod:`codesift.parse.references`: how references look in each grammar
(:class:`.spec.RefSpec`), the tables themselves (:mod:`.dynamic`, :mod:`.static`) and the registry by language."""

from codesift.parse.ref_tables.dynamic import JAVASCRIPT, PHP, PYTHON, RUBY, TSX, TYPESCRIPT
from codesift.parse.ref_tables.light import DART, ELIXIR, HASKELL, JULIA, LUA, OCAML, SCALA, SHELL, SWIFT, ZIG
from codesift.parse.ref_tables.spec import FIRST_CHILD, LAST_CHILD, RefSpec
from codesift.parse.ref_tables.static import C, CPP, CSHARP, GO, JAVA, KOTLIN, RUST

REF_SPECS: dict[str, RefSpec] = {
    "python": PYTHON,
    "javascript": JAVASCRIPT,
    "typescript": TYPESCRIPT,
    "tsx": TSX,
    "go": GO,
    "java": JAVA,
    "rust": RUST,
    "c": C,
    "cpp": CPP,
    "c_sharp": CSHARP,
    "ruby": RUBY,
    "php": PHP,
    "kotlin": KOTLIN,
    "swift": SWIFT,
    "scala": SCALA,
    "lua": LUA,
    "shell": SHELL,
    "elixir": ELIXIR,
    "dart": DART,
    "haskell": HASKELL,
    "zig": ZIG,
    "ocaml": OCAML,
    "ocaml_interface": OCAML,
    "julia": JULIA,
}

__all__ = ["FIRST_CHILD", "LAST_CHILD", "REF_SPECS", "RefSpec"]
