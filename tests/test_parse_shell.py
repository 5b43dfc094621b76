"""Shell (bash grammar) definition extraction."""

from codesift.parse import extract_chunks

SOURCE = """\
#!/usr/bin/env bash
set -euo pipefail

# Print usage and exit.
usage() {
  echo "usage: $0 [-v]"
  exit 1
}

# Build the project.
# Takes the target as $1.
function build {
  make "$1"
}

function deploy() {
  build release
}

main() { usage; }
main "$@"
"""


def test_shell_definitions():
    chunks = extract_chunks(SOURCE, "shell", "scripts/build.sh")
    defs = {c.qualified_name: c for c in chunks if c.kind != "module"}
    got = {q: (c.kind, c.start_line, c.end_line, c.parent) for q, c in defs.items()}
    assert got == {
        "usage": ("function", 5, 8, None),
        "build": ("function", 12, 14, None),
        "deploy": ("function", 16, 18, None),
        "main": ("function", 20, 20, None),
    }
    assert defs["usage"].signature == "usage()"
    assert defs["build"].signature == "function build"
    assert defs["deploy"].signature == "function deploy()"
    assert defs["main"].signature == "main()"
    assert defs["usage"].docstring == "Print usage and exit."
    assert defs["build"].docstring == "Build the project.\nTakes the target as $1."
    modules = [(c.start_line, c.end_line) for c in chunks if c.kind == "module"]
    assert modules == [(1, 2), (21, 21)]
