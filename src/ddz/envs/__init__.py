"""Standard reinforcement-learning environments: the games behind them, defined once.

The environments themselves live in two modules that need the ``rl`` extra
(PettingZoo and Gymnasium: ``pip install ".[rl]"`` in a checkout); ``import ddz`` and
``import ddz.envs`` never import either library:

* :mod:`ddz.envs.pettingzoo`: a PettingZoo AEC environment for every game, all seats agents;
* :mod:`ddz.envs.gymnasium`: a Gymnasium environment in which one seat learns and ddz agents
  play the other seats.

This module holds what both share, so that every rule of the environments is written down
once: an :class:`Adapter` turns a game into one decision at a time, with actions as indices
of a fixed action space. docs/environments.md is the manual.

**Games.** ``"classic"``, ``"two-player"`` and ``"uno-landlord"`` play Dou Dizhu under
``ddz.CLASSIC``, ``ddz.TWO_PLAYER`` and ``ddz.UNO_LANDLORD`` (or ``rules=`` any
``ddz.Rules``); ``"uno"`` plays one round of UNO (``players=`` 2..10, default 4;
``rules=`` a ``ddz.uno.Rules``, default ``ddz.uno.LOMBARDY``). Seat ``k`` is the agent
``"player_k"``.

**Observations.** Computed in the core: for Dou Dizhu the seat's
``Game.observation_vector(seat, history=history)``, an int8 vector laid out as
``ddz.observation_layout(history)`` (``Observation.encode()``'s 140 entries, the bombs, and
the last ``history`` moves of play; ``history=`` defaults to ``ddz.HISTORY``, 15: 441
entries); for UNO ``ddz.uno.Game.observation_vector(seat)``, equal to
``observation(seat).encode()``: ``ddz.uno.OBSERVATION_SIZE`` (267) entries. The bounds are
:attr:`Adapter.observation_low` and :attr:`Adapter.observation_high`. The action mask is an
int8 vector (an :class:`ActionMask`: ``np.flatnonzero`` reads it as booleans, fast), 1 for
each legal action of the seat (Dou Dizhu: from the core's legal indices;
UNO: from the seat's legal actions), all 0 when the seat has nothing to decide (not its
turn, or the game is over).

**Actions.** Dou Dizhu: the indices of ``ddz.ActionSpace(rules)`` (0 is the pass, in play
and in bidding). UNO: the indices of ``ddz.uno.ActionSpace`` (``UnoActionSpace`` here; 0 is
the pass, doing nothing out of turn).

**Rewards.** Only at the end of the game, one per seat. Dou Dizhu: ``game.payoffs()``, the
points each seat wins or loses (zero-sum; 0 for everyone after a void deal, in which every
seat passed in bidding: the episode ends there, it is not dealt again). UNO, as
``reward=`` says: ``"win"`` (the default) gives the player who went out +1 and every other
player ``-1 / (players - 1)`` (zero-sum; 0 for everyone in a blocked round); ``"points"``
gives every player minus the golf value of the cards left in their hand (0 for the player who
went out; lower is worse, as in a match).

**UNO out of turn.** UNO lets players act out of turn (a jump-in, a UNO call, a catch), and
several at the same moment. The adapter plays it as :func:`ddz.uno.play_turn` does: at each
moment every player with a legal action is asked once, the player to act first and then the
others in the direction of play; an out-of-turn player may answer with the pass. When all
have answered, ``Game.resolve`` settles their answers together (docs/uno.md: UNO calls, then
catches, then jump-ins, then the turn action if it is still legal), and the next moment
begins. Answers within a moment are simultaneous: nobody sees another's answer. Wrong
jump-ins (an out-of-turn card that is not the exact twin) are not in the mask.

**Illegal actions** (an index whose mask entry is 0, or no integer at all) follow
``illegal_action=``: ``"raise"`` raises :class:`ddz.IllegalMoveError` and leaves everything
as it was; ``"lose"`` ends the game at once, the offending seat's reward is
``illegal_reward`` (default -1) and every other seat's 0, and the offender's info says
``illegal_action``.

**Seeds.** ``reset(seed=s)`` deals the game ``ddz.Game(rules, seed=s)`` (or
``ddz.uno.Game(players, seed=s, rules=rules)``) would deal; each later reset without a seed
deals seed ``s + 1``, ``s + 2``, and so on; before any seed, a random one.

**Length.** ``max_steps=N`` truncates an episode after N decisions (rewards 0), for UNO
rounds in which nobody ever goes out; ``None`` (the default) never truncates. A Dou Dizhu
game always ends.

>>> from ddz.envs import make_adapter
>>> adapter = make_adapter("classic")
>>> adapter.reset(seed=7)
>>> adapter.num_players, adapter.num_actions, adapter.to_act
(3, 12660, 2)
>>> mask = adapter.action_mask(2)
>>> [adapter.action_text(int(i)) for i in mask.nonzero()[0]]
['pass', 'bid 1', 'bid 2', 'bid 3']
>>> adapter.step(adapter.num_actions - 3)    # bid 3: the landlord is settled
>>> adapter.to_act, adapter.observation(2).shape
(2, (441,))
"""

from __future__ import annotations

from typing import Any

from ddz import uno
from ddz.doudizhu.observation import HISTORY
from ddz.doudizhu.rules import Rules
from ddz.envs.base import (
    GAMES,
    ActionMask,
    Adapter,
    IllegalAction,
    UnoReward,
    agent_name,
    render_table,
)
from ddz.envs.doudizhu import PRESETS, DouDizhuAdapter
from ddz.envs.uno_round import UnoActionSpace, UnoAdapter

__all__ = [
    "GAMES",
    "ActionMask",
    "Adapter",
    "DouDizhuAdapter",
    "IllegalAction",
    "UnoActionSpace",
    "UnoAdapter",
    "UnoReward",
    "agent_name",
    "make_adapter",
    "render_table",
]


def make_adapter(
    game: str = "classic",
    *,
    rules: Rules | uno.Rules | None = None,
    players: int | None = None,
    reward: UnoReward | None = None,
    history: int = HISTORY,
    illegal_action: IllegalAction = "raise",
    illegal_reward: float = -1.0,
    max_steps: int | None = None,
) -> Adapter:
    """The adapter of a game by name (:data:`GAMES`). ``rules`` replaces the game's preset
    (a ``ddz.Rules`` for the Dou Dizhu games, a ``ddz.uno.Rules`` for UNO); ``players`` and
    ``reward`` are UNO's, ``history`` (the past moves in the observation) Dou Dizhu's.

    >>> make_adapter("uno", players=2).num_players, make_adapter("two-player").num_actions
    (2, 4947)
    >>> make_adapter("chess")
    Traceback (most recent call last):
    ...
    ValueError: no game 'chess'; the games are: classic, two-player, uno-landlord, uno
    """
    common: dict[str, Any] = {
        "illegal_action": illegal_action,
        "illegal_reward": illegal_reward,
        "max_steps": max_steps,
    }
    if game == "uno":
        if rules is not None and not isinstance(rules, uno.Rules):
            raise TypeError(f"the UNO game takes a ddz.uno.Rules, not {rules!r}")
        return UnoAdapter(
            4 if players is None else players,
            uno.LOMBARDY if rules is None else rules,
            reward=reward or "win",
            **common,
        )
    if game not in PRESETS:
        raise ValueError(f"no game {game!r}; the games are: {', '.join(GAMES)}")
    if players is not None or reward is not None:
        raise ValueError("players and reward are options of the UNO game only")
    if rules is not None and not isinstance(rules, Rules):
        raise TypeError(f"the Dou Dizhu games take a ddz.Rules, not {rules!r}")
    return DouDizhuAdapter(PRESETS[game] if rules is None else rules, history=history, **common)
