"""Settings: ``codesift.toml``, its ``[rank]`` and ``[[services]]`` tables, and the environment."""
