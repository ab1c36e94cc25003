"""The rule set: every option that real tables and other engines play differently.

A :class:`Rules` value is frozen and hashable. The presets are module constants:

>>> import ddz
>>> ddz.CLASSIC.four_with_two
True
>>> ddz.TWO_PLAYER.players, str(ddz.TWO_PLAYER.deck)[:6]
(2, '555566')
>>> ddz.CLASSIC.replace(four_with_two=False).four_with_two
False
>>> ddz.CLASSIC.replace(four_with_two=False)
ddz.CLASSIC.replace(four_with_two=False)

Every option is checked when a rule set is made (docs/rules.md, "Checked options"): switches
are ``bool`` (a numpy bool counts as its ``bool``; ``0``, ``1`` and text such as ``"false"``
are refused), counts are integers (numpy integers too) in their documented ranges,
``bidding`` is a :class:`Bidding` or its value (``"call-grab"``), and equivalent values are
normalised (``excluded_ranks="43"`` is ``"34"``). Wrong types raise ``TypeError``, values out
of range ``ValueError``.

The move engine in the native core receives a rule set as one integer of plain flags
(:attr:`Rules.core_flags`); nothing outside this module builds that integer. Which fields it
holds, and where, is written once, on the fields themselves (:data:`CORE_FIELDS`).
"""

from __future__ import annotations

import dataclasses
import enum
import functools
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from ddz._core import game as _game
from ddz._core import moves as _moves
from ddz.base.errors import check_integer, shorten
from ddz.doudizhu.cards import RANKS, SYMBOLS, Cards, CardsLike

__all__ = [
    "CLASSIC",
    "CORE_FIELDS",
    "DOUZERO",
    "ENDGAME",
    "PRESETS",
    "RLCARD",
    "TWO_PLAYER",
    "UNO_LANDLORD",
    "VARIANTS",
    "Bidding",
    "CoreField",
    "Rules",
    "Variant",
    "action_codes",
    "check_deal",
]


class Bidding(enum.Enum):
    """How the landlord is chosen (docs/rules.md#bidding)."""

    POINTS = "points"
    """Each player once bids 1, 2 or 3 or passes; a 3 ends bidding."""
    CALL_GRAB = "call-grab"
    """Call the landlord, then grab it; every grab doubles the score."""
    RANDOM = "random"
    """The system picks the landlord at random; base score 1."""


_CHAIN_TOP = 11  # the ace: no chain runs past it


class CoreField(NamedTuple):
    """Where a rule field sits in :attr:`Rules.core_flags`, the integer the move engine reads."""

    shift: int
    """Its lowest bit."""
    width: int
    """Its bits: a switch has one, a count as many as its largest value needs."""
    doc: str
    """What it changes, in a line: its row in docs/rules.md ("Every option")."""


def _core(default: Any, shift: int, width: int, doc: str) -> Any:
    # A field the move engine reads: one line each is the whole table. The engine's own
    # positions are in _core/ruleset.pxd, and tests/test_rules.py asserts that they agree.
    return dataclasses.field(default=default, metadata={"core": CoreField(shift, width, doc)})


@dataclasses.dataclass(frozen=True)
class Rules:
    """Every rule option, with the rule book's defaults (``ddz.CLASSIC``).

    Deck and table
        ``players``, ``hand_size``, ``kitty_size``; ``excluded_ranks`` names ranks removed from
        the 54-card deck (``"34"`` in the two-player game); ``action_cards`` is how many Skip
        and how many Reverse cards the deck holds (2 each in Uno the Landlord).

    Game
        ``bidding``, ``max_grabs`` (call/grab), ``spring`` (a spring doubles the score).

    Combinations (docs/rules.md#combinations)
        ``four_with_two``: four + two singles and four + two pairs exist at all.
        ``single_kickers_distinct``: the single kickers of one move (airplane wings, the two
        kickers of four + two) have pairwise distinct ranks.
        ``pair_kickers_distinct``: likewise for pair kickers (so ``3333+4444`` and
        ``333444+5555`` are not moves).
        ``kicker_matches_main``: a kicker may have the rank of a card in the main part (the
        fourth card of a trio rank: ``333+3``, ``333444+35``).
        ``rocket_as_kickers``: both jokers may be kickers of one move.
        ``quad_as_wings``: all four cards of one rank may be single wings of an airplane
        (``333444555666+7777``); only matters when single kickers may repeat.
        ``trio_as_wings``: three cards of one rank may be single wings of an airplane
        (``333444555+999``); only matters when single kickers may repeat.
        ``trio_wings_adjacent``: such a wing trio may sit right next to the chain
        (``333444555666+7779``, which also reads like a longer airplane); only matters with
        ``trio_as_wings``.
        ``min_straight`` .. ``max_airplane``: chain lengths (chains run from 3 to A at most).
        ``multiple_readings``: a multiset with two readings (``333444555666`` as a four-trio
        airplane or as three trios with three single wings) may be played as either; when off,
        each multiset keeps one reading: bombs and the rocket first, then single, pair,
        trio, the chains without kickers, then the kicker types in :class:`ddz.MoveType`
        order, and within a type the highest main rank.

    Comparison quirks (off in the rule book; DouZero 1.1.0 plays them)
        ``airplane_rank_includes_wing_trios``: an airplane with single wings compares by its
        highest rank held three times, a wing trio included (``333444555+999`` ranks as 9).
        ``bombs_only_on_heavy_wings``: an airplane with single wings that holds a quad, or a
        wing trio beside a chain of four or more trios, can be answered only by bombs and
        the rocket.
    """

    players: int = 3
    hand_size: int = 17
    kitty_size: int = 3
    excluded_ranks: str = _core("", 36, 15, "ranks taken out of the deck")  # bit i: rank i
    action_cards: int = _core(0, 51, 2, "Skip and Reverse cards, each")

    bidding: Bidding = Bidding.POINTS
    max_grabs: int = 4
    spring: bool = True

    # the combinations: (default, lowest bit, bits, docs/rules.md's line)
    four_with_two: bool = _core(True, 0, 1, "four + two singles and four + two pairs exist at all")
    single_kickers_distinct: bool = _core(
        True, 1, 1, "single kickers of one move have distinct ranks (`333444+55` is not a move)"
    )
    pair_kickers_distinct: bool = _core(
        True, 2, 1, "pair kickers of one move have distinct ranks (`3333+4444`, `333444+5555`)"
    )
    kicker_matches_main: bool = _core(
        False, 3, 1, "a kicker may be the fourth card of a main rank (`333+3`, `333444+35`)"
    )
    rocket_as_kickers: bool = _core(
        False, 4, 1, "both jokers may be kickers of one move (`3333+XD`)"
    )
    quad_as_wings: bool = _core(
        False, 5, 1, "four equal single wings (`333444555666+7777`); needs repeated single kickers"
    )
    trio_as_wings: bool = _core(
        False, 6, 1, "three equal single wings (`333444555+999`); needs repeated single kickers"
    )
    trio_wings_adjacent: bool = _core(
        True, 8, 1, "a wing trio may sit right beside the chain (`333444555666+7779`)"
    )
    min_straight: int = _core(5, 12, 4, "straight lengths")
    max_straight: int = _core(12, 16, 4, "straight lengths")
    min_pair_straight: int = _core(3, 20, 4, "pair-straight lengths")
    max_pair_straight: int = _core(12, 24, 4, "pair-straight lengths")
    min_airplane: int = _core(2, 28, 4, "airplane chain lengths, with or without wings")
    max_airplane: int = _core(12, 32, 4, "airplane chain lengths, with or without wings")
    multiple_readings: bool = _core(
        True, 7, 1, "a multiset may be played under each of its readings; off, it keeps one"
    )
    airplane_rank_includes_wing_trios: bool = _core(
        False,
        9,
        1,
        "an airplane with single wings compares by its highest trio, wing trios included",
    )
    bombs_only_on_heavy_wings: bool = _core(
        False,
        10,
        1,
        "an airplane whose wings hold a quad, or a wing trio beside a chain of 4+, "
        "is answered only by bombs",
    )

    core_flags: int = dataclasses.field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._normalise()
        self._validate()
        object.__setattr__(self, "core_flags", self._pack())

    def _normalise(self) -> None:
        """Check every field's type and store it in its one canonical form."""
        for field in dataclasses.fields(self):
            if not field.init:
                continue
            name, value = field.name, getattr(self, field.name)
            if field.type in ("bool", bool):
                if not isinstance(value, (bool, np.bool_)):
                    raise TypeError(f"{name} is True or False, not {shorten(value)}")
                value = bool(value)
            elif field.type in ("int", int):
                if isinstance(value, (bool, np.bool_)) or not hasattr(type(value), "__index__"):
                    raise TypeError(f"{name} is an integer, not {shorten(value)}")
                value = check_integer(value, name)
            object.__setattr__(self, name, value)
        if isinstance(self.bidding, str):
            try:
                object.__setattr__(self, "bidding", Bidding(self.bidding))
            except ValueError:
                values = ", ".join(repr(b.value) for b in Bidding)
                raise ValueError(
                    f"bidding is a ddz.Bidding or one of {values}, not {shorten(self.bidding)}"
                ) from None
        elif not isinstance(self.bidding, Bidding):
            raise TypeError(f"bidding is a ddz.Bidding, not {shorten(self.bidding)}")
        excluded = self.excluded_ranks
        if not isinstance(excluded, str):
            raise TypeError(f"excluded_ranks is text (ranks such as '34'), not {shorten(excluded)}")
        if len(excluded) > 2 * len(RANKS):
            raise ValueError(f"excluded_ranks: {shorten(excluded)} names more than the ranks")
        for char in excluded.upper():
            if char not in RANKS:
                raise ValueError(f"excluded_ranks: {char!r} is not a rank ({RANKS})")
        canonical = "".join(rank for rank in RANKS if rank in excluded.upper())
        object.__setattr__(self, "excluded_ranks", canonical)

    def _validate(self) -> None:
        if not 2 <= self.players <= 3:
            raise ValueError(f"players must be 2 or 3, not {self.players!r}")
        if self.hand_size < 1:
            raise ValueError(
                f"hand_size must be at least 1 (a player who holds nothing can never go out), "
                f"not {self.hand_size}"
            )
        for name in ("kitty_size", "max_grabs"):
            value = getattr(self, name)
            if value < 0:
                raise ValueError(f"{name} must be a non-negative integer, not {value!r}")
        if self.max_grabs > 8:
            raise ValueError(
                f"max_grabs is at most 8 (each grab doubles the score), not {self.max_grabs!r}"
            )
        if not 0 <= self.action_cards <= 2:
            raise ValueError(f"action_cards must be 0, 1 or 2, not {self.action_cards!r}")
        needed = self.players * self.hand_size + self.kitty_size
        if needed > len(self.deck):
            raise ValueError(
                f"{self.players} hands of {self.hand_size} and a kitty of {self.kitty_size} "
                f"need {needed} cards; the deck has {len(self.deck)}"
            )
        chains = (
            ("straight", self.min_straight, self.max_straight, 5, 12),
            ("pair_straight", self.min_pair_straight, self.max_pair_straight, 3, 12),
            ("airplane", self.min_airplane, self.max_airplane, 2, 12),
        )
        for name, low, high, floor, ceiling in chains:
            if not floor <= low <= high <= ceiling:
                raise ValueError(
                    f"need {floor} <= min_{name} <= max_{name} <= {ceiling}, got {low} and {high}"
                )

    def _pack(self) -> int:
        packed = 0
        for name, shift, width in _PACKING:
            value = getattr(self, name)
            if value.__class__ is str:  # excluded_ranks, canonical: each rank at most once
                value = sum([1 << RANKS.index(char) for char in value])
            if value >> width:
                # _validate keeps every value in range; this keeps a field that outgrows
                # its width from spilling into its neighbour's bits
                raise ValueError(f"{name}={value!r} does not fit its {width} core bits")
            packed |= value << shift
        return packed

    @property
    def deck(self) -> Cards:
        """The whole deck these rules play with."""
        counts = [0 if rank in self.excluded_ranks else 4 for rank in RANKS[:13]]
        counts += [0 if "X" in self.excluded_ranks else 1, 0 if "D" in self.excluded_ranks else 1]
        counts += [self.action_cards, self.action_cards]
        return Cards.from_counts(counts)

    @property
    def num_actions(self) -> int:
        """The size of these rules' action space (``ddz.ActionSpace``): the pass, every
        move, five bidding actions."""
        return len(action_codes(self))

    def replace(self, **changes: Any) -> Rules:
        """A copy with some fields changed (validated like a new rule set)."""
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """The options as plain JSON values (``bidding`` as its value); :meth:`from_dict`
        reads them back."""
        data = {
            field.name: getattr(self, field.name)
            for field in dataclasses.fields(self)
            if field.init
        }
        data["bidding"] = self.bidding.value
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        """Rules from :meth:`to_dict`'s form (records write it). Unknown fields, wrong types
        (``"four_with_two": "false"`` is not False) and values out of range are refused; a
        ``core_flags`` entry (records before this method) is ignored, since it is computed."""
        if not isinstance(data, dict):
            raise TypeError(f"rules are a dict of options, not {shorten(data)}")
        known = {field.name for field in dataclasses.fields(cls) if field.init}
        fields = {key: value for key, value in data.items() if key != "core_flags"}
        unknown = set(fields) - known
        if unknown:
            raise ValueError(f"unknown rule fields: {shorten(sorted(map(str, unknown)))}")
        return cls(**fields)

    def __repr__(self) -> str:
        """The nearest preset and what differs from it: ``ddz.CLASSIC``,
        ``ddz.CLASSIC.replace(four_with_two=False)`` (short enough for ``help()``)."""
        best, best_key = "", (len(dataclasses.fields(self)), 0)
        for name, preset in _PRESET_NAMES.items():
            changed = [
                f"{field.name}={_value_repr(getattr(self, field.name))}"
                for field in dataclasses.fields(self)
                if field.init and getattr(self, field.name) != getattr(preset, field.name)
            ]
            text = f"ddz.{name}" + (f".replace({', '.join(changed)})" if changed else "")
            key = (len(changed), len(text))  # fewest changes, then the shortest text
            if not best or key < best_key:
                best, best_key = text, key
        return best or super().__repr__()


CORE_FIELDS: dict[str, CoreField] = {
    field.name: field.metadata["core"]
    for field in dataclasses.fields(Rules)
    if "core" in field.metadata
}
"""The fields of :attr:`Rules.core_flags` by name, in declaration order."""

_PACKING = tuple((name, field.shift, field.width) for name, field in CORE_FIELDS.items())

CLASSIC = Rules()
"""The rule book's classic three-player game (docs/rules.md#classic-game)."""

DOUZERO = Rules(
    bidding=Bidding.RANDOM,
    spring=False,
    single_kickers_distinct=False,
    rocket_as_kickers=True,
    quad_as_wings=True,
    trio_as_wings=True,
    airplane_rank_includes_wing_trios=True,
    bombs_only_on_heavy_wings=True,
)
"""The move set of DouZero 1.1.0 (``douzero.env``), move for move.

DouZero offers every reading of a multiset (``444555666777`` answers three trios with wings
as ``444555666+777`` and as ``555666777+444``) and reads the move on the table by the
single-reading order; use ``classify(cards, rules=DOUZERO.replace(multiple_readings=False))``
for that reading."""

RLCARD = Rules(
    bidding=Bidding.RANDOM,
    spring=False,
    single_kickers_distinct=False,
    trio_as_wings=True,
    trio_wings_adjacent=False,
    max_pair_straight=10,
    max_airplane=6,
    multiple_readings=False,
)
"""The move set of RLCard 1.2.0 (its 27,471 moves), move for move."""

TWO_PLAYER = Rules(
    players=2,
    excluded_ranks="34",
    bidding=Bidding.CALL_GRAB,
)
"""Two-player Dou Dizhu: no 3s and 4s, call/grab bidding, let cards (docs/two-player.md)."""

UNO_LANDLORD = Rules(hand_size=18, kitty_size=4, action_cards=2)
"""Uno the Landlord: the classic game plus 2 Skip and 2 Reverse cards (docs/uno-landlord.md)."""

ENDGAME = Rules(players=2, kitty_size=0, bidding=Bidding.RANDOM)
"""The endgame puzzles' rules ("残局"): two seats, the whole 54-card deck, classic
combinations, no bidding (base score 1, no let cards). Positions of any hand sizes come from
``ddz.Game.from_position``; ``Game(ENDGAME, seed=...)`` deals a random 17 v 17 position with
a random landlord to lead (the other 20 cards set aside)."""


def _value_repr(value: object) -> str:
    return f"ddz.Bidding.{value.name}" if isinstance(value, Bidding) else repr(value)


_PRESET_NAMES: dict[str, Rules] = {}
"""The presets by their names in ``ddz`` (for the repr), filled below."""


class Variant(NamedTuple):
    """A preset and the name it goes by."""

    name: str
    """Its name in records, on the command line and in ``ddz.envs`` (``"two-player"``);
    ``ddz.TWO_PLAYER`` in Python."""
    rules: Rules
    environment: bool = False
    """``ddz.envs`` offers it as a game (:data:`ddz.envs.GAMES`)."""


VARIANTS: tuple[Variant, ...] = (
    Variant("classic", CLASSIC, environment=True),
    Variant("douzero", DOUZERO),
    Variant("endgame", ENDGAME),
    Variant("rlcard", RLCARD),
    Variant("two-player", TWO_PLAYER, environment=True),
    Variant("uno-landlord", UNO_LANDLORD, environment=True),
)
"""Every preset, registered here once: :data:`PRESETS`, ``ddz.envs.GAMES`` and
``ddz.envs.PRESETS`` are read from it."""

PRESETS = {variant.name: variant.rules for variant in VARIANTS}
"""The presets by the names records and the command line use."""

_PRESET_NAMES.update({name.upper().replace("-", "_"): preset for name, preset in PRESETS.items()})


@functools.lru_cache(maxsize=32)
def action_codes(rules: Rules) -> npt.NDArray[np.uint64]:
    """The action codes of a rule set's action space in index order (``ddz.ActionSpace``
    numbers them): the pass (code 0), every move of the rules that fits the largest hand
    (the landlord's, kitty included) grouped by ``MoveType`` and ordered by code within a
    type, then ``bid 1``, ``bid 2``, ``bid 3``, ``call``, ``grab``. Built once per rule set
    from the engine; the array is read-only.

    >>> codes = action_codes(CLASSIC)
    >>> len(codes) == CLASSIC.num_actions, int(codes[0])
    (True, 0)
    """
    deck = rules.deck.mask
    out = np.empty(1 << 17, dtype=np.uint64)
    count = _moves.moves_into(deck, 0, rules, out)
    if count > len(out):
        out = np.empty(count, dtype=np.uint64)
        count = _moves.moves_into(deck, 0, rules, out)
    moves = out[:count]
    cards = moves & np.uint64(_moves.CARDS_MASK)
    sizes = np.zeros(len(moves), dtype=np.uint64)
    for digit in range(_moves.NUM_SYMBOLS):
        sizes += (cards >> np.uint64(3 * digit)) & np.uint64(7)
    moves = moves[sizes <= np.uint64(rules.hand_size + rules.kitty_size)]
    kinds = moves >> np.uint64(_moves.TYPE_SHIFT_) & np.uint64(31)
    moves = moves[np.lexsort((moves, kinds))]
    one = 1 << _LENGTH_SHIFT  # the bidding actions' length field is 1, as for any move
    bids = [
        (_game.BID_ << _moves.TYPE_SHIFT_) | (value << _moves.RANK_SHIFT_) | one
        for value in (1, 2, 3)
    ]
    bids += [(kind << _moves.TYPE_SHIFT_) | one for kind in (_game.CALL_, _game.GRAB_)]
    codes = np.concatenate([np.zeros(1, dtype=np.uint64), moves, np.array(bids, dtype=np.uint64)])
    codes.setflags(write=False)
    return codes


_LENGTH_SHIFT = 60  # layout.pxd: the chain-length field of a code


def _too_many(hands: Sequence[Cards], kitty: Cards) -> str:
    """Which card a deal holds more of than one deck has, and where: the message for a
    deal whose parts overlap."""
    parts = [(f"hand {seat}", hand) for seat, hand in enumerate(hands)] + [("the kitty", kitty)]
    for card in SYMBOLS:
        held = [(name, cards.count(card)) for name, cards in parts if cards.count(card)]
        total = sum(count for _, count in held)
        most = 1 if card in "XD" else 2 if card in "SV" else 4  # jokers; Skips, Reverses
        if total > most:
            where = ", ".join(f"{name} {count}" for name, count in held)
            return f"the deal holds {total} of {card} ({where}); a deck holds {most}"
    return "the deal holds a card more often than a deck does"


def check_deal(
    deal: tuple[Sequence[CardsLike], CardsLike], rules: Rules
) -> tuple[list[Cards], Cards]:
    """The hands and kitty of a deal given as text or cards, checked against ``rules``: one hand
    a seat of its size, the kitty's size, no card more often than the deck holds it."""
    hands_given, kitty_given = deal
    hands = [Cards(hand) for hand in hands_given]
    kitty = Cards(kitty_given)
    if len(hands) != rules.players:
        raise ValueError(f"a deal has {rules.players} hands, not {len(hands)}")
    for seat, hand in enumerate(hands):
        if len(hand) != rules.hand_size:
            raise ValueError(f"hand {seat} has {len(hand)} cards, not {rules.hand_size}")
    if len(kitty) != rules.kitty_size:
        raise ValueError(f"the kitty has {len(kitty)} cards, not {rules.kitty_size}")
    total = kitty
    for hand in hands:
        try:
            total = total + hand
        except ValueError:
            raise ValueError(_too_many(hands, kitty)) from None
    if not total <= rules.deck:
        raise ValueError(f"the deal holds cards the deck of these rules does not have: {total}")
    return hands, kitty
