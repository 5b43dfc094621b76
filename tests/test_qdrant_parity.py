"""Parity: one fixture repository indexed into the embedded backend and into Qdrant answers the same.

Each query's top 5 (path, start line, end line, qualified name) must be identical, in the same order,
in keyword and in hybrid mode — tolerance: none on the order of the top 5. How it can hold: both
backends keep the same SQLite store and run the same fusion and ranking (``codesift.search.run``); only the
retrievers differ. The sparse BM25 vectors reproduce the tantivy scores (per-field IDF, tantivy's
quantised field lengths and mean lengths; equal to ~1e-6), and the dense scores are the cosines times
the stored vectors' norms (the embedded backend's dot products). Retriever scores are compared at 6
significant digits and ties broken by chunk id, as the embedded retrievers break theirs.

By default this runs on qdrant-client's local mode (a temporary folder); with ``CODESIFT_QDRANT_URL``
set it runs against that server, in a collection of its own that it deletes afterwards.
"""

from __future__ import annotations

import os
import shutil
import uuid
from pathlib import Path

import pytest

pytest.importorskip("qdrant_client")

from codesift import Index  # noqa: E402
from codesift.qdrant.collection import WINDOWS  # noqa: E402

from conftest import write_repo  # noqa: E402

FILES = {
    "app/auth/tokens.py": '''
        """Access tokens."""
        import hmac


        class TokenSigner:
            """Signs and verifies access tokens with a shared secret."""

            def sign(self, payload: bytes) -> str:
                """Return the HMAC signature of the payload."""
                return hmac.new(self.secret, payload, "sha256").hexdigest()

            def verify(self, payload: bytes, signature: str) -> bool:
                """Check a signature in constant time."""
                return hmac.compare_digest(self.sign(payload), signature)


        def refresh_token(session, token):
            """Exchange an expired token for a new one."""
            return session.post("/refresh", token)
        ''',
    "app/storage/cache.py": '''
        class LRUCache:
            """A least-recently-used cache with a fixed capacity."""

            def get(self, key, default=None):
                """Return the cached value and mark it recently used."""
                return self._data.get(key, default)

            def evict(self):
                """Drop the least recently used entry when the cache is full."""
                self._data.popitem(last=False)


        def retry_with_backoff(fn, attempts=3):
            """Call fn again after an exponential backoff when it raises."""
            for attempt in range(attempts):
                try:
                    return fn()
                except OSError:
                    sleep(2 ** attempt)
        ''',
    "web/router.ts": '''
        // Route incoming HTTP requests to their handlers.
        export function matchRoute(path: string, routes: Route[]): Route | undefined {
          return routes.find((r) => r.pattern.test(path));
        }

        export class RateLimiter {
          // Allow at most limit requests per window for each client.
          allow(clientId: string): boolean {
            const count = this.counts.get(clientId) ?? 0;
            this.counts.set(clientId, count + 1);
            return count < this.limit;
          }
        }
        ''',
    "server/handlers.go": '''
        package server

        // ServeFile writes a static file from the public folder to the response.
        func ServeFile(w http.ResponseWriter, r *http.Request) {
            http.ServeFile(w, r, filepath.Join("public", r.URL.Path))
        }

        // ParseJSONBody decodes the request body into v.
        func ParseJSONBody(r *http.Request, v any) error {
            return json.NewDecoder(r.Body).Decode(v)
        }
        ''',
    "docs/README.md": '''
        # Service

        ## Tokens

        Access tokens are signed with HMAC and refreshed when they expire.
        ''',
}

QUERIES = [
    "verify token signature",
    "TokenSigner",
    "least recently used cache eviction",
    "retry with exponential backoff",
    "match route for request path",
    "rate limit requests per client",
    "serve a static file",
    "ParseJSONBody",
    "decode json request body",
    "refresh expired token",
    "hmac",
]


def _top(idx: Index, query: str, mode: str) -> list[tuple[str, int, int, str]]:
    return [(r.path, r.start_line, r.end_line, r.qualified_name) for r in idx.search(query, mode=mode, limit=5).results]


@pytest.fixture
def parity_env(tmp_path: Path, monkeypatch):
    """Two copies of the fixture repository; yields (embedded root, qdrant root) with Qdrant settings
    applied by ``qdrant()``; a real server's test collection is deleted afterwards."""
    server = os.environ.get("CODESIFT_QDRANT_URL", "").startswith(("http://", "https://"))
    collection = f"codesift-parity-{uuid.uuid4().hex[:8]}" if server else "codesift"
    url = os.environ["CODESIFT_QDRANT_URL"] if server else str(tmp_path / "qdrant")
    monkeypatch.delenv("CODESIFT_EMBEDDER", raising=False)
    embedded, other = write_repo(tmp_path / "a" / "repo", FILES), write_repo(tmp_path / "b" / "repo", FILES)

    def qdrant() -> None:
        monkeypatch.setenv("CODESIFT_BACKEND", "qdrant")
        monkeypatch.setenv("CODESIFT_QDRANT_URL", url)
        monkeypatch.setenv("CODESIFT_QDRANT_COLLECTION", collection)

    monkeypatch.setenv("CODESIFT_BACKEND", "embedded")
    yield embedded, other, qdrant
    if server:
        from qdrant_client import QdrantClient

        QdrantClient(url=url, api_key=os.environ.get("CODESIFT_QDRANT_API_KEY") or None).delete_collection(collection)
    shutil.rmtree(tmp_path / "qdrant", ignore_errors=True)


@pytest.mark.model
def test_same_top5_in_keyword_and_hybrid_mode(parity_env) -> None:
    embedded_root, qdrant_root, use_qdrant = parity_env
    want: dict[tuple[str, str], list] = {}
    with Index(embedded_root) as idx:
        idx.update()
        assert idx.status()["coverage"] == 1.0
        for q in QUERIES:
            for mode in ("keyword", "hybrid"):
                want[q, mode] = _top(idx, q, mode)
    use_qdrant()
    with Index(qdrant_root) as idx:
        idx.update()
        assert idx.qdrant is not None and idx.qdrant.count() == idx.store.chunk_count()
        got = {(q, mode): _top(idx, q, mode) for q in QUERIES for mode in ("keyword", "hybrid")}
        batches: list[int] = []
        real = idx.qdrant.query_batch
        idx.qdrant.query_batch = lambda requests: batches.append(len(requests)) or real(requests)  # type: ignore[method-assign]
        response = idx.search("verify token signature", limit=5)
        assert response.mode == "hybrid" and response.results[0].vector_rank is not None
        # The keyword query (and its every-word variant when keyword_and_first is on), the dense query and
        # the long chunks' window vectors' (store/windows.py): one round-trip.
        assert idx.qdrant.has_windows and idx.status()["windows"]["embedded"] > 0
        # each long chunk's point holds its window vectors, as many as the embedded store has
        want_windows = idx.store.embedded_windows_by_chunk()
        points, _ = idx.qdrant.client.scroll(idx.qdrant.name, limit=1000, with_payload=["chunk_id"],
                                             with_vectors=[WINDOWS])
        held = {int(p.payload["chunk_id"]): len(p.vector[WINDOWS]) for p in points
                if p.payload and isinstance(p.vector, dict) and p.vector.get(WINDOWS)}
        assert held == want_windows
        assert batches == [3 + idx.config.rank.keyword_and_first]
    assert all(want[k] for k in want), "every query finds something"
    # Side by side (shown with `pytest -s`): each query's top 5 on both backends.
    for (q, mode), top in want.items():
        names = lambda hits: ", ".join(h[3] for h in hits)  # noqa: E731
        print(f"{mode:<7} {q[:42]:<42} | embedded: {names(top)} | qdrant: {names(got[q, mode])} | "
              f"{'same' if top == got[q, mode] else 'DIFFERENT'}")
    diffs = {k: (want[k], got[k]) for k in want if want[k] != got[k]}
    assert not diffs, diffs
