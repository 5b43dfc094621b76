from codesift.text.tokens import split_identifier, stem, to_index_text, tokenize


def test_camel_case_keeps_compound_and_parts():
    assert tokenize("getAuthToken") == ["getauthtoken", "get", "auth", "token"]


def test_snake_case_matches_camel_case_compound():
    assert tokenize("get_auth_token") == tokenize("getAuthToken")


def test_acronyms_and_digits_split():
    assert split_identifier("HTTPServer2Handler") == ["http", "server", "2", "handler"]
    assert split_identifier("parseJSON") == ["parse", "json"]


def test_dunder_and_private_names():
    assert tokenize("__init__") == ["init"]
    assert tokenize("_AppCtxGlobals") == ["appctxglobals", "app", "ctx", "global"]


def test_stop_words_dropped_but_kept_on_request():
    assert tokenize("where are the redirects") == ["redirect"]
    assert "where" in tokenize("where are the redirects", keep_stop_words=True)


def test_light_stemming_is_applied_to_parts():
    assert stem("redirects") == "redirect"
    assert stem("followed") == "follow"
    assert stem("cookies") == stem("cookie")
    assert stem("entries") == stem("entry")
    assert stem("class") == "class"
    assert stem("status") == "status"


def test_a_doubled_consonant_before_ing_or_ed_meets_the_base_word():
    for said, base in (("running", "run"), ("stopped", "stop"), ("mapped", "map"), ("skipping", "skip"),
                       ("resetting", "reset"), ("putting", "put"), ("committed", "commit"), ("getting", "get")):
        assert stem(said) == stem(base) == base, said
    # a pair the base word has stays
    for said, base in (("filled", "fill"), ("passing", "pass"), ("buzzed", "buzz"), ("stuffed", "stuff"),
                       ("adding", "add"), ("seeded", "seed")):
        assert stem(said) == base, said
    for plural, singular in (("settings", "setting"), ("strings", "string"), ("mappings", "mapping")):
        assert stem(plural) == stem(singular), plural
    assert stem("things") == stem("thing") == "thing"


def test_overlong_tokens_are_dropped():
    blob = "a" * 100
    assert tokenize(blob) == []


def test_to_index_text_joins_fields():
    assert to_index_text(["fooBar", None, "", "baz"]) == "foobar foo bar baz"  # type: ignore[list-item]


def test_non_ascii_and_punctuation_only():
    assert tokenize("!!! ... ---") == []
    assert tokenize("naïve café") == ["na", "ve", "caf"]


def test_to_index_text_equals_iter_tokens_on_real_code():
    from pathlib import Path

    source = Path(__file__).read_text()
    assert to_index_text([source]).split() == tokenize(source)


def test_words_for_model_splits_camel_humps_only():
    from codesift.text.tokens import words_for_model

    assert words_for_model("cmd.parseArgsFromStdin()") == "cmd.parse Args From Stdin()"
    assert words_for_model("HTTPServer getHTTPResponse utf8Decode") == "HTTP Server get HTTP Response utf8 Decode"
    assert words_for_model("snake_case stays, as do words.") == "snake_case stays, as do words."
