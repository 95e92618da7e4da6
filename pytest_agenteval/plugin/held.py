"""Ctrl-C held back across a few lines that must happen together.

An episode's line in the results file and its count in the summary are one act: a Ctrl-C landing
between the two left a summary counting an episode whose line was never written (CI saw
"episodes": 3 over two lines). The signal is kept until the block ends and then raised again, to
whatever handler was there; a second Ctrl-C inside the block still ends it at once (so a hook
that hangs can be left), and the reporter counts an episode only once its line is written."""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


@contextmanager
def interrupts_held() -> Iterator[None]:
    if threading.current_thread() is not threading.main_thread():
        yield  # only the main thread may set handlers; the signal is handled there anyway
        return
    caught: list[int] = []

    def hold(signum: int, frame: Any) -> None:
        if caught:
            raise KeyboardInterrupt
        caught.append(signum)

    previous = signal.getsignal(signal.SIGINT)
    if previous is None or previous == signal.SIG_IGN:  # set from C (cannot be put back), or ignored
        yield
        return
    signal.signal(signal.SIGINT, hold)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if caught:
            signal.raise_signal(signal.SIGINT)  # to the handler now in place, as if it came now
