"""What the play says about the hidden hands, as weights on sampled worlds (``PIMCAgent``'s
step 1; docs/agents.md, "What PIMC infers").

:func:`ddz.sample_worlds` already deals only the worlds consistent with everything a seat has
*seen*: its hand, every card played, the card counts, and the shown kitty (the landlord's
bottom cards it has not played are placed in its hand in every world). What it does not use
is what the other seats *chose*. Two readings are made here:

* **a pass over a move the seat could have beaten**: in play, a seat that passed while
  holding a move that beats the table's (of the table's kind, not a bomb or rocket) did
  something legal but unusual. Each such pass multiplies a world's weight by
  ``pass_weight`` (between 0 and 1): the likelihood that a seat holding a beater passes,
  relative to a seat without one (which has to). A beater that is, or breaks, a bomb or the
  rocket (four 4s, a 4 of them, the small joker of a rocket) is no evidence: holding a bomb
  back is ordinary play, and so is keeping it whole. A farmer's
  pass over its partner's move says nothing (letting a partner's move stand is ordinary), and
  neither do the observing seat's own passes. The hand a seat held when it passed is its
  hand in the world plus every card it played since.

The other reading is a model's: :func:`model_disagreements` replays the play in each world
and counts, for each seat, the moves its model would not have made there (the greedy agent,
``greedy_weights``; or RLCard's rule agent, whose random draws agree with anything), and
:func:`model_weights` turns the counts into weights. Not told which model a seat plays,
:func:`model_posterior` weighs each world by how well either model explains each seat's play
there (its prior share times its likelihood, summed over the two), and gives each world's
chance that a seat is the rule agent; :func:`assign_models` draws each world's model of each
seat from those chances, in stratified shares.

:func:`bid_disagreements` reads the bidding the same way: the bids and passes each seat
would have made, as the greedy agent, with the cards it was dealt in each world (its
strength: jokers, 2s, aces and bombs), or as RLCard's rule agent (which always passes).

Nothing else is inferred. The weights are soft on
purpose: passing with a beater is legal and sometimes right, so no world is ever excluded,
and when every world breaks the same evidence (a seat that passed strategically) the weights
are equal again and the sample is the uniform one: the fallback when too few worlds agree
with the play is built in.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ddz._core import playouts as _playouts
from ddz._core.moves import Move, MoveType, legal_moves
from ddz.doudizhu.actions import Bid
from ddz.doudizhu.cards import Cards
from ddz.doudizhu.observation import Observation
from ddz.doudizhu.position import Position
from ddz.doudizhu.rules import Rules
from ddz.play.bidding import bid_points, strength
from ddz.play.rule_model import rule_order

__all__ = [
    "Pass",
    "assign_models",
    "bid_disagreements",
    "greedy_disagreements",
    "greedy_weights",
    "model_disagreements",
    "model_posterior",
    "model_weights",
    "pass_weights",
    "passes_over_beatable",
    "resample",
]

_NOT_EVIDENCE = frozenset({MoveType.PASS, MoveType.BOMB, MoveType.ROCKET})
_SPECIAL = frozenset({MoveType.SKIP, MoveType.REVERSE})


@dataclass(frozen=True)
class Pass:
    """A pass that says something: ``seat`` passed over ``table`` (played by another seat,
    not its partner); ``since`` is the card integer of the cards ``seat`` played after it."""

    seat: int
    table: Move
    since: int


def passes_over_beatable(observation: Observation, rules: Rules) -> list[Pass]:
    """The play-phase passes of the other seats that are evidence (see the module docstring),
    read from the observation's history (an observation made without history gives none)."""
    me = observation.player
    landlord = observation.landlord
    events: list[tuple[int, Move]] = []
    table: Move | None = None
    table_player: int | None = None
    played_after: list[list[int]] = []  # for each event, the cards its seat played after it
    for record in observation.history:
        if record.phase != "play":
            continue
        action = record.action
        if not isinstance(action, Move) or action.type in _SPECIAL:
            return []  # a family whose moves this reading does not cover (UNO-style)
        seat = record.player
        if action.is_pass:
            if table is None or table_player is None or seat == me:
                continue
            partners = (
                rules.players == 3
                and landlord is not None
                and seat != landlord
                and table_player != landlord
            )
            if not partners:
                events.append((seat, table))
                played_after.append([])
            continue
        table, table_player = action, seat
        for (who, _), later in zip(events, played_after, strict=True):
            if who == seat:
                later.append(action.cards.mask)
    return [
        Pass(seat, move, _add(later))
        for (seat, move), later in zip(events, played_after, strict=True)
    ]


def _add(masks: list[int]) -> int:
    # card integers hold a count per digit; disjoint parts of one deck never carry
    return sum(masks)


_RANKS = 13  # digits 0..12 of a card integer: 3 to 2 (docs/layout.md); 13, 14 the jokers
_JOKERS = 0o77 << (3 * _RANKS)


def _bomb_cards(hand: int) -> int:
    """The card bits of ``hand``'s bombs (four of a rank) and rocket (both jokers)."""
    protected = 0
    for rank in range(_RANKS):
        if (hand >> (3 * rank)) & 7 == 4:
            protected |= 7 << (3 * rank)
    if (hand >> (3 * _RANKS)) & 7 and (hand >> (3 * _RANKS + 3)) & 7:
        protected |= _JOKERS
    return protected


def _has_beater(hand: int, table: Move, rules: Rules) -> bool:
    """Whether ``hand`` beats ``table`` with a move that is no bomb or rocket and breaks
    none (a single X from the rocket, a 4 from 4444 do not count)."""
    protected = _bomb_cards(hand)
    return any(
        move.type not in _NOT_EVIDENCE and not move.code & protected
        for move in legal_moves(hand, table.code, rules)
    )


def pass_weights(
    hands: npt.NDArray[np.uint64], passes: list[Pass], rules: Rules, pass_weight: float
) -> npt.NDArray[np.float64]:
    """Each world's weight (hands: worlds x players card integers): ``pass_weight`` to the
    power of the number of ``passes`` whose seat held a non-bomb beater in that world."""
    weights = np.ones(len(hands), dtype=np.float64)
    if not passes or pass_weight == 1.0:
        return weights
    seen: dict[tuple[int, int], bool] = {}
    for event in passes:
        for i in range(len(hands)):
            hand = int(hands[i, event.seat]) + event.since
            key = (hand, event.table.code)
            beats = seen.get(key)
            if beats is None:
                beats = seen[key] = _has_beater(hand, event.table, rules)
            if beats:
                weights[i] *= pass_weight
    return weights


def resample(weights: npt.NDArray[np.float64], n: int, seed: int) -> npt.NDArray[np.int64]:
    """``n`` indices drawn in proportion to ``weights`` (systematic resampling: every index
    appears floor or ceil of its expected count; reproducible with ``seed``)."""
    total = float(weights.sum())
    if total <= 0:
        raise ValueError("no world has a weight above 0")
    cumulative = np.cumsum(weights) / total
    offset = np.random.default_rng(seed).random()
    points = (np.arange(n) + offset) / n
    return np.minimum(np.searchsorted(cumulative, points, side="right"), len(weights) - 1)


def greedy_disagreements(
    observation: Observation, rules: Rules, hands: npt.NDArray[np.uint64]
) -> npt.NDArray[np.int64] | None:
    """For each world (hands: worlds x players, the hands now), how many of each seat's
    play-phase actions so far differ from what the greedy agent (ddz.play.agents.GreedyAgent)
    would have chosen holding that world's cards (worlds x players; -1 in a world the play
    could not come from). None when there is nothing to read: no play yet, no history, or a
    family with Skip and Reverse cards."""
    return model_disagreements(observation, rules, hands, ["greedy"] * rules.players)


def model_disagreements(
    observation: Observation,
    rules: Rules,
    hands: npt.NDArray[np.uint64],
    policies: Sequence[str],
) -> npt.NDArray[np.int64] | None:
    """:func:`greedy_disagreements` with each seat read through its model, ``policies[seat]``:
    ``"greedy"`` or ``"rlcard-rule"`` (RLCard's rule agent, in C: ddz.play.rule_model; where
    it draws at random, any action agrees with it)."""
    plays = [record for record in observation.history if record.phase == "play"]
    if not plays or observation.landlord is None:
        return None
    codes, played = [], [0] * rules.players
    for record in plays:
        action = record.action
        if not isinstance(action, Move) or action.type in _SPECIAL:
            return None
        codes.append(action.code)
        played[record.player] += action.cards.mask  # disjoint parts: no carry
    # every world's hands when the play began: its hands now and what each seat played
    start = hands + np.array(played, dtype=np.uint64)
    try:
        position = Position(
            rules,
            [Cards.from_mask(int(mask)) for mask in start[0]],
            landlord=observation.landlord,
            to_act=plays[0].player,
            kitty=observation.kitty,
            bid=max(1, observation.bid),
            grabs=observation.grabs,
        )
    except ValueError:
        # a view whose history does not start the play (a game from a position with cards
        # played before it): nothing to replay from
        return None
    out = np.empty((len(hands), rules.players), dtype=np.int64)
    order = rule_order() if "rlcard-rule" in policies else None
    _playouts.policy_disagreements(
        rules,
        position.game().state_bytes(),
        np.ascontiguousarray(start),
        np.array(codes, dtype=np.uint64),
        out,
        list(policies),
        order,
    )
    return out


def _strengths(hands: npt.NDArray[np.uint64]) -> npt.NDArray[np.int64]:
    """The greedy agent's bidding strength (:func:`ddz.play.bidding.strength`) of each card
    integer."""
    masks = hands.astype(np.uint64)
    shifts = np.arange(0, 45, 3, dtype=np.uint64)
    counts = ((masks[..., None] >> shifts) & np.uint64(7)).astype(np.int64)  # ... x 15 ranks
    return strength(counts)


def bid_disagreements(
    observation: Observation,
    hands: npt.NDArray[np.uint64],
    policy: str = "greedy",
) -> npt.NDArray[np.int64] | None:
    """For each world (hands: worlds x players, the hands now), how many of each seat's
    bids and passes in the bidding differ from what ``policy`` would have bid holding the
    cards it was dealt in that world (its hand now, the cards it played, less the shown
    kitty for the landlord): the greedy agent bids its strength's points (1, 2 or 3 from 3,
    5 and 7) when they top the bid so far and passes otherwise; RLCard's rule agent
    (``"rlcard-rule"``) always passes. None when there is nothing to read: no bids seen, or
    call-and-grab bidding."""
    bids = [record for record in observation.history if record.phase == "bidding"]
    if not bids or any(
        not isinstance(r.action, Bid) or r.action.kind not in ("bid", "pass") for r in bids
    ):
        return None
    players = hands.shape[1]
    out = np.zeros((len(hands), players), dtype=np.int64)
    if policy == "rlcard-rule":
        for record in bids:
            assert isinstance(record.action, Bid)
            out[:, record.player] += record.action.kind != "pass"
        return out
    dealt = hands + np.array([cards.mask for cards in observation.played], dtype=np.uint64)
    landlord = observation.landlord
    known = np.ones(players, dtype=bool)
    if landlord is not None and observation.phase != "bidding":
        if observation.kitty is None:
            known[landlord] = False  # what it was dealt is not known
        else:
            dealt[:, landlord] -= np.uint64(observation.kitty.mask)  # a part: no borrow
    points = bid_points(_strengths(dealt))
    top = 0
    for record in bids:
        seat, action = record.player, record.action
        assert isinstance(action, Bid)
        if known[seat]:
            would = np.where(points[:, seat] > top, points[:, seat], 0)
            out[:, seat] += would != (action.value if action.kind == "bid" else 0)
        if action.kind == "bid":
            top = max(top, action.value)
    return out


def greedy_weights(
    observation: Observation,
    rules: Rules,
    hands: npt.NDArray[np.uint64],
    greedy_weight: float,
) -> npt.NDArray[np.float64]:
    """Each world's weight: ``greedy_weight`` to the power of the other seats' actions that
    differ from the greedy agent's choice in that world (0 for a world the play could not
    come from; all 1 with nothing to read)."""
    weights = np.ones(len(hands), dtype=np.float64)
    if greedy_weight == 1.0:
        return weights
    counts = greedy_disagreements(observation, rules, hands)
    if counts is None:
        return weights
    others = [seat for seat in range(rules.players) if seat != observation.player]
    differ = counts[:, others].sum(axis=1)
    possible = counts[:, 0] >= 0
    # relative to the world that agrees best: the same weights, without underflow
    fewest = differ[possible].min() if possible.any() else 0
    weights[possible] = greedy_weight ** (differ[possible] - fewest).astype(np.float64)
    weights[~possible] = 0.0
    return weights


def model_weights(
    counts: npt.NDArray[np.int64] | None, seats: dict[int, float], worlds: int
) -> npt.NDArray[np.float64]:
    """Each world's weight from ``counts`` (:func:`model_disagreements`): for each seat of
    ``seats``, its weight to the power of that seat's disagreements in the world beyond its
    fewest in any world (so the world that agrees best keeps 1, without underflow); 0 for a
    world the play could not come from; all 1 with nothing to read (``counts`` None)."""
    weights = np.ones(worlds, dtype=np.float64)
    if counts is None:
        return weights
    possible = counts[:, 0] >= 0
    if not possible.any():
        return weights
    for seat, weight in seats.items():
        if weight == 1.0:
            continue
        differ = counts[:, seat]
        fewest = differ[possible].min()
        weights[possible] *= weight ** (differ[possible] - fewest).astype(np.float64)
    weights[~possible] = 0.0
    return weights


def _likelihoods(
    counts: npt.NDArray[np.int64] | None, seat: int, weight: float, worlds: int
) -> npt.NDArray[np.float64]:
    """The log-likelihood of ``seat``'s play in each world under a model that errs with
    ``weight`` a move: ``counts[:, seat]`` times log(weight) (0 with nothing to read; minus
    infinity for a world the play could not come from, or a disagreement at weight 0)."""
    if counts is None:
        return np.zeros(worlds, dtype=np.float64)
    differ = counts[:, seat].astype(np.float64)
    out = np.zeros(worlds, dtype=np.float64)
    if weight == 0.0:
        out[differ > 0] = -np.inf
    else:
        out = differ * np.log(weight)
    out[counts[:, 0] < 0] = -np.inf
    return out


def model_posterior(
    greedy: npt.NDArray[np.int64] | None,
    rule: npt.NDArray[np.int64] | None,
    seats: Sequence[int],
    worlds: int,
    greedy_weight: float,
    rule_weight: float,
    prior: float,
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Each world's weight and, for each of ``seats``, each world's chance that the seat is
    RLCard's rule agent rather than the greedy agent (worlds x len(seats)), from the two
    models' disagreements (:func:`model_disagreements`, None: nothing read) and ``prior``,
    the rule agent's share before any play.

    A seat's likelihood in a world under a model is the model's weight (``greedy_weight``,
    ``rule_weight``) to the power of its disagreements there; its evidence there is the
    prior-weighted sum over the two models, and a world's weight the product over the seats
    (each seat's greatest likelihood in any world scaled to 1: no underflow, the same
    ratios). With nothing to read every weight is 1 and every chance ``prior``. A world
    with no weight left keeps the prior as its chances; when no world has any, every weight
    is 1 (the uniform sample: the fallback of :func:`model_weights`)."""
    weights = np.ones(worlds, dtype=np.float64)
    chances = np.full((worlds, len(seats)), prior, dtype=np.float64)
    for k, seat in enumerate(seats):
        by_greedy = _likelihoods(greedy, seat, greedy_weight, worlds)
        by_rule = _likelihoods(rule, seat, rule_weight, worlds)
        top = max(by_greedy.max(), by_rule.max())
        if top == -np.inf:
            continue  # no world the play could come from: nothing read
        rule_part = prior * np.exp(by_rule - top)
        evidence = rule_part + (1.0 - prior) * np.exp(by_greedy - top)
        held = evidence > 0
        chances[held, k] = rule_part[held] / evidence[held]
        weights *= evidence
    if not weights.any():
        weights[:] = 1.0
    return weights, chances


def assign_models(chances: npt.NDArray[np.float64], seed: int) -> npt.NDArray[np.bool_]:
    """Whether each world plays each seat as the rule agent (worlds x seats), drawn with
    ``chances`` (:func:`model_posterior`), stratified: each seat's draws are the points
    (k + u) / worlds of one uniform offset u, dealt to the worlds in a random order, so
    worlds with equal chances p get the rule agent in a share within 1/worlds of p
    (reproducible with ``seed``)."""
    worlds, seats = chances.shape
    rng = np.random.default_rng(seed)
    out = np.empty((worlds, seats), dtype=bool)
    for k in range(seats):
        points = (rng.permutation(worlds) + rng.random()) / max(worlds, 1)
        out[:, k] = points < chances[:, k]
    return out
