"""References in Qdrant: a reader (no ``.codesift``, no checkout) answers find_usages, callers, callees,
impact and the repository map as the writer does, and the reference sync is incremental."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

pytest.importorskip("qdrant_client")

from codesift import Index  # noqa: E402
from codesift.qdrant import refs as qdrant_refs  # noqa: E402

from conftest import write_repo  # noqa: E402

SERVICE = "shop"
FILES = {
    "shop/models.py": '''
        class Order:
            def save(self):
                return store_row("orders", self)

            def total(self):
                return sum(line.price for line in self.lines)


        class Customer:
            def save(self):
                return store_row("customers", self)


        def store_row(table, obj):
            return table, obj
        ''',
    "shop/checkout.py": '''
        from shop.models import Order, Customer, store_row


        def checkout(customer: Customer, order: Order):
            customer.save()
            order.save()
            return order.total()


        def audit(order: Order):
            store_row("audit", order)
            return checkout(None, order)
        ''',
    "tests/test_checkout.py": '''
        from shop.checkout import checkout


        def test_checkout():
            assert checkout(None, None)
        ''',
}
NAMES = ["save", "Order.save", "store_row", "checkout", "Order", "total"]


def _usages(idx: Index, name: str) -> dict:
    got = idx.find_usages(name)
    return {"source": got["source"], "total": got["total"], "ambiguous": got["ambiguous"],
            "usages": [(u["path"], u["line"], u["kind"], u["qualifier"], u["enclosing"], u.get("target"))
                       for u in got["usages"]]}


def _answers(idx: Index) -> dict:
    return {"usages": {n: _usages(idx, n) for n in NAMES},
            "callers": {n: idx.callers(n) for n in ("store_row", "checkout", "Order.save")},
            "callees": {n: idx.callees(n) for n in ("checkout", "audit")},
            "impact": idx.impact("store_row"),
            "map": {k: v for k, v in idx.repo_map(budget_tokens=400).items() if k != "root"}}


class Upserts:
    """Counts the upserts sent to the reference collection."""

    def __init__(self, monkeypatch) -> None:
        self.points = 0
        real = qdrant_refs._upsert

        def counting(coll, points, stats) -> None:
            self.points += len(points)
            real(coll, points, stats)

        monkeypatch.setattr(qdrant_refs, "_upsert", counting)


@pytest.fixture
def env(tmp_path: Path, monkeypatch):
    folder = tmp_path / "qdrant"
    monkeypatch.setenv("CODESIFT_BACKEND", "qdrant")
    monkeypatch.setenv("CODESIFT_QDRANT_URL", str(folder))
    monkeypatch.setenv("CODESIFT_EMBEDDER", "none")
    monkeypatch.setenv("CODESIFT_QDRANT_SERVICE", SERVICE)
    monkeypatch.delenv("CODESIFT_QDRANT_API_KEY", raising=False)
    monkeypatch.delenv("CODESIFT_QDRANT_COLLECTION", raising=False)
    checkout = write_repo(tmp_path / "w" / SERVICE, FILES)
    reader = tmp_path / "elsewhere" / "empty"
    reader.mkdir(parents=True)
    return checkout, reader, folder


def _write(checkout: Path) -> dict:
    with Index(checkout, reader=False) as idx:
        idx.update()
        return _answers(idx)


def _read(reader: Path) -> dict:
    with Index(reader) as idx:
        assert idx.remote is not None and idx.remote.ref_services == (SERVICE,)
        return _answers(idx)


def _ref_points(folder: Path) -> dict[str, dict]:
    from qdrant_client import QdrantClient

    client = QdrantClient(path=str(folder))
    try:
        points, _ = client.scroll("codesift_refs", limit=100, with_payload=True)
        return {p.payload["path"]: p.payload for p in points}
    finally:
        client.close()


def test_reader_gets_the_writers_references(env, tmp_path: Path, monkeypatch) -> None:
    checkout, reader, folder = env
    want = _write(checkout)
    assert want["usages"]["save"]["ambiguous"] and want["usages"]["store_row"]["total"] == 4
    assert want["callers"]["store_row"] and want["callees"]["checkout"]
    shutil.move(str(checkout.parent), str(tmp_path / "moved"))  # the reader has no checkout
    got = _read(reader)
    assert got == want
    with Index(reader) as idx:
        assert "stored in Qdrant" in idx.status()["qdrant"]["references"]
    points = _ref_points(folder)
    assert set(points) == set(FILES)
    assert {k for k in points["shop/checkout.py"]} == {"service", "path", "file_hash", "v", "refs"}
    monkeypatch.setenv("CODESIFT_QDRANT_SERVICE", "*")  # every service: paths under <service>/
    with Index(reader) as idx:
        got_all = _usages(idx, "store_row")
    assert got_all["usages"] == [(f"{SERVICE}/{u[0]}", *u[1:]) for u in want["usages"]["store_row"]["usages"]]
    assert list(reader.iterdir()) == []


def test_edit_delete_and_unchanged_resync(env, tmp_path: Path, monkeypatch) -> None:
    checkout, reader, folder = env
    _write(checkout)
    count = Upserts(monkeypatch)
    with Index(checkout, reader=False) as idx:  # nothing changed: the diff runs and writes no reference point
        idx.store.set_meta("qdrant_synced", "")
        idx.sync_backend()
        assert idx.store.get_meta("qdrant_synced")
    assert count.points == 0
    # An edit: one more use of store_row in checkout.py; only that file's point is rewritten.
    path = checkout / "shop/checkout.py"
    path.write_text(path.read_text() + '\n\ndef refund(order):\n    return store_row("refunds", order)\n')
    want = _write(checkout)
    assert count.points == 1 and want["usages"]["store_row"]["total"] == 5
    assert _read(reader) == want
    # A deleted file: its point goes, and so do its references on the reader.
    (checkout / "tests/test_checkout.py").unlink()
    want = _write(checkout)
    assert "tests/test_checkout.py" not in _ref_points(folder)
    got = _read(reader)
    assert got == want
    assert all(u[0] != "tests/test_checkout.py" for u in got["usages"]["checkout"]["usages"])


def test_interrupted_sync_is_finished_without_duplicates(env, monkeypatch) -> None:
    checkout, reader, folder = env
    calls = {"n": 0}
    real = qdrant_refs._upsert

    def dies(coll, points, stats) -> None:
        calls["n"] += 1
        raise RuntimeError("the server went away")

    monkeypatch.setattr(qdrant_refs, "_upsert", dies)
    with Index(checkout, reader=False) as idx:
        with pytest.raises(RuntimeError):
            idx.update()
    monkeypatch.setattr(qdrant_refs, "_upsert", real)
    want = _write(checkout)
    assert calls["n"] == 1 and set(_ref_points(folder)) == set(FILES)
    assert _read(reader) == want


def test_collection_written_before_references_were_stored(env, tmp_path: Path) -> None:
    checkout, reader, folder = env
    _write(checkout)
    from qdrant_client import QdrantClient

    client = QdrantClient(path=str(folder))
    client.delete_collection("codesift_refs")
    client.close()
    with Index(checkout, reader=False) as idx:  # as a writer synced before references were stored
        idx.store.set_meta("qdrant_synced", idx.store.get_meta("qdrant_synced").rsplit("|", 1)[0])
        idx.store.commit()
    with Index(reader) as idx:
        assert idx.remote is not None and idx.remote.ref_services == ()
        assert "sync again on the writer" in idx.status()["qdrant"]["references"]
        got = idx.find_usages("Customer.save")
        assert got["source"] == "semantic_guess" and "not in the collection" in got["note"]
    want = _write(checkout)  # the upgraded writer's next run writes them, though no file changed
    assert set(_ref_points(folder)) == set(FILES)
    assert _read(reader) == want
