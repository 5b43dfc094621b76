"""The checks before and around indexing: ``index --dry-run`` (:mod:`.dry_run`, :mod:`.estimate`) and ``doctor``
(:mod:`.health`)."""
