"""Query expansion: the LLM path against a fake chat server on 127.0.0.1, and the vocabulary path."""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import numpy as np
import pytest

from codesift import Index
from codesift.config.settings import Config, ConfigError, load_config
from codesift.embed.chat import ChatClient
from codesift.query.expand import (
    ExpansionCache,
    ExpansionError,
    LLMExpander,
    Vocabulary,
    chat_client,
    name_parts,
    parse_terms,
)


class FakeChat:
    """A chat server whose next answers are set by the test: ok / slow / bad_json / not_json / http_500."""

    def __init__(self) -> None:
        self.behaviour = "ok"
        self.terms = ["iter_content", "chunk_size"]
        self.requests: list[tuple[str, dict, dict]] = []
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:  # keep the test output clean
                pass

            def do_POST(self) -> None:  # http.server's naming
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                fake.requests.append((self.path, body, dict(self.headers)))
                if fake.behaviour == "slow":
                    time.sleep(1.5)
                if fake.behaviour == "http_500":
                    self.send_response(500)
                    self.end_headers()
                    return
                content = json.dumps({"terms": fake.terms}) if fake.behaviour != "not_json" else "iter_content, chunk"
                if self.path.endswith("/chat/completions"):
                    reply = {"choices": [{"message": {"role": "assistant", "content": content}}]}
                elif self.path.endswith("/api/generate"):
                    reply = {"response": content, "done": True}
                else:
                    reply = {"message": {"role": "assistant", "content": content}, "done": True}
                data = b"{not json" if fake.behaviour == "bad_json" else json.dumps(reply).encode()
                try:
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):  # the client gave up (timeout test)
                    pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        # a short poll interval: shutdown() waits for one (0.5 s by default) in every test
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def fake():
    server = FakeChat()
    yield server
    server.close()


def _expander(fake: FakeChat, tmp_path, provider: str = "ollama", timeout: float = 1.0, **kw) -> LLMExpander:
    url = fake.url if provider == "ollama" else fake.url + "/v1"
    client = ChatClient(provider, url, "tiny-model", timeout=timeout, **kw)
    return LLMExpander(client, ExpansionCache(tmp_path / "expansions.db"))


def test_ollama_chat_success(fake, tmp_path):
    terms = _expander(fake, tmp_path).expand("stream the body in pieces", "python")
    assert terms == ["iter_content", "chunk_size"]
    path, body, _ = fake.requests[0]
    assert path == "/api/chat" and body["model"] == "tiny-model" and body["stream"] is False
    assert "stream the body in pieces" in body["messages"][-1]["content"]
    assert "python" in body["messages"][-1]["content"]


def test_ollama_generate_endpoint(fake, tmp_path):
    client = ChatClient("ollama", fake.url + "/api/generate", "tiny-model", timeout=1.0)
    expander = LLMExpander(client, ExpansionCache(tmp_path / "e.db"))
    assert expander.expand("stream the body in pieces") == ["iter_content", "chunk_size"]
    assert fake.requests[0][0] == "/api/generate" and "prompt" in fake.requests[0][1]


def test_openai_compatible_success_sends_the_key(fake, tmp_path):
    terms = _expander(fake, tmp_path, provider="openai", api_key="sk-test").expand("stream the body in pieces")
    assert terms == ["iter_content", "chunk_size"]
    path, body, headers = fake.requests[0]
    assert path == "/v1/chat/completions" and body["model"] == "tiny-model"
    assert headers.get("Authorization") == "Bearer sk-test"


def test_timeout_fails_fast_and_cools_down(fake, tmp_path):
    fake.behaviour = "slow"
    expander = _expander(fake, tmp_path, timeout=0.3)
    t = time.perf_counter()
    with pytest.raises(ExpansionError, match="timed out|unreachable"):
        expander.expand("stream the body in pieces")
    assert time.perf_counter() - t < 1.2
    # Within the cool-down the server is not asked again: a server that is down costs one timeout.
    fake.behaviour = "ok"
    with pytest.raises(ExpansionError, match="not retried"):
        expander.expand("another question about the code")
    assert len(fake.requests) == 1
    expander._failed_at = time.monotonic() - 3600  # the cool-down is over
    assert expander.expand("another question about the code") == ["iter_content", "chunk_size"]


@pytest.mark.parametrize("behaviour, message", [("bad_json", "invalid JSON"), ("not_json", "did not answer with JSON"),
                                                ("http_500", "HTTP 500")])
def test_bad_answers_raise(fake, tmp_path, behaviour, message):
    fake.behaviour = behaviour
    with pytest.raises(ExpansionError, match=message):
        _expander(fake, tmp_path).expand("stream the body in pieces")


def test_cache_hit_in_memory_and_on_disk(fake, tmp_path):
    expander = _expander(fake, tmp_path)
    assert expander.expand("stream the body in pieces") == ["iter_content", "chunk_size"]
    assert expander.expand("stream  the body in pieces") == ["iter_content", "chunk_size"]  # same words
    assert len(fake.requests) == 1
    fake.behaviour = "http_500"  # a new process: the SQLite cache answers, the server is not asked
    assert _expander(fake, tmp_path).expand("stream the body in pieces") == ["iter_content", "chunk_size"]
    assert len(fake.requests) == 1
    # Another model is another key.
    other = LLMExpander(ChatClient("ollama", fake.url, "other-model", timeout=1.0),
                        ExpansionCache(tmp_path / "expansions.db"))
    with pytest.raises(ExpansionError):
        other.expand("stream the body in pieces")


def test_unwritable_cache_still_expands(fake, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    expander = LLMExpander(ChatClient("ollama", fake.url, "m", timeout=1.0), ExpansionCache(blocker / "sub" / "e.db"))
    assert expander.expand("stream the body in pieces") == ["iter_content", "chunk_size"]
    assert expander.expand("stream the body in pieces") == ["iter_content", "chunk_size"]
    assert len(fake.requests) == 1


def test_parse_terms_shapes():
    assert parse_terms('{"terms": ["a_b", "c", "a_b"]}') == ["a_b", "c"]
    assert parse_terms('```json\n{"keywords": ["x"]}\n```') == ["x"]
    assert parse_terms('Sure! ["x", "y"]') == ["x", "y"]
    assert parse_terms('{"other": ["z"]}') == ["z"]
    assert len(parse_terms(json.dumps({"terms": [f"t{i}" for i in range(30)]}))) == 8
    for bad in ("no json here", '{"terms": "x"}', '{"terms": [1, 2'):
        with pytest.raises(ExpansionError):
            parse_terms(bad)


def test_chat_client_from_settings(monkeypatch):
    for name in ("CODESIFT_CHAT_MODEL", "CODESIFT_CHAT_URL", "CODESIFT_CHAT_PROVIDER", "CODESIFT_EMBEDDER",
                 "CODESIFT_EMBED_URL", "CODESIFT_CHAT_API_KEY", "CODESIFT_EMBED_API_KEY", "OPENAI_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    assert chat_client(Config()) is None
    client = chat_client(Config(expand_model="qwen"))
    assert client.endpoint == "http://127.0.0.1:11434/api/chat" and client.timeout == 2.0
    monkeypatch.setenv("CODESIFT_EMBEDDER", "openai")
    monkeypatch.setenv("CODESIFT_EMBED_URL", "http://gpu:9000/v1")
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    monkeypatch.setenv("CODESIFT_CHAT_MODEL", "gpt-x")
    client = chat_client(Config(expand_model="ignored", expand_timeout=0.5))
    assert client.model == "gpt-x" and client.endpoint == "http://gpu:9000/v1/chat/completions"
    assert client.api_key == "k" and client.timeout == 0.5
    monkeypatch.setenv("CODESIFT_CHAT_URL", "http://other:1/v1")
    assert chat_client(Config()).endpoint == "http://other:1/v1/chat/completions"


def test_config_values_are_checked(tmp_path):
    (tmp_path / "codesift.toml").write_text('query_expansion = "sometimes"\n')
    with pytest.raises(ConfigError, match="query_expansion"):
        load_config(tmp_path)
    (tmp_path / "codesift.toml").write_text('query_expansion = "llm"\nexpand_model = "m"\nexpand_timeout = 1\n')
    cfg = load_config(tmp_path)
    assert cfg.query_expansion == "llm" and cfg.expand_timeout == 1.0


# -- through the API --------------------------------------------------------------------------------
STREAM_REPO = {
    "src/body.py": '''
        def iter_content(response, chunk_size=1):
            """Yield the payload piece by piece."""
            while True:
                data = response.raw.read(chunk_size)
                if not data:
                    break
                yield data


        def stream_upload(path):
            """Send a local file to the server, without loading it all first."""
            return open(path, "rb")
        ''',
}


@pytest.fixture
def stream_repo(tmp_path, monkeypatch):
    from conftest import write_repo

    monkeypatch.setenv("CODESIFT_EMBEDDER", "none")
    return write_repo(tmp_path / "repo", STREAM_REPO)


def test_search_with_llm_expansion(fake, stream_repo, monkeypatch, tmp_path):
    monkeypatch.setenv("CODESIFT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("CODESIFT_CHAT_URL", fake.url)
    monkeypatch.setenv("CODESIFT_CHAT_MODEL", "tiny-model")
    monkeypatch.delenv("CODESIFT_CHAT_PROVIDER", raising=False)
    query = "how do we get the data of a reply bit by bit"
    with Index(stream_repo, config=Config(query_expansion="llm")) as idx:
        idx.update()
        res = idx.search(query, mode="keyword")
        assert any("expanded (llm) with: iter_content, chunk_size" in n for n in res.notes)
        assert res.results[0].name == "iter_content"
        assert idx.search("iter_content", mode="keyword").notes == []  # identifiers are not rewritten
        fake.behaviour = "http_500"
        assert idx.search(query, mode="keyword").notes == res.notes  # cached: the server is not asked
        res = idx.search("which function sends a file to the server", mode="keyword")
        assert any(n.startswith("query expansion skipped (") and "as written" in n for n in res.notes)
        assert res.results and res.results[0].name == "stream_upload"
    with Index(stream_repo) as idx:  # off by default: nothing is asked
        before = len(fake.requests)
        assert not idx.search(query, mode="keyword").notes
        assert len(fake.requests) == before


def test_search_with_llm_expansion_without_a_model(stream_repo, monkeypatch):
    monkeypatch.delenv("CODESIFT_CHAT_MODEL", raising=False)
    with Index(stream_repo, config=Config(query_expansion="llm")) as idx:
        idx.update()
        res = idx.search("which function sends a file to the server", mode="keyword")
        assert any("no chat model configured" in n for n in res.notes)
        assert res.results[0].name == "stream_upload"


# -- the index's own vocabulary -----------------------------------------------------------------------
def test_name_parts():
    assert name_parts("SessionRedirectMixin.resolve_redirects") == ["session", "redirect", "mixin", "resolve"]
    assert name_parts("Conn::new_with_TLS2") == ["conn", "new", "tls"]


def test_vocabulary_suggests_co_occurring_parts():
    names = ["SessionRedirectMixin.resolve_redirects", "SessionRedirectMixin.rebuild_auth",
             "get_redirect_location", "redirect_location_header", "parse_cookie", "CookieJar.set_cookie"]
    vocab = Vocabulary.from_names(names)
    assert vocab.suggest(["redirect"]) == ["session", "mixin", "location"]
    assert vocab.suggest(["cooky"], k=1) == []  # "jar", "set", "parse" share only one name with it
    assert vocab.suggest(["unknown"]) == []


def test_vocabulary_round_trip_and_search(stream_repo, tmp_path):
    files = {f"src/m{i}.py": f"def redirect_location_{i}():\n    pass\n\n\ndef follow_redirect_{i}():\n    pass\n"
             for i in range(3)}
    files["src/other.py"] = "def location_of_target():\n    '''Where the redirect goes.'''\n"
    from conftest import write_repo

    root = write_repo(tmp_path / "vocab_repo", files)
    with Index(root, config=Config(query_expansion="vocab")) as idx:
        idx.update()
        res = idx.search("which redirect do we follow here", mode="keyword")
        assert any("expanded (vocab) with: location" in n for n in res.notes)
        saved = Vocabulary.load(idx.folder / "vocab.npz")
        assert saved is not None and "location" in saved.parts
        assert np.array_equal(saved.table, idx.engine.expander.vocabulary().table)


def test_prefix_setting_and_a_trailing_space(stream_repo):
    from codesift.rank import RankSettings

    with Index(stream_repo, config=Config(rank=RankSettings(keyword_prefix=True))) as idx:
        idx.update()
        assert idx.search("stream uplo", mode="keyword").results[0].name == "stream_upload"
        assert [r.name for r in idx.search("uplo", mode="keyword").results] == ["stream_upload"]
        assert idx.search("uplo ", mode="keyword").results == []  # a finished word is not completed
    with Index(stream_repo) as idx:  # off by default
        assert idx.search("uplo", mode="keyword").results == []
