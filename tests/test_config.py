"""codesift.toml: values read, checked and refused with the setting's name."""

from __future__ import annotations

import pytest

from codesift.config import ConfigError, load_config


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
