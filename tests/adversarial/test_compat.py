"""Hostile inputs to the drop-in environments' cores (ddz/_core/douzero.pyx, rlcard.pyx) and
their Python boundary: every one raises an exception or is refused, none crashes."""

from __future__ import annotations

from tests.adversarial.conftest import IsolatedRunner


def test_douzero_core_refuses_what_would_leave_its_buffers(isolated: IsolatedRunner) -> None:
    out = isolated(
        """
        import numpy as np
        from ddz._core.douzero import DouzeroCore, python_set_order
        from ddz.compat.douzero import Env, get_obs
        core = DouzeroCore()
        refused = 0
        bad_deals = [np.full((3, 15), 5, np.uint8), np.zeros((3, 15), np.uint8),
                     np.zeros((2, 15), np.uint8), np.zeros((3, 14), np.uint8),
                     np.full((3, 15), 255, np.uint8), np.zeros((3, 30), np.uint8)[:, ::2]]
        for bad in bad_deals:
            try:
                core.deal(bad)
            except (ValueError, TypeError):
                refused += 1
        for bad in (np.zeros(3, np.uint8), np.zeros(0, np.uint8)):
            for call in (core.find, python_set_order):
                try:
                    call(bad)
                except ValueError:
                    refused += 1
        # before any deal: nothing to play, an empty observation
        assert core.legal_actions() == [] and core.observation()["x_batch"].shape == (0, 373)
        for index in (-1, 0, 10**6):
            try:
                core.play(index)
            except IndexError:
                refused += 1
        env = Env("adp")
        np.random.seed(5)
        obs = env.reset()
        weird = [None, [], [3.5], [2**70], [-(2**70)], [[3]], ["3"], [3] * 10**4, (3,), [object()],
                 [True], [30, 20], [20, 30, 30], list(range(100)), {3: 1}, b"3", 3]
        for action in weird:
            try:
                env.step(action)
            except ValueError:
                refused += 1
        obs = get_obs(env)  # the legal (3,) was played: landlord_down is to act now
        assert obs["position"] == "landlord_down"
        while True:
            obs, reward, done, _ = env.step(obs["legal_actions"][-1])
            if done:
                break
        for call in (lambda: env.step([]), lambda: core.cards_left(3), lambda: core.cards_left(-1)):
            try:
                call()
            except (ValueError, IndexError):
                refused += 1
        print(refused)
        """
    )
    assert int(out) == 6 + 4 + 3 + 17 - 1 + 3  # (3,) is the legal single 3


def test_rlcard_core_refuses_bad_tables_deals_and_ids(isolated: IsolatedRunner) -> None:
    out = isolated(
        """
        import numpy as np
        import ddz
        from ddz._core.rlcard import RlcardCore, cards_text
        from ddz.compat import rlcard as compat
        _, _, t = compat._tables()
        refused = 0
        tables = [
            (t.codes[:-1], t.ids[:-1], t.sorted_positions[:-1], t.order),
            (t.codes, np.zeros_like(t.ids), t.sorted_positions, t.order),
            (t.codes, t.ids, t.sorted_positions[::-1].copy(), t.order),
            (t.codes, t.ids, np.full_like(t.sorted_positions, 10**9), t.order),
            (t.codes, t.ids, t.sorted_positions, np.zeros_like(t.order)),
            (t.codes, t.ids, t.sorted_positions, t.order[:-1]),
            (t.codes, np.where(t.ids > 0, t.ids + 10**6, t.ids), t.sorted_positions, t.order),
        ]
        for codes, ids, positions, order in tables:
            try:
                RlcardCore(ddz.RLCARD, codes, ids, positions, order)
            except ValueError:
                refused += 1
        core = RlcardCore(ddz.RLCARD, t.codes, t.ids, t.sorted_positions, t.order)
        for deal in ((0, 0, 0, 0), (2**64 - 1,) * 4, (1 << 63, 0, 0, 0),
                     (0o4444444444444, 0o4444444444444, 0o4444444444444, 0o11)):
            try:
                core.deal(*deal)
            except (ValueError, OverflowError):
                refused += 1
        assert core.legal_ids() == [] and not core.step(0) and not core.step_back()
        env = compat.make("doudizhu", {"seed": 1, "allow_step_back": True})
        state, _ = env.reset()
        shrinking = [None] * 27472  # a feature callback that empties the list it fills
        for action in (-1, 27472, 2**31, 2**70, -(2**70), 1.0, "3", None, [0]):
            try:
                env.step(action)
            except ValueError:
                refused += 1
        for call in (lambda: env._core.encode(0, np.zeros(901, np.int8)),
                     lambda: env._core.encode(5, np.zeros(790, np.int8)),
                     lambda: env._core.action_features(np.zeros((1, 54), np.int8)),
                     lambda: env._core.legal_ids_for(3),
                     lambda: env._core.legal_parts(0, [None] * 10, env._actions, compat._feature),
                     lambda: env._core.legal_parts(0, shrinking, env._actions,
                                                   lambda i: shrinking.clear()),
                     lambda: env.get_state(3),
                     lambda: env.get_action_feature(27472)):
            try:
                call()
            except (ValueError, IndexError):
                refused += 1
        while not env.is_over():
            state, _ = env.step(max(state["legal_actions"]))
        while env.step_back() is not False:
            pass
        # seven of every rank in the 3-bit fields: the text stops at its 63-character buffer
        print(refused, len(cards_text(2**64 - 1)))
        """
    )
    assert out.split() == [str(7 + 4 + 9 + 8), "63"]
