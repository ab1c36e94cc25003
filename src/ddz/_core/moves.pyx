# cython: language_level=3, cdivision=True
"""The move engine's Python boundary: Move, LegalMoves and the functions the API layer calls.

The engine itself is C-level inline code in ruleset.pxd (rules and kicker rules),
readings.pxd (classify, check and compare moves) and generator.pxd (every legal move); it works
on the integers of layout.pxd and takes no Python objects. This module validates what Python
hands in, so that nothing a caller passes can crash the core, and converts the results.
"""

from cpython.buffer cimport PyObject_GetBuffer, PyBuffer_Release, PyBUF_WRITABLE, \
    PyBUF_FORMAT, PyBUF_C_CONTIGUOUS
from cpython.list cimport PyList_New, PyList_SET_ITEM
from cpython.ref cimport Py_INCREF
from libc.stdint cimport uint64_t, int64_t
from libc.stdlib cimport malloc, free

import collections.abc
import enum
import numbers
import operator

from ddz.base.errors import shorten

cimport cython

from ddz._core.layout cimport *
from ddz._core.ruleset cimport *
from ddz._core.readings cimport *
from ddz._core.generator cimport *


cdef tuple option_field(unsigned bit):
    return (ddz_ctz32(bit), 1)


# The fields of a packed rule integer as the core reads them (ruleset.pxd), by the name of
# the ddz.Rules field each holds: (lowest bit, width in bits). ddz/rules.py packs
# Rules.core_flags from its own table; tests/test_rules.py asserts the two are equal.
RULE_LAYOUT = {
    "four_with_two": option_field(OPT_FOUR_WITH_TWO_),
    "single_kickers_distinct": option_field(OPT_SINGLE_KICKERS_DISTINCT_),
    "pair_kickers_distinct": option_field(OPT_PAIR_KICKERS_DISTINCT_),
    "kicker_matches_main": option_field(OPT_KICKER_MATCHES_MAIN_),
    "rocket_as_kickers": option_field(OPT_ROCKET_AS_KICKERS_),
    "quad_as_wings": option_field(OPT_QUAD_AS_WINGS_),
    "trio_as_wings": option_field(OPT_TRIO_AS_WINGS_),
    "multiple_readings": option_field(OPT_MULTIPLE_READINGS_),
    "trio_wings_adjacent": option_field(OPT_TRIO_WINGS_ADJACENT_),
    "airplane_rank_includes_wing_trios": option_field(OPT_AIRPLANE_RANK_WING_TRIOS_),
    "bombs_only_on_heavy_wings": option_field(OPT_BOMBS_ONLY_ON_HEAVY_WINGS_),
    "min_straight": (limit_shift(1, False), LIMIT_BITS),
    "max_straight": (limit_shift(1, True), LIMIT_BITS),
    "min_pair_straight": (limit_shift(2, False), LIMIT_BITS),
    "max_pair_straight": (limit_shift(2, True), LIMIT_BITS),
    "min_airplane": (limit_shift(3, False), LIMIT_BITS),
    "max_airplane": (limit_shift(3, True), LIMIT_BITS),
    "excluded_ranks": (EXCLUDED_SHIFT, NUM_RANKS),
    "action_cards": (ACTIONS_SHIFT, ACTIONS_BITS),
}
OPTION_BITS_ = OPTION_BITS   # every switch lies below this bit (RuleSet.options)

CARDS_MASK = DDZ_CARDS_MASK
TYPE_SHIFT_ = TYPE_SHIFT
RANK_SHIFT_ = RANK_SHIFT
LENGTH_SHIFT_ = LENGTH_SHIFT

cdef enum:
    STACK_CODES = 1024   # moves held on the stack before a call falls back to the heap


# ---------------------------------------------------------------------------------------
# Cards: the layout's named functions for the Python layer

cdef unsigned[NUM_DIGITS] DIGIT_LIMITS = [4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 1, 1, 2, 2]
NUM_SYMBOLS = NUM_DIGITS


def pack_counts(object counts):
    """The card integer of a count vector: 15 counts (rank 3 first, big joker last) or 17
    (Skip and Reverse after them). Raises ValueError naming a bad entry."""
    cdef Py_ssize_t n = len(counts), i
    cdef object value
    cdef uint64_t cards = 0
    if n != NUM_RANKS and n != NUM_DIGITS:
        raise ValueError(f"a count vector has {NUM_RANKS} or {NUM_DIGITS} entries, not {n}")
    for i in range(n):
        value = counts[i]
        if isinstance(value, bool) or not hasattr(value, "__index__"):
            raise ValueError(f"count {shorten(value)} at index {i} is not an integer")
        value = value.__index__()     # numpy integers too
        if not 0 <= value <= DIGIT_LIMITS[i]:
            raise ValueError(f"count {shorten(value)} at index {i} is not in 0..{DIGIT_LIMITS[i]}")
        cards |= digit(i, <uint64_t>value)
    return cards


def unpack_counts(uint64_t cards):
    """The 17 counts of a card integer (rank 3 first, then ... big joker, Skip, Reverse)."""
    return tuple([count_of(cards, i) for i in range(NUM_DIGITS)])


def count_cards(uint64_t cards):
    """How many cards a card integer holds."""
    return card_total(cards)


def is_valid_cards(uint64_t cards):
    """Is this integer a card multiset one deck can hold (no digit over its limit)?"""
    cdef int i
    if cards & ~DDZ_CARDS_MASK:
        return False
    for i in range(NUM_DIGITS):
        if count_of(cards, i) > DIGIT_LIMITS[i]:
            return False
    return True


def is_subset_cards(uint64_t part, uint64_t whole):
    """Does whole hold every card of part?"""
    return is_subset(part, whole)


def add_cards(uint64_t a, uint64_t b):
    """The union of two card multisets, or -1 if some rank would exceed one deck (or either
    is no card integer)."""
    cdef int i
    if (a | b) & ~DDZ_CARDS_MASK:
        return -1
    for i in range(NUM_DIGITS):
        if count_of(a, i) + count_of(b, i) > DIGIT_LIMITS[i]:
            return -1
    return a + b


def code_fields(uint64_t code):
    """(cards, type, rank, length) of a move code."""
    return code_cards(code), code_kind(code), code_rank(code), code_length(code)


def make_move_code(uint64_t cards, int kind, int rank, int length):
    """The move code of a reading (not validated: check it with is_reading_code)."""
    if cards & ~DDZ_CARDS_MASK or not 0 <= kind < NUM_KINDS or not 0 <= rank < 16 \
            or not 0 <= length < 16:
        raise ValueError("field out of range for a move code")
    return make_code(cards, kind, rank, length)


# ---------------------------------------------------------------------------------------
# Rules

def pack_rules(unsigned options, int min_straight, int max_straight, int min_pair_straight,
               int max_pair_straight, int min_airplane, int max_airplane,
               unsigned excluded_ranks, unsigned action_cards):
    """Pack rule options into the integer the core functions take (validated by Rules)."""
    cdef uint64_t packed = options & ((1u << OPTION_BITS) - 1)
    cdef int i
    cdef int limits[6]
    limits[:] = [min_straight, max_straight, min_pair_straight, max_pair_straight,
                 min_airplane, max_airplane]
    for i in range(6):
        if not 0 <= limits[i] < (1 << LIMIT_BITS):
            raise ValueError("chain limits lie in 0..15")
        packed |= (<uint64_t>limits[i]) << limit_shift(i // 2 + 1, i % 2)
    if excluded_ranks >= (1 << NUM_RANKS) or action_cards > 2:
        raise ValueError("excluded ranks or action cards out of range")
    packed |= (<uint64_t>excluded_ranks) << EXCLUDED_SHIFT
    packed |= (<uint64_t>action_cards) << ACTIONS_SHIFT
    return packed


cdef uint64_t ANY_RULES = pack_rules(
    OPT_FOUR_WITH_TWO_ | OPT_KICKER_MATCHES_MAIN_ | OPT_ROCKET_AS_KICKERS_ | OPT_QUAD_AS_WINGS_
    | OPT_TRIO_AS_WINGS_ | OPT_TRIO_WINGS_ADJACENT_ | OPT_MULTIPLE_READINGS_,
    5, 12, 3, 12, 2, 12, 0, 2)
PERMISSIVE_RULES = ANY_RULES
"""Every option on: a code is a structurally possible move iff it is a reading here."""


# ---------------------------------------------------------------------------------------
# The Python boundary

# The Python enum of layout.pxd's MoveKind: each name bound to the core's value, so the
# values are written once (tests/test_moves.py checks moves.pyi against this enum).
MoveType = enum.IntEnum(
    "MoveType",
    [
        ("PASS", PASS),
        ("SINGLE", SINGLE),
        ("PAIR", PAIR),
        ("TRIO", TRIO),
        ("TRIO_SINGLE", TRIO_SINGLE),
        ("TRIO_PAIR", TRIO_PAIR),
        ("STRAIGHT", STRAIGHT),
        ("PAIR_STRAIGHT", PAIR_STRAIGHT),
        ("AIRPLANE", AIRPLANE),
        ("AIRPLANE_SINGLES", AIRPLANE_SINGLES),
        ("AIRPLANE_PAIRS", AIRPLANE_PAIRS),
        ("FOUR_TWO_SINGLES", FOUR_TWO_SINGLES),
        ("FOUR_TWO_PAIRS", FOUR_TWO_PAIRS),
        ("BOMB", BOMB),
        ("ROCKET", ROCKET),
        ("SKIP", SKIP),
        ("REVERSE", REVERSE),
    ],
    module=__name__,
    qualname="MoveType",
)
MoveType.__doc__ = "The type of a move's reading (docs/rules.md#combinations); the values are the core's."
if [kind.value for kind in MoveType] != list(range(NUM_KINDS)):
    # Move.type indexes MOVE_TYPES by the code's kind: every kind must be there, in order
    raise ImportError("MoveType does not list layout.pxd's move kinds 0 .. NUM_KINDS - 1")


cdef tuple MOVE_TYPES = tuple(MoveType)
cdef str SYMBOL_TEXT = "3456789TJQKA2XDSV"


cdef str symbols_of(uint64_t cards):
    # a valid card set's text, for Move.__str__ (a C call); cards_text below is the public,
    # message-safe form that also writes impossible counts
    cdef list chars = []
    cdef int rank
    cdef unsigned m
    for rank in range(NUM_DIGITS):
        for m in range(count_of(cards, rank)):
            chars.append(SYMBOL_TEXT[rank])
    return "".join(chars)


@cython.freelist(4096)
cdef class Move:
    """One move: its cards and its reading (``type``, main ``rank``, chain ``length``).

    Moves are immutable values, equal when cards and reading are equal. ``str`` writes the
    reading (kickers after a ``+``: ``333444+57``), :meth:`parse` reads it back and ``repr``
    evaluates back. The pass is ``Move.parse("pass")`` (``ddz.PASS``).
    """

    @staticmethod
    def parse(text):
        """Read a move: ``"pass"``, ``"33"``, ``"34567"``, ``"333+4"``, ``"333444+5566"``.

        Kickers follow a ``+``. Without one, the reading without kickers is taken when the
        cards have one, else the only reading; ambiguous text raises ``ValueError``. The
        result is a well-formed move; whether given rules allow it is ``ddz.is_legal``'s
        question.
        """
        from ddz.doudizhu.moves import parse_move     # the API layer reads text; the core holds codes
        return parse_move(text)

    @staticmethod
    def from_code(code):
        """The move of a core move code (``docs/layout.md``): an ``int`` or numpy integer
        (TypeError for another type, a ``bool`` too); ValueError if it is no move."""
        cdef RuleSet rs
        if type(code) is int:
            pass                        # the common case; the ABC check below costs ~0.3 us
        elif isinstance(code, bool) or not isinstance(code, numbers.Integral):
            raise TypeError(f"a move code is an integer, not {_shorten(code)}")
        code = operator.index(code)     # numpy's integers are integers too
        if not 0 <= code < (1 << 64):
            raise ValueError(f"{_shorten(code)} is not a move code")
        unpack_rules(ANY_RULES, &rs)
        if not is_reading(code, &rs):
            raise ValueError(f"{code:#x} is not a move code")
        return new_move(code)

    def index(self, rules):
        """This move's index in the action space of rules (``ddz.ActionSpace``)."""
        from ddz.doudizhu.action_space import action_space
        return action_space(rules).index(self)

    @staticmethod
    def from_index(index, rules):
        """The move at an index of the action space of rules (``ddz.ActionSpace``)."""
        from ddz.doudizhu.action_space import action_space
        move = action_space(rules).action(index)
        if not isinstance(move, Move):
            raise ValueError(f"action {index} is {move}, a bidding action, not a move")
        return move

    @property
    def type(self):
        """The reading's type (a ``MoveType``)."""
        return MOVE_TYPES[code_kind(self.code)]

    @property
    def rank(self):
        """The main rank as an index into ``ddz.RANKS`` (0 is the 3): the rank of a single,
        pair, trio or bomb, the trio or quad of a kicker type, the highest rank of a chain;
        0 for the pass and the action cards."""
        return code_rank(self.code)

    @property
    def rank_name(self):
        """The main rank as a symbol (``"4"`` for ``333444+57``); ``""`` when there is none."""
        cdef int kind = code_kind(self.code)
        if kind == PASS or kind == SKIP or kind == REVERSE:
            return ""
        return SYMBOL_TEXT[code_rank(self.code)]

    @property
    def length(self):
        """Ranks in the chain for chain types, 1 for every other move, 0 for the pass."""
        return code_length(self.code)

    @property
    def cards(self):
        """All the cards the move plays (``ddz.Cards``)."""
        from ddz.doudizhu.cards import Cards
        return Cards.from_mask(code_cards(self.code))

    @property
    def main(self):
        """The cards that rank the move: all of them less the kickers (``ddz.Cards``)."""
        from ddz.doudizhu.cards import Cards
        return Cards.from_mask(main_cards(self.code))

    @property
    def kickers(self):
        """The kickers (wings) that ride along and never count (``ddz.Cards``)."""
        from ddz.doudizhu.cards import Cards
        return Cards.from_mask(code_cards(self.code) - main_cards(self.code))

    @property
    def is_pass(self):
        return self.code == 0

    @property
    def is_bomb(self):
        """A bomb or the rocket: the moves that double the score."""
        return code_kind(self.code) == BOMB or code_kind(self.code) == ROCKET

    def __str__(self):
        cdef uint64_t main
        if self.code == 0:
            return "pass"
        main = main_cards(self.code)
        if main == code_cards(self.code):
            return symbols_of(main)
        return symbols_of(main) + "+" + symbols_of(code_cards(self.code) - main)

    def __repr__(self):
        return f"Move.parse({str(self)!r})"

    def _repr_svg_(self):
        """The move's cards drawn face up (notebooks call this; ``ddz.doudizhu.svg.move``)."""
        from ddz.doudizhu.svg import move     # the picture lives in the API layer
        return move(self)

    def __eq__(self, other):
        if isinstance(other, Move):
            return self.code == (<Move>other).code
        return NotImplemented

    def __ne__(self, other):
        if isinstance(other, Move):
            return self.code != (<Move>other).code
        return NotImplemented

    def __hash__(self):
        return hash(self.code)

    def __reduce__(self):
        return (Move.from_code, (self.code,))


cdef Move new_move(uint64_t code):
    cdef Move move = Move.__new__(Move)
    move.code = code
    return move


cdef class RulesCacheEntry:
    """One rule set's unpacked RuleSet, never changed after it is made: the cache below
    swaps whole entries, so a reader holding one always sees a consistent pair."""
    cdef object rules
    cdef RuleSet rs


cdef RulesCacheEntry last_rules_entry = None   # the ddz.Rules last seen, and its RuleSet
cdef object rules_cache_guard = object()        # its lock on free-threaded Python


cdef RuleSet rules_of(object rules) except *:
    """The RuleSet of a ddz.Rules (its core_flags) or of a packed rule integer. Most calls
    repeat the rules, so the last one is cached (Rules are frozen: the same object, the same
    flags); the cache is one immutable entry, so threads cannot mix two rule sets."""
    global last_rules_entry
    cdef RulesCacheEntry entry
    with cython.critical_section(rules_cache_guard):
        entry = last_rules_entry
    if entry is not None and entry.rules is rules:
        return entry.rs
    entry = RulesCacheEntry.__new__(RulesCacheEntry)
    try:
        flags = rules if type(rules) is int else rules.core_flags
    except AttributeError:
        raise TypeError(f"rules are a ddz.Rules or its core_flags, not {shorten(rules)}") from None
    entry.rs = checked_rules(flags)
    entry.rules = rules
    with cython.critical_section(rules_cache_guard):
        last_rules_entry = entry
    return entry.rs


cdef RuleSet checked_rules(uint64_t packed) except *:
    cdef RuleSet rs
    cdef int width
    unpack_rules(packed, &rs)
    for width in range(1, 4):
        if not 1 <= rs.min_len[width] <= rs.max_len[width] <= ACE + 1:
            raise ValueError(f"packed rules {packed:#x} have impossible chain limits")
    return rs


cdef inline int check_hand(uint64_t hand, const RuleSet* rs) except -1:
    if not is_subset(hand, rs.deck):
        raise ValueError(f"hand {cards_text(hand)!r} holds cards these rules' deck does not have")
    return 0


def cards_text(uint64_t cards):
    """A card integer in card notation (``ddz.Cards``'s text), for messages: one symbol a
    card, low to high; a digit above four, which no card set holds, is written as its count
    in brackets after the symbol (``3[7]``) rather than hidden."""
    cdef int digit, count
    parts = []
    for digit in range(NUM_DIGITS):
        count = (cards >> (3 * digit)) & 7
        if count > 4:
            parts.append(f"{SYMBOL_TEXT[digit]}[{count}]")
        else:
            parts.append(SYMBOL_TEXT[digit] * count)
    return "".join(parts)


cdef inline int check_table(uint64_t table, const RuleSet* rs) except -1:
    cdef int kind = code_kind(table)
    if table == 0:
        return 0
    if kind == SKIP or kind == REVERSE:
        raise ValueError("an action card is never the table's move")
    if not is_reading(table, rs):
        # in card notation (a raw code means nothing to the user who typed the move)
        raise ValueError(f"{cards_text(code_cards(table))} is not a move under these rules")
    return 0


cdef list codes_to_moves(const uint64_t* codes, Py_ssize_t n):
    cdef list result = PyList_New(n)
    cdef Py_ssize_t i
    cdef Move move
    for i in range(n):
        move = new_move(codes[i])
        Py_INCREF(move)
        PyList_SET_ITEM(result, i, move)
    return result


cdef list run_to_moves(uint64_t cards, uint64_t table, const RuleSet* rs, bint classifying):
    """Generate (or classify) into a stack buffer, falling back to the heap when it is full."""
    cdef uint64_t stack[STACK_CODES]
    cdef uint64_t* heap = NULL
    cdef Sink sink
    sink.out = stack
    sink.cap = STACK_CODES
    sink.n = 0
    if classifying:
        classify(cards, rs, &sink)
    else:
        generate(cards, table, rs, &sink)
    if sink.n <= STACK_CODES:
        return codes_to_moves(stack, sink.n)
    heap = <uint64_t*>malloc(sink.n * sizeof(uint64_t))
    if heap == NULL:
        raise MemoryError()
    try:
        sink.out = heap
        sink.cap = sink.n
        sink.n = 0
        if classifying:
            classify(cards, rs, &sink)
        else:
            generate(cards, table, rs, &sink)
        return codes_to_moves(heap, sink.n)
    finally:
        free(heap)


cdef Py_ssize_t exact_count(uint64_t hand, uint64_t table, const RuleSet* rs) except -1:
    """How many legal moves there are, building no objects. The codes are written (to the
    stack, or the heap for a rich hand) because some rules filter what was generated: a
    count alone would be an upper bound."""
    cdef uint64_t stack[STACK_CODES]
    cdef uint64_t* heap
    cdef Sink sink
    sink.out = stack
    sink.cap = STACK_CODES
    sink.n = 0
    generate(hand, table, rs, &sink)
    if sink.n <= STACK_CODES:
        return sink.n
    heap = <uint64_t*>malloc(sink.n * sizeof(uint64_t))
    if heap == NULL:
        raise MemoryError()
    sink.out = heap
    sink.cap = sink.n
    sink.n = 0
    generate(hand, table, rs, &sink)
    free(heap)
    return sink.n


@cython.freelist(16)
cdef class LegalMoves:
    """The legal moves of one position, generated on first use (``ddz.legal_moves``).

    A sequence of ``Move``: leads when the table is empty, else the answers with the pass
    first. ``move in moves`` asks the legality check without generating anything;
    ``count()`` counts in the core without building moves; iteration, ``len`` and indexing
    build the moves once.

    A value: two are equal when their hand, last move and rules are (then their moves are
    too), equal ones hash alike, and copies and pickles are the same position's moves.
    """

    cdef readonly uint64_t hand_mask
    cdef readonly uint64_t table_code
    cdef readonly object rules
    cdef RuleSet rs
    cdef list moves

    def __cinit__(self, uint64_t hand_mask, uint64_t table_code, object rules):
        self.rs = rules_of(rules)
        check_hand(hand_mask, &self.rs)
        check_table(table_code, &self.rs)
        self.hand_mask = hand_mask
        self.table_code = table_code
        self.rules = rules

    cdef list materialize(self):
        if self.moves is None:
            self.moves = run_to_moves(self.hand_mask, self.table_code, &self.rs, False)
        return self.moves

    @property
    def hand(self):
        """The hand the moves come from (``ddz.Cards``)."""
        from ddz.doudizhu.cards import Cards
        return Cards.from_mask(self.hand_mask)

    @property
    def last(self):
        """The move being answered, or None when leading."""
        return new_move(self.table_code) if self.table_code else None

    def __iter__(self):
        return iter(self.materialize())

    def __len__(self):
        return len(self.materialize())

    def __getitem__(self, index):
        return self.materialize()[index]

    def __reversed__(self):
        return reversed(self.materialize())

    def index(self, value, *args):
        return self.materialize().index(value, *args)

    def count(self, value=None):
        """With no argument, how many legal moves, counted in the core without building
        them (python-chess's ``count()``); with one, how often it occurs (0 or 1)."""
        if value is not None:
            return self.materialize().count(value)
        if self.moves is not None:
            return len(self.moves)
        return exact_count(self.hand_mask, self.table_code, &self.rs)

    def __bool__(self):
        return self.count() > 0

    def __contains__(self, move):
        if isinstance(move, str):
            try:
                move = Move.parse(move)
            except ValueError:
                return False
        if not isinstance(move, Move):
            return False
        return legality(self.hand_mask, (<Move>move).code, self.table_code,
                        self.table_code == 0, &self.rs) == LEGAL

    def __eq__(self, other):
        cdef LegalMoves that
        if not isinstance(other, LegalMoves):
            return NotImplemented
        that = <LegalMoves>other
        return (self.hand_mask == that.hand_mask and self.table_code == that.table_code
                and self.rules == that.rules)

    def __ne__(self, other):
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __hash__(self):
        return hash((self.hand_mask, self.table_code, self.rules))

    def __reduce__(self):
        return (LegalMoves, (self.hand_mask, self.table_code, self.rules))

    def __copy__(self):
        return self  # immutable: its position never changes

    def __deepcopy__(self, memo):
        return self

    def __repr__(self):
        cdef list moves = self.materialize()
        shown = ", ".join([str(m) for m in moves[:8]])
        return f"<LegalMoves {len(moves)}: {shown}{', ...' if len(moves) > 8 else ''}>"


collections.abc.Sequence.register(LegalMoves)


def legal_moves(uint64_t hand, uint64_t table, object rules):
    """Every legal move as a list of Move: leads when table is 0, else answers, pass first."""
    cdef RuleSet rs = rules_of(rules)
    check_hand(hand, &rs)
    check_table(table, &rs)
    return run_to_moves(hand, table, &rs, False)


def classify_cards(uint64_t cards, object rules):
    """Every reading of cards under the rules, as a list of Move ([] when none)."""
    cdef RuleSet rs = rules_of(rules)
    if cards & ~DDZ_CARDS_MASK:
        raise ValueError("not a card multiset")
    return run_to_moves(cards, 0, &rs, True)


def move_beats(uint64_t move, uint64_t table, object rules=None):
    """Does move beat table? By the rule book, or under the given rules' comparison options.
    (table must be a combination, not a pass or an action card.)"""
    cdef RuleSet rs
    if rules is None:
        return beats(move, table)
    rs = rules_of(rules)
    return answers(move, table, &rs)


def is_reading_code(uint64_t code, object rules):
    """Is code a well-formed move under the rules (one of its cards' readings)?"""
    cdef RuleSet rs = rules_of(rules)
    return is_reading(code, &rs)


def legality_code(uint64_t hand, uint64_t move, uint64_t table, object rules):
    """0 if move is legal from hand on table (0: leading), else a reason: 1 not a move
    under the rules, 2 not in the hand, 3 the leader cannot pass, 4 does not beat."""
    cdef RuleSet rs = rules_of(rules)
    check_hand(hand, &rs)
    check_table(table, &rs)
    return legality(hand, move, table, table == 0, &rs)


cdef inline bint is_int64_format(const char* fmt) noexcept:
    """A one-item struct format of a 64-bit integer: Q, L, q or l, maybe after <, = or @."""
    if fmt == NULL:
        return False
    if fmt[0] == b"<" or fmt[0] == b"=" or fmt[0] == b"@":
        fmt += 1
    return (fmt[0] == b"Q" or fmt[0] == b"L" or fmt[0] == b"q" or fmt[0] == b"l") and fmt[1] == 0


cdef int get_codes(object array, Py_buffer* view, bint writable, int itemsize) except -1:
    cdef int flags = PyBUF_FORMAT | PyBUF_C_CONTIGUOUS
    if writable:
        flags |= PyBUF_WRITABLE
    PyObject_GetBuffer(array, view, flags)
    if view.itemsize != itemsize or view.ndim != 1 or not is_int64_format(view.format):
        PyBuffer_Release(view)
        raise TypeError(f"expected a contiguous one-dimensional array of "
                        f"{itemsize * 8}-bit integers")
    return 0


def lowest_leads(uint64_t hand, object rules):
    """The codes of the leads of a non-empty hand that hold a card of its lowest rank, in
    legal_moves' order: generator.pxd's generate_lowest, which the solver splits hands
    with (exposed for the tests that check it against legal_moves)."""
    cdef RuleSet rs = rules_of(rules)
    cdef Sink sink
    cdef uint64_t* buf
    cdef Py_ssize_t i
    cdef list codes = []
    check_hand(hand, &rs)
    if hand == 0:
        raise ValueError("an empty hand has no lowest card")
    sink.out = NULL                     # a first pass counts (at least) the moves
    sink.cap = 0
    sink.n = 0
    generate_lowest(hand, &rs, &sink)
    buf = <uint64_t*>malloc((sink.n + 1) * sizeof(uint64_t))
    if buf == NULL:
        raise MemoryError()
    try:
        sink.out = buf
        sink.cap = sink.n + 1
        sink.n = 0
        generate_lowest(hand, &rs, &sink)
        for i in range(sink.n):
            codes.append(buf[i])
        return codes
    finally:
        free(buf)


def moves_into(uint64_t hand, uint64_t table, object rules, object out):
    """Write the legal move codes of one hand into out (a writable uint64 array).

    hand is a card integer, table the move code to answer (0: leading), rules a ddz.Rules
    (or its core_flags). The raw entry point: no objects are built, nothing is allocated.

    Returns how many moves there are. A result larger than len(out) means out was too
    small (only len(out) codes were written): call again with at least that much room.
    """
    cdef RuleSet rs = rules_of(rules)
    cdef Py_buffer view
    cdef Sink sink
    check_hand(hand, &rs)
    check_table(table, &rs)
    get_codes(out, &view, True, 8)
    sink.out = <uint64_t*>view.buf
    sink.cap = view.shape[0]
    sink.n = 0
    generate(hand, table, &rs, &sink)      # one hand: releasing the GIL would cost more
    PyBuffer_Release(&view)
    return sink.n


def moves_batch(object hands, object tables, object rules, object out, object offsets):
    """Legal moves of many hands in one call, the loop in C without the GIL.

    hands, tables: 64-bit integer arrays of equal length n (a table of 0 means leading);
    out: a writable 64-bit array; offsets: a writable 64-bit array of n + 1 entries.
    The moves of hand i land in out[offsets[i]:offsets[i + 1]]. Returns the total number of
    moves. A result larger than len(out) means out was too small: call again with at least
    that much room (out and offsets then hold nothing useful).
    """
    cdef RuleSet rs = rules_of(rules)
    cdef Py_buffer views[4]
    cdef int acquired = 0
    cdef Py_ssize_t i, n, bad = -1
    cdef const uint64_t* hand_codes
    cdef const uint64_t* table_codes
    cdef uint64_t hand, table
    cdef int64_t* starts
    cdef Sink sink
    try:
        for array, writable in ((hands, False), (tables, False), (out, True), (offsets, True)):
            get_codes(array, &views[acquired], writable, 8)
            acquired += 1
        n = views[0].shape[0]
        if views[1].shape[0] != n or views[3].shape[0] != n + 1:
            raise ValueError("hands and tables need the same length, offsets one more")
        hand_codes = <const uint64_t*>views[0].buf
        table_codes = <const uint64_t*>views[1].buf
        starts = <int64_t*>views[3].buf
        sink.out = <uint64_t*>views[2].buf
        sink.cap = views[2].shape[0]
        sink.n = 0
        with nogil:
            for i in range(n):
                # read each input once: another thread may write the caller's arrays while
                # the GIL is released, and what is generated must be what was checked
                hand = hand_codes[i]
                table = table_codes[i]
                starts[i] = sink.n
                if (not is_subset(hand, rs.deck) or code_kind(table) == SKIP
                        or code_kind(table) == REVERSE or not is_reading(table, &rs)):
                    bad = i
                    break
                generate(hand, table, &rs, &sink)
            starts[n] = sink.n
        if bad >= 0:
            raise ValueError(f"row {bad}: the hand does not fit the deck, or the table is not "
                             f"a combination under these rules")
        return sink.n
    finally:
        for i in range(acquired):
            PyBuffer_Release(&views[i])


def _shorten(value):
    """ddz.base.errors.shorten, imported when a message needs it (the core imports no API module
    at load time)."""
    from ddz.base.errors import shorten
    return shorten(value)
