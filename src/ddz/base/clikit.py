"""The command-line kit every subcommand of ``python -m ddz`` shares: a parser whose errors
are one line, integer arguments checked against a range, and :func:`run`, which turns the
errors a user can cause into one line on stderr and an exit status.
"""

from __future__ import annotations

import argparse
import os
import sys
import typing
from collections.abc import Callable

from ddz.base.errors import SEED_LIMIT, shorten

__all__ = ["INTERRUPTED", "SEED", "Parser", "integer", "run"]

INTERRUPTED = 130
"""The exit status of a command ended by Ctrl-C (128 + SIGINT), as shells report it."""


class Parser(argparse.ArgumentParser):
    """Argument errors in one line on stderr (the usage is one ``--help`` away)."""

    def error(self, message: str) -> typing.NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def integer(low: int, high: int | None = None, *, bounds: str = "") -> Callable[[str], int]:
    """An argparse type: an integer in ``low..high`` (no upper bound when None); ``bounds``
    writes the range in the error message."""
    bounds = bounds or (f"{low}..{high}" if high is not None else f"{low} or more")

    def read(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{shorten(text)} is not an integer") from None
        if value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"must be {bounds}, not {value}")
        return value

    read.__name__ = "integer"  # argparse names the type in some messages
    return read


SEED = integer(0, SEED_LIMIT - 1, bounds="0..2**64-1")


def run(command: Callable[[argparse.Namespace], int], args: argparse.Namespace) -> int:
    """Run a command as the command line does: ``ValueError`` is one line on stderr (exit
    status 2), Ctrl-C ends it with status 130 and no traceback, a closed pipe quietly."""
    try:
        return int(command(args))
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return INTERRUPTED
    except MemoryError:
        print("error: not enough memory for this run; ask for fewer games", file=sys.stderr)
        return 1
    except BrokenPipeError:
        # `python -m ddz moves ... | head`: the reader left; say nothing more.
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - interpreter exit flushes stdout
        return 0
