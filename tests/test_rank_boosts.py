import math

from codesift.rank import boosts


def test_test_paths():
    for p in ("tests/test_api.py", "src/foo_test.go", "web/app.spec.ts", "pkg/__tests__/x.js",
              "conftest.py", "src/test/java/FooTest.java", "spec/models/user_spec.rb"):
        assert boosts.is_test_path(p), p
    for p in ("src/requests/sessions.py", "testing.py", "src/contest.py", "lib/attest/api.py"):
        assert not boosts.is_test_path(p), p


def test_query_wants_tests():
    assert boosts.query_wants_tests("test for redirects")
    assert not boosts.query_wants_tests("attestation of builds")
    assert boosts.query_wants_tests("which tests cover the parser")
    assert not boosts.query_wants_tests("test whether a directory is empty")  # the verb
    assert not boosts.query_wants_tests("check if a path exists")
    # punctuation next to the word: "for unit tests, build a logger ..." (was read as "tests,")
    assert boosts.query_wants_tests("for unit tests, build a logger that discards its output")
    assert boosts.query_wants_tests("where are the fixtures?")


def test_name_match_levels():
    assert boosts.name_match(["RequestsCookieJar"], "RequestsCookieJar", "RequestsCookieJar") == 1.0
    assert boosts.name_match(["requestscookiejar"], "RequestsCookieJar", "RequestsCookieJar") == 1.0
    assert boosts.name_match(["Session.send"], "send", "Session.send") == 1.0
    assert boosts.name_match(["requests_cookie_jar"], "RequestsCookieJar", "X") == boosts.PARTIAL_MATCH
    assert boosts.name_match(["RequestsCookieJar"], "get", "RequestsCookieJar.get") == 0.0
    assert boosts.name_match([], "x", "x") == 0.0


def test_name_match_partial_beyond_ascii_names():
    """The parts test skips splitting names that cannot match; names with other characters still split."""
    assert boosts.name_match(["http_get"], "$httpGet", "$httpGet") == boosts.PARTIAL_MATCH
    assert boosts.name_match(["grosse_zahl"], "großeZahl", "großeZahl") == 0.0  # ß is no part of ``grosse``
    assert boosts.name_match(["parse_Args"], "PARSE_ARGS_", "X") == boosts.PARTIAL_MATCH
    assert boosts.name_match(["parse_arg"], "parseArgs", "X") == 0.0
    assert boosts.name_match(["parseargs"], "parse_args", "X") == 0.0  # same letters, other parts


def test_phrase_name_match():
    assert boosts.phrase_name_match("cookie jar", "CookieJar") == 1.0
    assert boosts.phrase_name_match("cookie", "CookieJar") == 0.0
    assert boosts.phrase_name_match("jar", "jar") == 0.0
    assert boosts.phrase_name_match("cookie jar", "Jar") == 0.0  # more letters than the name has
    assert boosts.phrase_name_match(["cookie", "jar"], "cookie_jar") == 1.0


def test_path_overlap():
    assert boosts.path_overlap({"session", "cookie"}, "src/requests/sessions.py") == 0.5
    assert boosts.path_overlap(set(), "a.py") == 0.0


def test_recency_half_life():
    now = 1_000_000_000.0
    assert boosts.recency(now, now) == 1.0
    assert math.isclose(boosts.recency(now - 7 * 86400, now), 0.5, rel_tol=0.01)
    assert boosts.recency(0, now) == 0.0


def test_rerank_factor():
    f, parts = boosts.rerank_factor("function", "python", "src/a.py", "def f():\n" + "x = 1\n" * 100, 0.0)
    assert parts == {"definition": 1.10, "substantial": 1.02} and math.isclose(f, 1.122)
    f, parts = boosts.rerank_factor("window", "markdown", "README.md", "tiny", 0.0, docs_factor=0.8)
    assert parts == {"docs": 0.8, "important_file": 1.05, "tiny": 0.90}
    f, parts = boosts.rerank_factor("window", "yaml", "ci.yml", "x" * 100, 0.0)
    assert parts == {}


def test_in_file_test_code_is_recognised():
    from codesift.rank.boosts import is_test_code

    assert is_test_code("it_adds", "tests.it_adds", "function", "rust", "fn it_adds() {}", ["#[test]"])
    assert is_test_code("helper", "tests.helper", "function", "rust", "fn helper() {}", [])
    assert is_test_code("tests", "tests", "namespace", "rust", "mod tests {}", ["#[cfg(test)]"])
    assert is_test_code("runs", "runs", "function", "rust", "", ["#[tokio::test]"])
    assert is_test_code("parses", "ParserTest.parses", "method", "java", "", ["@Test"])
    assert is_test_code("test_inline", "test_inline", "function", "python", "def test_inline(): ...")
    assert is_test_code("TestParser", "TestParser", "class", "python", "class TestParser: ...")
    assert is_test_code("app:8", "app:8", "module", "python", 'if __name__ == "__main__":\n    main()')
    assert is_test_code("add:5", "add:5", "module", "javascript", 'describe("add", () => {\n})')
    assert is_test_code("add:5", "add:5", "module", "typescript", "it.each([1])('x', () => {})")
    # Implementation code with test-like words is not test code.
    assert not is_test_code("add", "add", "function", "rust", "fn add() {}", ["#[inline]"])
    assert not is_test_code("testing", "testing", "function", "python", "def testing(): ...")
    assert not is_test_code("Tests", "Tests", "struct", "rust", "struct Tests;", [])
    assert not is_test_code("tests", "tests.util", "function", "go", "func util() {}", [])
    assert not is_test_code("describe", "describe", "function", "javascript", "function describe(x) {}")
    assert not is_test_code("app:1", "app:1", "module", "python", "import os\nMAIN = 1")


def test_name_match_takes_qualified_names_in_every_syntax():
    from codesift.query.shape import identifier_words

    def m(query: str, name: str, qual: str, path: str = "src/x.rs") -> float:
        return boosts.name_match(identifier_words(query), name, qual, path)

    assert m("Point::new", "new", "Point.new") == 1.0  # Rust / C++
    assert m("Session#get", "get", "Session.get", "lib/session.rb") == 1.0  # Ruby
    assert m("obj->field", "field", "obj.field", "a.php") == 1.0  # PHP / C
    assert m("cli.NewApp", "NewApp", "NewApp", "cli/app.go") == 0.8  # Go: the package is the folder
    assert m("sessions.merge_setting", "merge_setting", "merge_setting", "src/requests/sessions.py") == 0.8
    # a qualified name's own match comes first: Message.formatted of src/error/mod.rs is not Error.formatted
    assert m("Error.formatted", "formatted", "Error.formatted", "src/error/mod.rs") == 1.0
    assert m("Error.formatted", "formatted", "Message.formatted", "src/error/mod.rs") == 0.8
    assert m("Other::new", "new", "Point.new") == boosts.PARTIAL_MATCH  # right name, another type
    assert m("Point::new", "old", "Point.old") == 0.0


def test_name_match_takes_the_files_namespace_in_front():
    from codesift.query.shape import identifier_words

    def m(query: str, qual: str, path: str, package: str) -> float:
        return boosts.name_match(identifier_words(query), qual.rsplit(".", 1)[-1], qual, path, package)

    assert m("Polly.Retry.RetryHelper.Run", "RetryHelper.Run", "src/Retry/RetryHelper.cs", "polly.retry") == 1.0
    assert m("Retry.RetryHelper.Run", "RetryHelper.Run", "src/Retry/RetryHelper.cs", "polly.retry") == 1.0
    # C++: a file's namespace is the first it opens; a later definition may sit in the enclosing one
    cpp = "include/spdlog/pattern_formatter-inl.h"
    assert m("spdlog::pattern_formatter::format", "pattern_formatter.format", cpp, "spdlog.details") == 1.0
    assert m("spdlog::details::pattern_formatter::format", "pattern_formatter.format", cpp, "spdlog.details") == 1.0
    assert m("fmt::pattern_formatter::format", "pattern_formatter.format", cpp, "spdlog.details") < 1.0
    # a Kotlin file's package is exact: coil3.util's extension `ComponentRegistry.key` is not coil3's
    assert m("coil3.ComponentRegistry.key", "ComponentRegistry.key", "coil3/util/utils.kt", "coil3.util") < 1.0
    assert m("coil3.util.ComponentRegistry.key", "ComponentRegistry.key", "coil3/util/utils.kt", "coil3.util") == 1.0


def test_name_match_tells_ruby_suffixes_from_punctuation():
    from codesift.query.shape import identifier_words

    def m(query: str, name: str, qual: str) -> float:
        return boosts.name_match(identifier_words(query), name, qual, "lib/thor.rb")

    assert m("check_unknown_options!", "check_unknown_options!", "Thor.check_unknown_options!") == 1.0
    assert m("check_unknown_options!", "check_unknown_options", "Thor.check_unknown_options") == boosts.BARE_MATCH
    assert m("check_unknown_options!", "check_unknown_options?", "Thor.check_unknown_options?") == boosts.PARTIAL_MATCH
    assert m("where is rebuild_auth?", "rebuild_auth", "Session.rebuild_auth") == boosts.BARE_MATCH
    assert m("destination_root=", "destination_root=", "Thor.Actions.destination_root=") == 1.0
    assert m("Basic#yes?", "yes?", "Thor.Shell.Basic.yes?") == 1.0


IMPORT_BLOCKS = {
    "python": "import os\nfrom typing import (\n    Any,\n    Dict,\n)\n\nlog = logging.getLogger(__name__)\n",
    "go": 'package cli\n\nimport (\n\t"fmt"\n\tyaml "gopkg.in/yaml.v3"\n)\n',
    "rust": "use std::io;\nuse crate::{\n    a,\n    b::c,\n};\nmod walk;\n",
    "java": "package com.x;\n\nimport static java.util.Objects.requireNonNull;\nimport java.lang.reflect.Type;\n",
    "typescript": "import { a,\n  b } from './x'\nimport type { T } from 'y'\nexport * from './z'\n",
    "javascript": "'use strict';\nvar debug = require('debug')('express');\nvar x = require('./x');\n",
    "cpp": "#include <stdio.h>\n#pragma once\nusing namespace std;\n",
}


def test_import_blocks_in_every_language():
    from codesift.rank.boosts import is_import_block

    for language, text in IMPORT_BLOCKS.items():
        assert is_import_block("module", text), language
    assert not is_import_block("function", IMPORT_BLOCKS["python"])  # only module-level code
    assert not is_import_block("module", "CONSTANT = 3\nDEFAULTS = {'a': 1}\n")
    assert not is_import_block("module", "import os\nx = compute()\ny = other(x)\nz = 3\nprint(z)\n")
    assert not is_import_block("module", "}\n)\n")  # brackets alone are not imports


def test_an_import_alias_qualifier_is_dropped():
    from codesift.rank import Candidate

    cands = [Candidate(i, path, qual.rsplit(".", 1)[-1], qual, "function", "python", 1, 2, "")
             for i, (path, qual) in enumerate([("src/requests/sessions.py", "merge_setting"),
                                               ("v4/classic/schemas.ts", "object"), ("lib/response.js", "res.get")])]
    unknown = frozenset({"z", "vec", "requests", "sessions", "res"})  # qualifiers naming no definition
    got = boosts.drop_aliases(["z.object", "Vec.new", "requests.get", "sessions.merge_setting", "Point.new", "res.get"],
                              unknown, cands)
    # z and Vec are no folder, file stem or parent: aliases; requests and sessions are places, res a parent
    # (res.get = function ...); Point is defined
    assert got == ["object", "new", "requests.get", "sessions.merge_setting", "Point.new", "res.get"]
    assert boosts.drop_aliases(["z.object"], frozenset(), cands) == ["z.object"]


def test_is_doc_block():
    assert boosts.is_doc_block("/**\n * Respond to the Acceptable formats.\n */\n")
    assert not boosts.is_doc_block("/* Package pflag is a drop-in replacement */")  # not a doc block
    assert not boosts.is_doc_block("/** a */\nvar x = 1;")  # code after it
    assert not boosts.is_doc_block("/** a */\n/** b */")  # two comments: module text, not one doc


def test_holds_line_compares_the_pasted_line_spacing_aside():
    text = "func Equal(t TestingT,\n\texpected, actual interface{}) bool {\n\treturn x\n}"
    assert boosts.holds_line(text, "func Equal(t TestingT, expected, actual interface{}) bool")
    assert boosts.holds_line(text, "func Equal(t TestingT, expected, actual interface{}) bool {")
    assert not boosts.holds_line("func Equal(t TestingT, expected, actual interface{}) {",
                                 "func Equal(t TestingT, expected, actual interface{}) bool")
    assert boosts.holds_line("def f(self, x):\n    pass", "def f(self, x):")
    assert not boosts.holds_line("anything", "  ")


def test_stringifiers_are_told_by_name_and_signature():
    cases = [
        ("Error", "method", "func (e *mutuallyExclusiveGroup) Error() string {\n\treturn fmt.Sprintf(...)\n}"),
        ("String", "method", "func (bif *BoolWithInverseFlag) String() string {"),
        ("toString", "method", "@Override public String toString() {\n    return name;\n}"),
        ("__repr__", "method", "def __repr__(self):\n    return f'<Response [{self.status_code}]>'"),
        ("to_s", "method", "def to_s\n  name\nend"),
        ("fmt", "method", "fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {"),
    ]
    for name, kind, text in cases:
        assert boosts.is_stringifier(name, kind, text), name
    # logrus's Entry.Error logs at error level; a top-level function or another signature is no stringifier
    assert not boosts.is_stringifier("Error", "method", "func (entry *Entry) Error(args ...interface{}) {")
    assert not boosts.is_stringifier("String", "function", "func String() string {")
    assert not boosts.is_stringifier("fmt", "method", "fn fmt(&self) -> String {")
    assert not boosts.is_stringifier("check", "method", "func (grp MutuallyExclusiveFlags) check(_ *Command) error {")


def test_predicates_are_told_by_declared_result_or_question_name():
    cases = [
        ("isFlagArg", "function", "func isFlagArg(arg string) bool {\n\treturn len(arg) > 1\n}"),
        ("Runnable", "method", "// Runnable tells: {is it}\nfunc (c *Command) Runnable() bool {\n}"),  # comment skipped
        ("takes_values", "method", "pub fn takes_values(&self) -> bool {\n    self.end != 0\n}"),
        ("closed", "method", "@property\ndef closed(self) -> bool:\n    return self._closed"),
        ("consistent", "method", "/**\n * Returns {@code true} when ...\n */\npublic boolean consistent() {"),
        ("plain", "function", "export function plain(value: unknown): value is object {"),
        ("fetchable", "function", "export function fetchable(mode: Mode): boolean {"),
        ("isBoolean", "method", "isBoolean() {\n  return !this.required;\n}"),  # untyped: its name asks
        ("empty?", "method", "def empty?\n  size.zero?\nend"),
        ("equals", "method", "@Override public boolean equals(Object o) {\n  return o == this;\n}"),
    ]
    for name, kind, text in cases:
        assert boosts.is_predicate(name, kind, text), name
    assert not boosts.is_predicate("legacyArgs", "function", "func legacyArgs(cmd *Command, args []string) error {")
    assert not boosts.is_predicate("set", "method", "void set(boolean on) {")  # a boolean parameter
    assert not boosts.is_predicate("drawable", "method", "fn drawable(&mut self, force: bool) -> Option<D> {")
    assert not boosts.is_predicate("process", "method", "def process(self):\n    x: bool = True")
    assert not boosts.is_predicate("IsSet", "class", "class IsSet {")


def test_asks_yes_or_no():
    assert boosts.asks_yes_or_no("check whether the value needs quoting")
    assert boosts.asks_yes_or_no("whether a pattern only matches literally")
    assert boosts.asks_yes_or_no("decide if a flag is hidden from completion")
    assert boosts.asks_yes_or_no("Return True if the path is a directory")
    assert not boosts.asks_yes_or_no("if the flag is set, print the version and exit")  # a condition
    assert not boosts.asks_yes_or_no("buffer the output, then decide whether to flush it")
    assert not boosts.asks_yes_or_no("flush the pending batch")


def test_asks_for_text():
    assert boosts.asks_for_text("print a time span as a zero-padded clock reading")
    assert boosts.asks_for_text("pad or truncate text to a column")
    assert boosts.asks_for_text("format float thousands separator")
    assert not boosts.asks_for_text("fail when options from two alternatives of an exclusive group are both given")
