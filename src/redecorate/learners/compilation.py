"""A one-line notice before numba compiles a module's kernels, so a first fit is not a silent wait.

The learners' inner loops are numba functions compiled on first use and cached on disk
(``cache=True``): the first naive Bayes prediction on a new installation spends about 20 s
compiling, later processes load the cache in well under a second. Numba fires its
``numba:compile`` event only when it really compiles (a cache hit does not), so a listener
on that event says so exactly when the wait happens, once per module and process. The
notice goes to the ``redecorate`` logger at WARNING, the level Python shows without any
logging configured; a workflow job writes it to its log.
"""

from __future__ import annotations

import logging

from numba.core import event

__all__ = ["announce_compilation"]

_LOG = logging.getLogger("redecorate")


class _CompileNotice(event.Listener):
    """Logs the first compilation of each ``redecorate`` module's numba kernels."""

    def __init__(self) -> None:
        self.announced: set[str] = set()

    def on_start(self, ev: event.Event) -> None:
        module = getattr(getattr(ev.data.get("dispatcher"), "py_func", None), "__module__", "")
        if module.startswith("redecorate") and module not in self.announced:
            self.announced.add(module)
            _LOG.warning("numba is compiling the kernels of %s (first use on this installation: "
                         "up to half a minute; cached for later runs)", module)

    def on_end(self, ev: event.Event) -> None:
        """Nothing to say when compilation ends."""


_NOTICE: _CompileNotice | None = None


def announce_compilation() -> None:
    """Install the notice (idempotent): called by every module that defines numba kernels."""
    global _NOTICE
    if _NOTICE is None:
        _NOTICE = _CompileNotice()
        event.register("numba:compile", _NOTICE)
