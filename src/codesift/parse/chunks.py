"""Turn one file's text into chunks: definitions + module-level blocks, sections or windows."""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING

from codesift.languages import GRAMMAR_LANGUAGES
from codesift.datatypes import Chunk
from codesift.parse import conditional, grammars
from codesift.parse.lang_c import mask_macros
from codesift.parse.references import Reference, references_in_tree

if TYPE_CHECKING:  # pragma: no cover
    from tree_sitter import Node, Parser
from codesift.parse.symbols import MAX_TEXT, Symbol, definition_rows, extract_definitions

WINDOW_LINES = 60
WINDOW_OVERLAP = 10
MODULE_BLOCK_LINES = 60
SECTION_MAX_LINES = 60
MAX_PARSE_BYTES = 4 * 1_048_576  # what discovery admits of source by default; larger is generated: windows
LONG_LINE = 5_000  # a line this long is data or minified code: a file whose definitions begin on such is windows

# Lines of only brackets (`});`, `}  // namespace x`) say nothing on their own.
_PUNCTUATION_ONLY = re.compile(r"^[\s()\[\]{};,.:]*(?://.*|/\*.*\*/\s*)?$")
_ATX_HEADING = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
# reStructuredText's section adornment: one punctuation character repeated, under (and maybe over) the title
_RST_ADORNMENT = re.compile(r"^([=\-`:'\"~^_*+#<>.])\1{2,}\s*$")
_CPP_HINT = re.compile(rb"^\s*(?:class|namespace|template)\b|\bstd::|^\s*(?:public|private):", re.M)


def extract_chunks(
    source: str, language: str, path: str = "", references: list[Reference] | None = None
) -> list[Chunk]:
    """Chunks for one file; never raises.

    Grammar languages give one chunk per definition plus ``module`` blocks for the code between
    them; Markdown and reStructuredText give ``section`` chunks per heading; everything else (and any file whose parse
    fails or finds nothing in a broken tree) gives overlapping 60-line ``window`` chunks.
    When ``references`` is a list, the references found in the same parse tree are appended to it
    (one parse serves both the symbol and the usage index).
    """
    if not source or not source.strip():
        return []
    try:
        if language in GRAMMAR_LANGUAGES and len(source) <= MAX_PARSE_BYTES:
            chunks = _grammar_chunks(source, language, path, references)
            if chunks is not None:
                return chunks
        if language == "markdown":
            return markdown_sections(source, path)
        if language == "rst":
            return rst_sections(source, path)
    except Exception:  # a parser/grammar bug must cost us symbols, not the file
        pass
    try:
        return line_windows(source, language, path)
    except Exception:
        return []


def _long_rows(src: bytes) -> set[int]:
    """The (0-based) rows over ``LONG_LINE`` bytes; empty at once for a file without any."""
    if len(src) <= LONG_LINE:
        return set()
    return {row for row, line in enumerate(src.split(b"\n")) if len(line) > LONG_LINE}


def _minified(root: Node, language: str, long_rows: set[int]) -> bool:
    """Whether a file with enormous lines is a bundle: most of its definitions begin on them (or it has none).
    Its symbols would each carry a slice of one line: it is indexed as windows. A file holding a long literal
    of data with definitions on ordinary lines (a 109 KB string on line 1, a ``def`` on line 3) is parsed as
    any other: what is stored and embedded of a line is capped, not what is parsed."""
    if not long_rows:
        return False
    rows = definition_rows(root, language)
    return not rows or 2 * sum(1 for row in rows if row in long_rows) > len(rows)


def _encode(source: str) -> bytes:
    try:
        return source.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        return source.encode("utf-8", "replace")


def _parse_symbols(
    src: bytes, language: str, references: list[Reference] | None = None
) -> tuple[list[Symbol], bool] | None:
    parser = grammars.get_parser(language)
    if parser is None:
        return None
    # Same offsets, so names and lines read from either; the chunks' text is read from the real source.
    tree = parser.parse(mask_macros(src) if language in ("c", "cpp") else src)
    if tree is None:
        return None
    root = tree.root_node
    if root.has_error and language in conditional.CONDITIONAL_LANGUAGES and conditional.has_conditionals(src):
        root = _past_conditionals(parser, src, root)
    if _minified(root, language, _long_rows(src)):
        return None
    if references is not None:
        references.extend(references_in_tree(root, src, language))
    return extract_definitions(root, src, language), root.has_error


def _past_conditionals(parser: Parser, src: bytes, root: Node) -> Node:
    """The tree with the fewest errors of ``root`` and ``src`` parsed again past its ``#if`` directives."""
    best, fewest = root, conditional.error_count(root)
    for variant in (conditional.all_branches, conditional.first_branch):
        tree = parser.parse(variant(src))
        if tree is None:
            continue
        errors = conditional.error_count(tree.root_node)
        if errors < fewest:
            best, fewest = tree.root_node, errors
        if not fewest:
            break
    return best


def _grammar_chunks(
    source: str, language: str, path: str, references: list[Reference] | None = None
) -> list[Chunk] | None:
    src = _encode(source)
    parsed = _parse_symbols(src, language, references)
    if parsed is None:
        return None
    symbols, has_error = parsed
    if has_error and language == "c" and path.lower().endswith(".h") and _CPP_HINT.search(src):
        # .h is C or C++; a C++ header parses with errors as C.
        alt = _parse_symbols(src, "cpp")
        if alt is not None and (not alt[1] or len(alt[0]) > len(symbols)):
            symbols, has_error = alt
            for symbol in symbols:
                symbol.chunk.language = language
    if not symbols and has_error:
        return None
    lines = src.decode("utf-8", "replace").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    chunks = [s.chunk for s in symbols]
    chunks.extend(module_blocks(lines, [s.covers for s in symbols], language, path))
    chunks.sort(key=lambda c: (c.start_line, c.kind == "module"))
    return chunks


def _stem(path: str) -> str:
    base = os.path.basename(path.replace("\\", "/"))
    return os.path.splitext(base)[0] or base or "module"


def _cap(text: str) -> str:
    """``text`` cut to ``MAX_TEXT`` characters by shortening its longest lines, not by dropping its tail.

    A window holding one 100k-character line keeps every other line (and so stays searchable for
    them); each long line keeps its head.
    """
    if len(text) <= MAX_TEXT:
        return text
    lines = text.split("\n")
    budget = MAX_TEXT - (len(lines) - 1)
    if budget < len(lines):  # not even a character per line
        return text[:MAX_TEXT]
    # Largest per-line cap such that sum(min(len(line), cap)) fits the budget (water-filling).
    lengths = sorted(len(line) for line in lines)
    cap = 0
    for i, length in enumerate(lengths):
        share = budget // (len(lengths) - i)
        if length > share:
            cap = share
            break
        budget -= length
    return "\n".join(line[:cap] for line in lines)


def module_blocks(
    lines: list[str], covered: list[tuple[int, int]], language: str, path: str
) -> list[Chunk]:
    """``module`` chunks for runs of non-blank lines outside every definition."""
    taken = bytearray(len(lines) + 2)
    for start, end in covered:
        lo, hi = max(start, 1), min(end, len(lines))
        if hi >= lo:
            taken[lo : hi + 1] = b"\x01" * (hi - lo + 1)
    stem = _stem(path)
    chunks: list[Chunk] = []
    block: list[int] = []

    def flush() -> None:
        if block and not all(_PUNCTUATION_ONLY.match(lines[i - 1]) for i in block):
            first, last = block[0], block[-1]
            chunks.append(
                Chunk(
                    kind="module",
                    name=stem,
                    qualified_name=f"{stem}:{first}",
                    start_line=first,
                    end_line=last,
                    text=_cap("\n".join(lines[first - 1 : last])),
                    language=language,
                )
            )
        block.clear()

    for number in range(1, len(lines) + 1):
        if taken[number] or not lines[number - 1].strip():
            flush()
            continue
        block.append(number)
        if len(block) >= MODULE_BLOCK_LINES:
            flush()
    flush()
    return chunks


def line_windows(source: str, language: str, path: str = "") -> list[Chunk]:
    """Overlapping ``window`` chunks of 60 lines (step 50) over the whole file."""
    lines = source.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    name = os.path.basename(path.replace("\\", "/")) or "file"
    chunks: list[Chunk] = []
    step = WINDOW_LINES - WINDOW_OVERLAP
    start = 0
    while start < len(lines):
        end = min(start + WINDOW_LINES, len(lines))
        piece = lines[start:end]
        if any(line.strip() for line in piece):
            chunks.append(
                Chunk(
                    kind="window",
                    name=name,
                    qualified_name=f"{name}:{start + 1}",
                    start_line=start + 1,
                    end_line=end,
                    text=_cap("\n".join(piece)),
                    language=language,
                )
            )
        if end >= len(lines):
            break
        start += step
    return chunks


def markdown_sections(source: str, path: str = "") -> list[Chunk]:
    """One ``section`` chunk per heading (``name`` = heading text, ``parent`` = outer heading).

    Headings inside fenced code blocks are ignored; sections longer than 60 lines are split.
    """
    lines = source.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    headings: list[tuple[int, int, str]] = []  # (0-based line, level, title)
    fence: str | None = None
    for i, line in enumerate(lines):
        match = _FENCE.match(line)
        if match:
            marker = match.group(1)
            if fence is None:
                fence = marker[0] * 3
            elif marker.startswith(fence):
                fence = None
            continue
        if fence is not None:
            continue
        match = _ATX_HEADING.match(line)
        if match:
            headings.append((i, len(match.group(1)), (match.group(2) or "").strip()))
            continue
        match = _SETEXT.match(line)
        if match and i > 0 and lines[i - 1].strip() and (not headings or headings[-1][0] != i - 1):
            prev = lines[i - 1]
            if not _FENCE.match(prev) and not prev.lstrip().startswith(("-", "*", ">", "|", "#")):
                headings.append((i - 1, 1 if match.group(1)[0] == "=" else 2, prev.strip()))
    return _sections(lines, headings, path, "markdown")


def rst_sections(source: str, path: str = "") -> list[Chunk]:
    """One ``section`` chunk per reStructuredText heading: a title line over an adornment line at least as
    long (``Upgrading`` / ``=========``), maybe under the same adornment too. Levels follow the order in
    which the adornment styles first appear, as docutils reads them."""
    lines = source.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    headings: list[tuple[int, int, str]] = []
    styles: list[tuple[str, bool]] = []
    for i in range(1, len(lines)):
        match = _RST_ADORNMENT.match(lines[i])
        title = lines[i - 1]
        if (not match or not title.strip() or _RST_ADORNMENT.match(title)
                or len(lines[i].rstrip()) < len(title.rstrip())):
            continue
        over = i >= 2 and lines[i - 2].rstrip() == lines[i].rstrip()
        if title[0].isspace() and not over:  # indented: a block quote or code, unless inset under an overline
            continue
        style = (match.group(1), over)
        if style not in styles:
            styles.append(style)
        headings.append((i - 2 if over else i - 1, styles.index(style) + 1, title.strip()))
    return _sections(lines, headings, path, "rst")


def _sections(lines: list[str], headings: list[tuple[int, int, str]], path: str, language: str) -> list[Chunk]:
    """The chunks of a prose file split at its ``headings`` (0-based line, level, title): text before the first
    one is named after the file; each section's qualified name is its headings' path (``Guide > Install``)."""
    stem = _stem(path)
    chunks: list[Chunk] = []
    starts = [h[0] for h in headings]
    if not headings or starts[0] > 0:
        first_end = starts[0] if headings else len(lines)
        _add_section(chunks, lines, 0, first_end, stem, stem, None, language)
    path_stack: list[tuple[int, str]] = []
    for index, (line_no, level, title) in enumerate(headings):
        end = starts[index + 1] if index + 1 < len(headings) else len(lines)
        while path_stack and path_stack[-1][0] >= level:
            path_stack.pop()
        parent = " > ".join(t for _, t in path_stack) or None
        path_stack.append((level, title or stem))
        qualified = " > ".join(t for _, t in path_stack)
        _add_section(chunks, lines, line_no, end, title or stem, qualified, parent, language)
    return chunks


def _add_section(
    chunks: list[Chunk],
    lines: list[str],
    start: int,
    end: int,
    name: str,
    qualified: str,
    parent: str | None,
    language: str,
) -> None:
    """Append the section ``lines[start:end]`` (0-based, end exclusive), split when long."""
    while end > start and not lines[end - 1].strip():
        end -= 1
    for piece_start in range(start, end, SECTION_MAX_LINES):
        piece_end = min(piece_start + SECTION_MAX_LINES, end)
        piece = lines[piece_start:piece_end]
        if not any(line.strip() for line in piece):
            continue
        chunks.append(
            Chunk(
                kind="section",
                name=name,
                qualified_name=qualified,
                start_line=piece_start + 1,
                end_line=piece_end,
                text=_cap("\n".join(piece)),
                language=language,
                parent=parent,
            )
        )
