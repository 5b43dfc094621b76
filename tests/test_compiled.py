"""codesift.compiled: which JavaScript and declaration files are compiler output of TypeScript sources."""

from __future__ import annotations

from codesift.compiled import compiled_copies


def test_npm_package_layout_sources_under_src_copies_beside_them() -> None:
    # zod's package: src/v4/core/schemas.ts, compiled to v4/core/schemas.{js,cjs,d.ts,d.cts}
    tree = ["src/v4/core/schemas.ts", "v4/core/schemas.js", "v4/core/schemas.cjs", "v4/core/schemas.d.ts",
            "v4/core/schemas.d.cts", "src/index.ts", "index.js", "index.d.ts", "README.md", "package.json"]
    assert compiled_copies(tree) == {"v4/core/schemas.js", "v4/core/schemas.cjs", "v4/core/schemas.d.ts",
                                     "v4/core/schemas.d.cts", "index.js", "index.d.ts"}


def test_output_folder_mirrors_the_source_folder() -> None:
    tree = ["src/parse.ts", "lib/parse.js", "lib/parse.d.ts", "esm/parse.mjs", "cjs/util/x.cjs", "src/util/x.ts"]
    assert compiled_copies(tree) == {"lib/parse.js", "lib/parse.d.ts", "esm/parse.mjs", "cjs/util/x.cjs"}


def test_in_place_output_and_tsx() -> None:
    assert compiled_copies(["ui/button.tsx", "ui/button.js", "ui/button.d.ts"]) == {"ui/button.js", "ui/button.d.ts"}


def test_javascript_without_a_typescript_twin_is_source() -> None:
    # express is plain JavaScript; a test folder mirroring src/ names is not compiler output, nor is a
    # declaration file that no .ts source produced, nor a .d.ts standing in for a source of its own.
    assert compiled_copies(["lib/router.js", "index.js", "types/index.d.ts"]) == set()
    assert compiled_copies(["src/index.ts", "test/index.js", "scripts/build.js", "src/globals.d.ts"]) == set()
    assert compiled_copies(["a.d.ts", "a.js"]) == set()  # declarations are not sources


def test_nothing_to_do_without_typescript() -> None:
    assert compiled_copies([]) == set()
    assert compiled_copies(["a.py", "b.go", "c.js"]) == set()
