"""HTTP providers and the circuit breaker, against a real local HTTP server that fails on command."""

import hashlib
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import numpy as np
import pytest

from codesift import Index
from codesift.embed.breaker import BreakerEmbedder, CircuitOpen
from codesift.embed.base import EmbeddingUnavailable
from codesift.embed.http import OllamaEmbedder, OpenAIEmbedder

DIM = 16


def fake_vector(text: str) -> list[float]:
    """Deterministic bag-of-words vector: texts sharing words get close vectors."""
    vec = np.zeros(DIM)
    for word in text.lower().split():
        vec[int(hashlib.md5(word.encode()).hexdigest(), 16) % DIM] += 1.0
    return (vec + 0.01).tolist()


class Server:
    def __init__(self):
        self.fail = False
        self.calls = 0
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                outer.calls += 1
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                if outer.fail:
                    self.send_response(503)
                    self.end_headers()
                    return
                texts = body["input"]
                if self.path == "/api/embed":
                    out = {"embeddings": [fake_vector(t) for t in texts]}
                elif self.path == "/v1/embeddings":
                    assert self.headers.get("Authorization") == "Bearer sekret"
                    out = {"data": [{"index": i, "embedding": fake_vector(t)} for i, t in enumerate(texts)]}
                else:
                    self.send_response(404)
                    self.end_headers()
                    return
                data = json.dumps(out).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        # a short poll interval: shutdown() waits for one (0.5 s by default) in every test
        threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True).start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def server():
    s = Server()
    yield s
    s.close()


def test_ollama_and_openai_wire_formats(server):
    o = OllamaEmbedder(server.url, "m1")
    assert o.dim == DIM and o.model_id == "ollama:m1"
    v = o.embed(["alpha beta", "gamma"])
    assert v.shape == (2, DIM) and np.allclose(np.linalg.norm(v, axis=1), 1)
    a = OpenAIEmbedder(server.url + "/v1", "m2", api_key="sekret")
    assert np.allclose(a.embed_query("alpha beta"), v[0], atol=1e-6)


def test_unreachable_provider_is_a_clear_unavailable_error():
    with pytest.raises(EmbeddingUnavailable) as info:
        OllamaEmbedder("http://127.0.0.1:9", "m", timeout=2)
    assert "not usable" in info.value.reason and "CODESIFT_EMBED_URL" in info.value.fix


def test_breaker_opens_after_consecutive_failures_and_half_opens(server):
    now = [0.0]
    b = BreakerEmbedder(OllamaEmbedder(server.url, "m"), failures=5, reset_after=30, clock=lambda: now[0])
    server.fail = True
    for _ in range(5):
        with pytest.raises(EmbeddingUnavailable):
            b.embed_query("x")
    assert b.state == "open"
    calls = server.calls
    with pytest.raises(CircuitOpen):
        b.embed_query("x")
    assert server.calls == calls  # open: the server is not called at all
    now[0] = 31
    assert b.state == "half_open"
    with pytest.raises(EmbeddingUnavailable):
        b.embed_query("x")  # the trial fails: open again
    assert b.state == "open" and server.calls == calls + 1
    now[0] = 62
    server.fail = False
    assert b.embed_query("x").shape == (DIM,)
    assert b.state == "closed"


def test_index_degrades_to_keyword_only_and_recovers(server, repo, monkeypatch):
    monkeypatch.setenv("CODESIFT_EMBEDDER", "ollama")
    monkeypatch.setenv("CODESIFT_EMBED_URL", server.url)
    monkeypatch.setenv("CODESIFT_EMBED_MODEL", "fake")
    with Index(repo) as idx:
        idx.update()
        assert idx.status()["model"] == "ollama:fake" and idx.status()["coverage"] == 1.0
        assert idx.search("rebuild_auth", mode="semantic").embedding_status == "ok"
        server.fail = True
        for _ in range(6):
            res = idx.search("rebuild_auth")
            assert res.embedding_status == "keyword_only" and res.notes and res.mode == "keyword"
            assert res.results[0].name == "rebuild_auth" and res.results[0].score_kind == "keyword"
        assert idx.dense._embedder.state == "open"
        # files indexed while the provider is down get their embeddings later, without a rebuild
        (repo / "src/extra.py").write_text("def later_symbol():\n    return 1\n")
        stats = idx.update()
        assert stats.files_parsed == 1 and stats.embedded == 0
        assert idx.status()["coverage"] < 1.0
        server.fail = False
        idx.dense._embedder._opened_at = -1e9  # let the half-open trial through now
        stats = idx.update()
        assert stats.embedded >= 1 and idx.status()["coverage"] == 1.0
        assert idx.search("later_symbol", mode="semantic").embedding_status == "ok"


@pytest.mark.model
def test_a_provider_switch_re_embeds_with_the_new_model(server, repo, monkeypatch):
    with Index(repo) as idx:
        idx.update()
        local = idx.status()["model"]
    monkeypatch.setenv("CODESIFT_EMBEDDER", "ollama")
    monkeypatch.setenv("CODESIFT_EMBED_URL", server.url)
    with Index(repo) as idx:
        assert idx.search("x").mode == "keyword"  # the local model's vectors are not mixed with these
        assert idx.status()["model"] != local and idx.status()["embedded"] == 0
        assert idx.update().embedded > 0 and idx.status()["coverage"] == 1.0
