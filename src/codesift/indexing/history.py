"""Git history: commits read with ``git log`` / ``git show`` subprocesses (no library), indexed into the
store's history tables (``store/commits.py``) and, when an embedder is available, embedded.

Paths are relative to the indexed root (``--relative``), as everywhere in codesift: for a root below the
repository's top, only the commits and paths under it are seen.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import xxhash

from codesift.embed.base import Embedder, EmbeddingUnavailable
from codesift.errors import CodesiftError
from codesift.indexing.gitfiles import GIT_ENV_DROP
from codesift.store.cache import EMBEDDINGS_FILE, EmbeddingCache
from codesift.store.commits import NewCommit
from codesift.store.sqlite import MetaStore
from codesift.text.tokens import to_index_text

DEFAULT_LIMIT = 1000  # commits read by `codesift index --history` without a number
MAX_LIMIT = 1_000_000
READ_BATCH = 500  # commits parsed and committed at a time: Ctrl-C keeps whole batches
EMBED_BATCH = 64
DIFF_MAX_LINES = 400
DIFF_MAX_BYTES = 40_000
GIT_TIMEOUT_S = 300.0
_FORMAT = "%x1e%H%x1f%at%x1f%aI%x1f%an%x1f%ae%x1f%P%x1f%B%x1f"
_SHA = re.compile(r"[0-9a-fA-F]{4,40}")

Progress = Callable[[str, int, int], None]


class NotAGitRepository(CodesiftError, ValueError):
    """History search was asked of a tree that is not inside a git repository."""


class CommitNotFound(CodesiftError, LookupError):
    """No commit (or more than one) answers to the sha or prefix given."""


class GitError(CodesiftError, OSError):
    """git is missing or failed; the message has its own words."""


@dataclass(slots=True)
class GitCommit:
    """A commit as ``git log`` describes it; paths are (path, status letter, old path or None)."""

    sha: str
    time: int
    date: str
    author: str
    email: str
    parents: tuple[str, ...]
    subject: str
    body: str
    paths: list[tuple[str, str, str | None]] = field(default_factory=list)


def _git(root: Path, *args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    git = shutil.which("git")
    if git is None:
        raise GitError("git is not installed (history search runs `git log`)")
    env = {k: v for k, v in os.environ.items() if k not in GIT_ENV_DROP}
    try:
        return subprocess.run([git, *args], cwd=root, env=env, input=stdin, capture_output=True,
                              timeout=GIT_TIMEOUT_S, check=False)
    except (OSError, subprocess.SubprocessError) as exc:
        raise GitError(f"git failed: {exc}") from exc


def _error(proc: subprocess.CompletedProcess[bytes]) -> str:
    return " ".join(proc.stderr.decode("utf-8", "replace").split())[:300] or f"exit code {proc.returncode}"


def require_git(root: Path) -> None:
    """Raise NotAGitRepository when ``root`` is not inside a git work tree."""
    proc = _git(root, "rev-parse", "--is-inside-work-tree")
    if proc.returncode != 0 or proc.stdout.strip() != b"true":
        raise NotAGitRepository(f"not a git repository: {root} (history search reads the repository's git log)")


def recent_shas(root: Path, limit: int) -> list[str]:
    """The newest ``limit`` commits of HEAD that touch the tree, newest first ([] before the first commit)."""
    proc = _git(root, "log", f"-n{limit}", "--format=%H", "--", ".")
    if proc.returncode != 0:
        if _git(root, "rev-parse", "--verify", "--quiet", "HEAD").returncode != 0:
            return []  # a repository without commits yet
        raise GitError(f"git log failed: {_error(proc)}")
    return proc.stdout.decode("ascii", "replace").split()


def _text(raw: bytes) -> str:
    return raw.decode("utf-8", "replace")


def parse_log(data: bytes) -> list[GitCommit]:
    """Commits from ``git log -z --name-status --format=_FORMAT`` output."""
    out = []
    for record in data.split(b"\x1e")[1:]:
        fields = record.split(b"\x1f", 6)
        if len(fields) < 7:
            continue
        sha, at, date, author, email, parents = (_text(f) for f in fields[:6])
        message, _, changes = fields[6].rpartition(b"\x1f")
        subject, _, body = _text(message).strip().partition("\n")
        commit = GitCommit(sha, int(at or 0), date, author, email, tuple(parents.split()), subject.strip(),
                           body.strip())
        tokens = changes.lstrip(b"\x00\n").split(b"\x00")
        i = 0
        while i < len(tokens):
            status = _text(tokens[i]).strip()
            if not status:
                i += 1
                continue
            if status[0] in "RC" and i + 2 < len(tokens):
                commit.paths.append((_text(tokens[i + 2]), status[0], _text(tokens[i + 1])))
                i += 3
            elif i + 1 < len(tokens):
                commit.paths.append((_text(tokens[i + 1]), status[0], None))
                i += 2
            else:
                break
        out.append(commit)
    return out


def read_commits(root: Path, shas: list[str]) -> list[GitCommit]:
    """Full commits (message, author, changed paths under the root) for the given shas, in that order."""
    if not shas:
        return []
    proc = _git(root, "log", "--no-walk=unsorted", "--stdin", "-z", "-M", "--name-status", "--relative",
                f"--format={_FORMAT}", stdin="\n".join(shas).encode() + b"\n")
    if proc.returncode != 0:
        raise GitError(f"git log failed: {_error(proc)}")
    return parse_log(proc.stdout)


def embed_text(subject: str, body: str) -> str:
    """What the dense model reads for a commit: its subject, then its body."""
    return f"{subject}\n\n{body}".strip()


def _new_commit(c: GitCommit) -> NewCommit:
    paths = " ".join(p for path, _, old in c.paths for p in (path, old) if p)
    terms = (to_index_text((c.subject,)), to_index_text((c.body,)), to_index_text((paths,)))
    digest = xxhash.xxh3_128_hexdigest(embed_text(c.subject, c.body).encode("utf-8", "surrogatepass"))
    return NewCommit(c.sha, c.time, c.date, c.author, c.email, c.subject, c.body, tuple(dict.fromkeys(c.paths)),
                     digest, terms)


@dataclass(slots=True)
class HistoryStats:
    """What one ``index --history`` run did."""

    commits: int = 0  # indexed in all, after this run
    added: int = 0
    embedded: int = 0
    embed_pending: int = 0
    seconds: float = 0.0
    embed_seconds: float = 0.0
    notes: list[str] = field(default_factory=list)


def index_history(root: Path, store: MetaStore, *, cache_dir: Path, limit: int = DEFAULT_LIMIT,
                  embedder: Embedder | None = None, progress: Progress | None = None,
                  embed_reason: str = "") -> HistoryStats:
    """Index the newest ``limit`` commits not indexed yet (keyed by sha), then embed the commits that have no
    vector when ``embedder`` is given (the machine-wide vector cache in ``cache_dir`` first). The caller holds
    the index's write lock."""
    if not 1 <= limit <= MAX_LIMIT:
        raise ValueError(f"the number of commits must be between 1 and {MAX_LIMIT:,}")
    require_git(root)
    t0 = time.perf_counter()
    stats = HistoryStats()
    history = store.history
    known = history.known_shas()
    todo = [sha for sha in recent_shas(root, limit) if sha not in known]
    for start in range(0, len(todo), READ_BATCH):
        batch = [_new_commit(c) for c in read_commits(root, todo[start : start + READ_BATCH])]
        history.add(batch)
        store.bump("history_generation")
        store.commit()
        stats.added += len(batch)
        if progress:
            progress("commits", stats.added, len(todo))
    stats.seconds = time.perf_counter() - t0
    stats.commits = history.count()
    if embedder is None:
        stats.embed_pending = stats.commits - history.count_embedded()
        stats.notes.append(f"commits indexed for keyword search only ({embed_reason or 'no embedder'})")
        return stats
    t1 = time.perf_counter()
    try:
        stats.embedded = _embed(store, embedder, progress, cache_dir)
    except EmbeddingUnavailable as exc:
        stats.notes.append(f"embedding stopped ({exc.reason}): the rest is embedded by the next run")
    stats.embed_seconds = time.perf_counter() - t1
    stats.embed_pending = stats.commits - history.count_embedded()
    return stats


def _embed(store: MetaStore, embedder: Embedder, progress: Progress | None, cache_dir: Path) -> int:
    """Embed the commits without a vector, a batch at a time (each batch committed); return how many."""
    pending = store.history.unembedded()
    cache = EmbeddingCache(cache_dir / EMBEDDINGS_FILE)
    done = 0
    for start in range(0, len(pending), EMBED_BATCH):
        part = pending[start : start + EMBED_BATCH]
        hashes = [h for h, _, _ in part]
        cached = cache.get_many(embedder.model_id, hashes, embedder.dim)
        todo = [(h, embed_text(s, b)) for h, s, b in part if h not in cached]
        if cached:
            found = list(cached)
            store.put_vectors(found, np.stack([cached[h] for h in found]))
        if todo:
            vecs = embedder.embed([t for _, t in todo])
            store.put_vectors([h for h, _ in todo], vecs)
            cache.put_many(embedder.model_id, [h for h, _ in todo], vecs)
        store.bump("history_generation")
        store.commit()
        done += len(part)
        if progress:
            progress("embed", done, len(pending))
    cache.close()
    return done


# -- one commit ------------------------------------------------------------------------------------
def resolve(root: Path, sha: str, indexed: Callable[[str], list[str]]) -> str:
    """The full sha of a commit given in full or by a unique prefix (4+ hex digits); CommitNotFound else."""
    given = sha.strip().lower()
    if not _SHA.fullmatch(given):
        raise CommitNotFound(f"not a commit sha: {sha!r} (give the full sha or a unique prefix of 4+ hex digits)")
    proc = _git(root, "rev-parse", "--verify", "--quiet", f"{given}^{{commit}}")
    if proc.returncode == 0:
        return proc.stdout.decode().strip()
    candidates = indexed(given)
    if len(candidates) > 1 or b"ambiguous" in proc.stderr:
        shown = ", ".join(c[:12] for c in candidates[:5])
        raise CommitNotFound(f"commit prefix {given!r} is ambiguous" + (f" ({shown}, …)" if shown else "")
                             + ": give more digits")
    raise CommitNotFound(f"no commit {given!r} in this repository (search_commits / `codesift commits` finds one)")


def show_commit(root: Path, full_sha: str, *, max_lines: int = DIFF_MAX_LINES,
                max_bytes: int = DIFF_MAX_BYTES) -> dict[str, object]:
    """A commit's message, author, date, changed files and its diff cut to ``max_lines`` / ``max_bytes``."""
    proc = _git(root, "show", "-z", "-M", "--name-status", "--relative", "--diff-merges=first-parent",
                f"--format={_FORMAT}", full_sha)
    found = parse_log(proc.stdout) if proc.returncode == 0 else []
    if not found:
        raise CommitNotFound(f"git cannot show commit {full_sha[:12]}: {_error(proc)}")
    c = found[0]
    diff, lines, cut = _bounded_diff(root, full_sha, max_lines, max_bytes)
    return {
        "sha": c.sha, "short": c.sha[:12], "author": c.author, "email": c.email, "date": c.date,
        "parents": list(c.parents), "subject": c.subject, "body": c.body,
        "files": [{"path": p, "status": s, **({"old_path": old} if old else {})} for p, s, old in c.paths],
        "diff": diff, "diff_lines": lines, "diff_truncated": cut,
        "diff_budget": {"lines": max_lines, "bytes": max_bytes},
    }


def _bounded_diff(root: Path, sha: str, max_lines: int, max_bytes: int) -> tuple[str, int, bool]:
    """The commit's patch, read until the budget is spent (git is stopped then: a huge commit costs
    no more than the budget); (text, lines kept, cut)."""
    git = shutil.which("git")
    if git is None:
        raise GitError("git is not installed")
    env = {k: v for k, v in os.environ.items() if k not in GIT_ENV_DROP}
    args = [git, "show", "--format=", "--patch", "-M", "--relative", "--no-color", "--no-ext-diff",
            "--diff-merges=first-parent", sha]
    kept: list[str] = []
    used, cut = 0, False
    with subprocess.Popen(args, cwd=root, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL) as proc:
        assert proc.stdout is not None
        for raw in proc.stdout:
            line = raw.decode("utf-8", "replace").rstrip("\n")
            if len(kept) >= max_lines or used + len(raw) > max_bytes:
                cut = True
                break
            kept.append(line)
            used += len(raw)
        if cut:
            proc.kill()
    return "\n".join(kept).strip("\n"), len(kept), cut
