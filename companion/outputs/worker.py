"""One executor helper: calls run by one dedicated thread, each given up after a time-out.

Libraries that must be used from one thread (pyttsx3), that may never answer (a
speech-dispatcher server without sound, a sound server opening a device) are called
through a `Worker`: the caller waits at most `timeout` seconds and gets `WorkerTimeout`
then; the stuck call stays in its daemon thread, which nobody waits for.
"""

from __future__ import annotations

import os
import queue
import threading
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

AUDIO_NICE = -10  # a sound thread's priority where it may be raised (root, or RLIMIT_NICE)


def raise_priority() -> bool:
    """Give the calling thread a sound thread's priority (nice AUDIO_NICE), as sound servers
    do, when the system allows it; COMPANION_AUDIO_PRIORITY=0 turns it off. Whether it did."""
    if os.environ.get("COMPANION_AUDIO_PRIORITY", "1") == "0" or not hasattr(os, "setpriority"):
        return False
    try:
        tid = threading.get_native_id()
        if os.getpriority(os.PRIO_PROCESS, tid) > AUDIO_NICE:
            os.setpriority(os.PRIO_PROCESS, tid, AUDIO_NICE)
        return True
    except OSError:  # not allowed: the ordinary priority
        return False


class WorkerTimeout(Exception):
    """The call did not return in time (it goes on, abandoned, in the worker's thread)."""


class WorkerStopped(Exception):
    """The worker was closed, or its thread has ended."""


class Worker:
    """A daemon thread that runs the calls handed to `call`, one at a time, in order."""

    def __init__(self, name: str, audio_priority: bool = False) -> None:
        """`audio_priority`: the thread asks for a sound thread's priority (`raise_priority`)."""
        self.name = name
        self.audio_priority = audio_priority
        self._jobs: queue.Queue[tuple[Callable[[], Any], queue.Queue[Any]] | None] = queue.Queue()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._closed = False
        self._thread.start()

    def _run(self) -> None:
        if self.audio_priority:
            raise_priority()
        while True:
            job = self._jobs.get()
            if job is None:
                return
            fn, reply = job
            try:
                reply.put((True, fn()))
            except BaseException as exc:  # noqa: BLE001 - handed to the caller
                reply.put((False, exc))

    def call(self, fn: Callable[[], T], timeout: float) -> T:
        """`fn()` in the worker's thread; its exception is raised here. WorkerTimeout after
        `timeout` seconds, WorkerStopped when the worker is closed."""
        if self._closed or not self._thread.is_alive():
            raise WorkerStopped(f"{self.name} has stopped")
        reply: queue.Queue[Any] = queue.Queue()
        self._jobs.put((fn, reply))
        try:
            ok, value = reply.get(timeout=timeout)
        except queue.Empty:
            raise WorkerTimeout(f"{self.name} did not answer within {timeout:g} s") from None
        if not ok:
            raise value
        return value  # type: ignore[no-any-return]

    def submit(self, fn: Callable[[], Any]) -> None:
        """Run `fn()` in the worker's thread, after the calls already handed; do not wait.
        Its exceptions are its own business (catch them in `fn`)."""
        if self._closed or not self._thread.is_alive():
            raise WorkerStopped(f"{self.name} has stopped")
        self._jobs.put((fn, queue.Queue()))

    def close(self, timeout: float = 0.0) -> None:
        """No more calls; the thread ends after the calls already handed (joined `timeout`)."""
        self._closed = True
        self._jobs.put(None)
        if timeout > 0 and threading.current_thread() is not self._thread:
            self._thread.join(timeout)


def call_with_timeout(fn: Callable[[], T], timeout: float, name: str) -> T:
    """`fn()` in a thread of its own, given up after `timeout` seconds (WorkerTimeout)."""
    worker = Worker(name)
    try:
        return worker.call(fn, timeout)
    finally:
        worker.close()
