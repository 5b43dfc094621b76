"""Shared fixtures: a small multi-language repository written into a temporary folder."""

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
def index(repo: Path):
    """The fixture repository, indexed with the real embedding model."""
    from codesift import Index

    with Index(repo) as idx:
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
