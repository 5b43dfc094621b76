"""codesift.indexing.compiled: which JavaScript and declaration files are compiler output of TypeScript sources."""

from __future__ import annotations

from codesift.indexing.compiled import compiled_copies


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


def test_a_second_build_of_the_same_files_is_a_copy() -> None:
    # io-ts ships no sources: CommonJS in lib/, ES modules in es6/, each with its .d.ts
    names = ["Decoder", "Encoder", "index"]
    tree = [f"{d}/{n}{ext}" for d in ("lib", "es6") for n in names for ext in (".js", ".d.ts")] + ["package.json"]
    assert compiled_copies(tree) == {f"lib/{n}{ext}" for n in names for ext in (".js", ".d.ts")}
    nested = [f"dist/{d}/{n}.js" for d in ("cjs", "esm") for n in "abcd"] + ["dist/cjs/only.js"]
    assert compiled_copies(nested) == {f"dist/cjs/{n}.js" for n in "abcd"}  # only.js has no twin: kept
    # a build next to the TypeScript sources: the twin goes, and so does the build of the sources
    with_sources = ["src/a.ts", "src/b.ts", "src/c.ts", *(f"{d}/{n}.js" for d in ("lib", "esm") for n in "abc")]
    assert compiled_copies(with_sources) == {f"{d}/{n}.js" for d in ("lib", "esm") for n in "abc"}


def test_build_folders_that_share_a_file_or_two_are_both_kept() -> None:
    assert compiled_copies(["lib/index.js", "lib/a.js", "es/index.js", "es/b.js"]) == set()  # under TWIN_MIN
    lib = [f"lib/{n}.js" for n in "abcdefgh"]
    assert compiled_copies([*lib, "es/a.js", "es/b.js", "es/c.js", *(f"es/x{i}.js" for i in range(8))]) == set()
    assert compiled_copies(["pkg/lib/a.js", "pkg/lib/b.js", "pkg/lib/c.js",
                            "other/es/a.js", "other/es/b.js", "other/es/c.js"]) == set()  # not siblings
