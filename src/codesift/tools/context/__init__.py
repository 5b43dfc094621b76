"""get_code_context: live source from the working tree (or a git revision, or a service's blob) by
:mod:`.live`; on a Qdrant reader without the file, the stored chunks' text by :mod:`.stored`."""

from codesift.tools.context.common import MAX_FILE_LINES, ContextError, safe_path
from codesift.tools.context.live import get_code_context

__all__ = ["MAX_FILE_LINES", "ContextError", "get_code_context", "safe_path"]
