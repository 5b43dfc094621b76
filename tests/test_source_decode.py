"""Source bytes as text (``codesift.text.source.decode_source``): UTF-8 first, UTF-16 with a BOM, then
Windows-1252 / Latin-1 for a file that is plainly one (issue 44: Latin-1 sources got mangled names)."""

from codesift import Index
from codesift.text.source import decode_source


def test_utf8_and_utf16_are_read_as_before():
    assert decode_source("def café():\n    pass\n".encode()) == ("def café():\n    pass\n", None)
    assert decode_source("\ufeffx = 1\n".encode()) == ("x = 1\n", None)  # the BOM is dropped
    assert decode_source("x = 'é'\n".encode("utf-16")) == ("x = 'é'\n", None)


def test_a_latin1_file_is_decoded_as_latin1_without_a_warning():
    source = "# Größe der Übergabe, « naïve » – 5 €\ndef größe(façade):\n    return 'é'\n"
    assert decode_source(source.encode("cp1252")) == (source, None)
    assert decode_source("ÀÉÎ = 1\n".encode("latin-1")) == ("ÀÉÎ = 1\n", None)


def test_garbage_and_broken_utf8_stay_utf8_with_replacements_and_the_warning():
    text, warning = decode_source(b"def ok():\n    return '" + bytes(range(0x80, 0xC0)) + b"'\n")
    assert "\ufffd" in text and warning == "invalid_utf8"  # a long run of high bytes is not Latin-1 text
    text, warning = decode_source(b"def bad():\n    return '\xff\xfe\xc3\x28'\n" + b"\xff\x80" * 300)
    assert warning == "invalid_utf8"
    # a UTF-8 file with one stray byte: its real UTF-8 letters are kept, not read as "Ã©"
    text, warning = decode_source("# café\n".encode() + b"x = '\xe9'\n" + b"y = 1\n" * 200)
    assert text.startswith("# café\nx = '\ufffd'") and warning is None  # one in hundreds: not flagged
    text, _ = decode_source(b"x = '\x81'\n")  # a byte Windows-1252 leaves undefined: not that either
    assert "\ufffd" in text


def test_a_latin1_source_is_indexed_under_its_real_names(tmp_path, monkeypatch):
    monkeypatch.setenv("CODESIFT_EMBEDDER", "none")
    (tmp_path / "legacy.py").write_bytes("def größe_berechnen(x):\n    return x\n".encode("latin-1"))
    with Index(tmp_path) as idx:
        summary = idx.update(embed=False)
        found = idx.find_symbol("größe_berechnen", exact=True)
    assert [s["name"] for s in found] == ["größe_berechnen"]
    assert summary.warnings == {}
