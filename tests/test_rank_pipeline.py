from dataclasses import replace

from codesift.rank import Candidate, RankSettings, rank

UNIT = 1 / 61


def cands():
    return [
        Candidate(1, "src/cookies.py", "get", "RequestsCookieJar.get", "method", "python", 10, 12,
                  "def get(self):\n    return self.jar  # RequestsCookieJar", score=2 * UNIT),
        Candidate(2, "tests/test_cookies.py", "test_jar", "test_jar", "function", "python", 1, 5,
                  "def test_jar():\n    RequestsCookieJar()" + " " * 60, score=1.5 * UNIT),
        Candidate(3, "src/cookies.py", "RequestsCookieJar", "RequestsCookieJar", "class", "python", 1, 40,
                  "class RequestsCookieJar:\n" + "    pass\n" * 60, score=1.0 * UNIT),
    ]


def test_exact_name_match_puts_the_definition_first():
    out, best = rank(cands(), "RequestsCookieJar", RankSettings(), rrf_unit=UNIT, max_fused=2.1 * UNIT)
    assert out[0].chunk_id == 3
    assert "name_match" in out[0].explain
    assert all(c.score <= best for c in out)


def test_tests_rank_below_implementation_unless_asked():
    settings = RankSettings(name_match=False, rerank=False, path_bonus=False)
    out, _ = rank(cands(), "cookie jar get", settings, rrf_unit=UNIT, max_fused=2.1 * UNIT)
    assert [c.chunk_id for c in out][:2] == [1, 3]
    out, _ = rank(cands(), "test cookie jar", settings, rrf_unit=UNIT, max_fused=2.1 * UNIT)
    assert out[1].chunk_id == 2


def test_switching_stages_off_keeps_fused_order():
    off = RankSettings(name_match=False, path_bonus=False, test_penalty=False, rerank=False, dedupe=False)
    out, best = rank(cands(), "RequestsCookieJar", off, rrf_unit=UNIT, max_fused=2.1 * UNIT)
    assert [c.chunk_id for c in out] == [1, 2, 3]
    assert best == 2.1 * UNIT


def test_per_file_cap_and_consolidation_switches():
    s = replace(RankSettings(), max_per_file=1)
    out, _ = rank(cands(), "cookie", s, rrf_unit=UNIT, max_fused=2 * UNIT)
    assert len({c.path for c in out}) == len(out)


def test_an_exactly_named_definition_is_marked_named_and_its_namesakes_are_not():
    out, _ = rank(cands(), "RequestsCookieJar", RankSettings(), rrf_unit=UNIT, max_fused=2 * UNIT)
    named = [c.qualified_name for c in out if c.named]
    assert named == ["RequestsCookieJar"]
    sentence, _ = rank(cands(), "where is the RequestsCookieJar class filled", RankSettings(), rrf_unit=UNIT,
                       max_fused=2 * UNIT)
    assert not any(c.named for c in sentence)  # a sentence's names are context


def test_in_file_test_code_ranks_below_implementation():
    def pair():
        impl = Candidate(1, "src/lib.rs", "add", "add", "function", "rust", 1, 3, "fn add(a: i32) -> i32 { a }",
                         score=1.0 * UNIT)
        test = Candidate(2, "src/lib.rs", "adds", "tests.adds", "function", "rust", 8, 12,
                         "#[test]\nfn adds() { assert_eq!(add(1), 1) }", score=1.5 * UNIT, decorators=("#[test]",))
        return [test, impl]

    settings = RankSettings(consolidate=False)
    out, _ = rank(pair(), "add numbers", settings, rrf_unit=UNIT, max_fused=2 * UNIT)
    assert [c.chunk_id for c in out] == [1, 2]
    out, _ = rank(pair(), "add numbers test", settings, rrf_unit=UNIT, max_fused=2 * UNIT)
    assert out[0].chunk_id == 2  # asked for tests: no penalty


def test_identifier_query_prefers_the_implementation_among_namesakes():
    def three():
        return [
            Candidate(1, "src/types.ts", "createApp", "createApp", "interface", "typescript", 1, 4,
                      "interface createApp { (): App }", score=2 * UNIT),
            Candidate(2, "src/index.ts", "createApp", "createApp", "function", "typescript", 10, 11,
                      "export const createApp = (o) => _createApp(o)", score=1.5 * UNIT),
            Candidate(3, "src/app.ts", "createApp", "createApp", "function", "typescript", 20, 60,
                      "export function createApp(options) {\n" + "  setup();\n" * 38 + "}", score=1.0 * UNIT),
        ]

    settings = RankSettings(consolidate=False)
    out, best = rank(three(), "createApp", settings, rrf_unit=UNIT, max_fused=2 * UNIT)
    assert out[0].chunk_id == 3  # the longest non-type definition
    # the bound scores are normalised by (was a chunk id once: every score 0.0, labelled WEAK)
    assert all(c.score <= best for c in out) and out[0].score > 0.5 * best
    assert out[0].also_defined == ["src/types.ts:1 interface createApp", "src/index.ts:10 function createApp"]
    assert all(not c.also_defined for c in out[1:])
    out, _ = rank(three(), "createApp", replace(settings, namesake_factor=1.0), rrf_unit=UNIT, max_fused=2 * UNIT)
    assert out[0].chunk_id == 1  # switched off: fused order


def test_a_one_word_query_is_a_name_spelled_as_written():
    def two():  # requests: class Session and the function session() returning one, which ranks higher
        return [
            Candidate(1, "src/sessions.py", "session", "session", "function", "python", 908, 915,
                      "def session():\n    return Session()", score=2 * UNIT),
            Candidate(2, "src/sessions.py", "Session", "Session", "class", "python", 395, 900,
                      "class Session:\n" + "    x = 1\n" * 500, score=1.8 * UNIT),
            Candidate(3, "src/sessions.py", "merge_setting", "merge_setting", "function", "python", 76, 100,
                      "def merge_setting(a, b):\n    return Session" + " " * 80, score=2.2 * UNIT),
        ]

    settings = RankSettings(consolidate=False)
    out, _ = rank(two(), "Session", settings, rrf_unit=UNIT, max_fused=2.2 * UNIT)
    assert [c.chunk_id for c in out][:2] == [2, 1]
    assert out[0].also_defined == ["src/sessions.py:908 function session"]
    out, _ = rank(two(), "session", settings, rrf_unit=UNIT, max_fused=2.2 * UNIT)
    assert [c.chunk_id for c in out][:2] == [1, 2]
    # the other spelling keeps a quarter of the bonus (the namesake factor twice), a same-spelled one half
    assert out[1].explain["name_match"] == 0.25 * out[0].explain["name_match"]
    for asked in ("class session", "find the session class"):  # the kind asked for beats the spelling
        out, _ = rank(two(), asked, settings, rrf_unit=UNIT, max_fused=2.2 * UNIT)
        assert [c.chunk_id for c in out][:2] == [2, 1]
    out, _ = rank(two(), "def Session", settings, rrf_unit=UNIT, max_fused=2.2 * UNIT)
    assert out[0].chunk_id == 1
    out, _ = rank(two(), "merge", settings, rrf_unit=UNIT, max_fused=2.2 * UNIT)  # no symbol named so
    assert out[0].chunk_id == 3 and not any("name_match" in c.explain for c in out)


def test_a_module_block_named_after_its_file_is_never_the_implementation():
    cands = [  # a long block of module code, named by its file's stem
        Candidate(1, "src/discriminatedUnion.ts", "discriminatedUnion", "discriminatedUnion:36", "module",
                  "typescript", 36, 55, "const kinds = new Map();\n" + "kinds.set(k, v);\n" * 19, score=2 * UNIT),
        Candidate(2, "src/schemas.ts", "discriminatedUnion", "discriminatedUnion", "function", "typescript", 1245,
                  1252, "export function discriminatedUnion(d, options) {\n  return new U(d, options)\n}",
                  score=1.5 * UNIT),
    ]
    out, _ = rank(cands, "discriminatedUnion", RankSettings(consolidate=False), rrf_unit=UNIT, max_fused=2 * UNIT)
    assert out[0].chunk_id == 2 and out[0].also_defined == ["src/discriminatedUnion.ts:36 module discriminatedUnion:36"]


def test_a_name_only_an_example_defines_is_not_demoted():
    cands = [
        Candidate(1, "src/parser.rs", "verify_num_args", "Parser.verify_num_args", "method", "rust", 10, 30,
                  "fn verify_num_args(&self) {\n" + "    check();\n" * 19 + "}", score=2 * UNIT),
        Candidate(2, "examples/assert.rs", "verify_cmd", "verify_cmd", "function", "rust", 1, 8,
                  "fn verify_cmd() {\n    cmd().debug_assert();\n}", score=1.2 * UNIT),
    ]
    out, _ = rank(cands, "verify_cmd", RankSettings(consolidate=False), rrf_unit=UNIT, max_fused=2 * UNIT)
    assert out[0].chunk_id == 2 and "test_penalty" not in out[0].explain
    out, _ = rank(cands, "where is verify_cmd used in the examples", RankSettings(consolidate=False),
                  rrf_unit=UNIT, max_fused=2 * UNIT)
    assert out[-1].chunk_id == 2 and out[-1].explain["test_penalty"]  # in a sentence the name is context


def test_a_ruby_name_with_its_suffix_beats_the_bare_one():
    cands = [
        Candidate(1, "lib/shell.rb", "mute", "Shell.mute", "method", "ruby", 10, 16,
                  "def mute\n  @mute = true\n  yield\nend", score=2.3 * UNIT),
        Candidate(2, "lib/shell.rb", "mute?", "Shell.mute?", "method", "ruby", 18, 21,
                  "def mute?\n  @mute\nend", score=1.6 * UNIT),
    ]
    out, _ = rank(cands, "mute?", RankSettings(consolidate=False), rrf_unit=UNIT, max_fused=2.3 * UNIT)
    assert [c.chunk_id for c in out] == [2, 1]
    out, _ = rank(cands[:1], "mute?", RankSettings(consolidate=False), rrf_unit=UNIT, max_fused=2.3 * UNIT)
    assert out[0].explain["name_match"] > 0  # alone, the bare name is still what "mute?" asks for


def test_a_pasted_definition_line_lets_the_keyword_side_pick_among_namesakes():
    def three():  # the same builder method in three builders; the keyword side read the pasted parameters
        return [
            Candidate(1, "src/FieldSpec.java", "addModifiers", "FieldSpec.Builder.addModifiers", "method", "java",
                      10, 14, "public Builder addModifiers(Modifier... modifiers) {\n  x();\n}", score=2 * UNIT),
            Candidate(2, "src/TypeSpec.java", "addModifiers", "TypeSpec.Builder.addModifiers", "method", "java",
                      20, 40, "public Builder addModifiers(Modifier... m) {\n" + "  y();\n" * 18 + "}",
                      score=1.5 * UNIT),
        ]

    settings = RankSettings(consolidate=False)
    out, _ = rank(three(), "public Builder addModifiers(Modifier... mods)", settings, rrf_unit=UNIT,
                  max_fused=2 * UNIT)  # held by neither as written: both keep the bonus
    assert out[0].chunk_id == 1 and out[0].explain["name_match"] == out[1].explain["name_match"]
    out, _ = rank(three(), "addModifiers", settings, rrf_unit=UNIT, max_fused=2 * UNIT)
    assert out[0].chunk_id == 2  # the bare name: the implementation with the longest body


def test_a_pasted_definition_line_held_as_written_beats_namesakes_that_differ():
    def two():  # testify: assert's Equal returns bool, require's does not; require's ranked first
        return [
            Candidate(1, "require/require.go", "Equal", "Equal", "function", "go", 158, 166,
                      "func Equal(t TestingT, expected, actual interface{}) {\n\tx()\n}", score=2 * UNIT),
            Candidate(2, "assert/assertions.go", "Equal", "Equal", "function", "go", 336, 355,
                      "func Equal(t TestingT,\n\texpected, actual interface{}) bool {\n\treturn y()\n}",
                      score=1.8 * UNIT),
        ]

    settings = RankSettings(consolidate=False)
    out, _ = rank(two(), "func Equal(t TestingT, expected, actual interface{}) bool", settings, rrf_unit=UNIT,
                  max_fused=2 * UNIT)  # spread over two lines in the code: spacing aside
    assert [c.chunk_id for c in out] == [2, 1] and out[0].named and not out[1].named
    out, _ = rank(two(), "func Equal(t TestingT, expected, actual interface{}) {", settings, rrf_unit=UNIT,
                  max_fused=2 * UNIT)
    assert [c.chunk_id for c in out] == [1, 2]


def test_a_pasted_go_function_line_is_not_the_method_of_that_name():
    def two():  # the method has the shorter body, so the keyword side put it first
        return [
            Candidate(1, "marshal.go", "Unmarshal", "Tree.Unmarshal", "method", "go", 619, 622,
                      "func (t *Tree) Unmarshal(v interface{}) error {\n\treturn d.unmarshal(v)\n}", score=2 * UNIT),
            Candidate(2, "marshal.go", "Unmarshal", "Unmarshal", "function", "go", 654, 662,
                      "func Unmarshal(data []byte, v interface{}) error {\n" + "\tx()\n" * 7 + "}",
                      score=1.8 * UNIT),
        ]

    settings = RankSettings(consolidate=False)
    out, _ = rank(two(), "func Unmarshal(data []byte, v interface{}) error", settings, rrf_unit=UNIT,
                  max_fused=2 * UNIT)
    assert out[0].chunk_id == 2 and out[0].explain["name_match"] > out[1].explain["name_match"]
    out, _ = rank(two(), "func (t *Tree) Unmarshal(v interface{}) error", settings, rrf_unit=UNIT,
                  max_fused=2 * UNIT)
    assert out[0].chunk_id == 1


def test_a_rust_type_beats_its_impl_block_for_its_name():
    cands = [
        Candidate(1, "src/exec.rs", "CommandBuilder", "impl CommandBuilder", "impl", "rust", 135, 208,
                  "impl CommandBuilder {\n" + "    fn f() {}\n" * 70 + "}", score=2 * UNIT),
        Candidate(2, "src/exec.rs", "CommandBuilder", "CommandBuilder", "struct", "rust", 125, 133,
                  "struct CommandBuilder {\n" + "    x: u8,\n" * 7 + "}", score=1.8 * UNIT),
    ]
    out, _ = rank(cands, "CommandBuilder", RankSettings(consolidate=False), rrf_unit=UNIT, max_fused=2 * UNIT)
    assert out[0].chunk_id == 2


def test_an_import_block_ranks_below_code():
    def pair():
        imports = Candidate(1, "src/types.py", "types", "types:1", "module", "python", 1, 4,
                            "import inspect\nfrom typing import get_type_hints\n", score=1.5 * UNIT)
        impl = Candidate(2, "src/types.py", "type_hints", "type_hints", "function", "python", 6, 9,
                         "def type_hints(obj):\n    return get_type_hints(obj)", score=1.0 * UNIT)
        return [imports, impl]

    settings = RankSettings(consolidate=False, rerank=False)
    out, _ = rank(pair(), "type hints of an object", settings, rrf_unit=UNIT, max_fused=2 * UNIT)
    assert [c.chunk_id for c in out] == [2, 1] and out[1].explain["import_penalty"] == 0.4
    out, _ = rank(pair(), "type hints of an object", replace(settings, import_penalty_factor=1.0),
                  rrf_unit=UNIT, max_fused=2 * UNIT)
    assert [c.chunk_id for c in out] == [1, 2]


def test_a_sentence_ranks_the_code_above_a_declaration_whose_comments_match_better():
    def pair():
        options = Candidate(1, "command.go", "Command", "Command", "struct", "go", 1, 40,
                            "type Command struct {\n\t// read extra arguments from standard input\n"
                            "\tReadArgsFromStdin bool\n}", score=1.1 * UNIT)
        impl = Candidate(2, "command_run.go", "parseArgsFromStdin", "Command.parseArgsFromStdin", "method", "go",
                         50, 90, "func (cmd *Command) parseArgsFromStdin() ([]string, error) {\n}", score=1.0 * UNIT)
        return [options, impl]

    settings = RankSettings(consolidate=False)
    query = "read extra arguments from standard input"
    out, _ = rank(pair(), query, settings, rrf_unit=UNIT, max_fused=2 * UNIT)
    assert [c.chunk_id for c in out] == [2, 1] and out[1].explain["x_declaration"] == 0.8
    out, _ = rank(pair(), query, replace(settings, declaration_factor=1.0), rrf_unit=UNIT, max_fused=2 * UNIT)
    assert [c.chunk_id for c in out] == [1, 2]
    out, _ = rank(pair(), "Command struct", settings, rrf_unit=UNIT, max_fused=2 * UNIT)  # not a sentence
    assert out[0].chunk_id == 1 and "x_declaration" not in out[0].explain


def test_a_sentence_ranks_the_code_above_its_typings():
    def pair(typings_path):
        typed = Candidate(1, typings_path, "subcommandDescription", "Help.subcommandDescription", "method",
                          "typescript", 120, 121, "/** Get the subcommand summary to show in the list. */\n"
                          "subcommandDescription(cmd: Command): string;", score=1.1 * UNIT)
        impl = Candidate(2, "lib/help.js", "subcommandDescription", "Help.subcommandDescription", "method",
                         "javascript", 284, 287, "subcommandDescription(cmd) {\n  return cmd.summary();\n}",
                         score=1.0 * UNIT)
        return [typed, impl]

    settings = RankSettings(consolidate=False)
    query = "text shown next to a subcommand in the help listing"
    for stub in ("typings/index.d.ts", "src/attrs/__init__.pyi"):
        out, _ = rank(pair(stub), query, settings, rrf_unit=UNIT, max_fused=2 * UNIT)
        assert [c.chunk_id for c in out] == [2, 1] and out[1].explain["x_declaration"] == 0.8
    out, _ = rank(pair("typings/index.ts"), query, settings, rrf_unit=UNIT, max_fused=2 * UNIT)
    assert out[0].chunk_id == 1  # an ordinary TypeScript file holds code


def test_a_sentence_ranks_a_function_above_module_code_but_not_above_a_detached_doc_block():
    def pair(module_text):
        module = Candidate(1, "flag.go", "flag", "flag:70", "module", "go", 70, 81, module_text, score=1.2 * UNIT)
        impl = Candidate(2, "flag.go", "parseShortArg", "FlagSet.parseShortArg", "method", "go", 300, 360,
                         "func (f *FlagSet) parseShortArg(s string) error {\n}", score=1.0 * UNIT)
        return [module, impl]

    settings = RankSettings(consolidate=False)
    query = "resolve one single-letter option from a dash cluster"
    paragraph = "Single dashes signify a series of shorthand\nletters for flags. All but the last must be boolean."
    out, _ = rank(pair(paragraph), query, settings, rrf_unit=UNIT, max_fused=2 * UNIT)
    assert [c.chunk_id for c in out] == [2, 1] and out[1].explain["x_module"] == 0.8
    out, _ = rank(pair(paragraph), query, replace(settings, module_factor=1.0), rrf_unit=UNIT, max_fused=2 * UNIT)
    assert [c.chunk_id for c in out] == [1, 2]
    jsdoc = "/**\n * Respond to the Acceptable formats.\n * @public\n */"
    out, _ = rank(pair(jsdoc), query, settings, rrf_unit=UNIT, max_fused=2 * UNIT)
    assert out[0].chunk_id == 1 and "x_module" not in out[0].explain
    out, _ = rank(pair(paragraph), "flag syntax", settings, rrf_unit=UNIT, max_fused=2 * UNIT)  # not a sentence
    assert out[0].chunk_id == 1 and "x_module" not in out[0].explain


def test_where_is_x_used_ranks_the_code_using_x_above_x_itself():
    def pair():
        own = Candidate(1, "CommandLine.java", "CosineSimilarity", "CommandLine.CosineSimilarity", "class", "java",
                        10, 40, "static class CosineSimilarity {\n}", score=1.2 * UNIT)
        user = Candidate(2, "CommandLine.java", "getSuggestions", "UnmatchedArgumentException.getSuggestions",
                         "method", "java", 90, 110, "List<String> getSuggestions() {\n}", score=1.0 * UNIT)
        return [own, user]

    settings = RankSettings(consolidate=False)
    query = "where is CosineSimilarity used to propose close subcommand names"
    out, _ = rank(pair(), query, settings, rrf_unit=UNIT, max_fused=2 * UNIT)
    assert [c.chunk_id for c in out] == [2, 1] and out[1].explain["x_used_definition"] == 0.5
    out, _ = rank(pair(), query, replace(settings, used_definition_factor=1.0), rrf_unit=UNIT, max_fused=2 * UNIT)
    assert [c.chunk_id for c in out] == [1, 2]
    out, _ = rank(pair(), "where is CosineSimilarity defined", settings, rrf_unit=UNIT, max_fused=2 * UNIT)
    assert out[0].chunk_id == 1 and "x_used_definition" not in out[0].explain
    # ``who calls X``: X's name is what the question is about, so it earns X no name bonus, nor a HIGH label
    out, best = rank(pair(), "who calls CosineSimilarity", settings, rrf_unit=UNIT, max_fused=2 * UNIT)
    assert [c.chunk_id for c in out] == [2, 1] and not out[1].named and "name_match" not in out[1].explain
    _, named_best = rank(pair(), "CosineSimilarity", settings, rrf_unit=UNIT, max_fused=2 * UNIT)
    assert best < named_best  # nor does the maximum results are scored against count a bonus none can earn


def test_plain_words_that_spell_no_name_are_normalised_without_the_name_bonus():
    """The name bonus counts in the best possible score only when the query could earn it: ``strip trailing
    slash`` scored its both-retrievers-first result 0.47 (WEAK) because of a bonus no candidate could get."""
    top = Candidate(1, "strip.go", "StripSlashes", "StripSlashes", "function", "go", 13, 33, "x" * 500,
                    score=3 * UNIT)
    _, best = rank([replace(top)], "strip trailing slash", RankSettings(), rrf_unit=UNIT, max_fused=3 * UNIT)
    out, _ = rank([replace(top)], "strip trailing slash", RankSettings(), rrf_unit=UNIT, max_fused=3 * UNIT)
    assert out[0].score / best > 0.9
    # words that do spell a candidate's name, and identifiers, keep the bonus in the best score
    _, spelled = rank([replace(top)], "strip slashes", RankSettings(), rrf_unit=UNIT, max_fused=3 * UNIT)
    _, ident = rank([replace(top)], "strip_trailing", RankSettings(), rrf_unit=UNIT, max_fused=3 * UNIT)
    assert spelled > best + 2.5 * UNIT and ident > best + 2.5 * UNIT


def test_plain_words_spelling_a_test_class_ask_for_the_code_not_the_test():
    def pool():
        return [Candidate(1, "tests/test_schema.py", "NestedSchema", "TestNesting.NestedSchema", "class", "python",
                          10, 12, "class NestedSchema(Schema):\n    x = 1", score=3 * UNIT),
                Candidate(2, "src/fields.py", "Nested", "Nested", "class", "python", 40, 90,
                          "class Nested:\n" + "  x\n" * 200, score=2.5 * UNIT)]
    out, best = rank(pool(), "nested schema", RankSettings(), rrf_unit=UNIT, max_fused=3 * UNIT)
    assert out[0].chunk_id == 2 and out[0].score / best > 0.7 and not out[1].named  # not halved by its bonus
    out, _ = rank(pool(), "nested schema tests", RankSettings(), rrf_unit=UNIT, max_fused=3 * UNIT)
    assert out[0].chunk_id == 1
    out, _ = rank(pool(), "NestedSchema", RankSettings(), rrf_unit=UNIT, max_fused=3 * UNIT)
    assert out[0].chunk_id == 1 and out[0].named  # typed as code: that very class


def test_the_chunk_setting_a_declared_name_is_named_by_the_query():
    def two():
        return [Candidate(1, "store.go", "Get", "Store.Get", "method", "go", 20, 25,
                          "func (s *Store) Get() error {\n\treturn ErrNotFound\n}", score=2 * UNIT),
                Candidate(2, "errors.go", "errors:3", "errors:3", "module", "go", 3, 6,
                          'import "errors"\n\nvar ErrNotFound = errors.New("not found")', score=1.5 * UNIT)]

    settings = RankSettings(consolidate=False)
    out, _ = rank(two(), "ErrNotFound", settings, rrf_unit=UNIT, max_fused=2 * UNIT)
    assert out[0].chunk_id == 1
    out, _ = rank(two(), "ErrNotFound", settings, rrf_unit=UNIT, max_fused=2 * UNIT,
                  declared=frozenset({("errors.go", 5)}))
    assert out[0].chunk_id == 2 and out[0].named


def test_a_sentence_ranks_the_code_above_a_stringifier_unless_it_asks_for_text():
    def pair():
        message = Candidate(1, "errors.go", "Error", "mutuallyExclusiveGroup.Error", "method", "go", 84, 86,
                            "func (e *mutuallyExclusiveGroup) Error() string {\n\treturn fmt.Sprintf(\"option %s "
                            "cannot be set along with option %s\", e.flag1Name, e.flag2Name)\n}", score=1.1 * UNIT)
        check = Candidate(2, "flag_mutex.go", "check", "MutuallyExclusiveFlags.check", "method", "go", 19, 42,
                          "func (grp MutuallyExclusiveFlags) check(_ *Command) error {\n}", score=1.0 * UNIT)
        return [message, check]

    settings = RankSettings(consolidate=False)
    query = "fail when options of two alternatives of an exclusive group are both set"
    out, _ = rank(pair(), query, settings, rrf_unit=UNIT, max_fused=2 * UNIT)
    assert [c.chunk_id for c in out] == [2, 1] and out[1].explain["x_stringifier"] == 0.8
    out, _ = rank(pair(), query, replace(settings, stringifier_factor=1.0), rrf_unit=UNIT, max_fused=2 * UNIT)
    assert [c.chunk_id for c in out] == [1, 2]
    out, _ = rank(pair(), "the message shown when two exclusive options are set", settings, rrf_unit=UNIT,
                  max_fused=2 * UNIT)
    assert out[0].chunk_id == 1 and "x_stringifier" not in out[0].explain
    out, _ = rank(pair(), "exclusive group error", settings, rrf_unit=UNIT, max_fused=2 * UNIT)  # not a sentence
    assert out[0].chunk_id == 1


def test_a_sentence_asking_whether_ranks_a_predicate_above_code_that_mentions_it():
    def pair():
        caller = Candidate(1, "args.go", "stripFlags", "stripFlags", "function", "go", 10, 40,
                           "func stripFlags(args []string) []string {\n\tif isFlagArg(a) {\n\t}\n}", score=1.2 * UNIT)
        predicate = Candidate(2, "args.go", "isFlagArg", "isFlagArg", "function", "go", 50, 53,
                              "func isFlagArg(arg string) bool {\n\treturn len(arg) > 1\n}", score=1.0 * UNIT)
        return [caller, predicate]

    settings = RankSettings(consolidate=False)
    query = "check whether an argument looks like a flag with one or two dashes"
    out, _ = rank(pair(), query, settings, rrf_unit=UNIT, max_fused=2 * UNIT)
    assert [c.chunk_id for c in out] == [2, 1] and out[1].explain["x_not_predicate"] == settings.predicate_factor
    out, _ = rank(pair(), query, replace(settings, predicate_factor=1.0), rrf_unit=UNIT, max_fused=2 * UNIT)
    assert [c.chunk_id for c in out] == [1, 2]
    out, _ = rank(pair(), "remove flags from the args, keeping words after checking whether each is a flag",
                  settings, rrf_unit=UNIT, max_fused=2 * UNIT)
    assert out[0].chunk_id == 1 and "x_not_predicate" not in out[0].explain
