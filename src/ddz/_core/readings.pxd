# Readings: classify a multiset, check a move code, compare two moves, judge legality.
# Inline code only (see ruleset.pxd).

from libc.stdint cimport uint64_t

from ddz._core.layout cimport *
from ddz._core.ruleset cimport *

ctypedef struct Sink:
    uint64_t* out        # where move codes go; may be NULL when cap is 0
    Py_ssize_t cap       # how many codes fit
    Py_ssize_t n         # how many codes were produced (may exceed cap: only cap written)


# ---------------------------------------------------------------------------------------
# Comparison

cdef inline bint beats(uint64_t move, uint64_t table) noexcept nogil:
    """The rule book's comparison (docs/rules.md#comparison); see answers() for rule options."""
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


cdef inline int comparison_rank(uint64_t code, const RuleSet* rs) noexcept nogil:
    """The rank a move compares by: its main rank, except that with
    airplane_rank_includes_wing_trios an airplane with single wings counts its highest rank
    held three times, wing trios included (DouZero's filter_type_11_serial_3_1)."""
    cdef uint64_t trios
    cdef int rank = code_rank(code)
    if code_kind(code) == AIRPLANE_SINGLES and rs.options & OPT_AIRPLANE_RANK_WING_TRIOS_:
        trios = exact_trios(code_cards(code))
        if trios:
            rank = max(rank, (63 - ddz_clz64(trios)) // 3)
    return rank


cdef inline bint heavy_wings(uint64_t code) noexcept nogil:
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


cdef inline bint answers(uint64_t move, uint64_t table, const RuleSet* rs) noexcept nogil:
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


cdef inline int plain_chain_length(uint64_t cards, unsigned width, int total) noexcept nogil:
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


cdef inline void classify_winged(uint64_t cards, int total, const RuleSet* rs, Sink* sink) noexcept nogil:
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


cdef inline void classify_all(uint64_t cards, const RuleSet* rs, Sink* sink) noexcept nogil:
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
cdef extern from *:
    """
    /* indexed by MoveType: PASS SINGLE PAIR TRIO TRIO_SINGLE TRIO_PAIR STRAIGHT PAIR_STRAIGHT
       AIRPLANE AIRPLANE_SINGLES AIRPLANE_PAIRS FOUR_TWO_SINGLES FOUR_TWO_PAIRS BOMB ROCKET
       SKIP REVERSE */
    static const int ddz_reading_priority[17] = {
        0, 5, 6, 7, 11, 12, 8, 9, 10, 13, 14, 15, 16, 4, 3, 1, 2};
    """
    const int* READING_PRIORITY "ddz_reading_priority"


cdef inline bint preferred(uint64_t a, uint64_t b) noexcept nogil:
    """Is reading a kept over reading b of the same cards?"""
    cdef int pa = READING_PRIORITY[code_kind(a)], pb = READING_PRIORITY[code_kind(b)]
    return pa < pb or (pa == pb and code_rank(a) > code_rank(b))


cdef inline uint64_t first_reading(uint64_t cards, const RuleSet* rs) noexcept nogil:
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


cdef inline void classify(uint64_t cards, const RuleSet* rs, Sink* sink) noexcept nogil:
    """Every reading of cards under the rules; under single readings, the one they keep."""
    cdef uint64_t kept
    if rs.options & OPT_MULTIPLE_READINGS_:
        classify_all(cards, rs, sink)
        return
    kept = first_reading(cards, rs)
    if kept:
        emit(sink, kept)


cdef inline bint is_plain_reading(uint64_t code, const RuleSet* rs) noexcept nogil:
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


cdef inline bint is_kicker_reading(uint64_t code, const RuleSet* rs) noexcept nogil:
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


cdef inline bint is_reading(uint64_t code, const RuleSet* rs) noexcept nogil:
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


# Why a move is not legal (legality's answer; 0 = legal).
cdef enum:
    LEGAL = 0
    NOT_A_READING = 1
    NOT_IN_HAND = 2
    LEADER_CANNOT_PASS = 3
    DOES_NOT_BEAT = 4

cdef inline int legality(uint64_t hand, uint64_t move, uint64_t table, bint leading,
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
