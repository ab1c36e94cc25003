"""The solver's core takes raw integers: garbage must raise, never crash."""

from __future__ import annotations

from tests.adversarial.conftest import IsolatedRunner


def test_core_rejects_garbage(isolated: IsolatedRunner) -> None:
    out = isolated(
        """
        import random
        import ddz
        from ddz._core import solver
        core = solver.SolverCore(ddz.ENDGAME, 1, 1)
        rng = random.Random(5)
        values = [0, 1, -1, 2**63, 2**64 - 1, 0o4444, 0o7777777, 1 << 51, 3 << 60]
        raised = 0
        for _ in range(3000):
            seats = rng.choice([0, 1, 2, 3, 4])
            hands = [rng.choice(values + [rng.getrandbits(64)]) for _ in range(seats)]
            args = (hands, rng.choice(values + [rng.getrandbits(64)]), rng.randint(-2, 3),
                    rng.randint(-2, 3), rng.randint(-2, 3))
            try:
                core.solve(*args, direction=rng.choice([1, -1, 0, 5]), let=rng.randint(-1, 3),
                           node_limit=1000)
            except (ValueError, TypeError, OverflowError):
                raised += 1
        for bad in [(b"", ), (b"x" * 4096, )]:
            try:
                solver.state_position(*bad)
            except ValueError:
                raised += 1
        print(raised > 2000)
        """
    )
    assert out.strip() == "True"
