"""HTTP embedding providers: Ollama (``/api/embed``) and any OpenAI-compatible ``/v1/embeddings``.

Standard library only (urllib), so they cost no dependency. The dimension is learnt from a probe at
start-up, which is also how an unreachable endpoint is detected before any search depends on it.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import numpy as np

from codesift.config.env import Environment
from codesift.embed.base import EmbeddingUnavailable
from codesift.errors import CodesiftError


class ProviderError(CodesiftError, RuntimeError):
    """One call to the provider failed (network, HTTP status, malformed answer)."""


def post_json(url: str, payload: dict, headers: dict[str, str], timeout: float) -> dict:
    req = urllib.request.Request(
        url, data=json.dumps(payload).encode(), headers={"Content-Type": "application/json", **headers}
    )
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:  # noqa: S310 - URL is user config
            return json.loads(resp.read())
    except urllib.error.HTTPError as exc:
        raise ProviderError(f"{url} answered HTTP {exc.code}") from exc
    except (urllib.error.URLError, TimeoutError, OSError) as exc:
        raise ProviderError(f"{url} unreachable: {getattr(exc, 'reason', exc)}") from exc
    except ValueError as exc:
        raise ProviderError(f"{url} sent invalid JSON") from exc


def _normalise(rows: list[list[float]], dim: int | None) -> np.ndarray:
    arr = np.asarray(rows, dtype=np.float32)
    if arr.ndim != 2 or (dim is not None and arr.shape[1] != dim):
        raise ProviderError(f"provider returned vectors of shape {arr.shape}, expected (n, {dim})")
    norms = np.linalg.norm(arr, axis=1, keepdims=True)
    return arr / np.maximum(norms, 1e-12)


class _HTTPEmbedder:
    """Shared batching, probing and normalisation; subclasses know the wire format."""

    max_chars = 6000
    batch_size = 64

    def __init__(self, url: str, model: str, timeout: float = 30.0) -> None:
        self.url, self.model, self.timeout = url.rstrip("/"), model, timeout
        self.dim = 0
        try:
            self.dim = int(self._call(["codesift probe"]).shape[1])
        except ProviderError as exc:
            raise EmbeddingUnavailable(
                f"embedding provider {self.model_id} not usable: {exc}",
                f"start the server at {self.url} (or fix CODESIFT_EMBED_URL / CODESIFT_EMBED_MODEL), "
                "or set CODESIFT_EMBEDDER=local for the built-in model",
            ) from exc

    model_id = ""

    def _call(self, texts: list[str]) -> np.ndarray:  # pragma: no cover - overridden
        raise NotImplementedError

    def embed(self, texts: list[str]) -> np.ndarray:
        out = [self._call([t[: self.max_chars] or " " for t in texts[i : i + self.batch_size]])
               for i in range(0, len(texts), self.batch_size)]
        return np.concatenate(out) if out else np.zeros((0, self.dim), dtype=np.float32)

    def embed_query(self, text: str) -> np.ndarray:
        return self._call([text[: self.max_chars] or " "])[0]


class OllamaEmbedder(_HTTPEmbedder):
    """Ollama's ``POST /api/embed`` (``{"model", "input": [...]}`` → ``{"embeddings": [...]}``)."""

    def __init__(self, url: str = "http://127.0.0.1:11434", model: str = "nomic-embed-text", timeout: float = 30.0):
        self.model_id = f"ollama:{model}"
        super().__init__(url, model, timeout)

    def _call(self, texts: list[str]) -> np.ndarray:
        data = post_json(f"{self.url}/api/embed", {"model": self.model, "input": texts}, {}, self.timeout)
        rows = data.get("embeddings") if isinstance(data, dict) else None
        if not isinstance(rows, list) or len(rows) != len(texts):
            raise ProviderError("Ollama answer has no 'embeddings' list of the right length")
        return _normalise(rows, self.dim or None)


class OpenAIEmbedder(_HTTPEmbedder):
    """Any OpenAI-compatible ``POST /v1/embeddings`` (``{"data": [{"embedding", "index"}]}``)."""

    def __init__(self, url: str = "http://127.0.0.1:8000/v1", model: str = "text-embedding-3-small",
                 api_key: str | None = None, timeout: float = 30.0):
        self.model_id = f"openai:{model}"
        self.api_key = api_key
        super().__init__(url, model, timeout)

    def _call(self, texts: list[str]) -> np.ndarray:
        headers = {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}
        data = post_json(f"{self.url}/embeddings", {"model": self.model, "input": texts}, headers, self.timeout)
        items = data.get("data") if isinstance(data, dict) else None
        if not isinstance(items, list) or len(items) != len(texts):
            raise ProviderError("answer has no 'data' list of the right length")
        try:
            rows = [item["embedding"] for item in sorted(items, key=lambda d: d.get("index", 0))]
        except (KeyError, TypeError) as exc:
            raise ProviderError("answer items lack 'embedding'") from exc
        return _normalise(rows, self.dim or None)


DEFAULT_MODELS = {"ollama": "nomic-embed-text", "openai": "text-embedding-3-small"}


def model_id_from_env(kind: str, env: Environment) -> str:
    """The id ``from_env(kind, env)`` would give its provider, without contacting it."""
    return f"{kind}:{env.embed_model or DEFAULT_MODELS[kind]}"


def from_env(kind: str, env: Environment) -> _HTTPEmbedder:
    """Build an HTTP provider from the environment's ``CODESIFT_EMBED_URL``/``_MODEL``/``_API_KEY`` (or
    ``OPENAI_API_KEY``)."""
    url, model = env.embed_url, env.embed_model
    if kind == "ollama":
        return OllamaEmbedder(url or "http://127.0.0.1:11434", model or DEFAULT_MODELS["ollama"])
    return OpenAIEmbedder(url or "http://127.0.0.1:8000/v1", model or DEFAULT_MODELS["openai"], env.embed_api_key)
