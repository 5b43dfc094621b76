"""Reading a git repository at a commit without a checkout: ``git rev-parse`` for the commit,
``git ls-tree -r -z -l`` for its files and one ``git cat-file --batch`` process for their blobs."""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from types import TracebackType
from typing import IO

from codesift.errors import CodesiftError
from codesift.indexing.gitfiles import GIT_ENV_DROP, GIT_TIMEOUT_S


class GitSourceError(CodesiftError, RuntimeError):
    """A git service cannot be read (no git, not a repository, unknown ref); the message says which."""


@dataclass(frozen=True, slots=True)
class TreeEntry:
    """One file of a commit's tree: path (``/``-separated), mode, blob id and size in bytes."""

    path: str
    mode: str
    sha: str
    size: int


def _env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k not in GIT_ENV_DROP}


def _git_exe() -> str:
    git = shutil.which("git")
    if git is None:
        raise GitSourceError("git is not installed: a service given as `git` needs it")
    return git


def _run(repo: Path, *args: str) -> bytes:
    try:
        proc = subprocess.run([_git_exe(), *args], cwd=repo, env=_env(), capture_output=True,
                              timeout=GIT_TIMEOUT_S, check=False)
    except (OSError, subprocess.SubprocessError) as exc:
        raise GitSourceError(f"git {args[0]} failed in {repo}: {exc}") from exc
    if proc.returncode != 0:
        err = proc.stderr.decode("utf-8", "replace").strip().splitlines()
        raise GitSourceError(f"git {args[0]} failed in {repo}: {err[-1] if err else proc.returncode}")
    return proc.stdout


def resolve_commit(repo: Path, ref: str) -> str:
    """The full sha of the commit ``ref`` names in ``repo``; raises :class:`GitSourceError`."""
    if not repo.is_dir():
        raise GitSourceError(f"git repository {repo} does not exist")
    if not ref or ref.startswith("-"):
        raise GitSourceError(f"invalid git ref {ref!r}")
    try:
        return _run(repo, "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}").decode().strip()
    except GitSourceError:
        raise GitSourceError(f"{repo}: no commit {ref!r} (a branch, tag or sha of that repository)") from None


def head_commit(folder: Path) -> str | None:
    """The commit checked out in the git work tree holding ``folder``; None outside git."""
    try:
        return _run(folder, "rev-parse", "--verify", "--quiet", "HEAD").decode().strip() or None
    except GitSourceError:
        return None


def list_tree(repo: Path, commit: str) -> list[TreeEntry]:
    """Every file of ``commit`` (blobs, symlinks and submodules alike; the caller sorts them out)."""
    out = []
    for record in _run(repo, "ls-tree", "-r", "-z", "-l", "--full-tree", commit).split(b"\0"):
        if not record:
            continue
        meta, _, raw_path = record.partition(b"\t")
        mode, kind, sha, size = meta.split()
        out.append(TreeEntry(os.fsdecode(raw_path), mode.decode(), sha.decode(),
                             int(size) if kind == b"blob" and size != b"-" else 0))
    return out


class BlobReader:
    """One ``git cat-file --batch`` process: blobs are asked for one at a time and streamed back."""

    def __init__(self, repo: Path) -> None:
        self.repo = repo
        self._proc: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> "BlobReader":
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.close()

    def _start(self) -> tuple[IO[bytes], IO[bytes]]:
        if self._proc is None:
            self._proc = subprocess.Popen([_git_exe(), "cat-file", "--batch"], cwd=self.repo, env=_env(),
                                          stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        assert self._proc.stdin is not None and self._proc.stdout is not None
        return self._proc.stdin, self._proc.stdout

    def read(self, obj: str) -> bytes:
        """The content of the object ``obj`` (a blob id or ``<commit>:<path>``); raises OSError when missing."""
        stdin, stdout = self._start()
        stdin.write(obj.encode("utf-8", "surrogateescape") + b"\n")
        stdin.flush()
        header = stdout.readline()
        if not header:
            raise OSError(f"git cat-file stopped while reading {obj}")
        parts = header.split()
        if len(parts) != 3 or parts[1] == b"missing":
            raise OSError(f"no such git object: {obj}")
        size = int(parts[2])
        data = stdout.read(size)
        stdout.read(1)  # the newline after each object
        return data

    def close(self) -> None:
        if self._proc is not None:
            proc, self._proc = self._proc, None
            try:
                if proc.stdin:
                    proc.stdin.close()
                proc.wait(timeout=10)
            except (OSError, subprocess.TimeoutExpired):
                proc.kill()
                proc.wait()
            if proc.stdout:
                proc.stdout.close()


@lru_cache(maxsize=64)
def read_blob(repo: str, commit: str, path: str) -> bytes:
    """``path`` as it is in ``commit`` (cached: a commit's blob never changes); raises OSError."""
    with BlobReader(Path(repo)) as reader:
        return reader.read(f"{commit}:{path}")
