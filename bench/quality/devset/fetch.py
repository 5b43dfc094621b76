"""Fetch the dev set's corpora (``corpora.toml``) from package registries and check every query target.

    python bench/quality/devset/fetch.py [--only cobra zod] [--cache DIR] [--queries main|short|terse]

Go, Rust, PHP and Ruby sources come from Debian's archive (``apt-get download``, unpacked with ``dpkg-deb -x``:
the ``-dev``, ``php-`` and ``ruby-`` packages ship the sources), Java, C, C++ and C# from Debian's source archive (the
upstream ``.orig.tar.*`` of the source package, read from ``deb.debian.org``'s pool), JavaScript, TypeScript and
the Kotlin corpus (an npm package's Android code) from npm (``npm pack``), Python from PyPI sdists (``pip download --no-binary :all:``). Each archive is checked against its sha256, and the
corpus root is ``$CODESIFT_DEVSET_CACHE`` (default ``~/.cache/codesift-devset``) ``/<name>``. Running it
again checks and skips what is there. Then every target of ``queries/`` is verified: the file exists and
its start line holds the symbol's name.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import subprocess
import sys
import tarfile
import tempfile
import urllib.error
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # bench/: `import common` (bench/README.md)

from common import DEVSET_CACHE, DEVSET_QUERY_SETS, devset_corpora, devset_query_file  # noqa: E402

DEBIAN_POOL = "http://deb.debian.org/debian/pool/main"

def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _download(c: dict, into: Path) -> Path:
    """The corpus's archive in ``into``, downloaded when missing; exits on a checksum mismatch."""
    target = into / c["file"]
    if not target.exists() and c["registry"] == "debian-source":
        url = f"{DEBIAN_POOL}/{c['directory']}/{c['file']}"
        try:
            with urllib.request.urlopen(url, timeout=120) as resp:
                data = resp.read()
        except (urllib.error.URLError, OSError) as exc:
            raise SystemExit(f"{c['name']}: downloading {url} failed: {exc}") from None
        target.write_bytes(data)
    if not target.exists():
        if c["registry"] == "debian":
            version = c["file"].split("_")[1]
            cmd = ["apt-get", "download", f"{c['package']}={version}"]
        elif c["registry"] == "npm":
            cmd = ["npm", "pack", c["package"], "--pack-destination", str(into)]
        else:
            cmd = [sys.executable, "-m", "pip", "download", "--no-binary", ":all:", "--no-deps", "-q", c["package"],
                   "-d", str(into)]
        try:
            subprocess.run(cmd, cwd=into, check=True, capture_output=True, text=True)
        except FileNotFoundError:
            raise SystemExit(f"{c['name']}: `{cmd[0]}` is not on PATH (needed for {c['registry']} sources)") from None
        except subprocess.CalledProcessError as exc:
            why = (exc.stderr or exc.stdout or "").strip()[-300:]
            raise SystemExit(f"{c['name']}: `{' '.join(cmd)}` failed: {why}") from None
        if not target.exists():  # apt-get writes ~ in versions as %7e
            alt = into / c["file"].replace("~", "%7e")
            if alt.exists():
                alt.rename(target)
    digest = _sha256(target)
    if digest != c["sha256"]:
        raise SystemExit(f"{c['name']}: sha256 of {target.name} is {digest}, expected {c['sha256']}")
    return target


def _unpack(archive: Path, registry: str, into: Path) -> None:
    if registry == "debian":
        subprocess.run(["dpkg-deb", "-x", str(archive), str(into)], check=True, capture_output=True)
    else:
        with tarfile.open(archive) as tar:
            tar.extractall(into, filter="data")


def fetch(c: dict, cache: Path) -> Path:
    """The corpus root, fetched and unpacked if it is not there yet."""
    root = cache / c["name"]
    if root.is_dir():
        return root
    archives = cache / "_archives"
    archives.mkdir(parents=True, exist_ok=True)
    archive = _download(c, archives)
    with tempfile.TemporaryDirectory(dir=cache) as tmp:
        _unpack(archive, c["registry"], Path(tmp))
        shutil.move(str(Path(tmp) / c["source"]), root)
    return root


def verify(name: str, root: Path, queries: str = "main") -> list[str]:
    """Problems with the targets of the corpus's query file (none: an empty list)."""
    problems: list[str] = []
    path = devset_query_file(name, queries)
    if not path.is_file():
        return problems  # the short set covers some corpora only
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        q = json.loads(line)
        for t in q["targets"]:
            path = root / t["path"]
            if not path.is_file():
                problems.append(f"{q['id']}: no file {t['path']}")
                continue
            lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
            last = t["symbol"].replace("::", ".").rsplit(".", 1)[-1]
            if not 1 <= t["start_line"] <= t["end_line"] <= len(lines) or last not in lines[t["start_line"] - 1]:
                problems.append(f"{q['id']}: {t['path']}:{t['start_line']} does not define {last}")
    return problems


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--cache", type=Path, default=DEVSET_CACHE)
    ap.add_argument("--queries", choices=sorted(DEVSET_QUERY_SETS), default="main", help="which query set to check")
    args = ap.parse_args()
    bad = False
    for c in devset_corpora():
        if args.only and c["name"] not in args.only:
            continue
        root = fetch(c, args.cache)
        problems = verify(c["name"], root, args.queries)
        bad |= bool(problems)
        print(f"{c['name']:10s} {root}  {'OK' if not problems else '; '.join(problems)}")
    if bad:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
