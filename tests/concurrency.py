"""Running one piece of work on several threads at once, for the tests that share an object
between threads (tests/test_threads.py, tests/test_compat_douzero_vector.py)."""

from __future__ import annotations

import threading
from collections.abc import Callable

THREADS = 4


def run_threads(work: Callable[[int], object], count: int = THREADS) -> list[object]:
    """work(i) on thread i, all started together; their results (or it re-raises)."""
    results: list[object] = [None] * count
    errors: list[BaseException] = []
    start = threading.Barrier(count)

    def body(i: int) -> None:
        try:
            start.wait()
            results[i] = work(i)
        except BaseException as error:  # re-raised in the main thread
            errors.append(error)

    threads = [threading.Thread(target=body, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]
    return results
