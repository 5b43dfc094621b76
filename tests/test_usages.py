import json

import pytest

from codesift import Index
from test_cli import run

USES = {
    "src/app/models.py": '''
        from app.base import Model


        class User(Model):
            """A user. Model is mentioned in this docstring but that is not a reference."""

            def save(self):
                # Model.save would be a comment, not a reference
                return Model.save(self)
        ''',
    "src/app/base.py": '''
        class Model:
            def save(self):
                return "Model"


        def make(kind=Model):
            return kind()
        ''',
    "src/app/other.py": '''
        class Cache:
            def save(self):
                pass


        def flush(c: Cache):
            c.save()
        ''',
}


@pytest.fixture
def index(tmp_path):
    from conftest import write_repo

    root = write_repo(tmp_path / "r", USES)
    with Index(root) as idx:
        idx.update(embed=False)
        yield idx


def test_static_usages_exclude_definitions_strings_and_comments(index):
    result = index.find_usages("Model")
    sites = {(u["path"], u["line"], u["kind"]) for u in result["usages"]}
    assert sites == {
        ("src/app/models.py", 1, "import"),
        ("src/app/models.py", 4, "inherit"),
        ("src/app/models.py", 9, "reference"),
        ("src/app/base.py", 6, "reference"),
    }
    assert result["source"] == "static" and not result["ambiguous"]
    line9 = next(u for u in result["usages"] if u["line"] == 9)
    assert line9["enclosing"] == "User.save" and "Model.save(self)" in line9["text"]
    assert result["definitions"][0]["path"] == "src/app/base.py"


def test_ambiguous_names_are_grouped_by_target(index):
    result = index.find_usages("save")
    assert result["ambiguous"] and "definitions" in result["note"]
    by_line = {(u["path"], u["line"]): u for u in result["usages"]}
    assert by_line[("src/app/models.py", 9)]["target"] == "Model.save"
    assert by_line[("src/app/other.py", 7)]["kind"] == "call"


def test_usages_follow_edits(index):
    f = index.root / "src/app/base.py"
    f.write_text(f.read_text().replace("kind=Model", "kind=None"))
    index.update(embed=False)
    assert ("src/app/base.py", 6) not in {(u["path"], u["line"]) for u in index.find_usages("Model")["usages"]}


def test_no_static_reference_falls_back_to_labelled_guesses(index):
    result = index.find_usages("flush")
    assert result["source"] == "semantic_guess" and "guesses" in result["note"]
    assert all(u["kind"] == "guess" for u in result["usages"])


def test_bad_arguments(index):
    with pytest.raises(ValueError):
        index.find_usages("  ")
    with pytest.raises(ValueError):
        index.find_usages("Model", limit=0)


def test_cli_usages_json_contract(index):
    result = run("usages", "Model", "--json", "--root", str(index.root))
    assert result.exit_code == 0, result.output
    items = json.loads(result.stdout)
    assert {(i["path"], i["line"]) for i in items} >= {("src/app/models.py", 4), ("src/app/base.py", 6)}
    human = run("usages", "save", "--root", str(index.root))
    assert "src/app/other.py:7" in human.output and "note:" in human.output
