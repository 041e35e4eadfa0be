"""Processes a test starts: their output in a file (no pipe to fill and leave unread), and always ended.

    with started([sys.executable, "-m", "warlog.api.cli", "project", "--db", db], tmp_path / "project.log") as process:
        ...                                # process.poll(), output(process) for its log so far
    # here it has ended: SIGTERM, then SIGKILL after ten seconds, even when the body failed
"""
from __future__ import annotations

import subprocess
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ops.service import stop


@contextmanager
def started(args: Sequence[Any], log: Path, within: float = 10.0, **popen: Any) -> Iterator[subprocess.Popen[bytes]]:
    """`args` running, its stdout and stderr appended to `log`; on exit SIGTERM, then SIGKILL `within` s later."""
    with open(log, "ab") as sink:
        process = subprocess.Popen([str(a) for a in args], stdout=sink, stderr=subprocess.STDOUT, **popen)
    process.log = log  # type: ignore[attr-defined]  # for output()
    try:
        yield process
    finally:
        stop(process, within)


def output(process: subprocess.Popen[bytes], last: int = 4000) -> str:
    """The end of what the process has written so far (for an assertion's message)."""
    log: Path | None = getattr(process, "log", None)
    return log.read_text(errors="replace")[-last:] if log is not None and log.exists() else ""
