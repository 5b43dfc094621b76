"""What the terminal shows (issue 14, item 9): piped output is never cut, the embedding wording matches
the counts, progress rates are measured over a real interval, and warnings name their files."""

import json
import os
import subprocess
import sys

import pytest
from click.testing import CliRunner

from codesift import Index
from codesift.api import describe_embedding
from codesift.cli.app import main
from codesift.cli.render import PIPE_WIDTH, RateMeter, output_console, warnings_line

LONG_DIR = "src/a_rather_deeply/nested_folder_structure/with_long_names/that_goes_on"
LONG_LINE = "    return " + " + ".join(f"argument_number_{i}" for i in range(12))


@pytest.fixture
def long_repo(repo):
    path = repo / LONG_DIR / "module_with_a_long_name.py"
    path.parent.mkdir(parents=True)
    path.write_text(f"def sum_of_many_arguments_with_a_long_name():\n{LONG_LINE}\n")
    assert len(LONG_LINE) > 200
    return repo


@pytest.mark.subprocess
def test_piped_search_output_keeps_long_lines_whole(long_repo, monkeypatch):
    monkeypatch.setenv("CODESIFT_EMBEDDER", "none")
    monkeypatch.delenv("COLUMNS", raising=False)
    assert CliRunner().invoke(main, ["index", str(long_repo), "-q"]).exit_code == 0
    args = ["search", "sum_of_many_arguments_with_a_long_name", "--root", str(long_repo), "--mode", "keyword"]
    result = CliRunner().invoke(main, args)  # CliRunner's stdout is not a TTY
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert any(line.rstrip().endswith(LONG_LINE.strip()) for line in lines), result.stdout
    assert any(f"{LONG_DIR}/module_with_a_long_name.py:1-2" in line for line in lines)
    assert max(map(len, lines)) < 400  # the wide console pads nothing
    # the same through a real pipe, in a fresh process
    proc = subprocess.run([sys.executable, "-m", "codesift", *args], capture_output=True, text=True,
                          env={**os.environ, "CODESIFT_EMBEDDER": "none"}, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert LONG_LINE.strip() in proc.stdout


def test_piped_console_never_wraps():
    console = output_console()  # pytest captures stdout: not a terminal
    assert not console.is_terminal and console.width == PIPE_WIDTH and console.soft_wrap


def test_describe_embedding_matches_the_counts():
    def say(status="ok", chunks=10, embedded=0):
        return describe_embedding({"embedding_status": status, "chunks": chunks, "embedded": embedded})

    assert say(embedded=0) == ("not embedded yet (0 of 10 chunks); run `codesift index` "
                               "(keyword search works meanwhile)")
    assert say(embedded=3).startswith("incomplete: 3 of 10 chunks embedded (30%)")
    assert "(99%)" in say(chunks=1000, embedded=999)  # floored, never "100%" while incomplete
    assert "(<1%)" in say(chunks=5000, embedded=3)
    assert say(embedded=10) == "ok, all 10 chunks embedded"
    assert say(chunks=0) == "ok (nothing indexed yet)"
    assert say("keyword_only", embedded=4) == "unavailable, keyword search only (4 of 10 chunks embedded)"


@pytest.mark.model
def test_status_wording_follows_the_real_state(repo):
    result = CliRunner().invoke(main, ["index", str(repo), "-q", "--no-embed"])
    assert result.exit_code == 0, result.output
    info = json.loads(CliRunner().invoke(main, ["status", str(repo), "--json"]).stdout)
    chunks = info["chunks"]
    assert info["embedded"] == 0 and info["embedding"].startswith(f"not embedded yet (0 of {chunks} chunks)")
    text = CliRunner().invoke(main, ["status", str(repo)]).stdout
    assert "not embedded yet" in text and "ok" not in text.split("embedding", 1)[1].splitlines()[0]
    with Index(repo) as idx:
        idx.update(embed_limit=1)
        assert idx.status()["embedding"].startswith(f"incomplete: 1 of {chunks} chunks embedded")
        idx.update()
        assert idx.status()["embedding"] == f"ok, all {chunks} chunks embedded"


def test_mcp_status_says_the_server_is_embedding(index, monkeypatch):
    pytest.importorskip("mcp")
    from codesift.server.service import IndexService
    from codesift.tools.markdown import render_status

    svc = IndexService(index)
    monkeypatch.setattr(IndexService, "embedding_in_progress", property(lambda self: True))
    svc.state = "embedding"
    info = svc.status()
    assert info["embedding"].startswith("in progress: ") and "run `codesift index`" not in info["embedding"]
    assert f"- **Embedding:** {info['embedding']}" in render_status(info).text


def test_rate_is_shown_only_over_a_real_interval():
    now = [100.0]
    meter = RateMeter(clock=lambda: now[0])
    assert meter.text("parse", 200, "files/s") == ""  # first report: a whole batch, no interval yet
    now[0] += 0.000002
    assert meter.text("parse", 400, "files/s") == ""  # was "106,000,000.0 files/s"
    now[0] += 1.999998
    assert meter.text("parse", 600, "files/s") == "200 files/s"
    assert meter.text("embed", 0, "chunks/s") == ""  # each stage has its own clock
    now[0] += 4
    assert meter.text("embed", 229, "chunks/s") == "57.2 chunks/s"
    assert meter.text("parse", 6200, "files/s") == "1,000 files/s"


@pytest.mark.model
def test_progress_starts_each_stage_at_zero(repo):
    calls = []
    with Index(repo) as idx:
        idx.update(progress=lambda stage, done, total: calls.append((stage, done, total)))
    parse = [c for c in calls if c[0] == "parse"]
    embed = [c for c in calls if c[0] == "embed"]
    assert parse[0] == ("parse", 0, 5) and parse[-1] == ("parse", 5, 5)
    assert embed[0][1] == 0 and embed[-1][1] == embed[-1][2] > 0


def test_invalid_utf8_warning_names_the_file(repo, tmp_path, monkeypatch):
    monkeypatch.setenv("CODESIFT_EMBEDDER", "none")
    (repo / "src" / "bad.py").write_bytes(b"def ok():\n    return '" + bytes(range(0x80, 0xC0)) + b"'\n")
    monkeypatch.chdir(tmp_path)  # paths are relative to the indexed root, not to the working directory
    result = CliRunner().invoke(main, ["index", str(repo)])
    assert result.exit_code == 0, result.output
    assert "warnings: 1 invalid_utf8 (src/bad.py)" in result.output
    (repo / "src" / "bad.py").write_bytes(b"x = '" + bytes(range(0x80, 0xC0)) + b"'\n")
    summary = json.loads(CliRunner().invoke(main, ["index", str(repo), "--json"]).stdout)
    assert summary["warnings"] == {"invalid_utf8": 1}
    assert summary["warned_files"] == {"src/bad.py": "invalid_utf8"}


def test_warnings_line_lists_a_few_files_per_reason():
    files = {f"f{i}.py": "parse_failed" for i in range(5)} | {"b.py": "invalid_utf8"}
    line = warnings_line({"parse_failed": 5, "invalid_utf8": 1}, files)
    assert line == "warnings: 1 invalid_utf8 (b.py), 5 parse_failed (f0.py, f1.py, f2.py, +2 more)"
    assert warnings_line({"unreadable": 2}, {}) == "warnings: 2 unreadable"
