"""Find the source files under a root (:mod:`.walk`: git-aware listing or an ignore-aware walk) minus what
:mod:`.rules` leaves out: ignored, vendored, generated, lockfiles, binaries, files over the size limit."""

from codesift.indexing.discover.rules import (AMBIGUOUS_DIRS, SNIFF_BYTES, SOURCE_SIZE_FACTOR, TARGET_MARKERS, VCS_DIRS,
                                              VENDORED_DIRS, Discovery, SourceFile, compile_ignore, is_binary,
                                              name_reason, size_limit)
from codesift.indexing.discover.walk import discover

__all__ = ["AMBIGUOUS_DIRS", "SNIFF_BYTES", "SOURCE_SIZE_FACTOR", "TARGET_MARKERS", "VCS_DIRS", "VENDORED_DIRS",
           "Discovery", "SourceFile", "compile_ignore", "discover", "is_binary", "name_reason", "size_limit"]
