"""Crash-safe resumption: a Snakemake killed with SIGKILL (OOM killer, `kill -9`, a lost
node or SSH session) leaves its locks in .snakemake/locks, and the next plain `snakemake`
refuses to start ("Directory cannot be locked ... --unlock"). Outputs are already safe
(every writer is atomic, see redecorate.util), so the only obstacle to "just run it
again" is that stale lock.

The lock holder records who it is (pid, process start time, host) in
.snakemake/redecorate-owner.json from `onstart` — which Snakemake calls only in the main
process, after it obtained the locks and only when there is work. When a later invocation
finds locks whose recorded owner no longer exists on this host, it removes them, says so,
and carries on. A live owner (another Snakemake really working in this directory), an owner
on another host (shared file system) or locks without an owner file are left alone, so
Snakemake's own protection against two concurrent runs is unchanged.
"""

import json as _json
import socket as _socket

from snakemake.logging import logger as _logger


def _process_start(pid):
    """Start time of `pid` in clock ticks since boot (guards against pid reuse), or None."""
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8") as handle:
            return handle.read().rsplit(")", 1)[1].split()[19]
    except (OSError, IndexError):
        return None


def _owner_alive(owner):
    """Is the recorded lock holder still running (same pid and same start time)?"""
    pid = owner.get("pid")
    if not isinstance(pid, int):
        return True  # unreadable record: assume alive, never break a lock we cannot judge
    start = _process_start(pid)
    return start is not None and start == owner.get("start")


_STATE_DIR = Path(".snakemake")
_OWNER_FILE = _STATE_DIR / "redecorate-owner.json"


def _break_stale_locks():
    locks = _STATE_DIR / "locks"
    if workflow.remote_exec or workflow.subprocess_exec or not _OWNER_FILE.is_file():
        return
    if not locks.is_dir() or not any(locks.iterdir()):
        return
    try:
        owner = _json.loads(_OWNER_FILE.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return
    if owner.get("host") != _socket.gethostname() or _owner_alive(owner):
        return
    for lock in locks.iterdir():
        lock.unlink(missing_ok=True)
    _logger.warning(
        f"Removed stale Snakemake locks left by pid {owner.get('pid')} (no longer running, "
        "killed?); resuming. Outputs are written atomically, so finished jobs are kept and "
        "interrupted ones rerun."
    )


_break_stale_locks()


onstart:
    # Only the process that holds the locks gets here (not dry runs, not cluster jobsteps).
    _STATE_DIR.mkdir(exist_ok=True)
    _OWNER_FILE.write_text(
        _json.dumps(
            {"pid": os.getpid(), "start": _process_start(os.getpid()), "host": _socket.gethostname()}
        )
        + "\n",
        encoding="utf-8",
    )
