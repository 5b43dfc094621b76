import pytest

from codesift.text.punctuation import literal_terms
from codesift.store.keyword import KeywordDoc, KeywordIndex
from codesift.text.tokens import tokenize


@pytest.mark.parametrize("code, names", [
    ("if usage[i] == '`' {", {"backtick"}),                       # Go rune
    ('parts := strings.Split(s, ",")', {"comma"}),
    ('if arg == "--" {', {"dash", "hyphen"}),
    ("let x = c == '\\\\';", {"backslash"}),                       # an escaped backslash
    ("ch == '\\'' || ch == '\"'", {"quote", "apostrophe"}),         # an escaped delimiter, the other quote
    ("out.push('\\n')", {"newline", "whitespace"}),
    ('s.replace("{}", x)', {"brace", "curly"}),
    ("s.split('_')", {"underscore"}),
    ("' '.join(words)", {"space", "whitespace"}),
])
def test_short_punctuation_literals_are_named(code, names):
    assert names <= set(literal_terms(code).split())


@pytest.mark.parametrize("code", [
    'print("hello, world")',            # text: its words are the tokenizer's
    'x = ["a", "b"]',                   # the ", " between two literals is not one
    "fn f<'a>(x: &'a str) -> &'a str",  # lifetimes are no quotes
    'sep = "------"',                   # longer than five marks: a rule, not a mark
    "# don't stop here",
    'p = "\\x1b"',                      # an escape with no name
    'a = "→"',                          # a mark with no name
])
def test_other_text_names_nothing(code):
    assert literal_terms(code) == ""


def test_names_meet_the_words_a_description_uses():
    # "split on commas", "quoted", "backticks", "dashes": the query's stems are among the names' terms
    terms = set(literal_terms("""a(","); b('"'); c('`'); d("-")"""). split())
    for word in ("commas", "quoted", "quotes", "backticks", "dashes", "hyphens"):
        assert set(tokenize(word)) <= terms, word


def test_keyword_search_finds_code_by_the_mark_it_handles(tmp_path):
    index = KeywordIndex(tmp_path / "kw")
    for cid, name, text in [
        (1, "unquoteUsage", "func unquoteUsage(usage string) { if usage[i] == '`' { name = usage[i+1:j] } }"),
        (2, "usageName", "func usageName(usage string) { return name + usage }"),
    ]:
        index.add(KeywordDoc(cid, 1, "docs.go", "go", "function", name, name, "", "", "", text))
    index.commit()
    assert index.search("name between backticks in usage", 10)[0][0] == 1
