# A rule set as the core sees it: option bits, chain limits and the deck, unpacked from one
# integer (Rules.core_flags); and the kicker rules, in one place, so that classifying and
# generating cannot disagree. Inline code only: every core module that cimports this compiles
# its own copy, with no call between modules on the hot path.

from libc.stdint cimport uint64_t

from ddz._core.layout cimport *

cdef enum:
    # Option bits of RuleSet.options (the low bits of a packed rule integer). ddz/rules.py
    # packs Rules.core_flags from its own table of fields; moves.pyx reports this layout as
    # RULE_LAYOUT and tests/test_rules.py asserts that the two agree.
    OPT_FOUR_WITH_TWO_ = 1
    OPT_SINGLE_KICKERS_DISTINCT_ = 2
    OPT_PAIR_KICKERS_DISTINCT_ = 4
    OPT_KICKER_MATCHES_MAIN_ = 8
    OPT_ROCKET_AS_KICKERS_ = 16
    OPT_QUAD_AS_WINGS_ = 32
    OPT_TRIO_AS_WINGS_ = 64
    OPT_MULTIPLE_READINGS_ = 128
    OPT_TRIO_WINGS_ADJACENT_ = 256
    OPT_AIRPLANE_RANK_WING_TRIOS_ = 512
    OPT_BOMBS_ONLY_ON_HEAVY_WINGS_ = 1024

ctypedef struct RuleSet:
    unsigned options
    int min_len[4]       # indexed by chain width: 1 straight, 2 pair straight, 3 airplane
    int max_len[4]
    uint64_t deck        # every card the deck holds (layout.pxd CARDS)

# The packed rule integer (what Rules.core_flags holds):
#   bits  0..11  option bits (OPT_*)
#   bits 12..35  six 4-bit chain limits: min/max straight, min/max pair straight,
#                min/max airplane (limit_shift)
#   bits 36..50  ranks removed from the deck (bit i: rank i, 0..14)
#   bits 51..52  Skip and Reverse cards in the deck, each (0..2)
cdef enum:
    OPTION_BITS = 12
    LIMITS_SHIFT = 12
    LIMIT_BITS = 4
    EXCLUDED_SHIFT = 36
    ACTIONS_SHIFT = 51
    ACTIONS_BITS = 2


cdef inline int limit_shift(int width, bint longest) noexcept nogil:
    """The lowest bit of the shortest (longest=False) or longest chain length of a width
    (1 straight, 2 pair straight, 3 airplane) in a packed rule integer."""
    return LIMITS_SHIFT + 2 * LIMIT_BITS * (width - 1) + (LIMIT_BITS if longest else 0)


cdef inline void unpack_rules(uint64_t packed, RuleSet* rs) noexcept nogil:
    cdef int width, rank
    cdef unsigned excluded = <unsigned>((packed >> EXCLUDED_SHIFT) & ((1u << NUM_RANKS) - 1))
    cdef uint64_t actions = (packed >> ACTIONS_SHIFT) & ((1u << ACTIONS_BITS) - 1)
    cdef uint64_t limit_mask = (1u << LIMIT_BITS) - 1
    rs.options = <unsigned>(packed & ((1u << OPTION_BITS) - 1))
    rs.min_len[0] = rs.max_len[0] = 0
    for width in range(1, 4):
        rs.min_len[width] = <int>((packed >> limit_shift(width, False)) & limit_mask)
        rs.max_len[width] = <int>((packed >> limit_shift(width, True)) & limit_mask)
    rs.deck = digit(SKIP_CARD, actions) | digit(REVERSE_CARD, actions)
    for rank in range(NUM_RANKS):
        if not (excluded >> rank) & 1:
            rs.deck |= digit(rank, 1 if rank >= SMALL_JOKER else 4)


cdef inline bint hand_fits_deck(uint64_t hand, const RuleSet* rs) noexcept nogil:
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


cdef inline uint64_t spread_ranks(unsigned ranks) noexcept nogil:
    """A rank set (bit r) as the low bits of its digits (bit 3r)."""
    cdef uint64_t spread = 0
    while ranks:
        spread |= 1ULL << (3 * ddz_ctz32(ranks))
        ranks &= ranks - 1
    return spread


cdef inline bint single_kickers_ok(uint64_t kickers, unsigned main_ranks, bint airplane,
                            const RuleSet* rs) noexcept nogil:
    cdef int rank
    cdef unsigned neighbours
    if count_of(kickers, SKIP_CARD) or count_of(kickers, REVERSE_CARD):
        return False
    if (kickers & ~DDZ_DIGIT_LOW) == 0:
        # the common case, one card a rank: only a main rank and the rocket can object
        if kickers & spread_ranks(main_ranks) and not (rs.options & OPT_KICKER_MATCHES_MAIN_):
            return False
        return rocket_rule_ok(kickers, rs)
    neighbours = chain_neighbours(main_ranks)
    for rank in range(NUM_RANKS):
        if not single_kicker_count_ok(count_of(kickers, rank), (main_ranks >> rank) & 1,
                                      airplane, (neighbours >> rank) & 1, rs):
            return False
    return rocket_rule_ok(kickers, rs)


cdef inline bint pair_kickers_ok(uint64_t kickers, unsigned main_ranks, const RuleSet* rs) noexcept nogil:
    cdef int rank
    cdef unsigned m
    if kickers >> (3 * SMALL_JOKER):     # jokers and action cards never pair
        return False
    if (kickers & (DDZ_DIGIT_LOW | DDZ_DIGIT_TOP)) == 0:
        # the common case, one pair a rank: only a main rank can object
        return ((kickers >> 1) & spread_ranks(main_ranks)) == 0
    for rank in range(TWO + 1):
        m = count_of(kickers, rank)
        if m == 0:
            continue
        if m & 1 or (main_ranks >> rank) & 1 or not pair_kicker_count_ok(m // 2, rs):
            return False
    return True
