"""codesift.toml: values read, checked and refused with the setting's name."""

from __future__ import annotations

import pytest

from codesift.config.settings import ConfigError, load_config


def test_ignore_takes_a_list_or_one_pattern(tmp_path):
    (tmp_path / "codesift.toml").write_text('ignore = "fixtures/"\n')
    assert load_config(tmp_path).ignore == ("fixtures/",)
    (tmp_path / "codesift.toml").write_text('ignore = ["a/", "*.gen.py"]\n')
    assert load_config(tmp_path).ignore == ("a/", "*.gen.py")
    (tmp_path / "codesift.toml").write_text("ignore = 3\n")
    with pytest.raises(ConfigError, match="ignore must be a list"):
        load_config(tmp_path)


def test_unknown_and_bad_settings_are_refused(tmp_path):
    (tmp_path / "codesift.toml").write_text("overfetch = 0.5\n")
    with pytest.raises(ConfigError, match="overfetch"):
        load_config(tmp_path)
    (tmp_path / "codesift.toml").write_text("[rank]\nshort_vector_penalty = 'x'\n")
    with pytest.raises(ConfigError, match="short_vector_penalty"):
        load_config(tmp_path)
    (tmp_path / "codesift.toml").write_text("bogus = 1\n")
    with pytest.raises(ConfigError, match="unknown setting 'bogus'"):
        load_config(tmp_path)


@pytest.mark.parametrize("line, message", [
    ("[rank]\ntest_penalty_factor = -0.4", "test_penalty_factor' must be a finite number >= 0"),
    ("[rank]\nimport_penalty_factor = 1.5", "import_penalty_factor' must be between 0 and 1"),
    ("[rank]\nname_match_weight = nan", "name_match_weight' must be a finite number"),
    ("[rank]\nmax_per_file = 2.5", "max_per_file' must be a whole number"),
    ("[rank]\nrecency_weight = true", "recency_weight' must be a number"),
    ("rrf_k = inf", "rrf_k must be a finite number"),
    ("keyword_weight = -1", "keyword_weight and vector_weight must be >= 0"),
])
def test_out_of_range_numbers_are_refused_with_the_setting_named(tmp_path, line, message):
    (tmp_path / "codesift.toml").write_text(line + "\n")
    with pytest.raises(ConfigError, match=message):
        load_config(tmp_path)


def test_in_range_rank_numbers_are_taken(tmp_path):
    (tmp_path / "codesift.toml").write_text("[rank]\ndocs_factor = 1.2\nmax_per_file = 3.0\ntest_penalty_factor = 0\n")
    rank = load_config(tmp_path).rank
    assert (rank.docs_factor, rank.max_per_file, rank.test_penalty_factor) == (1.2, 3, 0.0)
