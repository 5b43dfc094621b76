"""What the dense model reads: preamble, split identifiers, and the vocabulary tail of long chunks."""

from __future__ import annotations

from codesift.datatypes import Chunk
from codesift.text.model_input import HEAD_CHARS, WINDOW_CHARS, embed_text, query_embed_text, vocabulary_tail
from codesift.text.tokens import words_for_model

LONG_BODY = """func (cmd *Command) parseArgsFromStdin() ([]string, error) {
	breader := bufio.NewReader(cmd.Reader)
	token := ""
	for {
		ch, _, err := breader.ReadRune()
		if err == io.EOF {
			return args, nil
		}
		// a double quote starts a quoted string: keep its spaces together as one argument
		if ch == '"' {
			state = stateSearchForString
		}
		if unicode.IsSpace(ch) && state != stateSearchForString {
			args = append(args, token)
			token = ""
			continue
		}
		token += string(ch)
	}
	return args, fmt.Errorf("unterminated quoted argument at line %d", linenum)
}
"""


def test_documents_and_queries_reach_the_model_split_alike():
    chunk = Chunk("method", "parseArgs", "Command.parseArgs", 1, 2, "func (c *Command) parseArgs() {}", "go")
    text = embed_text(chunk, "cmd/commandRun.go")
    assert text.startswith("go method Command.parse Args\ncmd/command Run.go\n")
    assert "parseArgs" not in text
    assert query_embed_text("go function: ", "where is parseArgs") == "go function: where is parse Args"


def test_a_chunk_that_fits_the_window_is_read_whole():
    body = "def add(a, b):\n    # the sum of both\n    return a + b\n"
    text = embed_text(Chunk("function", "add", "add", 1, 3, body, "python"), "calc.py")
    assert text == "python function add\ncalc.py\n" + body


def test_a_long_chunk_keeps_its_head_then_the_vocabulary_of_the_rest():
    chunk = Chunk("method", "parseArgsFromStdin", "Command.parseArgsFromStdin", 1, 22, LONG_BODY, "go")
    text = embed_text(chunk, "command_run.go")
    preamble = "go method Command.parse Args From Stdin\ncommand_run.go\n"
    assert len(preamble + LONG_BODY) > WINDOW_CHARS and len(text) < len(preamble + LONG_BODY)
    head, _, tail = text.rpartition("\n")
    assert head.startswith(preamble) and len(head) <= len(preamble) + HEAD_CHARS
    assert words_for_model(LONG_BODY).startswith(head[len(preamble):])  # whole lines, verbatim
    words = tail.split()
    # the end of the function is read: its comment, its error message, its identifiers split at the humps
    assert {"double", "quote", "quoted", "unterminated", "search", "space", "linenum"} <= set(words)
    assert len(words) == len(set(words))  # each word once
    assert not {"return", "func", "nil", "err", "if", "string"} & set(words)  # keywords say nothing
    assert "reader" not in words  # already in the head (bufio.New Reader)
    assert words.index("double") < words.index("unterminated")  # in order of first use


def test_the_tail_is_cut_at_a_line_end_and_never_repeats_the_head():
    text = "alpha beta\ngamma delta\nepsilon alpha zeta\n"
    assert vocabulary_tail(text, 15) == "alpha beta\ngamma delta epsilon zeta"
    assert vocabulary_tail("one long line without breaks here", 8) == "one long\nline without breaks here"


def test_a_long_chunk_is_also_read_window_by_window():
    from codesift.text.model_input import MAX_WINDOWS, window_texts

    body = "".join(f"func step{i}(state *State) {{ state.value{i} = compute{i}(state) }}\n" for i in range(200))
    chunk = Chunk("function", "run", "run", 1, 200, body, "go")
    preamble = "go function run\nrun.go\n"
    windows = window_texts(chunk, "run.go")
    assert len(windows) == MAX_WINDOWS
    assert all(w.startswith(preamble) and len(w) <= WINDOW_CHARS for w in windows)
    pieces = [w[len(preamble):] for w in windows]
    assert all(p in words_for_model(body) for p in pieces)  # whole lines of the code, in order
    assert "step0(" not in pieces[0] and "step199(" in pieces[-1]  # past the head, to the very end
    assert window_texts(chunk, "run.go", limit=2)[-1] == windows[-1] and window_texts(chunk, "run.go", limit=0) == []
    # a chunk the model reads whole has none
    assert window_texts(Chunk("function", "add", "add", 1, 2, "def add(a, b):\n    return a + b\n", "python"),
                        "calc.py") == []
