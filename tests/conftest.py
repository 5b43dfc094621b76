"""Shared fixtures: a small multi-language repository written into a temporary folder.

Tests are marked by what they cost (see tests/README.md): ``model`` (the real embedding model),
``subprocess`` (a ``codesift`` or Python child process), ``slow`` (anything else over ~2 s) and
``browser``. A fixture or helper tagged with :func:`marks_users` passes its markers on to every test
that uses it (``pytest_collection_modifyitems`` below); other tests carry their markers explicitly.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

# One machine-wide embedding cache per test session: hermetic (not ~/.cache), still shared by tests.
os.environ.setdefault("CODESIFT_CACHE_DIR", tempfile.mkdtemp(prefix="codesift-test-cache-"))

import pytest

COST_MARKERS = ("model", "subprocess", "slow", "browser")


def marks_users(*markers: str):
    """Tag a fixture (put it under ``@pytest.fixture``) or a helper function: every test that uses the
    fixture, directly or through another fixture, or that calls the helper (itself or in a fixture it
    uses) gets ``markers``. Keeps the markers where the cost is: a fixture that builds a real-model
    index, a helper that starts ``codesift`` in a child process."""
    assert set(markers) <= set(COST_MARKERS), markers

    def tag(fn):
        fn.cost_markers = tuple(markers)
        return fn

    return tag


FILES = {
    "src/http/sessions.py": '''
        """HTTP sessions."""
        import os


        class SessionRedirectMixin:
            """Mixin that follows redirects."""

            def resolve_redirects(self, resp, req):
                """Follow every redirect and drop the Authorization header on a new host."""
                while resp.is_redirect:
                    resp = self.send(req)
                return resp

            def rebuild_auth(self, prepared, response):
                """Strip credentials when the redirect leaves the original host."""
                headers = prepared.headers
                del headers["Authorization"]


        def merge_settings(request_setting, session_setting):
            """Merge a per-request setting with the session default."""
            return request_setting or session_setting
        ''',
    "src/http/cookies.py": '''
        class RequestsCookieJar:
            """A cookie jar with a dict interface."""

            def get(self, name, default=None):
                return default

            def set(self, name, value):
                self._cookies[name] = value
        ''',
    "web/server.js": '''
        // Parse the JSON body of an incoming request.
        function parseJsonBody(req) {
          return JSON.parse(req.body);
        }

        const listenOnPort = (app, port) => app.listen(port);
        module.exports = { parseJsonBody, listenOnPort };
        ''',
    "tests/test_sessions.py": '''
        def test_resolve_redirects_follows_redirects():
            assert resolve_redirects is not None
        ''',
    "docs/guide.md": '''
        # Guide

        ## Installing

        Run pip install to get started with the redirect helpers.
        ''',
}


def write_repo(root: Path, files: dict[str, str] = FILES) -> Path:
    for rel, body in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(body).lstrip("\n"), encoding="utf-8")
    return root


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return write_repo(tmp_path / "repo")


@pytest.fixture
@marks_users("model")
def index(repo: Path):
    """The fixture repository, indexed with the real embedding model; the test may change both."""
    from codesift import Index

    with Index(repo) as idx:
        idx.update()
        yield idx


@pytest.fixture(scope="session")
@marks_users("model")
def shared_index(tmp_path_factory: pytest.TempPathFactory):
    """The fixture repository indexed with the real embedding model once per session, for tests that
    only read it: never write to its files, update it or change its settings (use ``index`` for that)."""
    from codesift import Index

    root = write_repo(tmp_path_factory.mktemp("shared") / "repo")
    with Index(root) as idx:
        idx.update()
        yield idx


@pytest.fixture
def keyword_index(repo, monkeypatch):
    """The fixture repository indexed without embeddings (fast; keyword search and the static tools)."""
    from codesift import Index

    monkeypatch.setenv("CODESIFT_EMBEDDER", "none")
    with Index(repo) as idx:
        idx.update(embed=False)
        yield idx


def run_cli(*args: str, cwd: Path | str | None = None):  # noqa: ANN201 - click's Result
    """Invoke the ``codesift`` CLI in-process, optionally from another working directory."""
    from click.testing import CliRunner

    from codesift.cli.app import main

    old = os.getcwd()
    if cwd is not None:
        os.chdir(cwd)
    try:
        return CliRunner().invoke(main, list(args))
    finally:
        os.chdir(old)


def free_port() -> int:
    """A loopback port nobody listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
@marks_users("subprocess")
def http_server(repo: Path, log_path: Path, env: dict[str, str] | None = None) -> Iterator[int]:
    """``codesift serve --http`` over ``repo`` on a free loopback port, listening; yields the port and
    stops the server afterwards (its output goes to ``log_path``)."""
    port = free_port()
    with open(log_path, "w+") as log:
        proc = subprocess.Popen([sys.executable, "-m", "codesift", "serve", str(repo), "--http", "--port", str(port)],
                                stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                                env=env or os.environ.copy())
        try:
            for _ in range(300):  # up to ~30 s for imports and the start-up index update
                assert proc.poll() is None, log_path.read_text()[-3000:]
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                    break
                except OSError:
                    time.sleep(0.1)
            else:
                pytest.fail("server never listened:\n" + log_path.read_text()[-3000:])
            yield port
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


# --------------------------------------------------------------------------- markers by cost
def _called_names(code) -> set[str]:
    """Global names a function's code (nested functions included) refers to."""
    names = set(code.co_names)
    for const in code.co_consts:
        if hasattr(const, "co_names"):
            names |= _called_names(const)
    return names


def _helper_markers(fn) -> set[str]:
    """The markers of tagged helpers ``fn`` refers to by a global name (``http_server(...)``)."""
    fn = getattr(fn, "__wrapped__", fn)
    code, module_globals = getattr(fn, "__code__", None), getattr(fn, "__globals__", {})
    if code is None:
        return set()
    return {m for name in _called_names(code) for m in getattr(module_globals.get(name), "cost_markers", ())}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Give each test the markers of the tagged fixtures it uses and the tagged helpers it (or one of its
    fixtures) calls; the fixture that applies is the one the test resolves (a module's own ``index`` may
    override conftest's)."""
    for item in items:
        markers = _helper_markers(getattr(item, "function", None))
        info = getattr(item, "_fixtureinfo", None)
        for name in getattr(item, "fixturenames", ()):
            defs = info.name2fixturedefs.get(name) if info is not None else None
            if defs:
                markers |= set(getattr(defs[-1].func, "cost_markers", ())) | _helper_markers(defs[-1].func)
        for marker in sorted(markers - {m.name for m in item.iter_markers()}):
            item.add_marker(marker)


# --------------------------------------------------------------------------- the fast subset, checking the markers
FAST = "not model and not subprocess and not slow and not browser"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--fast", action="store_true",
                     help=f'only the fast tests: the same as -m "{FAST}" (and any -m given as well)')
    parser.addoption("--check-cost-markers", action="store_true",
                     help="report tests that load the embedding model, start a Python child process or take "
                          "over 2 s without the marker that says so (and fail the run if any)")


class _CostRecorder:
    """What each test really did (``--check-cost-markers``): loaded the local model, started a Python or
    ``codesift`` child, how long it took (a module- or session-scoped fixture counts in the first test that
    uses it). Work left running by a test's background threads can be put on the next test; rerun that
    one alone to be sure."""

    SLOW_S = 2.0

    def __init__(self) -> None:
        self.current: str | None = None
        self.seen: dict[str, set[str]] = {}
        self.marked: dict[str, set[str]] = {}

    def note(self, what: str) -> None:
        if self.current is not None:
            self.seen.setdefault(self.current, set()).add(what)

    def install(self) -> None:
        from codesift.embed import local

        recorder, load, popen = self, local.MiniLMEmbedder.__init__, subprocess.Popen.__init__

        def loading(self, *args, **kwargs):
            load(self, *args, **kwargs)
            recorder.note("model")  # loaded (a missing model file raises before)

        def starting(self, args, *rest, **kwargs):
            argv = [os.fsdecode(a) for a in args] if isinstance(args, (list, tuple)) else [os.fsdecode(args)]
            if argv and (os.path.basename(argv[0]).startswith(("python", "codesift")) or argv[0] == sys.executable):
                recorder.note("subprocess")  # (whether the child loads the model is not seen here)
            return popen(self, args, *rest, **kwargs)

        local.MiniLMEmbedder.__init__ = loading
        subprocess.Popen.__init__ = starting

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(self, item: pytest.Item, nextitem: pytest.Item | None):
        self.current = item.nodeid
        self.marked[item.nodeid] = {m.name for m in item.iter_markers()}
        start = time.perf_counter()
        yield
        if time.perf_counter() - start > self.SLOW_S:
            self.note("slow")

    def problems(self) -> list[str]:
        out = []
        for nodeid, seen in sorted(self.seen.items()):
            marked = self.marked.get(nodeid, set())
            missing = seen - marked
            if "slow" in missing and marked & {"model", "subprocess", "browser"}:
                missing.discard("slow")  # already out of the fast subset
            if missing:
                out.append(f"{nodeid}: not marked {', '.join(sorted(missing))}")
        return out

    def pytest_terminal_summary(self, terminalreporter) -> None:
        problems = self.problems()
        terminalreporter.section("cost markers")
        terminalreporter.write_line("\n".join(problems) if problems else "every costly test carries its marker")

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        if self.problems() and session.exitstatus == 0:
            session.exitstatus = 1


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("--fast"):
        given = config.option.markexpr
        config.option.markexpr = f"({given}) and {FAST}" if given else FAST
    if config.getoption("--check-cost-markers"):
        recorder = _CostRecorder()
        recorder.install()
        config.pluginmanager.register(recorder, "codesift-cost-markers")
