"""A doc comment's description, not its block tags, is the summary results and outlines show."""

from __future__ import annotations

from codesift import Index
from codesift.search.run import doc_line
from codesift.text.doc_comments import description

PHP = """<?php
namespace App;

/**
 * Forwards records to the first handler that accepts them.
 *
 * @author Someone <someone@example.com>
 */
class Forwarder
{
    /**
     * @param  array<int, string> $levelMap an array of E_* constant to level mapping
     * @return $this
     */
    public function registerLevels(array $levelMap = []): self
    {
        return $this;
    }

    /**
     * {@inheritDoc}
     */
    public function handle(array $record): bool
    {
        return true;
    }

    /**
     * @deprecated Use dropBelow() instead.
     */
    public function filter(int $threshold): void
    {
    }

    /**
     * Drops the records below the threshold.
     * @param int $threshold the lowest level kept
     */
    public function dropBelow(int $threshold): void
    {
    }
}
"""


def test_the_description_ends_where_the_block_tags_begin():
    assert description("Returns the value.\n@param x the x\n@return int") == "Returns the value."
    assert description("@param x the x\n@return $this") == ""
    assert description("@internal") == ""
    assert description("Flushes.\n * @throws IOException when closed") == "Flushes."
    assert description("\\brief Makes a logger.\n\\param name its name") == "Makes a logger."
    assert description("@brief Makes a logger.\n@param name its name") == "Makes a logger."
    assert description("{@inheritDoc}") == "" and description("<inheritdoc/>") == ""
    assert description('<inheritdoc cref="IDisposable.Dispose"/>') == ""
    # prose stays whole: an annotation named in it (upper case), a paragraph after a blank line, Lua's "@@"
    assert description("Marks the function\n@Composable when asked.") == "Marks the function\n@Composable when asked."
    assert description("First.\n\nSecond.") == "First.\n\nSecond."
    assert description("@@ LUA_API marks the exported functions") == "@@ LUA_API marks the exported functions"


def test_inline_markup_reads_as_the_words_it_shows():
    assert description('Initializes a new instance of the <see cref="BrokenCircuitException"/> class.\n\n'
                       '<param name="retryAfter">The period.</param>') == (
        "Initializes a new instance of the BrokenCircuitException class.")
    assert description('Returns <c>true</c> if <paramref name="value"/> is <see langword="null"/>.') == (
        "Returns true if value is null.")
    assert description('Gets the <see cref="T:System.String"/> value.') == "Gets the System.String value."
    assert description('<param name="a">A.</param>\n<returns>The sum.</returns>') == ""  # C# block elements
    assert description("Delegates to {@link #addMember(String, String, Object...)}, with parameter {@code format}") == (
        "Delegates to addMember(String, String, Object...), with parameter format")
    assert description("Use {@link Builder#setHeader} or {@linkplain java.util.List the list}.") == (
        "Use Builder#setHeader or the list.")


def test_a_result_doc_line_leaves_the_tags_out():
    assert doc_line("@param array $levelMap the map\n@return $this", "public function f()") == ""
    assert doc_line("Drops the records.\n@param int $t the level", "public function f()") == "Drops the records."


def test_outline_and_search_show_the_description(tmp_path, monkeypatch):
    monkeypatch.setenv("CODESIFT_EMBEDDER", "none")
    (tmp_path / "Forwarder.php").write_text(PHP)
    with Index(tmp_path) as idx:
        idx.update(embed=False)
        docs = {s["name"]: s["doc"] for c in idx.outline("Forwarder.php")["symbols"]
                for s in [c, *c["children"]]}
        assert docs == {"Forwarder": "Forwards records to the first handler that accepts them.",
                        "registerLevels": "", "handle": "", "filter": "Deprecated: Use dropBelow() instead.",
                        "dropBelow": "Drops the records below the threshold."}
        results = {r.name: r.doc for r in idx.search("register levels map", mode="keyword").results}
        assert results["registerLevels"] == ""
        results = {r.name: r.doc for r in idx.search("drop records below threshold", mode="keyword").results}
        assert results["dropBelow"] == "Drops the records below the threshold."
