"""Sampled worlds and positions under hostile input: the raw sampler's arguments, observations
that no deal gives, sizes past any deck; each snippet runs in its own interpreter."""

from __future__ import annotations

from tests.adversarial.conftest import IsolatedRunner


def test_the_raw_sampler_checks_everything(isolated: IsolatedRunner) -> None:
    out = isolated(
        """
        import numpy as np
        from ddz._core.worlds import sample_deals
        def attempt(pool, sizes, played, rows=2, columns=None):
            out = np.zeros((rows, len(sizes) if columns is None else columns), dtype=np.uint64)
            try:
                sample_deals(pool, np.array(sizes, dtype=np.int64),
                             np.array(played, dtype=np.uint64), 1, out)
                return "ok"
            except (ValueError, TypeError, MemoryError) as error:
                return type(error).__name__
        full = int("1" * 17, 8)            # one card of each of the 17 symbols
        print(attempt(0o7, [7], [0]))                        # a digit above 4
        print(attempt(1 << 60, [1], [0]))                    # bits above the cards
        print(attempt(full, [10, 7], [0, 0]))                # sizes that add up: fine
        print(attempt(full, [10, 8], [0, 0]))                # sizes past the pool
        print(attempt(full, [-1, 18], [0, 0]))               # a negative size
        print(attempt(full, [1] * 17, [0] * 17))             # too many holders
        print(attempt(full, [], []))                         # no holder
        print(attempt(full, [10, 7], [0, 0], columns=3))     # the wrong shape
        print(attempt(full, [10, 7], [0]))                   # played: one a holder
        print(attempt(full, [10, 7], [0o7 << 3, 1 << 62]))  # played: not card integers
        print(attempt(0, [64, 64, 64, 0], [0] * 4))         # huge rooms: too many states
        print(attempt(full, [9, 8], [0o777, 0o7777]))       # weights past 8!: zero
        """
    )
    assert out.split() == [
        "ValueError",
        "ValueError",
        "ok",
        "ValueError",
        "ValueError",
        "ValueError",
        "ValueError",
        "ValueError",
        "ValueError",
        "ValueError",
        "ValueError",
        "ok",
    ]


def test_inconsistent_observations_and_sizes(isolated: IsolatedRunner) -> None:
    out = isolated(
        """
        import dataclasses
        import ddz
        game = ddz.Game(seed=1)
        seen = game.observation(0)
        for change in (
            dict(card_counts=(17, 40, 17)),                  # more cards than unseen
            dict(card_counts=(17, -3, 17)),                  # a negative count
            dict(played=(ddz.Cards("3333"), ddz.Cards("3"), ddz.Cards())),  # five 3s
        ):
            try:
                ddz.sample_worlds(dataclasses.replace(seen, **change), n=2, seed=1,
                                  rules=ddz.CLASSIC)
                print("ok")
            except ValueError:
                print("ValueError")
        for n in (2**21, 2**63, -1):
            try:
                ddz.sample_worlds(game, 0, n, seed=1)
                print("ok")
            except ValueError:
                print("ValueError")
        print(len(ddz.sample_worlds(game, 0, 100_000, seed=1)))
        """
    )
    assert out.split() == ["ValueError"] * 6 + ["100000"]
