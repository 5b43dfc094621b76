import pytest

from codesift.query.shape import QueryShape, classify, identifier_words, looks_like_identifier


@pytest.mark.parametrize(
    "query, shape",
    [
        ("RequestsCookieJar", QueryShape.IDENTIFIER),
        ("rebuild_auth", QueryShape.IDENTIFIER),
        ("Session.send", QueryShape.IDENTIFIER),
        ("parse_args()", QueryShape.IDENTIFIER),
        ("cookie", QueryShape.SINGLE_WORD),
        ("cookiejar_from_dict merge_cookies jar", QueryShape.MOSTLY_IDENTIFIERS),
        ("where are redirects followed", QueryShape.NATURAL_LANGUAGE),
        ("cookie jar dict", QueryShape.OTHER),
        ("", QueryShape.OTHER),
    ],
)
def test_classify(query, shape):
    assert classify(query) == shape


def test_identifier_detection():
    assert looks_like_identifier("getAuthToken")
    assert looks_like_identifier("__init__")
    assert looks_like_identifier("HTTPServer")
    assert not looks_like_identifier("Session")
    assert not looks_like_identifier("redirects")
    assert not looks_like_identifier("a-b")


def test_operator_names_are_identifiers():
    assert identifier_words("Vec::operator==") == ["Vec.operator=="]
    assert identifier_words("operator<<") == ["operator<<"]
    assert identifier_words("Less::operator()") == ["Less.operator()"] and identifier_words("parse()") == ["parse"]
    assert identifier_words("find operator[] of Matrix") == ["operator[]"]
    assert classify("operator+") == QueryShape.IDENTIFIER
    assert identifier_words("operator") == ["operator"] and classify("operator") == QueryShape.SINGLE_WORD
    assert identifier_words("x + y") == [] and identifier_words("a == b") == []


def test_identifier_words_strip_quotes_and_parens():
    assert identifier_words("who calls `parse_args()` here") == ["parse_args"]


def test_a_one_word_query_may_be_a_name():
    assert identifier_words("Session") == ["Session"]
    assert identifier_words("merge.") == ["merge"]
    assert identifier_words("merge cookies") == []  # two plain words are words
    assert identifier_words("a-b") == [] and identifier_words("42") == []
    assert classify("Session") == QueryShape.SINGLE_WORD  # the shape (RRF weights) is unchanged


def test_a_name_asked_for_with_its_kind():
    from codesift.query.shape import named_kind

    assert named_kind("class Session") == ("Session", frozenset({"class"}))
    assert named_kind("find the Session class") == ("Session", frozenset({"class"}))
    assert named_kind("type Command struct")[0] == "Command"
    assert named_kind("fn main") == ("main", frozenset({"function", "method"}))
    assert named_kind("where is Session defined?") == ("Session", frozenset())  # no kind named
    assert named_kind("Session") is None  # a one-word query, handled as such
    assert named_kind("class for sessions") is None  # two words beside the kind: a phrase
    assert named_kind("where is the cookie jar class") is None
    assert identifier_words("find the Session class") == ["Session"]
    assert identifier_words("session class docs") == []


@pytest.mark.parametrize("line, name, kind", [
    ("def list_domains(self) -> list[str]", "list_domains", "method"),
    ("async def fetch(url)", "fetch", "function"),
    ("func (i *uintValue[T]) String() string", "uintValue.String", "method"),
    ("public Builder toBuilder()", "toBuilder", "method"),
    ("static int parse_args(int argc, char **argv)", "parse_args", "function"),
    ("fn print_entry_colorized<W: Write>(stdout: &mut W,", "print_entry_colorized", "function"),
    ("export function mergeHeaders(base: HeadersInit): Headers", "mergeHeaders", "function"),
    ("public function setDecorated(bool $decorated)", "setDecorated", "method"),
    ("public final class CodeBlock", "CodeBlock", "class"),
    ("pub struct Config", "Config", "struct"),
    ("module Thor::Actions", "Thor.Actions", "module_def"),
    ("type BoolFlag = FlagBase[bool, BoolConfig, boolValue]", "BoolFlag", "type"),
    ("public async Task<int> RunAsync(string[] args)", "RunAsync", "method"),
    ("void Widget::draw(int x, int y) const", "Widget.draw", "method"),
    ("def self.start(given_args = ARGV, config = {})", "start", "method"),
    # C: a function-like macro, an export macro before the return type; C++: a class template's member
    ("#define luaL_checkint(L,n)", "luaL_checkint", "function"),
    ("LUALIB_API const char *luaL_tolstring (lua_State *L, int idx, size_t *len)", "luaL_tolstring", "function"),
    ("SPDLOG_INLINE void base_sink<Mutex>::set_pattern(const std::string &pattern)", "base_sink.set_pattern",
     "method"),
    # C++: an export macro between the keyword and the class's name
    ("class SPDLOG_API logger", "logger", "class"),
    ("struct SPDLOG_API log_msg : public details::msg", "log_msg", "struct"),
    ("class Q_CORE_EXPORT QObject", "QObject", "class"),
])
def test_a_pasted_definition_line_names_its_definition(line, name, kind):
    from codesift.query.shape import declared_name, pasted_definition

    got = declared_name(line)
    assert got is not None and got[0] == name and kind in got[1]
    assert identifier_words(line) == [name]
    assert pasted_definition(line) == bool(set(line) & set("(){}[]:;=<>,*&"))


@pytest.mark.parametrize("line, kinds", [
    ("func Unmarshal(data []byte, v interface{}) error", {"function"}),  # Go: no receiver, no method
    ("func (t *Tree) Unmarshal(v interface{}) error", {"method"}),
    ("def list_domains(self) -> list[str]", {"method"}),
    ("def from_dict(cls, d)", {"method"}),
    ("pub fn width(&self) -> f64", {"method"}),
    ("pub fn get<'a>(&'a mut self, k: K) -> V", {"method"}),
    ("pub fn into_inner(mut self) -> T", {"method"}),
    ("def helper(x)", {"function", "method"}),  # a static method looks the same
    ("fn new(width: usize) -> Self", {"function", "method"}),  # an associated function
    ("fn process(selfish: u8)", {"function", "method"}),
])
def test_a_definition_line_says_function_or_method_where_its_syntax_does(line, kinds):
    from codesift.query.shape import declared_name

    assert declared_name(line)[1] == kinds


@pytest.mark.parametrize("text", ["object storage", "how does parse(argv) handle options", "def initialize",
                                  "read extra command-line arguments from standard input", "class for sessions"])
def test_words_are_no_definition_line(text):
    from codesift.query.shape import declared_name

    assert declared_name(text) is None


@pytest.mark.parametrize("question, name", [
    ("who calls parse_args?", "parse_args"), ("who calls `parse_args()`", "parse_args"),
    ("where is Session used", "Session"), ("usages of merge_setting", "merge_setting"),
    ("callers of Type::method", "Type.method"), ("what uses RequestsCookieJar", "RequestsCookieJar"),
    ("where are cookies used in redirects", None), ("who calls the police", None),
    ("who calls parse_args with a list", None), ("where is the session", None),
])
def test_a_question_for_references(question, name):
    from codesift.query.shape import usage_question

    assert usage_question(question) == name


def test_identifier_words_keep_ruby_suffixes_and_drop_sentence_punctuation():
    assert identifier_words("check_unknown_options!") == ["check_unknown_options!"]
    assert identifier_words("Shell::Basic#yes?") == ["Shell.Basic.yes?"]
    assert identifier_words("where is rebuild_auth?") == ["rebuild_auth?"]  # told apart by boosts.name_match
    assert identifier_words("who calls parse()?") == ["parse"]
    assert identifier_words('is it "parse_args". or `Session.send`,') == ["parse_args", "Session.send"]
    assert classify("check_unknown_options!") == QueryShape.IDENTIFIER
    # a plain word before a question mark is still a word
    assert not looks_like_identifier("followed?")
    assert classify("where are redirects followed?") == QueryShape.NATURAL_LANGUAGE


@pytest.mark.parametrize("question, name", [
    ("where is mapFallbackValue checked before rejecting a map option", "mapFallbackValue"),
    ("where is CosineSimilarity used to propose close names", "CosineSimilarity"),
    ("Where is parse_args() called?", "parse_args"), ("where is z.object used by the schema", "object"),
    ("where are cookies used in redirects", None), ("where is Session defined", None),
    ("where is the kNotFound sentinel converted", None), ("find where CosineSimilarity is used", None),
    ("who calls _parse_value", "_parse_value"), ("usages of Session.send", "send"), ("who calls parsing", None),
])
def test_a_question_for_the_code_that_uses_a_name(question, name):
    from codesift.query.shape import used_name

    assert used_name(question) == name


@pytest.mark.parametrize("query, dotted", [
    ("~qt_color_sink", "~qt_color_sink"), ("qt_color_sink::~qt_color_sink", "qt_color_sink.~qt_color_sink"),
    ("Monolog\\Handler\\StreamHandler::write", "Monolog.Handler.StreamHandler.write"),
    ("\\Monolog\\Utils", "Monolog.Utils"), ("::Jekyll::Site", "Jekyll.Site"),
    ("EntryFilter#filter", "EntryFilter.filter"),
])
def test_each_languages_qualified_names_are_identifiers(query, dotted):
    assert classify(query) == QueryShape.IDENTIFIER
    assert identifier_words(query) == [dotted]
