# The move generator: every legal move of a hand, leading or answering.
# Inline code only (see ruleset.pxd).

from libc.stdint cimport uint64_t
from libc.stdlib cimport malloc

from ddz._core.layout cimport *
from ddz._core.ruleset cimport *
from ddz._core.readings cimport *

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


cdef inline void single_kickers(Sink* sink, const Kickers* k, const RuleSet* rs, int rank,
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


cdef inline void pair_kickers(Sink* sink, const Kickers* k, const RuleSet* rs, int rank,
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
    cdef int rank = ddz_ctz64(spread[0]) // 3
    spread[0] &= spread[0] - 1
    return rank


cdef inline uint64_t ranks_above(int above) noexcept nogil:
    """The spread set of ranks above `above` (every rank for -1)."""
    return ~0ULL if above < 0 else ~((1ULL << (3 * above + 3)) - 1)


cdef inline void gen_sets(Sink* sink, const Hand* hand, int width, int kind, int above) noexcept nogil:
    """Singles, pairs, trios or bombs ranked above `above`."""
    cdef uint64_t held = hand.has[width] & ranks_above(above)
    cdef int rank
    while held:
        rank = pop_lowest(&held)
        emit(sink, make_code(digit(rank, width), kind, rank, 1))


cdef inline void gen_trio_kickers(Sink* sink, const Hand* hand, const RuleSet* rs, int kind,
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


cdef inline void gen_four_two(Sink* sink, const Hand* hand, const RuleSet* rs, int kind,
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


cdef inline void gen_chains(Sink* sink, const Hand* hand, const RuleSet* rs, int width, int kind,
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


cdef inline void gen_kind(Sink* sink, const Hand* hand, const RuleSet* rs, int kind, int above,
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


cdef inline void gen_leads(Sink* sink, const Hand* hand, const RuleSet* rs) noexcept nogil:
    """Every lead, kind by kind in MoveKind order (gen_kind's moves of each kind in turn),
    written out: each kind's generator called directly, and the kinds a hand cannot hold
    skipped on one test (no pair, no trio, no quad), where a loop through gen_kind paid a
    call and a dispatch for each of the 16 kinds (a fifth of a random game's
    instructions)."""
    gen_sets(sink, hand, 1, SINGLE, -1)
    if hand.has[2]:
        gen_sets(sink, hand, 2, PAIR, -1)
    if hand.has[3]:
        gen_sets(sink, hand, 3, TRIO, -1)
        gen_trio_kickers(sink, hand, rs, TRIO_SINGLE, -1)
        gen_trio_kickers(sink, hand, rs, TRIO_PAIR, -1)
    gen_chains(sink, hand, rs, 1, STRAIGHT, -1, 0)
    if hand.has[2]:
        gen_chains(sink, hand, rs, 2, PAIR_STRAIGHT, -1, 0)
    if hand.has[3]:
        gen_chains(sink, hand, rs, 3, AIRPLANE, -1, 0)
        gen_chains(sink, hand, rs, 3, AIRPLANE_SINGLES, -1, 0)
        gen_chains(sink, hand, rs, 3, AIRPLANE_PAIRS, -1, 0)
    if hand.has[4]:
        gen_four_two(sink, hand, rs, FOUR_TWO_SINGLES, -1)
        gen_four_two(sink, hand, rs, FOUR_TWO_PAIRS, -1)
        gen_sets(sink, hand, 4, BOMB, -1)
    if holds(hand.has[1], SMALL_JOKER) and holds(hand.has[1], BIG_JOKER):
        emit(sink, make_code(digit(SMALL_JOKER, 1) | digit(BIG_JOKER, 1), ROCKET, BIG_JOKER, 1))
    if count_of(hand.cards, SKIP_CARD):
        emit(sink, make_code(digit(SKIP_CARD, 1), SKIP, 0, 1))
    if count_of(hand.cards, REVERSE_CARD):
        emit(sink, make_code(digit(REVERSE_CARD, 1), REVERSE, 0, 1))


cdef inline void keep_readings(Sink* sink, Py_ssize_t start, const RuleSet* rs) noexcept nogil:
    """Under single readings, drop the moves from start on that are not the reading their
    cards keep (nothing to filter under multiple readings, or when not all were written)."""
    cdef Py_ssize_t i, kept = start
    cdef uint64_t code
    if rs.options & OPT_MULTIPLE_READINGS_ or sink.n > sink.cap:
        return
    for i in range(start, sink.n):
        code = sink.out[i]
        if not is_kept_reading(code, rs):
            continue
        sink.out[kept] = code
        kept += 1
    sink.n = kept


cdef inline void generate(uint64_t hand_cards, uint64_t table, const RuleSet* rs,
                   Sink* sink) noexcept nogil:
    """Every legal move: leads when table is 0 (the pass), else the answers to table (the
    pass first). table must be a reading under rs; hand_cards must fit the deck."""
    cdef Hand hand
    cdef int table_kind
    cdef Py_ssize_t start = sink.n, i, kept, start_kind
    load_hand(&hand, hand_cards)
    if table == 0:
        gen_leads(sink, &hand, rs)
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
    keep_readings(sink, start, rs)


cdef inline void gen_holding(Sink* sink, const Hand* hand, const RuleSet* rs, int kind,
                             int low) noexcept nogil:
    """gen_kind's leads of kind, keeping those that hold a card of rank low."""
    cdef Py_ssize_t i, kept = sink.n
    gen_kind(sink, hand, rs, kind, -1, 0)
    if sink.n > sink.cap:
        return
    for i in range(kept, sink.n):
        if count_of(sink.out[i], low):
            sink.out[kept] = sink.out[i]
            kept += 1
    sink.n = kept


cdef inline void chains_from(Sink* sink, const Hand* hand, const RuleSet* rs, int width,
                             int kind, int low) noexcept nogil:
    """gen_chains' chains (no wings) that start at rank low, shortest first."""
    cdef uint64_t held = hand.has[width] & DDZ_SPREAD_CHAIN, cards = 0
    cdef int length, top
    for length in range(1, rs.max_len[width] + 1):
        top = low + length - 1
        if top > ACE or not holds(held, top):
            break
        cards |= digit(top, width)
        if length >= rs.min_len[width]:
            emit(sink, make_code(cards, kind, top, length))


cdef inline uint64_t* generate_all(uint64_t hand_cards, uint64_t table, const RuleSet* rs,
                                   uint64_t* codes, Py_ssize_t cap, Py_ssize_t* n) noexcept nogil:
    """Every legal move (generate) into codes, room for cap; a hand with more takes a heap
    block of all of them, returned for the caller to free (the result is then not codes).
    *n is the number of moves at the result; out of memory: codes, the first cap (*n = cap)."""
    cdef Sink sink
    cdef uint64_t* heap
    sink.out = codes
    sink.cap = cap
    sink.n = 0
    generate(hand_cards, table, rs, &sink)
    if sink.n <= cap:
        n[0] = sink.n
        return codes
    heap = <uint64_t*>malloc(sink.n * sizeof(uint64_t))
    if heap == NULL:
        n[0] = cap
        return codes
    sink.out = heap
    sink.cap = sink.n
    sink.n = 0
    generate(hand_cards, table, rs, &sink)
    n[0] = sink.n
    return heap


cdef inline void generate_lowest(uint64_t hand_cards, const RuleSet* rs, Sink* sink) noexcept nogil:
    """The leads of a (non-empty) hand that hold a card of its lowest rank, in generate()'s
    order: what a search that splits a hand move by move needs at each level (each card
    must go in some move, so some move holds the lowest), at a fraction of generate()'s
    cost (the kicker enumerations are the dear part, and most of their moves leave the
    lowest card out). Written out kind by kind, in generate()'s order of kinds, each
    skipped where it cannot hold the lowest card."""
    cdef Hand hand, only_low
    cdef int low = ddz_ctz64(hand_cards) // 3, width, rank, kind
    cdef Py_ssize_t start = sink.n
    cdef uint64_t trios, main, bit = rank_bit(low)
    load_hand(&hand, hand_cards)
    for width in range(1, 4):                    # single, pair, trio
        if hand.has[width] & bit:
            emit(sink, make_code(digit(low, width), width, low, 1))
    if hand.has[3]:
        for kind in range(TRIO_SINGLE, TRIO_PAIR + 1):
            # the trio of the lowest rank with each kicker, then each higher trio with the
            # lowest rank as its kicker (the lowest kicker, so first of that trio's moves)
            width = 1 if kind == TRIO_SINGLE else 2
            if hand.has[3] & bit:
                only_low = hand
                only_low.has[3] = bit
                gen_trio_kickers(sink, &only_low, rs, kind, -1)
            if hand.has[width] & bit:
                trios = hand.has[3] & ranks_above(low)
                while trios:
                    rank = pop_lowest(&trios)
                    main = make_code(digit(rank, 3), kind, rank, 1)
                    emit(sink, main + digit(low, width))
    if low <= ACE:                               # a chain that holds low starts there
        chains_from(sink, &hand, rs, 1, STRAIGHT, low)
        if hand.has[2] & bit:
            chains_from(sink, &hand, rs, 2, PAIR_STRAIGHT, low)
        if hand.has[3] & bit:
            chains_from(sink, &hand, rs, 3, AIRPLANE, low)
    if hand.has[3] & DDZ_SPREAD_CHAIN & (hand.has[3] >> 3) or rs.min_len[3] < 2:
        gen_holding(sink, &hand, rs, AIRPLANE_SINGLES, low)   # low in the chain or a wing
        gen_holding(sink, &hand, rs, AIRPLANE_PAIRS, low)
    if hand.has[4]:
        gen_holding(sink, &hand, rs, FOUR_TWO_SINGLES, low)
        gen_holding(sink, &hand, rs, FOUR_TWO_PAIRS, low)
        if hand.has[4] & bit:
            emit(sink, make_code(digit(low, 4), BOMB, low, 1))
    if low == SMALL_JOKER and holds(hand.has[1], BIG_JOKER):
        emit(sink, make_code(digit(SMALL_JOKER, 1) | digit(BIG_JOKER, 1), ROCKET, BIG_JOKER, 1))
    if low == SKIP_CARD or low == REVERSE_CARD:
        emit(sink, make_code(digit(low, 1), SKIP if low == SKIP_CARD else REVERSE, 0, 1))
    keep_readings(sink, start, rs)
