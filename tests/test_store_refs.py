"""The packed reference table (``codesift.store.refs``) and the upgrade from the row-per-site layout."""

import sqlite3

from codesift import Index
from codesift.parse.references import Reference
from codesift.store import refs
from codesift.store.schema import SCHEMA_VERSION


def test_pack_groups_by_name_and_sites_come_back_in_path_line_order():
    db = sqlite3.connect(":memory:")
    db.executescript("CREATE TABLE files (id INTEGER PRIMARY KEY, path TEXT);" + refs.SCHEMA)
    db.executemany("INSERT INTO files VALUES(?,?)", [(1, "b.py"), (2, "a.py")])
    refs.insert(db, 1, refs.pack([Reference("f", 9, "call", ""), Reference("g", 2, "call", "x"),
                                  Reference("f", 3, "attribute", "self")]))
    refs.insert(db, 2, refs.pack([Reference("f", 5, "import", "pkg.mod")]))
    assert db.execute("SELECT count(*) FROM refs").fetchone()[0] == 3  # (file, name) rows, not sites
    assert refs.sites_of(db, "f") == [
        (2, "a.py", 5, "import", "pkg.mod"), (1, "b.py", 3, "attribute", "self"), (1, "b.py", 9, "call", "")]
    assert refs.sites_of(db, "f", "a.") == [(2, "a.py", 5, "import", "pkg.mod")]
    assert refs.sites_of(db, "nothing") == []


def test_index_of_schema_1_is_upgraded_and_reparsed(tmp_path):
    from conftest import write_repo

    root = write_repo(tmp_path / "r", {"a.py": "def f():\n    return 1\n", "b.py": "from a import f\n\nf()\n"})
    with Index(root) as idx:
        idx.update(embed=False)
    # Turn it into what codesift wrote before: one row per site and schema_version 1.
    db = sqlite3.connect(root / ".codesift" / "meta.db")
    db.executescript("""
        DROP TABLE refs;
        CREATE TABLE refs (file_id INTEGER NOT NULL, name TEXT NOT NULL, line INTEGER NOT NULL,
                           kind TEXT NOT NULL, qualifier TEXT NOT NULL DEFAULT '');
        UPDATE meta SET value = '1' WHERE key = 'schema_version';
    """)
    db.close()
    with Index(root) as idx:
        assert idx.store.get_meta("schema_version") == SCHEMA_VERSION
        stats = idx.update(embed=False)
        assert stats.files_parsed == 2  # every file re-parsed to refill the references
        usages = idx.find_usages("f")
        assert {(u["path"], u["line"], u["kind"]) for u in usages["usages"]} == {
            ("b.py", 1, "import"), ("b.py", 3, "call")}
