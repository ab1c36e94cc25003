# cython: cdivision=True
# The exact solver's table keys (solver.pyx): a position's 64-bit key (pos_key) and its
# canonical key, the key of every position of the same shape (equivalent ranks renumbered),
# with the packing of rank digits it runs on (pext where the CPU runs it fast) and the sets
# of ranks the hands could still play in chains.

from libc.stdint cimport uint64_t

from ddz._core.layout cimport *
from ddz._core.ruleset cimport *
from ddz._core.readings cimport *
from ddz._core.generator cimport *
from ddz._core.solver_position cimport Pos, Searcher

# Packing the digits of the ranks in play together (the canonical key below): the BMI2
# instruction pext does it in one step. The wheel targets baseline x86-64, so it is chosen
# at run time, where the CPU has it and runs it fast (AMD before Zen 3 runs it in microcode,
# slower than the portable loop); elsewhere the portable loop packs.
cdef extern from *:
    """
    #include <stdint.h>
    #if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
    #include <immintrin.h>
    #include <cpuid.h>
    __attribute__((target("bmi2")))
    static void ddz_pack_bmi2(uint64_t* words, int n, uint64_t mask) {
        for (int i = 0; i < n; i++) words[i] = _pext_u64(words[i], mask);
    }
    static int ddz_pext_is_fast(void) {
        unsigned a, b, c, d, family;
        if (!__get_cpuid(0, &a, &b, &c, &d) || a < 7) return 0;
        int amd = b == 0x68747541u || b == 0x6f677948u;       /* "Auth"enticAMD, "Hygo"nGenuine */
        __cpuid_count(7, 0, a, b, c, d);
        if (!(b & (1u << 8))) return 0;                        /* no BMI2 */
        if (!amd) return 1;
        __cpuid(1, a, b, c, d);
        family = (a >> 8) & 0xF;
        if (family == 0xF) family += (a >> 20) & 0xFF;
        return family >= 0x19;                                 /* Zen 3 and later */
    }
    #else
    static void ddz_pack_bmi2(uint64_t* words, int n, uint64_t mask) {
        (void)words; (void)n; (void)mask;
    }
    static int ddz_pext_is_fast(void) { return 0; }
    #endif
    static int ddz_fast_pext = 0;
    """
    void pack_bmi2 "ddz_pack_bmi2"(uint64_t* words, int n, uint64_t mask) nogil
    int pext_is_fast "ddz_pext_is_fast"() nogil
    bint FAST_PEXT "ddz_fast_pext"  # pext_is_fast(), set once by solver.pyx at import


cdef inline uint64_t pack_digits(uint64_t x, uint64_t mask) noexcept nogil:
    """The bits of x under mask, packed together from bit 0 up (pext), a run of mask's
    set bits at a time (mask below bit 63)."""
    cdef uint64_t out = 0, run, shifted
    cdef int low, dst = 0
    while mask:
        low = ddz_ctz64(mask)
        shifted = mask >> low
        run = shifted & ~(shifted + 1)          # the lowest run of set bits, at bit 0
        out |= ((x >> low) & run) << dst
        dst += ddz_ctz64(shifted + 1)
        mask &= ~(run << low)
    return out


cdef inline void pack_words(uint64_t* words, int n, uint64_t mask) noexcept nogil:
    cdef int i
    if FAST_PEXT:
        pack_bmi2(words, n, mask)
    else:
        for i in range(n):
            words[i] = pack_digits(words[i], mask)


cdef extern from *:
    """
    #define DDZ_LOW_RANKS ((1ULL << 39) - 1)   /* the digits of the ranks 3..2 */
    """
    const uint64_t LOW_RANKS "DDZ_LOW_RANKS"

cdef inline uint64_t mix64(uint64_t x) noexcept nogil:
    """The splitmix64 finaliser: every input bit reaches every output bit."""
    x ^= x >> 30
    x *= 0xBF58476D1CE4E5B9ULL
    x ^= x >> 27
    x *= 0x94D049BB133111EBULL
    x ^= x >> 31
    return x


cdef inline uint64_t pos_key(const Pos* p, int score_mode, bint order_only) noexcept nogil:
    # everything a value depends on: the table outlives a solve, so the landlord and the let
    # count (fixed within one solve) are in the key too
    cdef uint64_t small = (<uint64_t>(p.current + 1) | (<uint64_t>(p.table_player + 1) << 3)
                           | (<uint64_t>(p.direction > 0) << 6)
                           | (<uint64_t>p.landlord << 13) | (<uint64_t>p.let << 16))
    if order_only:
        small |= 1ULL << 32              # a canonical key of ranks renumbered in order alone
    if score_mode:
        small |= ((<uint64_t>p.landlord_plays << 8) | (<uint64_t>p.farmer_plays << 10)
                  | (1ULL << 12))
    return (mix64(p.hands[0] + 0x9E3779B97F4A7C15ULL) ^ mix64(p.hands[1] + 0xC2B2AE3D27D4EB4FULL)
            ^ mix64(p.hands[2] + 0x165667B19E3779F9ULL) ^ mix64(p.table + 0xD6E8FEB86659FD93ULL)
            ^ mix64(small + 0x27D4EB2F165667C5ULL))


# ---------------------------------------------------------------------------------------
# Equivalent ranks
#
# A rank matters through its order among the ranks in play (in the hands or on the table)
# and, for chains, through which ranks of 3..A are next to each other; nothing else about
# it does, under any rule set (kicker rules look at ranks being equal, in a chain, or next
# to one). So the table keys every position under a renumbering that keeps those:
# * the ranks 3..2 in play are numbered 3, 4, 5, ... in order, and the key also holds
#   which of them are next to each other where some hand could play both in one chain (a
#   run of 3..A it holds often enough and long enough; hands only shrink, so no later
#   chain holds any other rank, and a wing trio next to an airplane is in such a run with
#   it). A chain, its rank and every kicker rule then read the same in two positions of
#   one key. The move to beat is keyed by its kind, length and the lowest rank the seats
#   that may answer it could answer above it (the bar: the generator answers a table by
#   its kind, length and rank alone);
# * where the move to beat is an airplane with single wings under the options that compare
#   or answer it by its wing trios, it is keyed as its cards: the ranks 3..A in play close
#   up, each run of empty ranks between two of them shrinking to one empty rank (the lowest
#   goes to 3), and 2 stays where it is. The two kinds of key are told apart by a tag.
# Jokers and action cards are never renumbered. One table entry serves every position of
# the same shape: measured on random 13 v 13 deals, 2-3.5 times fewer nodes (the first
# form of it). The root keeps its own key, so the best move stored for it is one of its
# own moves.

cdef inline uint64_t chain_starts(uint64_t held, int shortest) noexcept nogil:
    """The spread set of the lowest ranks of the runs of at least shortest consecutive ranks
    of 3..A in the spread set held."""
    cdef uint64_t starts
    cdef int i
    held &= DDZ_SPREAD_CHAIN
    starts = held
    for i in range(1, shortest):
        starts &= held >> (3 * i)
        if not starts:
            break
    return starts


ctypedef struct Blocks:
    # a renumbering of ranks 3..A as runs of consecutive ranks moved together (2 stays)
    int n
    int src[8]              # a run's lowest rank
    int dst[8]              # where it goes
    uint64_t mask[8]        # its digits, at rank 0


cdef inline void runs_of(Blocks* b, uint64_t ranks) noexcept nogil:
    """b: the runs of the spread rank set ranks (within 3..A) packed from rank 0 up, one
    empty rank between two runs."""
    cdef uint64_t starts = ranks & ~(ranks << 3), ends = ranks & ~(ranks >> 3)
    cdef int low, high, dst = 0
    b.n = 0
    while starts:
        low = ddz_ctz64(starts) // 3
        high = ddz_ctz64(ends) // 3
        starts &= starts - 1
        ends &= ends - 1
        b.src[b.n] = low
        b.dst[b.n] = dst
        b.mask[b.n] = (1ULL << (3 * (high - low + 1))) - 1
        b.n += 1
        dst += high - low + 2


cdef inline uint64_t moved(uint64_t cards, const Blocks* b) noexcept nogil:
    """cards with ranks 3..A renumbered by b (2, the jokers and action cards as they are)."""
    cdef uint64_t out = cards & ~((1ULL << (3 * TWO)) - 1)
    cdef int i
    for i in range(b.n):
        out |= ((cards >> (3 * b.src[i])) & b.mask[i]) << (3 * b.dst[i])
    return out


cdef inline int moved_rank(int rank, const Blocks* b) noexcept nogil:
    cdef int i
    if rank >= TWO:
        return rank
    for i in range(b.n):
        if rank >= b.src[i] and (b.mask[i] >> (3 * (rank - b.src[i]))) != 0:
            return b.dst[i] + rank - b.src[i]
    return rank                          # not reached: the rank is in play


cdef inline uint64_t answer_tops(uint64_t cards, int kind, int length) noexcept nogil:
    """The spread set of the main ranks (a chain's top) of the moves of kind and length that
    cards could answer a move of that kind with, whatever its rank (kickers not looked at)."""
    cdef Hand hand
    cdef int width
    load_hand(&hand, cards)
    if kind == SINGLE:
        return hand.has[1]
    if kind == PAIR:
        return hand.has[2]
    if kind == TRIO or kind == TRIO_SINGLE or kind == TRIO_PAIR:
        return hand.has[3]
    if kind == FOUR_TWO_SINGLES or kind == FOUR_TWO_PAIRS or kind == BOMB:
        return hand.has[4]
    if kind == STRAIGHT:
        width = 1
    elif kind == PAIR_STRAIGHT:
        width = 2
    elif kind == AIRPLANE or kind == AIRPLANE_SINGLES or kind == AIRPLANE_PAIRS:
        width = 3
    else:
        return 0                         # the rocket: nothing of its kind answers it
    return chain_starts(hand.has[width], length) << (3 * (length - 1))


cdef inline uint64_t chain_ranks_in(uint64_t cards, const RuleSet* rs) noexcept nogil:
    """The spread set of the ranks some chain of cards could hold (every rank of each run
    of 3..A held often enough for a width, the run long enough). A later hand of the seat
    holds fewer cards: its set is a subset, empty once this one is."""
    cdef Hand hand
    load_hand(&hand, cards)
    return chain_ranks_of_hand(&hand, rs)


cdef inline uint64_t chain_ranks_of_hand(const Hand* hand, const RuleSet* rs) noexcept nogil:
    """chain_ranks_in of a loaded hand."""
    return (chain_ranks_of(hand.has[1], rs.min_len[1])
            | chain_ranks_of(hand.has[2], rs.min_len[2])
            | chain_ranks_of(hand.has[3], rs.min_len[3]))


cdef inline uint64_t chain_ranks_of(uint64_t held, int shortest) noexcept nogil:
    """The spread set of the ranks a chain could hold, held: the spread set of the ranks of
    3..A held often enough for its width (every rank of each run at least shortest long)."""
    cdef uint64_t starts = chain_starts(held, shortest), covered = 0
    cdef int i
    if starts == 0:
        return 0                     # the common case: no run that long
    if shortest <= 7:
        # each rank's digit counts the starts among the shortest ranks up to it (at most
        # shortest <= 7: it stays in its 3 bits), so a digit not 0 is a covered rank
        covered = starts * ((1ULL << (3 * shortest)) - 1) // 7
        return (covered | (covered >> 1) | (covered >> 2)) & DDZ_SPREAD_RANKS
    for i in range(shortest):
        covered |= starts << (3 * i)
    return covered


cdef inline void chains_after(const RuleSet* rs, const Pos* child, const uint64_t* chains,
                              int mover, uint64_t* out) noexcept nogil:
    """out: chain_ranks_in of each hand of child, from chains (those of its parent, where
    only mover played): the other hands are as they were."""
    out[0] = chains[0]
    out[1] = chains[1]
    out[2] = chains[2]
    if chains[mover]:
        out[mover] = chain_ranks_in(child.hands[mover], rs)


cdef inline uint64_t canonical_key(const Searcher* S, const Pos* p,
                                   const uint64_t* chains) noexcept nogil:
    """pos_key of the position with equivalent ranks renumbered (see above). The ranks in
    play move in runs of consecutive ones (at 17 v 17 most ranks are in play: a few runs).
    chains: chain_ranks_in of each hand of p."""
    cdef int seat, kind = code_kind(p.table), length = code_length(p.table), bar = -1
    cdef uint64_t used = p.table, all_low, tops = 0, chained
    cdef uint64_t words[4]
    cdef Blocks b
    cdef Pos q
    cdef bint by_bar = p.table != 0 and not (
        kind == AIRPLANE_SINGLES
        and S.rs.options & (OPT_AIRPLANE_RANK_WING_TRIOS_ | OPT_BOMBS_ONLY_ON_HEAVY_WINGS_))
    if by_bar:
        # the move to beat matters only through the answers it lets the seats that may
        # answer it make (the generator answers a table by its kind, length and rank): its
        # rank is keyed as the lowest rank they could answer above it (the bar)
        used = 0
        for seat in range(p.players):
            if seat != p.table_player:
                tops |= answer_tops(p.hands[seat], kind, length)
        tops &= ranks_above(code_rank(p.table))
        if tops:
            bar = ddz_ctz64(tops) // 3
    for seat in range(p.players):
        used |= p.hands[seat]
    all_low = (used | (used >> 1) | (used >> 2)) & DDZ_DIGIT_LOW & ((1ULL << (3 * (TWO + 1))) - 1)
    q = p[0]
    if by_bar or p.table == 0:
        # the ranks in play numbered in order, and which of them are next to each other
        # where that can matter: both in a run some hand could play as a chain
        chained = chains[0] | chains[1] | chains[2]
        words[0] = p.hands[0] & LOW_RANKS
        words[1] = p.hands[1] & LOW_RANKS
        words[2] = p.hands[2] & LOW_RANKS
        words[3] = chained & (chained << 3)
        pack_words(words, 4, all_low | (all_low << 1) | (all_low << 2))
        for seat in range(3):
            q.hands[seat] = words[seat] | (p.hands[seat] & ~LOW_RANKS)
        if by_bar:
            # no cards: never a move's code (the bar as its number among the ranks in play)
            if bar > TWO:
                bar += 1
            elif bar >= 0:
                bar = card_total(all_low & (rank_bit(bar) - 1)) + 1
            else:
                bar = 0
            q.table = make_code(0, kind, bar, length)
        return pos_key(&q, S.score_mode, True) ^ mix64(words[3] + 0x5851F42D4C957F2DULL) \
            ^ S.key_salt
    # the move to beat kept as its cards (wing trios compared by their ranks): keep 2 where
    # it is and which ranks of 3..A are next to each other, a gap of empty ranks shrunk to
    # one empty rank
    runs_of(&b, all_low & ~rank_bit(TWO))
    for seat in range(p.players):
        q.hands[seat] = moved(p.hands[seat], &b)
    q.table = make_code(moved(code_cards(p.table), &b), kind, moved_rank(code_rank(p.table), &b),
                        code_length(p.table))
    return pos_key(&q, S.score_mode, False) ^ S.key_salt
