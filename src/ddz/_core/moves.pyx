# cython: language_level=3, cdivision=True
"""The move engine: classify a multiset, compare two moves, enumerate every legal move.

Everything here works on the integers of layout.pxd (cards and move codes) and on a RuleSet
unpacked from one packed integer. The C-level functions take no Python objects and hold no
GIL; the ``def`` functions at the end are the boundary: they validate what Python hands in
(so that nothing a caller passes can crash the core) and convert results.
"""

from cpython.buffer cimport PyObject_GetBuffer, PyBuffer_Release, PyBUF_WRITABLE, \
    PyBUF_FORMAT, PyBUF_C_CONTIGUOUS, PyBUF_ANY_CONTIGUOUS
from cpython.list cimport PyList_New, PyList_SET_ITEM
from cpython.ref cimport Py_INCREF
from libc.stdint cimport uint64_t, int64_t
from libc.stdlib cimport malloc, free

import collections.abc
import enum

cimport cython

from ddz._core.layout cimport *

# Option bits, as Python integers for the rules layer.
OPT_FOUR_WITH_TWO = OPT_FOUR_WITH_TWO_
OPT_SINGLE_KICKERS_DISTINCT = OPT_SINGLE_KICKERS_DISTINCT_
OPT_PAIR_KICKERS_DISTINCT = OPT_PAIR_KICKERS_DISTINCT_
OPT_KICKER_MATCHES_MAIN = OPT_KICKER_MATCHES_MAIN_
OPT_ROCKET_AS_KICKERS = OPT_ROCKET_AS_KICKERS_
OPT_QUAD_AS_WINGS = OPT_QUAD_AS_WINGS_
OPT_TRIO_AS_WINGS = OPT_TRIO_AS_WINGS_
OPT_MULTIPLE_READINGS = OPT_MULTIPLE_READINGS_
OPT_TRIO_WINGS_ADJACENT = OPT_TRIO_WINGS_ADJACENT_
OPT_AIRPLANE_RANK_WING_TRIOS = OPT_AIRPLANE_RANK_WING_TRIOS_
OPT_BOMBS_ONLY_ON_HEAVY_WINGS = OPT_BOMBS_ONLY_ON_HEAVY_WINGS_

CARDS_MASK = DDZ_CARDS_MASK
TYPE_SHIFT_ = TYPE_SHIFT
RANK_SHIFT_ = RANK_SHIFT
LENGTH_SHIFT_ = LENGTH_SHIFT

# The packed rule integer (what Rules.core_flags holds):
#   bits  0..11  option bits (OPT_*)
#   bits 12..35  six 4-bit chain limits: min/max straight, min/max pair straight,
#                min/max airplane
#   bits 36..50  ranks removed from the deck (bit i: rank i, 0..14)
#   bits 51..52  Skip and Reverse cards in the deck, each (0..2)
cdef enum:
    LIMITS_SHIFT = 12
    EXCLUDED_SHIFT = 36
    ACTIONS_SHIFT = 51

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
        if not isinstance(value, int) or not 0 <= value <= DIGIT_LIMITS[i]:
            raise ValueError(f"count {value!r} at index {i} is not in 0..{DIGIT_LIMITS[i]}")
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
    """The union of two card multisets, or -1 if some rank would exceed one deck."""
    cdef int i
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
    cdef uint64_t packed = options & 0xFFF
    cdef int i
    cdef int limits[6]
    limits[:] = [min_straight, max_straight, min_pair_straight, max_pair_straight,
                 min_airplane, max_airplane]
    for i in range(6):
        if not 0 <= limits[i] <= 15:
            raise ValueError("chain limits lie in 0..15")
        packed |= (<uint64_t>limits[i]) << (LIMITS_SHIFT + 4 * i)
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


cdef void unpack_rules(uint64_t packed, RuleSet* rs) noexcept nogil:
    cdef int width, rank
    cdef unsigned excluded = <unsigned>((packed >> EXCLUDED_SHIFT) & 0x7FFF)
    cdef uint64_t actions = (packed >> ACTIONS_SHIFT) & 3
    rs.options = <unsigned>(packed & 0xFFF)
    rs.min_len[0] = rs.max_len[0] = 0
    for width in range(1, 4):
        rs.min_len[width] = <int>((packed >> (LIMITS_SHIFT + 8 * (width - 1))) & 15)
        rs.max_len[width] = <int>((packed >> (LIMITS_SHIFT + 8 * (width - 1) + 4)) & 15)
    rs.deck = digit(SKIP_CARD, actions) | digit(REVERSE_CARD, actions)
    for rank in range(NUM_RANKS):
        if not (excluded >> rank) & 1:
            rs.deck |= digit(rank, 1 if rank >= SMALL_JOKER else 4)


cdef bint hand_fits_deck(uint64_t hand, const RuleSet* rs) noexcept nogil:
    return is_subset(hand, rs.deck)


# ---------------------------------------------------------------------------------------
# Kicker rules: one place says which kickers a move may carry; classify and generate both
# ask it, so the two cannot disagree.

cdef inline unsigned chain_neighbours(unsigned main_ranks) noexcept nogil:
    """The ranks just below and above a chain (within 3..A): where a wing trio would make the
    cards read like a longer airplane."""
    return ((main_ranks << 1) | (main_ranks >> 1)) & ~main_ranks & ((2u << ACE) - 1)


cdef inline bint single_kicker_count_ok(unsigned m, bint main_rank, bint airplane,
                                        bint neighbour, const RuleSet* rs) noexcept nogil:
    """May m single kickers of one rank ride on a move (main_rank: the rank is in the main
    part; neighbour: it is next to an airplane's chain)?"""
    if m == 0:
        return True
    if main_rank and not (rs.options & OPT_KICKER_MATCHES_MAIN_):
        return False
    if m == 1:
        return True
    if rs.options & OPT_SINGLE_KICKERS_DISTINCT_:
        return False
    if m == 2:
        return True
    if m == 3:
        return (airplane and (rs.options & OPT_TRIO_AS_WINGS_) != 0
                and (not neighbour or (rs.options & OPT_TRIO_WINGS_ADJACENT_) != 0))
    return m == 4 and airplane and (rs.options & OPT_QUAD_AS_WINGS_) != 0


cdef inline bint pair_kicker_count_ok(unsigned pairs, const RuleSet* rs) noexcept nogil:
    """May this many pair kickers of one rank ride on a move?"""
    return pairs <= 1 or (pairs == 2 and not (rs.options & OPT_PAIR_KICKERS_DISTINCT_))


cdef inline bint rocket_rule_ok(uint64_t kickers, const RuleSet* rs) noexcept nogil:
    return (rs.options & OPT_ROCKET_AS_KICKERS_) != 0 or \
        count_of(kickers, SMALL_JOKER) == 0 or count_of(kickers, BIG_JOKER) == 0


cdef bint single_kickers_ok(uint64_t kickers, unsigned main_ranks, bint airplane,
                            const RuleSet* rs) noexcept nogil:
    cdef int rank
    cdef unsigned neighbours = chain_neighbours(main_ranks)
    if count_of(kickers, SKIP_CARD) or count_of(kickers, REVERSE_CARD):
        return False
    for rank in range(NUM_RANKS):
        if not single_kicker_count_ok(count_of(kickers, rank), (main_ranks >> rank) & 1,
                                      airplane, (neighbours >> rank) & 1, rs):
            return False
    return rocket_rule_ok(kickers, rs)


cdef bint pair_kickers_ok(uint64_t kickers, unsigned main_ranks, const RuleSet* rs) noexcept nogil:
    cdef int rank
    cdef unsigned m
    if kickers >> (3 * SMALL_JOKER):     # jokers and action cards never pair
        return False
    for rank in range(TWO + 1):
        m = count_of(kickers, rank)
        if m == 0:
            continue
        if m & 1 or (main_ranks >> rank) & 1 or not pair_kicker_count_ok(m // 2, rs):
            return False
    return True


# ---------------------------------------------------------------------------------------
# Comparison

cdef bint beats(uint64_t move, uint64_t table) noexcept nogil:
    """The rule book's comparison (RULES.md section 2); see answers() for rule options."""
    cdef int kind = code_kind(move)
    cdef int table_kind = code_kind(table)
    if kind == PASS or kind == SKIP or kind == REVERSE:
        return False
    if kind == ROCKET:
        return table_kind != ROCKET
    if table_kind == ROCKET:
        return False
    if kind == BOMB:
        return table_kind != BOMB or code_rank(move) > code_rank(table)
    if table_kind == BOMB:
        return False
    return (kind == table_kind and code_length(move) == code_length(table)
            and code_rank(move) > code_rank(table))


cdef inline uint64_t exact_trios(uint64_t cards) noexcept nogil:
    """The spread set of ranks held exactly three times."""
    return cards & (cards >> 1) & ~(cards >> 2) & DDZ_DIGIT_LOW


cdef int comparison_rank(uint64_t code, const RuleSet* rs) noexcept nogil:
    """The rank a move compares by: its main rank, except that with
    airplane_rank_includes_wing_trios an airplane with single wings counts its highest rank
    held three times, wing trios included (DouZero's filter_type_11_serial_3_1)."""
    cdef uint64_t trios
    cdef int rank = code_rank(code)
    if code_kind(code) == AIRPLANE_SINGLES and rs.options & OPT_AIRPLANE_RANK_WING_TRIOS_:
        trios = exact_trios(code_cards(code))
        if trios:
            rank = max(rank, (63 - __builtin_clzll(trios)) // 3)
    return rank


cdef bint heavy_wings(uint64_t code) noexcept nogil:
    """An airplane with single wings that holds a quad, or a wing trio beside a chain of four
    or more trios: moves DouZero cannot type, so it lets only bombs answer them."""
    cdef uint64_t cards = code_cards(code), trios
    cdef int count = 0
    if code_kind(code) != AIRPLANE_SINGLES:
        return False
    if (cards >> 2) & DDZ_DIGIT_LOW:
        return True
    if code_length(code) < 4:
        return False
    trios = exact_trios(cards)
    while trios:
        trios &= trios - 1
        count += 1
    return count > code_length(code)


cdef bint answers(uint64_t move, uint64_t table, const RuleSet* rs) noexcept nogil:
    """Does move beat table under the rules (beats() plus the options that change it)?"""
    cdef int kind = code_kind(move)
    if kind != BOMB and kind != ROCKET and rs.options & OPT_BOMBS_ONLY_ON_HEAVY_WINGS_ \
            and heavy_wings(table):
        return False
    if kind == AIRPLANE_SINGLES and code_kind(table) == AIRPLANE_SINGLES \
            and rs.options & OPT_AIRPLANE_RANK_WING_TRIOS_:
        return (code_length(move) == code_length(table)
                and comparison_rank(move, rs) > comparison_rank(table, rs))
    return beats(move, table)


# ---------------------------------------------------------------------------------------
# Classification: every reading of one multiset

cdef inline void emit(Sink* sink, uint64_t code) noexcept nogil:
    if sink.n < sink.cap:
        sink.out[sink.n] = code
    sink.n += 1


cdef inline uint64_t chain_cards(int low, int length, uint64_t width) noexcept nogil:
    cdef uint64_t cards = 0
    cdef int rank
    for rank in range(low, low + length):
        cards |= digit(rank, width)
    return cards


cdef inline unsigned chain_ranks(int low, int length) noexcept nogil:
    return ((1u << length) - 1) << low


cdef int plain_chain_length(uint64_t cards, unsigned width, int total) noexcept nogil:
    """The length of cards as a chain of `width`-of-a-rank, or 0 if it is not one."""
    cdef int rank, low = -1, length = 0
    cdef unsigned m
    if total % width:
        return 0
    for rank in range(NUM_DIGITS):
        m = count_of(cards, rank)
        if m == 0:
            continue
        if m != width or rank > ACE or (low >= 0 and rank != low + length):
            return 0
        if low < 0:
            low = rank
        length += 1
    return length


cdef void classify_winged(uint64_t cards, int total, const RuleSet* rs, Sink* sink) noexcept nogil:
    """Airplanes with single or pair wings."""
    cdef int length, low, rank
    cdef uint64_t body, wings
    cdef bint ok
    for length in range(max(rs.min_len[3], 2), rs.max_len[3] + 1):
        if total != 4 * length and total != 5 * length:
            continue
        for low in range(0, ACE - length + 2):
            ok = True
            for rank in range(low, low + length):
                if count_of(cards, rank) < 3:
                    ok = False
                    break
            if not ok:
                continue
            body = chain_cards(low, length, 3)
            wings = cards - body
            if total == 4 * length:
                if single_kickers_ok(wings, chain_ranks(low, length), True, rs):
                    emit(sink, make_code(cards, AIRPLANE_SINGLES, low + length - 1, length))
            elif pair_kickers_ok(wings, chain_ranks(low, length), rs):
                emit(sink, make_code(cards, AIRPLANE_PAIRS, low + length - 1, length))


cdef void classify_all(uint64_t cards, const RuleSet* rs, Sink* sink) noexcept nogil:
    """Every reading of cards, in MoveType order, each type by rising rank."""
    cdef int total = card_total(cards)
    cdef int rank, length, quad = -1
    cdef unsigned m
    if total == 0 or not is_subset(cards, rs.deck):
        return
    if count_of(cards, SKIP_CARD) or count_of(cards, REVERSE_CARD):
        if total == 1:
            emit(sink, make_code(cards, SKIP if count_of(cards, SKIP_CARD) else REVERSE, 0, 1))
        return
    for rank in range(NUM_RANKS):
        if count_of(cards, rank) == 4:
            quad = rank
    if total <= 4:
        for rank in range(NUM_RANKS):
            m = count_of(cards, rank)
            if m == <unsigned>total and total <= 3 and (total == 1 or rank <= TWO):
                emit(sink, make_code(cards, SINGLE + total - 1, rank, 1))
    if total == 4:
        for rank in range(TWO + 1):
            m = count_of(cards, rank)
            if m == 3 or (m == 4 and rs.options & OPT_KICKER_MATCHES_MAIN_):
                emit(sink, make_code(cards, TRIO_SINGLE, rank, 1))
    if total == 5:
        for rank in range(TWO + 1):
            if count_of(cards, rank) == 3:
                if pair_kickers_ok(cards - digit(rank, 3), 1u << rank, rs):
                    emit(sink, make_code(cards, TRIO_PAIR, rank, 1))
    for m in range(1, 4):
        length = plain_chain_length(cards, m, total)
        if rs.min_len[m] <= length <= rs.max_len[m] and length > 0:
            # the chain's top rank is its highest digit
            for rank in range(ACE, -1, -1):
                if count_of(cards, rank):
                    break
            emit(sink, make_code(cards, STRAIGHT + <int>m - 1, rank, length))
    if total >= 8:
        classify_winged(cards, total, rs, sink)
    if (total == 6 or total == 8) and rs.options & OPT_FOUR_WITH_TWO_:
        for rank in range(TWO + 1):        # 33334444 may be read around either quad
            if count_of(cards, rank) != 4:
                continue
            if total == 6 and single_kickers_ok(cards - digit(rank, 4), 1u << rank, False, rs):
                emit(sink, make_code(cards, FOUR_TWO_SINGLES, rank, 1))
            if total == 8 and pair_kickers_ok(cards - digit(rank, 4), 1u << rank, rs):
                emit(sink, make_code(cards, FOUR_TWO_PAIRS, rank, 1))
    if total == 4 and quad >= 0:
        emit(sink, make_code(cards, BOMB, quad, 1))
    if total == 2 and count_of(cards, SMALL_JOKER) and count_of(cards, BIG_JOKER):
        emit(sink, make_code(cards, ROCKET, BIG_JOKER, 1))


cdef inline uint64_t main_cards(uint64_t code) noexcept nogil:
    """The cards that rank a move: all of them but the kickers."""
    cdef int kind = code_kind(code)
    cdef int top = code_rank(code), length = code_length(code)
    if kind == TRIO_SINGLE or kind == TRIO_PAIR:
        return digit(top, 3)
    if kind == FOUR_TWO_SINGLES or kind == FOUR_TWO_PAIRS:
        return digit(top, 4)
    if kind == AIRPLANE_SINGLES or kind == AIRPLANE_PAIRS:
        return chain_cards(top - length + 1, length, 3)
    return code_cards(code)


# With single readings (multiple_readings off) a multiset keeps one reading: the type that
# comes first here, then the highest main rank. Bombs and plain chains come before kicker
# types; this is how DouZero and RLCard type a move (333444555666 is a four-trio airplane).
cdef int[NUM_KINDS] READING_PRIORITY = [
    0,    # PASS
    5,    # SINGLE
    6,    # PAIR
    7,    # TRIO
    11,   # TRIO_SINGLE
    12,   # TRIO_PAIR
    8,    # STRAIGHT
    9,    # PAIR_STRAIGHT
    10,   # AIRPLANE
    13,   # AIRPLANE_SINGLES
    14,   # AIRPLANE_PAIRS
    15,   # FOUR_TWO_SINGLES
    16,   # FOUR_TWO_PAIRS
    4,    # BOMB
    3,    # ROCKET
    1,    # SKIP
    2,    # REVERSE
]


cdef inline bint preferred(uint64_t a, uint64_t b) noexcept nogil:
    """Is reading a kept over reading b of the same cards?"""
    cdef int pa = READING_PRIORITY[code_kind(a)], pb = READING_PRIORITY[code_kind(b)]
    return pa < pb or (pa == pb and code_rank(a) > code_rank(b))


cdef uint64_t first_reading(uint64_t cards, const RuleSet* rs) noexcept nogil:
    """The reading cards keep under single readings (0 if none)."""
    cdef uint64_t buffer[16]
    cdef uint64_t best = 0
    cdef Sink sink
    cdef Py_ssize_t i
    sink.out = buffer
    sink.cap = 16
    sink.n = 0
    classify_all(cards, rs, &sink)
    for i in range(min(sink.n, 16)):
        if i == 0 or preferred(buffer[i], best):
            best = buffer[i]
    return best


cdef inline bint may_have_other_readings(uint64_t code) noexcept nogil:
    """A cheap necessary condition for cards to have a second reading: an airplane or a
    bomb, a rank with three or more cards among the kickers, or a main rank whose fourth
    card is a kicker. (Another reading needs another trio chain or quad, and that shows as
    one of these.)"""
    cdef int kind = code_kind(code)
    cdef uint64_t main, kickers
    if kind == AIRPLANE or kind == BOMB:
        return True
    main = main_cards(code)
    kickers = code_cards(code) - main
    if kickers == 0:
        return False
    if ((kickers & DDZ_DIGIT_TOP) | (kickers & (kickers >> 1) & DDZ_DIGIT_LOW)) != 0:
        return True                                  # a kicker digit of 3 or more
    return (main & (main >> 1) & DDZ_DIGIT_LOW & ~(main >> 2)
            & (kickers | (kickers >> 1) | (kickers >> 2))) != 0


cdef inline bint is_kept_reading(uint64_t code, const RuleSet* rs) noexcept nogil:
    """Under single readings: is code the one reading its cards keep?"""
    return not may_have_other_readings(code) or first_reading(code_cards(code), rs) == code


cdef void classify(uint64_t cards, const RuleSet* rs, Sink* sink) noexcept nogil:
    """Every reading of cards under the rules; under single readings, the one they keep."""
    cdef uint64_t kept
    if rs.options & OPT_MULTIPLE_READINGS_:
        classify_all(cards, rs, sink)
        return
    kept = first_reading(cards, rs)
    if kept:
        emit(sink, kept)


cdef bint is_plain_reading(uint64_t code, const RuleSet* rs) noexcept nogil:
    """Is code a reading of a type without kickers (single ... airplane, bomb, rocket)?
    These are checked by rebuilding the one code their type, rank and length allow."""
    cdef int kind = code_kind(code), rank = code_rank(code), length = code_length(code)
    cdef int width
    if kind == SINGLE or kind == PAIR or kind == TRIO or kind == BOMB:
        width = 4 if kind == BOMB else kind
        if length != 1 or (width > 1 and rank > TWO) or rank >= NUM_RANKS:
            return False
        return code == make_code(digit(rank, width), kind, rank, 1)
    if kind == ROCKET:
        return code == make_code(digit(SMALL_JOKER, 1) | digit(BIG_JOKER, 1), ROCKET, BIG_JOKER, 1)
    width = kind - STRAIGHT + 1
    if (rank > ACE or not rs.min_len[width] <= length <= rs.max_len[width]
            or rank - length + 1 < 0):
        return False
    return code == make_code(chain_cards(rank - length + 1, length, width), kind, rank, length)


cdef bint is_kicker_reading(uint64_t code, const RuleSet* rs) noexcept nogil:
    """Is code a reading of a kicker type? Checked by taking the main part its type, rank and
    length name and asking the kicker rules about the rest."""
    cdef int kind = code_kind(code), rank = code_rank(code), length = code_length(code)
    cdef uint64_t cards = code_cards(code), main, kickers
    cdef unsigned main_ranks
    cdef int units
    cdef bint singles = kind == TRIO_SINGLE or kind == FOUR_TWO_SINGLES or kind == AIRPLANE_SINGLES
    if kind == AIRPLANE_SINGLES or kind == AIRPLANE_PAIRS:
        if (rank > ACE or rank - length + 1 < 0
                or not rs.min_len[3] <= length <= rs.max_len[3]):
            return False
        main_ranks = chain_ranks(rank - length + 1, length)
        units = length
    else:
        if length != 1 or rank > TWO:
            return False
        if (kind == FOUR_TWO_SINGLES or kind == FOUR_TWO_PAIRS) and not (
                rs.options & OPT_FOUR_WITH_TWO_):
            return False
        main_ranks = 1u << rank
        units = 2 if kind == FOUR_TWO_SINGLES or kind == FOUR_TWO_PAIRS else 1
    main = main_cards(code)
    if not is_subset(main, cards):
        return False
    kickers = cards - main
    if card_total(kickers) != units * (1 if singles else 2):
        return False
    if singles:
        return single_kickers_ok(kickers, main_ranks, kind == AIRPLANE_SINGLES, rs)
    return pair_kickers_ok(kickers, main_ranks, rs)


cdef bint is_reading(uint64_t code, const RuleSet* rs) noexcept nogil:
    """Is code one of the readings its own cards have under the rules (and, under single
    readings, the one they keep)? Equal to `code in classify(code_cards(code))`, without
    classifying."""
    cdef int kind = code_kind(code)
    cdef bint well_formed
    if code == 0:
        return True
    if not is_subset(code_cards(code), rs.deck):
        return False
    if kind == SKIP or kind == REVERSE:
        return code == make_code(digit(SKIP_CARD if kind == SKIP else REVERSE_CARD, 1), kind, 0, 1)
    if kind == TRIO_SINGLE or kind == TRIO_PAIR or kind == AIRPLANE_SINGLES \
            or kind == AIRPLANE_PAIRS or kind == FOUR_TWO_SINGLES or kind == FOUR_TWO_PAIRS:
        well_formed = is_kicker_reading(code, rs)
    elif SINGLE <= kind <= ROCKET:
        well_formed = is_plain_reading(code, rs)
    else:
        return False
    if not well_formed:
        return False
    return (rs.options & OPT_MULTIPLE_READINGS_) != 0 or is_kept_reading(code, rs)


# ---------------------------------------------------------------------------------------
# Generation

# Rank sets in the generator are "spread": rank r is bit 3r, the low bit of its digit, so
# they come straight out of the card integer with a few shifts and no loop.
cdef extern from *:
    """
    #define DDZ_SPREAD_RANKS  ((unsigned long long)0x1249249249249ULL & ((1ULL << 45) - 1))
    #define DDZ_SPREAD_CHAIN  ((unsigned long long)0x1249249249249ULL & ((1ULL << 34) - 1))
    """
    const uint64_t DDZ_SPREAD_RANKS    # ranks 3 .. big joker
    const uint64_t DDZ_SPREAD_CHAIN    # ranks 3 .. ace: the ranks a chain may use

ctypedef struct Hand:
    uint64_t cards
    uint64_t has[5]      # has[k]: the spread set of ranks (0..14) held at least k times


cdef inline void load_hand(Hand* hand, uint64_t cards) noexcept nogil:
    hand.cards = cards
    hand.has[0] = DDZ_SPREAD_RANKS
    hand.has[1] = (cards | (cards >> 1) | (cards >> 2)) & DDZ_SPREAD_RANKS   # digit >= 1
    hand.has[2] = ((cards >> 1) | (cards >> 2)) & DDZ_SPREAD_RANKS           # digit >= 2
    hand.has[3] = ((cards & (cards >> 1)) | (cards >> 2)) & DDZ_SPREAD_RANKS  # 3 or 4
    hand.has[4] = (cards >> 2) & DDZ_SPREAD_RANKS                             # digit 4


cdef inline bint holds(uint64_t spread, int rank) noexcept nogil:
    return (spread >> (3 * rank)) & 1


cdef inline uint64_t rank_bit(int rank) noexcept nogil:
    return 1ULL << (3 * rank)


ctypedef struct Kickers:
    # What a kicker enumeration is filling in: a main part and the kickers still needed.
    uint64_t main_code       # type, rank, length and the main part's cards
    uint64_t available       # cards the kickers may come from (hand minus main part)
    unsigned main_ranks
    bint airplane


cdef void single_kickers(Sink* sink, const Kickers* k, const RuleSet* rs, int rank,
                         int need, uint64_t chosen) noexcept nogil:
    """Every multiset of `need` single kickers from ranks >= rank, emitted with the main part."""
    cdef unsigned m, top
    if need == 0:
        if rocket_rule_ok(chosen, rs):
            emit(sink, k.main_code + chosen)
        return
    if rank >= NUM_RANKS:
        return
    top = count_of(k.available, rank)
    if top > <unsigned>need:
        top = need
    for m in range(top, -1, -1):
        if single_kicker_count_ok(m, (k.main_ranks >> rank) & 1, k.airplane,
                                  (chain_neighbours(k.main_ranks) >> rank) & 1, rs):
            single_kickers(sink, k, rs, rank + 1, need - m, chosen + digit(rank, m))


cdef void pair_kickers(Sink* sink, const Kickers* k, const RuleSet* rs, int rank,
                       int need, uint64_t chosen) noexcept nogil:
    """Every multiset of `need` pair kickers from ranks >= rank (jokers never pair)."""
    cdef unsigned pairs, top
    if need == 0:
        emit(sink, k.main_code + chosen)
        return
    if rank > TWO:
        return
    top = count_of(k.available, rank) // 2
    if (k.main_ranks >> rank) & 1:
        top = 0
    if top > <unsigned>need:
        top = need
    for pairs in range(top, -1, -1):
        if pair_kicker_count_ok(pairs, rs):
            pair_kickers(sink, k, rs, rank + 1, need - pairs, chosen + digit(rank, 2 * pairs))


cdef inline int pop_lowest(uint64_t* spread) noexcept nogil:
    """The lowest rank of a spread set, removed from it (the set must not be empty)."""
    cdef int rank = __builtin_ctzll(spread[0]) // 3
    spread[0] &= spread[0] - 1
    return rank


cdef inline uint64_t ranks_above(int above) noexcept nogil:
    """The spread set of ranks above `above` (every rank for -1)."""
    return ~0ULL if above < 0 else ~((1ULL << (3 * above + 3)) - 1)


cdef void gen_sets(Sink* sink, const Hand* hand, int width, int kind, int above) noexcept nogil:
    """Singles, pairs, trios or bombs ranked above `above`."""
    cdef uint64_t held = hand.has[width] & ranks_above(above)
    cdef int rank
    while held:
        rank = pop_lowest(&held)
        emit(sink, make_code(digit(rank, width), kind, rank, 1))


cdef void gen_trio_kickers(Sink* sink, const Hand* hand, const RuleSet* rs, int kind,
                           int above) noexcept nogil:
    """Trio + single and trio + pair: one kicker, so no kicker rule beyond its rank."""
    cdef uint64_t trios = hand.has[3] & ranks_above(above)
    cdef uint64_t kickers
    cdef int rank, kicker
    cdef uint64_t main
    while trios:
        rank = pop_lowest(&trios)
        main = make_code(digit(rank, 3), kind, rank, 1)
        if kind == TRIO_SINGLE:
            kickers = hand.has[1] & ~rank_bit(rank)
            if holds(hand.has[4], rank) and rs.options & OPT_KICKER_MATCHES_MAIN_:
                kickers |= rank_bit(rank)
        else:
            kickers = hand.has[2] & ~rank_bit(rank)
        while kickers:
            kicker = pop_lowest(&kickers)
            emit(sink, main + digit(kicker, 1 if kind == TRIO_SINGLE else 2))


cdef void gen_four_two(Sink* sink, const Hand* hand, const RuleSet* rs, int kind,
                       int above) noexcept nogil:
    """Four + two singles or two pairs: two kickers of distinct ranks, or of one rank where
    the rules let kickers repeat."""
    cdef uint64_t quads = hand.has[4] & ranks_above(above)
    cdef uint64_t firsts, seconds, doubles
    cdef int rank, first, second, width = 1 if kind == FOUR_TWO_SINGLES else 2
    cdef bint distinct
    cdef uint64_t main
    if not (rs.options & OPT_FOUR_WITH_TWO_):
        return
    distinct = rs.options & (OPT_SINGLE_KICKERS_DISTINCT_ if width == 1
                             else OPT_PAIR_KICKERS_DISTINCT_)
    while quads:
        rank = pop_lowest(&quads)
        main = make_code(digit(rank, 4), kind, rank, 1)
        firsts = hand.has[width] & ~rank_bit(rank)
        doubles = 0 if distinct else hand.has[2 * width] & ~rank_bit(rank)
        while firsts:
            first = pop_lowest(&firsts)
            if holds(doubles, first):
                emit(sink, main + digit(first, 2 * width))
            seconds = firsts
            if first == SMALL_JOKER and not (rs.options & OPT_ROCKET_AS_KICKERS_):
                seconds &= ~rank_bit(BIG_JOKER)
            while seconds:
                second = pop_lowest(&seconds)
                emit(sink, main + digit(first, width) + digit(second, width))


cdef void gen_chains(Sink* sink, const Hand* hand, const RuleSet* rs, int width, int kind,
                     int above, int only_length) noexcept nogil:
    """Chains of `width` cards a rank; with only_length, just that length, topping above."""
    cdef int low, length, top, i
    cdef int shortest = rs.min_len[width], longest = rs.max_len[width]
    cdef uint64_t held = hand.has[width] & DDZ_SPREAD_CHAIN
    cdef uint64_t starts = held
    cdef int total = -1
    cdef uint64_t cards
    cdef Kickers k
    if only_length:
        shortest = longest = only_length
    for i in range(1, shortest):           # keep the ranks a long-enough run starts at
        starts &= held >> (3 * i)
    while starts:
        low = pop_lowest(&starts)
        cards = chain_cards(low, shortest - 1, width)
        for length in range(shortest, longest + 1):
            top = low + length - 1
            if top > ACE or not holds(held, top):
                break
            cards |= digit(top, width)
            if top <= above:
                continue
            if kind == STRAIGHT or kind == PAIR_STRAIGHT or kind == AIRPLANE:
                emit(sink, make_code(cards, kind, top, length))
                continue
            # airplanes with wings: a chain of trios plus one wing a trio
            if total < 0:
                total = card_total(hand.cards)
            if total < (4 if kind == AIRPLANE_SINGLES else 5) * length:
                break
            k.main_code = make_code(cards, kind, top, length)
            k.available = hand.cards - cards
            k.main_ranks = chain_ranks(low, length)
            k.airplane = True
            if kind == AIRPLANE_SINGLES:
                single_kickers(sink, &k, rs, 0, length, 0)
            else:
                pair_kickers(sink, &k, rs, 0, length, 0)


cdef void gen_kind(Sink* sink, const Hand* hand, const RuleSet* rs, int kind, int above,
                   int only_length) noexcept nogil:
    """Every move of one type in the hand whose main rank is above `above`."""
    if kind == SINGLE:
        gen_sets(sink, hand, 1, SINGLE, above)
    elif kind == PAIR:
        gen_sets(sink, hand, 2, PAIR, above)
    elif kind == TRIO:
        gen_sets(sink, hand, 3, TRIO, above)
    elif kind == TRIO_SINGLE or kind == TRIO_PAIR:
        gen_trio_kickers(sink, hand, rs, kind, above)
    elif kind == STRAIGHT:
        gen_chains(sink, hand, rs, 1, kind, above, only_length)
    elif kind == PAIR_STRAIGHT:
        gen_chains(sink, hand, rs, 2, kind, above, only_length)
    elif kind == AIRPLANE or kind == AIRPLANE_SINGLES or kind == AIRPLANE_PAIRS:
        gen_chains(sink, hand, rs, 3, kind, above, only_length)
    elif kind == FOUR_TWO_SINGLES or kind == FOUR_TWO_PAIRS:
        gen_four_two(sink, hand, rs, kind, above)
    elif kind == BOMB:
        gen_sets(sink, hand, 4, BOMB, above)
    elif kind == ROCKET:
        if holds(hand.has[1], SMALL_JOKER) and holds(hand.has[1], BIG_JOKER):
            emit(sink, make_code(digit(SMALL_JOKER, 1) | digit(BIG_JOKER, 1), ROCKET,
                                 BIG_JOKER, 1))
    elif kind == SKIP or kind == REVERSE:
        if count_of(hand.cards, SKIP_CARD if kind == SKIP else REVERSE_CARD):
            emit(sink, make_code(digit(SKIP_CARD if kind == SKIP else REVERSE_CARD, 1),
                                 kind, 0, 1))


cdef void generate(uint64_t hand_cards, uint64_t table, const RuleSet* rs,
                   Sink* sink) noexcept nogil:
    """Every legal move: leads when table is 0 (the pass), else the answers to table (the
    pass first). table must be a reading under rs; hand_cards must fit the deck."""
    cdef Hand hand
    cdef int kind, table_kind
    cdef Py_ssize_t start = sink.n, i, kept, start_kind
    cdef uint64_t code
    load_hand(&hand, hand_cards)
    if table == 0:
        for kind in range(SINGLE, NUM_KINDS):
            gen_kind(sink, &hand, rs, kind, -1, 0)
    else:
        emit(sink, 0)
        table_kind = code_kind(table)
        if table_kind == AIRPLANE_SINGLES and rs.options & (
                OPT_AIRPLANE_RANK_WING_TRIOS_ | OPT_BOMBS_ONLY_ON_HEAVY_WINGS_):
            # options that compare airplanes otherwise: every airplane of the length, then
            # keep those that answer the table
            start_kind = sink.n
            gen_kind(sink, &hand, rs, table_kind, -1, code_length(table))
            if sink.n <= sink.cap:
                kept = start_kind
                for i in range(start_kind, sink.n):
                    if answers(sink.out[i], table, rs):
                        sink.out[kept] = sink.out[i]
                        kept += 1
                sink.n = kept
        elif table_kind != BOMB and table_kind != ROCKET:
            gen_kind(sink, &hand, rs, table_kind, code_rank(table), code_length(table))
        if table_kind != ROCKET:
            gen_kind(sink, &hand, rs, BOMB, code_rank(table) if table_kind == BOMB else -1, 0)
            gen_kind(sink, &hand, rs, ROCKET, -1, 0)
        gen_kind(sink, &hand, rs, SKIP, -1, 0)
        gen_kind(sink, &hand, rs, REVERSE, -1, 0)
    if rs.options & OPT_MULTIPLE_READINGS_ or sink.n > sink.cap:
        return                                   # nothing to filter, or not all written
    kept = start
    for i in range(start, sink.n):
        code = sink.out[i]
        if not is_kept_reading(code, rs):
            continue
        sink.out[kept] = code
        kept += 1
    sink.n = kept


# Why a move is not legal (legality's answer; 0 = legal).
cdef enum:
    LEGAL = 0
    NOT_A_READING = 1
    NOT_IN_HAND = 2
    LEADER_CANNOT_PASS = 3
    DOES_NOT_BEAT = 4

cdef int legality(uint64_t hand, uint64_t move, uint64_t table, bint leading,
                  const RuleSet* rs) noexcept nogil:
    if move == 0:
        return LEADER_CANNOT_PASS if leading else LEGAL
    if not is_reading(move, rs):
        return NOT_A_READING
    if not is_subset(code_cards(move), hand):
        return NOT_IN_HAND
    if leading or code_kind(move) == SKIP or code_kind(move) == REVERSE:
        return LEGAL
    return LEGAL if answers(move, table, rs) else DOES_NOT_BEAT


# ---------------------------------------------------------------------------------------
# The Python boundary

class MoveType(enum.IntEnum):
    """The type of a move's reading (RULES.md section 2); the values are the core's."""

    PASS = 0
    SINGLE = 1
    PAIR = 2
    TRIO = 3
    TRIO_SINGLE = 4
    TRIO_PAIR = 5
    STRAIGHT = 6
    PAIR_STRAIGHT = 7
    AIRPLANE = 8
    AIRPLANE_SINGLES = 9
    AIRPLANE_PAIRS = 10
    FOUR_TWO_SINGLES = 11
    FOUR_TWO_PAIRS = 12
    BOMB = 13
    ROCKET = 14
    SKIP = 15
    REVERSE = 16


cdef tuple MOVE_TYPES = tuple(MoveType)
cdef str SYMBOL_TEXT = "3456789TJQKA2XDSV"


cdef str cards_text(uint64_t cards):
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
        from ddz.moves import parse_move     # the API layer reads text; the core holds codes
        return parse_move(text)

    @staticmethod
    def from_code(code):
        """The move of a core move code (``docs/layout.md``); ValueError if it is none."""
        cdef RuleSet rs
        if not isinstance(code, int) or not 0 <= code < (1 << 64):
            raise ValueError(f"{code!r} is not a move code")
        unpack_rules(ANY_RULES, &rs)
        if not is_reading(code, &rs):
            raise ValueError(f"{code:#x} is not a move code")
        return new_move(code)

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
        from ddz.cards import Cards
        return Cards.from_mask(code_cards(self.code))

    @property
    def main(self):
        """The cards that rank the move: all of them less the kickers (``ddz.Cards``)."""
        from ddz.cards import Cards
        return Cards.from_mask(main_cards(self.code))

    @property
    def kickers(self):
        """The kickers (wings) that ride along and never count (``ddz.Cards``)."""
        from ddz.cards import Cards
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
            return cards_text(main)
        return cards_text(main) + "+" + cards_text(code_cards(self.code) - main)

    def __repr__(self):
        return f"Move.parse({str(self)!r})"

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


cdef object last_rules_object = None   # the ddz.Rules last seen (kept alive by this reference)
cdef uint64_t last_packed = 0
cdef RuleSet last_rules                 # its RuleSet: most calls repeat the rules


cdef RuleSet rules_of(object rules) except *:
    """The RuleSet of a ddz.Rules (its core_flags) or of a packed rule integer."""
    global last_rules_object, last_packed, last_rules
    cdef uint64_t packed
    if rules is last_rules_object:      # Rules are frozen: the same object, the same flags
        return last_rules
    packed = rules if type(rules) is int else rules.core_flags
    if packed != last_packed or last_rules_object is None:
        last_rules = checked_rules(packed)
        last_packed = packed
    last_rules_object = rules
    return last_rules


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
        raise ValueError(f"hand {hand:#o} holds cards these rules' deck does not have")
    return 0


cdef inline int check_table(uint64_t table, const RuleSet* rs) except -1:
    cdef int kind = code_kind(table)
    if table == 0:
        return 0
    if kind == SKIP or kind == REVERSE:
        raise ValueError("an action card is never the table's move")
    if not is_reading(table, rs):
        raise ValueError(f"move code {table:#x} is not a move under these rules")
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
        generate(cards, table, rs, &sink)
        return codes_to_moves(heap, sink.n)
    finally:
        free(heap)


@cython.freelist(16)
cdef class LegalMoves:
    """The legal moves of one position, generated on first use (``ddz.legal_moves``).

    A sequence of ``Move``: leads when the table is empty, else the answers with the pass
    first. ``move in moves`` asks the legality check without generating anything;
    ``count()`` counts in the core without building moves; iteration, ``len`` and indexing
    build the moves once.
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
        from ddz.cards import Cards
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
        cdef Sink sink
        if value is not None:
            return self.materialize().count(value)
        if self.moves is not None:
            return len(self.moves)
        if not (self.rs.options & OPT_MULTIPLE_READINGS_):
            return len(self.materialize())
        sink.out = NULL
        sink.cap = 0
        sink.n = 0
        generate(self.hand_mask, self.table_code, &self.rs, &sink)
        return sink.n

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


def count_moves(uint64_t hand, uint64_t table, object rules):
    """How many legal moves legal_moves would return, without building them."""
    cdef RuleSet rs = rules_of(rules)
    cdef Sink sink
    check_hand(hand, &rs)
    check_table(table, &rs)
    sink.out = NULL
    sink.cap = 0
    sink.n = 0
    if rs.options & OPT_MULTIPLE_READINGS_:
        generate(hand, table, &rs, &sink)
        return sink.n
    return len(run_to_moves(hand, table, &rs, False))


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
                starts[i] = sink.n
                if (not is_subset(hand_codes[i], rs.deck)
                        or code_kind(table_codes[i]) == SKIP
                        or code_kind(table_codes[i]) == REVERSE
                        or not is_reading(table_codes[i], &rs)):
                    bad = i
                    break
                generate(hand_codes[i], table_codes[i], &rs, &sink)
            starts[n] = sink.n
        if bad >= 0:
            raise ValueError(f"row {bad}: the hand does not fit the deck, or the table is not "
                             f"a combination under these rules")
        return sink.n
    finally:
        for i in range(acquired):
            PyBuffer_Release(&views[i])
