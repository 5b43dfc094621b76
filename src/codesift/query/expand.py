"""Query expansion: extra terms for the keyword retriever, off unless ``query_expansion`` asks for them.

Two sources, chosen by the ``query_expansion`` setting (``off`` by default):

- ``llm``: a chat model (Ollama or any OpenAI-compatible server, the embedding provider's kind unless
  ``expand_provider`` says otherwise) rewrites a natural-language query into identifiers and keywords the
  code that answers it probably contains. Answers are cached per (model, prompt, query): in memory and in
  ``$CODESIFT_CACHE_DIR/expansions.db`` — machine-wide like the embedding cache, because a rewrite
  depends on the model and the words, not on the index (it survives rebuilds and serves every clone and
  branch). Every failure (no model configured, timeout, HTTP error, a reply that is not the JSON asked
  for) searches the plain query and says why in the response notes; after one, the model is left alone
  for ``COOLDOWN_S`` seconds so that a server that is down does not cost every query its timeout.
- ``vocab``: identifier parts that co-occur with the query's words in the index's own symbol names
  (``redirect`` → ``resolve``, ``location`` where names like ``resolve_redirects`` and
  ``redirect_location`` exist), at a lower weight. Offline and fast (a few numpy gathers per query
  word); the co-occurrence table is built from the names on first use and kept in the index folder.

Only the keyword retriever sees the extra terms: the dense side and the ranking stages keep the query
as written. Identifier-shaped and one-word queries are not expanded (they name what they look for).
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from codesift.embed.chat import DEFAULT_URLS, ChatClient
from codesift.embed.http import ProviderError
from codesift.languages import is_example_path, is_test_path
from codesift.query.shape import QueryShape, classify
from codesift.store.expansions import EXPANSIONS_FILE, ExpansionCache
from codesift.store.sqlite import StoreError
from codesift.text.tokens import STOP_WORDS, WORD, split_identifier, stem, tokenize

if TYPE_CHECKING:  # pragma: no cover
    from codesift.config.settings import Config
    from codesift.store.sqlite import MetaStore

LLM_WEIGHT = 0.5  # an LLM-suggested term counts half as much as a query word
LLM_MAX_TERMS = 8
COOLDOWN_S = 30.0
PROMPT_VERSION = "1"
SYSTEM_PROMPT = (
    "You turn a question about a code base into search terms for a keyword index of its source code. "
    "Reply with JSON only, of the form {\"terms\": [\"...\"]}: at most 8 identifiers (function, method, "
    "class, variable or API names, in the naming style of the language) or short technical keywords "
    "that the code answering the question is likely to contain. Do not repeat the question's own words."
)
NOT_EXPANDED = (QueryShape.IDENTIFIER, QueryShape.SINGLE_WORD)

VOCAB_WEIGHT = 0.3  # a co-occurring identifier part counts this much of a query word
VOCAB_TERMS = 3  # co-occurring parts added per query
VOCAB_MIN_CO = 2  # names a part must share with a query word to be suggested
VOCAB_MAX_SHARE = 0.02  # parts in more than this share of all names (get, set, new, …) are never suggested
VOCAB_COMMON_FLOOR = 25  # … nor in more than this many (small trees)
VOCAB_SMOOTHING = 5.0  # P(part | word) = shared names / (word's names + this): a rare word says little
VOCAB_ROWS = 1500  # names sampled per query word (keeps a common word's cost bounded)
VOCAB_WIDTH = 12  # parts kept per name
VOCAB_MAX_AGE_S = 600.0  # a table built before the last index change is reused for this long
VOCAB_FILE = "vocab.npz"
_TEST_NAME = re.compile(r"(?:^|[.:#])(?:test|Test)")


class ExpansionError(RuntimeError):
    """The chat model gave nothing usable (the message says why)."""


# -- LLM rewriting ---------------------------------------------------------------------------------
def chat_client(config: Config) -> ChatClient | None:
    """The chat client the configuration describes, or None when no chat model is configured. The
    environment's settings (``config.env``: ``CODESIFT_CHAT_*``) win over the file's ``expand_*``."""
    env = config.env
    model = env.chat_model or config.expand_model
    if not model:
        return None
    embedder = env.embedder or config.embedder or ""
    provider = (env.chat_provider or config.expand_provider
                or (embedder if embedder in DEFAULT_URLS else "ollama"))
    embed_url = env.embed_url if embedder == provider else None
    url = env.chat_url or config.expand_url or embed_url or DEFAULT_URLS.get(provider, DEFAULT_URLS["ollama"])
    return ChatClient(provider, url, model, api_key=env.chat_api_key, timeout=float(config.expand_timeout))


def parse_terms(reply: str) -> list[str]:
    """The terms of a reply shaped ``{"terms": [...]}`` (or a bare list), code fences tolerated."""
    text = reply.strip()
    if text.startswith("```"):
        text = text.strip("`")
        text = text[text.find("\n") + 1:] if "\n" in text else text
    start = min((i for i in (text.find("{"), text.find("[")) if i >= 0), default=-1)
    if start < 0:
        raise ExpansionError("the chat model did not answer with JSON")
    try:
        data, _ = json.JSONDecoder().raw_decode(text[start:])
    except ValueError as exc:
        raise ExpansionError("the chat model answered with invalid JSON") from exc
    if isinstance(data, dict):
        data = next((v for k in ("terms", "keywords", "identifiers") if isinstance(v := data.get(k), list)),
                    next((v for v in data.values() if isinstance(v, list)), None))
    if not isinstance(data, list):
        raise ExpansionError("the chat model's JSON holds no list of terms")
    terms = [t.strip() for t in data if isinstance(t, str) and t.strip() and len(t) <= 80]
    return list(dict.fromkeys(terms))[:LLM_MAX_TERMS]


class LLMExpander:
    """Rewrites a query through a chat model; cached, with a cool-down after a failure."""

    def __init__(self, client: ChatClient | None, cache: ExpansionCache,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.client = client
        self.cache = cache
        self.clock = clock
        self._failed_at: float | None = None
        self._failure = ""

    def key(self, query: str, language: str) -> str:
        model = self.client.model_id if self.client else ""
        raw = "\0".join((PROMPT_VERSION, model, language, " ".join(query.split())))
        return hashlib.sha256(raw.encode()).hexdigest()

    def expand(self, query: str, language: str = "") -> list[str]:
        """The suggested terms; raises :class:`ExpansionError` when there are none to be had."""
        if self.client is None:
            raise ExpansionError("no chat model configured (CODESIFT_CHAT_MODEL or expand_model)")
        key = self.key(query, language)
        cached = self.cache.get(key)
        if cached is not None:
            return cached
        if self._failed_at is not None and self.clock() - self._failed_at < COOLDOWN_S:
            raise ExpansionError(f"{self._failure}; not retried for {COOLDOWN_S:.0f}s")
        user = f"Language: {language}\nQuestion: {query}" if language else f"Question: {query}"
        try:
            terms = parse_terms(self.client.complete(SYSTEM_PROMPT, user))
        except (ProviderError, ExpansionError) as exc:
            self._failed_at, self._failure = self.clock(), str(exc)
            raise ExpansionError(str(exc)) from exc
        self._failed_at = None
        self.cache.put(key, terms)
        return terms


# -- the index's own vocabulary -----------------------------------------------------------------------
def _piece_parts(piece: str) -> tuple[str, ...]:
    return tuple(stem(p) for p in split_identifier(piece)
                 if 2 <= len(p) <= 40 and not p.isdigit() and p not in STOP_WORDS)


def name_parts(qualified_name: str, memo: dict[str, tuple[str, ...]] | None = None) -> list[str]:
    """The distinct stemmed parts of a (qualified) symbol name, as the keyword index spells them."""
    out: dict[str, None] = {}
    for piece in WORD.findall(qualified_name):
        parts = memo.get(piece) if memo is not None else None
        if parts is None:
            parts = _piece_parts(piece)
            if memo is not None:
                memo[piece] = parts
        out.update(dict.fromkeys(parts))
    return list(out)


class Vocabulary:
    """Which identifier parts occur together in the same symbol names (a name × part table)."""

    def __init__(self, parts: list[str], table: np.ndarray, generation: str = "", built: float = 0.0) -> None:
        self.parts = parts
        self.ids = {p: i for i, p in enumerate(parts)}
        self.table = table  # (names, VOCAB_WIDTH) part ids, len(parts) where a name has fewer parts
        self.generation, self.built = generation, built
        n = len(parts)
        flat = table.ravel()
        real = flat < n
        owners = np.repeat(np.arange(table.shape[0], dtype=np.int32), table.shape[1])[real]
        order = np.argsort(flat[real], kind="stable")
        self.rows = owners[order]  # names of each part, part by part
        self.df = np.bincount(flat[real], minlength=n).astype(np.int64)
        self.start = np.concatenate(([0], np.cumsum(self.df)))
        self.idf = np.log((table.shape[0] + 1) / (self.df + 1.0)).astype(np.float32)
        self.too_common = self.df > max(VOCAB_COMMON_FLOOR, VOCAB_MAX_SHARE * table.shape[0])

    @classmethod
    def from_names(cls, names: list[str], generation: str = "") -> "Vocabulary":
        ids: dict[str, int] = {}
        rows = []
        memo: dict[str, tuple[str, ...]] = {}  # classes and modules repeat in every member's name
        for name in names:
            parts = name_parts(name, memo)[:VOCAB_WIDTH]
            if len(parts) >= 2:  # a one-part name co-occurs with nothing
                rows.append([ids.setdefault(p, len(ids)) for p in parts])
        table = np.full((len(rows), VOCAB_WIDTH), len(ids), dtype=np.int32)
        for i, row in enumerate(rows):
            table[i, : len(row)] = row
        return cls(list(ids), table, generation, time.time())

    def save(self, path: Path) -> None:
        tmp = path.with_name(path.name + f".{os.getpid()}.tmp")
        try:
            with open(tmp, "wb") as fh:
                np.savez(fh, parts=np.array(self.parts, dtype=str), table=self.table,
                         meta=np.array([self.generation, str(self.built)], dtype=str))
            os.replace(tmp, path)
        except OSError:
            tmp.unlink(missing_ok=True)

    @classmethod
    def load(cls, path: Path) -> "Vocabulary | None":
        try:
            with np.load(path, allow_pickle=False) as data:
                meta = [str(m) for m in data["meta"]]
                return cls([str(p) for p in data["parts"]], data["table"].astype(np.int32), meta[0], float(meta[1]))
        except (OSError, ValueError, KeyError, IndexError):
            return None

    def suggest(self, words: list[str], k: int | None = None) -> list[str]:
        """Up to ``k`` parts most associated with ``words``: Σ over the words of idf(word) × P(part | word)
        × idf(part) (P smoothed by ``VOCAB_SMOOTHING``), among parts sharing at least ``VOCAB_MIN_CO``
        names with one of the words."""
        n, k = len(self.parts), VOCAB_TERMS if k is None else k
        # A word in a large share of all names (get, set, …) says little about any part: skipped.
        known = [i for w in dict.fromkeys(words) if (i := self.ids.get(w)) is not None and not self.too_common[i]]
        if not known or n == 0:
            return []
        score = np.zeros(n + 1, dtype=np.float32)
        best_co = np.zeros(n + 1, dtype=np.int64)
        for wid in known:
            rows = self.rows[self.start[wid] : self.start[wid + 1]]
            if len(rows) > VOCAB_ROWS:
                rows = rows[:: math.ceil(len(rows) / VOCAB_ROWS)]
            co = np.bincount(self.table[rows].ravel(), minlength=n + 1)
            np.maximum(best_co, co, out=best_co)
            score[:n] += self.idf[wid] * (co[:n] / (len(rows) + VOCAB_SMOOTHING)) * self.idf
        score[n] = 0
        score[:n][self.too_common] = 0
        score[best_co < VOCAB_MIN_CO] = 0
        score[known] = 0
        top = np.argsort(-score[:n], kind="stable")[: k * 3]
        out = [self.parts[i] for i in top if score[i] > 0 and len(self.parts[i]) >= 3]
        return out[:k]


class Expander:
    """What one index uses: the configured kind of expansion, for the queries worth expanding."""

    def __init__(self, config: Config, store: MetaStore, folder: Path) -> None:
        self.kind = config.query_expansion
        self.config, self.store, self.folder = config, store, folder
        self._llm: LLMExpander | None = None
        self._vocab: Vocabulary | None = None
        self._lock = threading.Lock()
        self._language: tuple[str | None, str] = (None, "")

    def expand(self, query: str, mode: str = "hybrid") -> tuple[tuple[tuple[str, float], ...], list[str]]:
        """((term, weight) pairs for the keyword retriever, notes for the response)."""
        if self.kind == "off" or mode == "semantic" or classify(query) in NOT_EXPANDED:
            return (), []
        if self.kind == "llm":
            if self._llm is None:
                self._llm = LLMExpander(chat_client(self.config),
                                        ExpansionCache(self.config.env.cache_dir / EXPANSIONS_FILE))
            try:
                terms = self._llm.expand(query, self._main_language())
            except ExpansionError as exc:
                return (), [f"query expansion skipped ({exc}): searched the query as written"]
            weight = LLM_WEIGHT
        else:
            try:
                terms = self.vocabulary().suggest(tokenize(query))
            except (StoreError, OSError, ValueError) as exc:
                return (), [f"query expansion skipped ({exc}): searched the query as written"]
            weight = VOCAB_WEIGHT
        if not terms:
            return (), []
        return tuple((t, weight) for t in terms), [f"keyword query expanded ({self.kind}) with: {', '.join(terms)}"]

    def _generation(self) -> str:
        return str(self.store.get_meta("generation", "0"))

    def _main_language(self) -> str:
        gen = self._generation()
        if self._language[0] != gen:
            self._language = (gen, self.store.main_language())
        return self._language[1]

    def vocabulary(self) -> Vocabulary:
        """The co-occurrence table: this process's, the index folder's, or built now from the names.
        One built before the index last changed is reused while younger than ``VOCAB_MAX_AGE_S``."""
        with self._lock:
            gen = self._generation()

            def fresh(v: Vocabulary) -> bool:
                return v.generation == gen or time.time() - v.built < VOCAB_MAX_AGE_S

            if self._vocab is not None and fresh(self._vocab):
                return self._vocab
            path = self.folder / VOCAB_FILE
            vocab = Vocabulary.load(path) if path.is_file() else None
            if vocab is None or not fresh(vocab):
                # Tests are left out: their long descriptive names pair words no implementation pairs.
                names = [name for name, file in self.store.definition_names()
                         if not (is_test_path(file) or is_example_path(file) or _TEST_NAME.search(name))]
                vocab = Vocabulary.from_names(names, gen)
                vocab.save(path)
            self._vocab = vocab
            return vocab
