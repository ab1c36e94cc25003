"""Sampled worlds: the hidden cards dealt at random, consistently with what one seat has seen.

``sample_worlds(game_or_observation, seat, n, seed)`` deals the cards ``seat`` cannot see (the
other hands, the kitty while it is unseen, the cards set aside) ``n`` times, uniformly among
the physical deals consistent with everything the seat has seen: its hand, the cards each
seat has played, each seat's card count, and the shown kitty (the landlord still holds the
kitty cards it has not played). Uniform over *physical* deals: a world's probability is the
share of the physical deals of the 54 (or 46, 58) cards that lead to it, and a seat that has
played a 5 had a 5 when the cards were dealt, which weighs the worlds (``docs/positions.md``,
"Sampled worlds"). The dealing runs in C (``ddz._core.worlds``).

>>> import ddz
>>> game = ddz.Game(ddz.TWO_PLAYER, seed=3)
>>> for action in ("call", "pass", "55"):
...     _ = game.step(action)
>>> worlds = ddz.sample_worlds(game, 1, 1000, seed=7)
>>> len(worlds), worlds.hands.shape, worlds.hands.dtype.name
(1000, (1000, 2), 'uint64')
>>> worlds[0][1] == game.hands[1], len(worlds[0][0]) == len(game.hands[0])
(True, True)
>>> world = worlds.game(0)      # a Game at the same position, in that world
>>> world.observation(1, history=False) == game.observation(1, history=False)
True
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

import numpy as np
import numpy.typing as npt

from ddz._core import worlds as _core
from ddz.base.errors import check_integer, check_seed, shorten
from ddz.doudizhu.actions import ActionRecord
from ddz.doudizhu.cards import Cards
from ddz.doudizhu.game import Game
from ddz.doudizhu.observation import Observation
from ddz.doudizhu.position import Position
from ddz.doudizhu.rules import Rules

__all__ = ["Worlds", "sample_worlds"]

_MAX_WORLDS = 1 << 20  # a million worlds: about 60 MB of card integers for three seats


class Worlds:
    """``n`` sampled worlds of one seat's view (see :func:`sample_worlds`).

    * ``hands``: an (n x players) uint64 array of card integers (``Cards.from_mask`` reads
      one; ``docs/layout.md``), every seat's hand in each world, the observing seat's own
      the same in all;
    * ``kitty``: an (n,) uint64 array, the kitty of each world (the shown kitty in every world
      once the landlord took it; a sampled one during bidding);
    * ``set_aside``: an (n,) uint64 array, the cards of each world that no seat holds or has
      played and that are not the unseen kitty;
    * ``worlds[i]``: world i's hands as ``Cards``; ``worlds.game(i)``: a :class:`ddz.Game` at
      the same point of the game in world i (for a solver or a playout);
      ``worlds.position(i)``: its :class:`ddz.Position` (play phase).
    """

    def __init__(
        self,
        rules: Rules,
        observation: Observation,
        hands: npt.NDArray[np.uint64],
        kitty: npt.NDArray[np.uint64],
        set_aside: npt.NDArray[np.uint64],
        *,
        history: Sequence[ActionRecord],
        moves: tuple[int, int] | None,
    ) -> None:
        self.rules = rules
        self.observation = observation
        self.seat = observation.player
        self.hands = hands
        self.kitty = kitty
        self.set_aside = set_aside
        self._history = tuple(history)
        self._moves = moves
        self._template: Position | None = None

    def __len__(self) -> int:
        return len(self.hands)

    def __getitem__(self, index: int) -> tuple[Cards, ...]:
        return tuple(Cards.from_mask(int(mask)) for mask in self.hands[index])

    def __iter__(self) -> Iterator[tuple[Cards, ...]]:
        for index in range(len(self)):
            yield self[index]

    def take(self, indices: npt.ArrayLike) -> Worlds:
        """The worlds at ``indices`` (in that order, repeats allowed), of the same view: a
        weighted sample resampled (``ddz.play.inference``) is an ordinary ``Worlds``."""
        rows = np.asarray(indices, dtype=np.intp)
        if rows.ndim != 1 or (len(rows) and not (rows.min() >= 0 and rows.max() < len(self))):
            raise IndexError(f"indices must be a list of world numbers below {len(self)}")
        taken = Worlds(
            self.rules,
            self.observation,
            self.hands[rows],
            self.kitty[rows],
            self.set_aside[rows],
            history=self._history,
            moves=self._moves,
        )
        taken._template = self._template
        return taken

    def game(self, index: int) -> Game:
        """World ``index`` as a :class:`ddz.Game` at the same point: in play, a game from
        :meth:`ddz.Game.from_position` (the same table, cards played, multiplier, turn); in
        bidding, the world's deal with the bidding so far replayed (it needs the history: a
        game, or an observation made with it)."""
        if not 0 <= index < len(self):
            raise IndexError(f"world {index} of {len(self)}")
        seen = self.observation
        hands = self[index]
        if seen.phase == "bidding":
            return self._bidding_game(hands, Cards.from_mask(int(self.kitty[index])))
        if seen.phase != "play" or seen.landlord is None or seen.current_player is None:
            raise ValueError("the game is over: there is no position to play from")
        return self.position(index).game()

    def position(self, index: int) -> Position:
        """World ``index``'s :class:`ddz.Position` (play phase): the same table, cards played,
        multiplier and turn, this world's hands."""
        if not 0 <= index < len(self):
            raise IndexError(f"world {index} of {len(self)}")
        seen = self.observation
        if seen.phase != "play" or seen.landlord is None or seen.current_player is None:
            raise ValueError(f"a position is a play-phase state; the view is in {seen.phase}")
        hands = self[index]
        if self._template is not None:
            # every world agrees with the view by construction (tests/test_worlds.py checks
            # it), and the template was validated in full: only the hands differ
            position = object.__new__(Position)
            position.__dict__.update(self._template.__dict__, hands=hands)
            return position
        landlord_moves, farmer_moves = self._moves if self._moves is not None else (None, None)
        self._template = Position(
            self.rules,
            hands,
            landlord=seen.landlord,
            to_act=seen.current_player,
            table=seen.table,
            table_player=seen.table_player,
            played=seen.played,
            kitty=seen.kitty,
            bid=seen.bid,
            bombs=_bombs(seen),
            grabs=seen.grabs,
            direction=seen.direction,
            landlord_moves=landlord_moves,
            farmer_moves=farmer_moves,
        )
        return self._template

    def _bidding_game(self, hands: tuple[Cards, ...], kitty: Cards) -> Game:
        seen = self.observation
        if not self._history and (seen.bid or seen.grabs):
            raise ValueError("replaying the bidding needs the history (observation(history=True))")
        first = self._history[0].player if self._history else seen.current_player
        game = Game(self.rules, deal=(hands, kitty), first_player=first)
        for record in self._history:
            game.step(record.action)
        return game

    def __repr__(self) -> str:
        return f"<Worlds {len(self)} worlds of seat {self.seat}'s view, {self.observation.phase}>"


def sample_worlds(
    source: Game | Observation,
    seat: int | None = None,
    n: int = 1,
    seed: int | None = None,
    *,
    rules: Rules | None = None,
) -> Worlds:
    """Deal the cards ``seat`` cannot see ``n`` times, uniformly among the deals consistent
    with what it has seen (the module docstring says what that is).

    ``source`` is a :class:`ddz.Game` (then ``seat`` is any seat) or an
    :class:`ddz.Observation` (then ``seat`` is its player, the default, and ``rules`` the
    rules its game plays: an observation does not hold them). ``seed`` makes the worlds
    reproducible (default: a fresh random seed). Passes imply nothing: passing is always
    legal, so a seat that passed may hold cards that would have beaten the table.
    """
    if isinstance(source, Game):
        if seat is None:
            raise TypeError("sample_worlds(game, seat, ...) needs the seat whose view to sample")
        if rules is not None and rules != source.rules:
            raise ValueError("rules= differs from the game's rules")
        rules = source.rules
        seat = check_integer(seat, "seat", 0, rules.players - 1)
        observation = source.observation(seat, history=False)
        history = source.history if source.phase == "bidding" else []
        moves: tuple[int, int] | None = None
        if source.phase == "play":
            position = source.position()
            moves = (position.landlord_moves, position.farmer_moves)
    elif isinstance(source, Observation):
        observation = source
        if seat is not None and seat != source.player:
            raise ValueError(f"the observation is seat {source.player}'s, not seat {seat}'s")
        if rules is None:
            raise TypeError(
                "sample_worlds(observation, ...) needs rules=: an observation lacks them"
            )
        if not isinstance(rules, Rules):
            raise TypeError(f"rules must be a ddz.Rules, not {type(rules).__name__}")
        if len(source.card_counts) != rules.players:
            raise ValueError(
                f"the observation has {len(source.card_counts)} seats; the rules {rules.players}"
            )
        fault = source.fault()
        if fault is not None:
            raise ValueError(f"the observation is no game's: {fault[0]}: {fault[1]}")
        history = list(source.history)
        moves = _moves_from(source)
    else:
        raise TypeError(f"sample_worlds takes a ddz.Game or an Observation, not {shorten(source)}")
    n = check_integer(n, "n", 0, _MAX_WORLDS)  # numpy integers too, like every count
    seed = random.SystemRandom().getrandbits(64) if seed is None else check_seed(seed)
    return _sample(rules, observation, n, seed, history=history, moves=moves)


def _sample(
    rules: Rules,
    seen: Observation,
    n: int,
    seed: int,
    *,
    history: Sequence[ActionRecord],
    moves: tuple[int, int] | None,
) -> Worlds:
    players = rules.players
    me = seen.player
    pool = rules.deck - seen.hand  # ValueError: the hand is not part of the deck
    for cards in seen.played:
        pool = _less(pool, cards, "the cards played")
    forced = Cards()  # the shown kitty's cards the landlord has not played: still in its hand
    if seen.kitty is not None and seen.landlord is not None and seen.landlord != me:
        counts = seen.kitty.counts(actions=True)
        played = seen.played[seen.landlord].counts(actions=True)
        forced = Cards.from_counts([max(0, k - p) for k, p in zip(counts, played, strict=True)])
        pool = _less(pool, forced, "the kitty the landlord still holds")
    holders = [seat for seat in range(players) if seat != me]
    sizes = [
        seen.card_counts[seat] - (len(forced) if seat == seen.landlord else 0) for seat in holders
    ]
    # what each holder was dealt and has played since: it weighs the deals (_core.worlds)
    dealt_then_played = [_played_from_deal(seen, seat) for seat in holders]
    kitty_unseen = seen.phase == "bidding"
    if kitty_unseen:
        sizes.append(rules.kitty_size)
        dealt_then_played.append(Cards())
    rest = len(pool) - sum(sizes)
    if min(sizes, default=0) < 0 or rest < 0:
        raise ValueError("the observation is inconsistent: the hidden cards do not add up")
    sizes.append(rest)
    dealt_then_played.append(Cards())
    out = np.empty((n, len(sizes)), dtype=np.uint64)
    weight = _core.sample_deals(
        pool.mask,
        np.array(sizes, dtype=np.int64),
        np.array([cards.mask for cards in dealt_then_played], dtype=np.uint64),
        seed,
        out,
    )
    if weight <= 0:
        raise ValueError("the observation is inconsistent: no deal gives it")
    hands = np.empty((n, players), dtype=np.uint64)
    hands[:, me] = seen.hand.mask
    for column, seat in enumerate(holders):
        hands[:, seat] = out[:, column]
        if seat == seen.landlord:
            hands[:, seat] += np.uint64(forced.mask)  # digits never carry: disjoint parts
    if kitty_unseen:
        kitty = out[:, len(holders)].copy()
    else:
        kitty = np.full(n, seen.kitty.mask if seen.kitty is not None else 0, dtype=np.uint64)
    return Worlds(rules, seen, hands, kitty, out[:, -1].copy(), history=history, moves=moves)


def _less(pool: Cards, cards: Cards, what: str) -> Cards:
    if not cards <= pool:
        raise ValueError(f"the observation is inconsistent: {what} ({cards}) are not in the deck")
    return pool - cards


def _played_from_deal(seen: Observation, seat: int) -> Cards:
    """The cards seat was dealt and has played: its plays, less (for the landlord) those the
    kitty can account for."""
    played = seen.played[seat]
    if seat != seen.landlord or seen.kitty is None:
        return played
    kitty = seen.kitty.counts(actions=True)
    counts = played.counts(actions=True)
    return Cards.from_counts([max(0, p - k) for p, k in zip(counts, kitty, strict=True)])


def _bombs(seen: Observation) -> int:
    """Bombs and rockets so far, from the multiplier (bid x 2^grabs x 2^bombs in play)."""
    if seen.bid <= 0 or seen.multiplier <= 0:
        return 0
    return max(0, (seen.multiplier // seen.bid).bit_length() - 1 - seen.grabs)


def _moves_from(seen: Observation) -> tuple[int, int] | None:
    """(landlord's moves, farmers' moves) from a whole game's history, None without one."""
    if not seen.history or seen.history[0].phase != "bidding" or seen.landlord is None:
        return None
    landlord = farmers = 0
    for record in seen.history:
        if record.phase == "play" and record.action.code != 0:
            if record.player == seen.landlord:
                landlord += 1
            else:
                farmers += 1
    return landlord, farmers
