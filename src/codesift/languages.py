"""What a file is from its path alone: its language (if any), and whether it is a test or an example."""

from __future__ import annotations

import os
import re
from functools import lru_cache

# Languages with a tree-sitter grammar: symbols are extracted, not just windows.
GRAMMAR_LANGUAGES: frozenset[str] = frozenset(
    {"python", "javascript", "typescript", "tsx", "go", "java", "rust", "c", "cpp", "c_sharp",
     "ruby", "php", "kotlin", "swift", "scala", "lua", "shell", "elixir", "dart", "haskell", "zig", "ocaml",
     "ocaml_interface", "julia"}
)  # fmt: skip

# Programming languages (the grammar ones and those indexed as windows), as opposed to markup, data,
# configuration and build files: what can hold a program's entry point (tools.prompts).
CODE_LANGUAGES: frozenset[str] = GRAMMAR_LANGUAGES | frozenset(
    {"swift", "scala", "lua", "perl", "r", "julia", "dart", "elixir", "erlang", "haskell", "ocaml", "clojure",
     "groovy", "objective_c", "zig", "nim", "fsharp", "vue", "svelte", "elm", "verilog", "vhdl", "assembly",
     "solidity", "powershell", "batch", "shell"}
)  # fmt: skip

# Continuous-integration configuration: folders and files CI services read (scripts in them included).
CI_DIRS = frozenset({".github", ".gitlab", ".circleci", ".buildkite", ".woodpecker", ".azure-pipelines"})
CI_FILES = frozenset({".gitlab-ci.yml", ".travis.yml", "azure-pipelines.yml", ".drone.yml", "jenkinsfile",
                      "bitbucket-pipelines.yml", "appveyor.yml", ".appveyor.yml", "cloudbuild.yaml"})

EXTENSIONS: dict[str, str] = {
    # grammar languages
    ".py": "python", ".pyi": "python", ".pyw": "python",
    ".js": "javascript", ".mjs": "javascript", ".cjs": "javascript", ".jsx": "javascript",
    ".ts": "typescript", ".mts": "typescript", ".cts": "typescript",
    ".tsx": "tsx",
    ".go": "go",
    ".java": "java",
    ".rs": "rust",
    ".c": "c", ".h": "c",
    ".cc": "cpp", ".cpp": "cpp", ".cxx": "cpp", ".c++": "cpp", ".hpp": "cpp", ".hh": "cpp",
    ".hxx": "cpp", ".h++": "cpp", ".ipp": "cpp", ".tpp": "cpp", ".inl": "cpp", ".cu": "cpp",
    ".cuh": "cpp",
    ".cs": "c_sharp",
    ".rb": "ruby", ".rake": "ruby", ".gemspec": "ruby", ".ru": "ruby",
    ".php": "php", ".phtml": "php", ".php5": "php", ".php7": "php", ".phps": "php",
    ".kt": "kotlin", ".kts": "kotlin",
    # other source languages: indexed as line windows
    ".swift": "swift", ".scala": "scala", ".sc": "scala", ".lua": "lua", ".pl": "perl",
    ".pm": "perl", ".r": "r", ".jl": "julia", ".dart": "dart", ".ex": "elixir", ".exs": "elixir",
    ".erl": "erlang", ".hrl": "erlang", ".hs": "haskell", ".ml": "ocaml", ".mli": "ocaml_interface",
    ".clj": "clojure", ".cljs": "clojure", ".groovy": "groovy", ".gradle": "groovy",
    ".m": "objective_c", ".mm": "objective_c", ".zig": "zig", ".nim": "nim", ".fs": "fsharp",
    ".fsx": "fsharp", ".vue": "vue", ".svelte": "svelte", ".elm": "elm", ".v": "verilog",
    ".sv": "verilog", ".vhd": "vhdl", ".asm": "assembly", ".s": "assembly", ".proto": "protobuf",
    ".graphql": "graphql", ".gql": "graphql", ".tf": "terraform", ".hcl": "terraform",
    ".sol": "solidity", ".ps1": "powershell", ".psm1": "powershell", ".bat": "batch",
    ".cmd": "batch", ".cmake": "cmake", ".mk": "makefile", ".nix": "nix",
    # text kinds
    ".md": "markdown", ".markdown": "markdown", ".mdx": "markdown", ".mkd": "markdown",
    ".rst": "rst", ".adoc": "asciidoc", ".txt": "text", ".tex": "latex",
    ".yml": "yaml", ".yaml": "yaml", ".toml": "toml", ".json": "json", ".jsonc": "json",
    ".json5": "json", ".ini": "ini", ".cfg": "ini", ".conf": "ini", ".properties": "ini",
    ".xml": "xml", ".xsd": "xml", ".xsl": "xml", ".plist": "xml",
    ".html": "html", ".htm": "html", ".xhtml": "html", ".css": "css", ".scss": "css",
    ".sass": "css", ".less": "css", ".sql": "sql",
    ".sh": "shell", ".bash": "shell", ".zsh": "shell", ".ksh": "shell", ".fish": "shell",
}  # fmt: skip

FILENAMES: dict[str, str] = {
    "makefile": "makefile", "gnumakefile": "makefile", "cmakelists.txt": "cmake",
    "dockerfile": "dockerfile", "containerfile": "dockerfile",
    "rakefile": "ruby", "gemfile": "ruby", "guardfile": "ruby", "capfile": "ruby",
    "vagrantfile": "ruby", "podfile": "ruby", "fastfile": "ruby", "brewfile": "ruby",
    "jenkinsfile": "groovy", "procfile": "text", "justfile": "makefile",
    "readme": "text", "license": "text", "licence": "text", "copying": "text", "notice": "text",
    "authors": "text", "contributors": "text", "changelog": "text", "changes": "text",
    "todo": "text", ".bashrc": "shell", ".zshrc": "shell", ".profile": "shell",
    ".editorconfig": "ini", ".gitignore": "text", ".dockerignore": "text",
}  # fmt: skip


def language_for(path: str) -> str | None:
    """Language name for ``path`` (e.g. ``"python"``, ``"markdown"``), or None if not indexed.

    Extensions are matched case-insensitively; well-known extension-less names (``Makefile``,
    ``Dockerfile``, ``Gemfile``, ``README``...) are recognised too.
    """
    base = os.path.basename(path.replace("\\", "/")).lower()
    if not base:
        return None
    if base in FILENAMES:
        return FILENAMES[base]
    if base.startswith("dockerfile.") or base.endswith(".dockerfile"):
        return "dockerfile"
    root, ext = os.path.splitext(base)
    if ext == ".txt" and root in FILENAMES:  # README.txt, LICENSE.txt
        return "text"
    if ext in EXTENSIONS:
        return EXTENSIONS[ext]
    if root in FILENAMES and FILENAMES[root] == "text":  # CHANGELOG.old, LICENSE.MIT
        return "text"
    return None


_TEST_DIRS = frozenset({"test", "tests", "testing", "spec", "specs", "__tests__", "e2e", "testdata"})
_EXAMPLE_DIRS = frozenset({"examples", "example", "samples", "sample", "demo", "demos", "benchmarks", "bench"})
_TEST_FILE = re.compile(
    r"(^test_.*|.*_test\.[a-z]+|.*\.(test|spec)\.[jt]sx?|conftest\.py|.*Tests?\.(java|kt|cs|swift|scala)|.*_spec\.rb"
    r"|.*Spec\.(scala|hs))$"
)


@lru_cache(maxsize=65536)
def is_test_path(path: str) -> bool:
    """Tests, specs and fixtures: by folder name or by file-name convention."""
    parts = path.split("/")
    return any(p.lower() in _TEST_DIRS for p in parts[:-1]) or bool(_TEST_FILE.match(parts[-1]))


def is_ci_path(path: str) -> bool:
    """CI configuration: a file under ``.github/``, ``.gitlab/``, ``.circleci/``… or one such as
    ``.gitlab-ci.yml``, ``.travis.yml``, ``Jenkinsfile``."""
    parts = path.split("/")
    return parts[0] in CI_DIRS or parts[-1].lower() in CI_FILES


@lru_cache(maxsize=65536)
def is_example_path(path: str) -> bool:
    return any(p.lower() in _EXAMPLE_DIRS for p in path.split("/")[:-1])
