"""The checksums at the end of tantivy's segment files (``store.footers``), read as tantivy writes them."""

from __future__ import annotations

import json
import struct
import zlib

import pytest

from codesift.store.footers import LAST_KNOWN_FORMAT, committed_files, damaged_file, file_damage
from codesift.store.keyword import KeywordDoc, KeywordIndex


def segment_file(body: bytes, version: int = 7) -> bytes:
    footer = json.dumps({"version": {"major": 0, "minor": 27, "patch": 0, "index_format_version": version},
                         "crc": zlib.crc32(body)}).encode()
    return body + footer + struct.pack("<II", len(footer), 1337)


def test_file_damage_reads_the_checksum_over_the_body(tmp_path):
    path = tmp_path / "seg.idx"

    def damage_of(data: bytes) -> str | None:
        path.write_bytes(data)
        return file_damage(path)

    data = segment_file(b"postings" * 400_000)  # more than one block read
    assert damage_of(data) is None
    for at in (17, 1_500_000, len(data) - 120):  # the first block, a later one, the body's last bytes
        changed = bytearray(data)
        changed[at] ^= 0xFF
        assert damage_of(bytes(changed)) == "it does not match its checksum", at
    assert damage_of(data[:-1]) == "its footer is missing"
    assert damage_of(b"\x00" * len(data)) == "its footer is missing"
    assert damage_of(b"abc") == "it is too short to hold a footer"
    assert damage_of(b"body" + b"{not json" + struct.pack("<II", 9, 1337)) == "its footer is unreadable"
    later = bytearray(segment_file(b"postings", version=LAST_KNOWN_FORMAT + 1))
    later[0] ^= 0xFF
    assert damage_of(bytes(later)) is None  # a format this code does not know: not judged


def test_the_installed_tantivy_writes_a_format_whose_checksum_is_known(folder):
    """When tantivy moves to a later format this fails: check its footer and raise LAST_KNOWN_FORMAT."""
    for path in committed_files(folder):
        data = path.read_bytes()
        length = struct.unpack("<I", data[-8:-4])[0]
        assert json.loads(data[-8 - length:-8])["version"]["index_format_version"] <= LAST_KNOWN_FORMAT


@pytest.fixture
def folder(tmp_path):
    index = KeywordIndex(tmp_path / "kw")
    for cid in range(1, 30):
        index.add(KeywordDoc(cid, cid, f"f{cid}.py", "python", "function", f"name{cid}", f"name{cid}", "", "",
                             "", f"def name{cid}(): return {cid}"))
    index.commit()
    index.delete_file(3)  # a delete file beside the segment's own
    index.commit()
    del index
    return tmp_path / "kw"


def test_the_committed_files_are_the_ones_tantivy_wrote_with_footers(folder):
    files = committed_files(folder)
    on_disk = {p for p in folder.iterdir() if not p.name.startswith(".") and p.name != "meta.json"}
    assert set(files) == on_disk
    assert any(p.name.endswith(".del") for p in files)
    assert all(file_damage(p) is None for p in files)
    assert damaged_file(folder) is None


def test_a_changed_byte_in_any_committed_file_is_named(folder):
    for path in committed_files(folder):
        clean = path.read_bytes()
        changed = bytearray(clean)
        changed[0] ^= 0x01  # the body's first byte (a delete file's body is a few bytes)
        path.write_bytes(bytes(changed))
        assert damaged_file(folder) == f"{path.name}: it does not match its checksum"
        assert damaged_file(folder, limit=10) is None  # above the size checked: left to tantivy
        path.write_bytes(clean)
    assert damaged_file(folder) is None


def test_files_a_writer_has_not_committed_or_has_merged_away_are_no_damage(folder):
    (folder / "0123456789abcdef0123456789abcdef.idx").write_bytes(b"half-written")  # not in meta.json
    victim = committed_files(folder)[0]
    victim.unlink()  # gone between reading meta.json and reading it
    assert damaged_file(folder) is None
    (folder / "meta.json").write_text("{")
    assert committed_files(folder) == []


def test_a_keyword_index_whose_file_fails_its_checksum_opens_empty_and_says_why(folder):
    path = next(p for p in committed_files(folder) if p.name.endswith(".pos"))
    changed = bytearray(path.read_bytes())
    changed[10] ^= 0xFF
    path.write_bytes(bytes(changed))
    index = KeywordIndex(folder)
    assert index.recreated and index.num_docs() == 0
    assert index.repairing == f"{path.name}: it does not match its checksum"
    assert (folder.parent / "keyword.damaged").read_text() == index.repairing
