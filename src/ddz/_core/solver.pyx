# cython: language_level=3, cdivision=True
"""The exact endgame solver: every hand known, the landlord against the farmers as a team.

A position is the play-phase part of a game's state (``Pos``): the hands, the move to beat
and who made it, the seat to act, the landlord, the direction of play, the two-player let
count and, for the exact score, the bombs and the spring flags. The search is a negamax
alpha-beta over the two sides (in a three-seat game a farmer's child may be the other
farmer's turn: then the value is not negated), in C without the GIL:

* a move that ends the game (empties the hand, or reaches the let count) wins at once and is
  looked for before anything else;
* a bounded transposition table (``memory_mb``) of 64-byte buckets of four 16-byte entries,
  written locklessly (an entry stores ``key ^ data``, so a torn write from another thread
  reads as a miss), keeps proven values and the best move's index;
* a side that leads and can split its hand into moves no opponent answers plus one more
  wins at once (``static_win``), and so does a side that answers with a move no opponent
  answers after which its hand passes that test (``answer_static_win``);
* two seats, win/loss mode: a move whose kickers could be swapped for lower cards of the same
  count, held as often and in no chain, is left out (the lower kickers are at least as good),
  and so is a single, pair or trio that a lower one would replace with the opponent holding
  no answer between the two;
* two seats: a move the opponent cannot answer goes on to the mover's next lead at once (the
  pass in between is no node of its own);
* two seats, win/loss mode, at nodes expected lost: the singles (pairs) below the opponent's
  highest single (pair), which the side cannot beat, are left out on one static test of the
  opponent's hand after it (``drop_answered``);
* moves are ordered: the table's move first, then the moves that leave the hand the fewest
  plays from empty, those the opponents can answer counted twice (``split_cost``, memoised),
  the most cards among those, bombs and the rocket next to last, the pass last;
* node and time limits stop the search with an "unknown" result; threads search the same root
  on one shared table with different orderings (lazy SMP) and the first to finish answers.

Values: win/loss mode gives +1 / -1 for the side to act. Score mode gives sign x (e + 1), e
the number of doublings from this position on (bombs, rockets, a spring), so a bigger win is
a bigger number; the Python layer turns it into a score.
"""

from libc.stdint cimport uint64_t, int64_t, uint32_t
from libc.stdlib cimport calloc, malloc, free
from libc.string cimport memcpy, memset
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC

from ddz._core.layout cimport *
from ddz._core.ruleset cimport *
from ddz._core.readings cimport *
from ddz._core.generator cimport *
from ddz._core.moves cimport rules_of
from ddz._core.state cimport GameState, PLAY

# The table's memory: zeroed pages from the system. On Linux it is mapped directly and the
# kernel is asked for transparent huge pages: a probe lands in a random bucket, and with 4 KB
# pages nearly every probe of a big table also misses the TLB (measured: most of the search's
# time was spent waiting on the probe's load).
cdef extern from *:
    """
    #include <stdlib.h>
    #if defined(__linux__)
    #include <sys/mman.h>
    static void* ddz_table_alloc(size_t bytes) {
        void* p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) return NULL;
    #ifdef MADV_HUGEPAGE
        madvise(p, bytes, MADV_HUGEPAGE);
    #endif
        return p;
    }
    static void ddz_table_free(void* p, size_t bytes) { if (p) munmap(p, bytes); }
    #else
    static void* ddz_table_alloc(size_t bytes) { return calloc(bytes, 1); }
    static void ddz_table_free(void* p, size_t bytes) { (void)bytes; free(p); }
    #endif
    /* a hint to fetch a table bucket ahead of its probe */
    #if defined(__GNUC__) || defined(__clang__)
    #define ddz_prefetch(p) __builtin_prefetch(p)
    #elif defined(_MSC_VER) && (defined(_M_X64) || defined(_M_IX86))
    #include <xmmintrin.h>
    #define ddz_prefetch(p) _mm_prefetch((const char*)(p), _MM_HINT_T0)
    #else
    #define ddz_prefetch(p) ((void)(p))
    #endif
    """
    void* table_alloc "ddz_table_alloc"(size_t bytes) nogil
    void table_free "ddz_table_free"(void* p, size_t bytes) nogil
    void prefetch "ddz_prefetch"(const void* p) nogil

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
    """
    void pack_bmi2 "ddz_pack_bmi2"(uint64_t* words, int n, uint64_t mask) nogil
    int pext_is_fast "ddz_pext_is_fast"() nogil

cdef bint FAST_PEXT = pext_is_fast()


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


def _pack_both(uint64_t word, uint64_t mask):
    """(the portable packing, the BMI2 one or None where the CPU has none) of word under
    mask: for the tests, which check the two agree."""
    cdef uint64_t fast = word
    if mask >> 63:
        raise ValueError("mask must be below bit 63")
    if not FAST_PEXT:
        return pack_digits(word, mask), None
    pack_bmi2(&fast, 1, mask)
    return pack_digits(word, mask), fast


cdef enum:
    ABORT = 1000            # a search result: a limit stopped it
    INFINITE = 500          # beyond every value
    STACK_SIZE = 1 << 18    # move codes a searcher's move stack holds, every ply together
    BUCKET = 4              # entries a bucket
    NO_MOVE = 0xFFFF
    LOWER = 1               # bound kinds of a table entry
    UPPER = 2
    EXACT = 3
    PLAYS_SIZE = 1 << 16    # entries of a searcher's split_cost memo (512 KB)
    PLAYS_START = 1 << 10   # of which a new searcher uses (8 KB), doubled as nodes pass it
    PLAYS_BUDGET = 4000     # generator calls a node's ordering may spend on split_cost
    STATIC_BUDGET = 64      # generator calls a static_win test may spend
    PREFETCH_MOVES = 8      # an expected lost node of at most this many moves fetches its
                            # children's buckets ahead

cdef extern from *:
    """
    #define DDZ_LOW_RANKS ((1ULL << 39) - 1)   /* the digits of the ranks 3..2 */
    """
    const uint64_t LOW_RANKS "DDZ_LOW_RANKS"

ctypedef struct Pos:
    uint64_t hands[3]       # seat 2 empty with two seats
    uint64_t table          # the move to beat, 0 when leading
    int table_player        # who made it, -1 when leading
    int current             # the seat to act
    int landlord
    int players             # 2 or 3
    int direction           # +1 in seat order, -1 reversed (Uno the Landlord)
    int let                 # two seats: the farmer wins on reaching this many cards (0: off)
    int landlord_plays      # moves the landlord made, capped at 2 (spring bookkeeping)
    int farmer_plays        # moves the farmers made, capped at 1

ctypedef struct Entry:
    uint64_t lock           # key ^ data
    uint64_t data           # bits 0-15 best move index, 16-17 bound, 24-31 value + 128,
                            # 32-39 effort (bit length of the nodes searched below),
                            # 40-55 the table's age when stored

ctypedef struct Table:
    Entry* entries
    uint64_t bucket_mask    # buckets - 1 (a power of two)
    uint64_t active_mask    # the buckets in use: the table grows with the search, so that a
                            # small search touches (and page-faults in) little memory
    uint64_t stores         # stores since the last growth
    uint64_t age            # bumped by clear(): entries of another age are free slots

ctypedef struct Searcher:
    RuleSet rs
    Table* tt
    uint64_t* moves         # the move stack: each node's moves above its parent's
    int* scores
    int* order              # the search order: indices into the node's moves
    uint64_t* keys          # the children's table keys, when computed ahead
    Py_ssize_t top
    uint64_t nodes
    uint64_t node_limit     # 0: none
    double deadline         # monotonic seconds; 0: none
    int* stop      # shared by the threads of one solve
    int aborted
    int overflow            # the move stack ran out (a position too wide: unknown)
    int score_mode
    int spring              # the rules count a spring
    int noise               # lazy SMP: this thread's ordering perturbation (0: none)
    int busy                # a solve is using this searcher (set and tested under the GIL)
    uint64_t* plays         # split_cost memo, direct-mapped: the top 56 bits of the hash of
                            # the hand and the opponents' summary, then cost + 1 (a hash
                            # collision could only misorder moves, never change a value)
    int plays_budget        # generator calls left to the ordering of the current node
    uint64_t plays_mask     # the memo's entries in use, less one: it grows with the nodes
                            # searched, so that a small search touches (and page-faults
                            # in) a few pages of it, not all 128


cdef inline double now() noexcept nogil:
    cdef timespec t
    clock_gettime(CLOCK_MONOTONIC, &t)
    return t.tv_sec + t.tv_nsec * 1e-9


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
        return pos_key(&q, S.score_mode, True) ^ mix64(words[3] + 0x5851F42D4C957F2DULL)
    # the move to beat kept as its cards (wing trios compared by their ranks): keep 2 where
    # it is and which ranks of 3..A are next to each other, a gap of empty ranks shrunk to
    # one empty rank
    runs_of(&b, all_low & ~rank_bit(TWO))
    for seat in range(p.players):
        q.hands[seat] = moved(p.hands[seat], &b)
    q.table = make_code(moved(code_cards(p.table), &b), kind, moved_rank(code_rank(p.table), &b),
                        code_length(p.table))
    return pos_key(&q, S.score_mode, False)


cdef inline int side_of(const Pos* p, int seat) noexcept nogil:
    return 0 if seat == p.landlord else 1


cdef inline int seat_after(const Pos* p, int seat, int steps) noexcept nogil:
    """The seat steps (1 or 2) places after seat in the direction of play (no division:
    this runs at every node)."""
    cdef int after = seat + steps * p.direction
    if after < 0:
        after += p.players
    elif after >= p.players:
        after -= p.players
    if after >= p.players:                   # two seats, two steps
        after -= p.players
    return after


cdef inline bint ends_game(const Pos* p, uint64_t move) noexcept nogil:
    """Does the player to act end the game with move (out of cards, or down to the let)?"""
    cdef uint64_t rest
    if move == 0:
        return False
    rest = p.hands[p.current] - code_cards(move)
    if rest == 0:
        return True
    return p.let > 0 and p.current != p.landlord and card_total(rest) <= p.let


cdef inline void play(Pos* p, uint64_t move) noexcept nogil:
    """state.pxd's apply_play on the position (the caller checks ends_game first)."""
    cdef int seat = p.current, kind = code_kind(move), next_seat
    if move == 0:
        next_seat = seat_after(p, seat, 1)
        if next_seat == p.table_player:
            p.table = 0
            p.table_player = -1
        p.current = next_seat
        return
    p.hands[seat] -= code_cards(move)
    if seat == p.landlord:
        if p.landlord_plays < 2:
            p.landlord_plays += 1
    else:
        p.farmer_plays = 1
    if kind == SKIP or kind == REVERSE:
        if kind == SKIP:
            next_seat = seat_after(p, seat, 2)
            if next_seat == p.table_player:
                p.table = 0
                p.table_player = -1
        else:
            p.direction = -p.direction
            next_seat = seat_after(p, seat, 1)
            if next_seat == p.table_player:
                next_seat = seat_after(p, next_seat, 1)
    else:
        p.table = move
        p.table_player = seat
        next_seat = seat_after(p, seat, 1)
    p.current = next_seat


cdef inline int terminal_value(const Searcher* S, const Pos* p, uint64_t move) noexcept nogil:
    """The value, for the side that ends the game with move, of ending it: 1 in win/loss
    mode; 1 + the doublings it brings (the move a bomb or rocket, a spring) in score mode."""
    cdef int doublings = 0, kind
    cdef bint landlord = p.current == p.landlord
    if not S.score_mode:
        return 1
    kind = code_kind(move)
    if kind == BOMB or kind == ROCKET:
        doublings += 1
    if S.spring:
        if landlord and p.farmer_plays == 0:
            doublings += 1
        elif not landlord and p.landlord_plays == 1:
            doublings += 1
    return doublings + 1


# ---------------------------------------------------------------------------------------
# A static win test: a hand that leads and splits into combinations of which all but one
# no opponent can answer wins (it plays the unanswerable ones, keeping the lead each time,
# then the last one). Sound under every rule set: the opponents' hand never changes along
# that line, a move is judged unanswerable only when the opponents (their cards pooled,
# which can only add answers) hold no answer to it, and the moves come from the generator.
# Off in score mode (it proves a win, not its score). The same test follows an answer no
# opponent can answer (answer_static_win): the side that made it leads next.

ctypedef struct Opponents:
    uint64_t cards           # the opposing side's cards, pooled
    uint64_t has1, has2, has3    # spread rank sets held at least 1, 2, 3 times
    int bomb_rank            # their highest bomb's rank, -1 for none
    bint rocket
    bint actions             # a Skip or Reverse card answers anything

ctypedef struct WinSearch:
    const RuleSet* rs
    const Opponents* opp
    uint64_t* buf            # scratch for the moves of each level
    Py_ssize_t cap
    int budget               # generator calls left; out of it: no verdict
    int let                  # the hand wins on reaching this many cards (0: on emptying)
    uint64_t first           # the line's first move, once found
    bint first_open          # first is still to be chosen (the last combination so far)
    bint need_first          # the caller reads first back


cdef inline void load_opponents(Opponents* o, uint64_t cards) noexcept nogil:
    cdef Hand hand
    cdef uint64_t quads
    load_hand(&hand, cards)
    o.cards = cards
    o.has1 = hand.has[1]
    o.has2 = hand.has[2]
    o.has3 = hand.has[3]
    quads = hand.has[4]
    o.bomb_rank = (63 - ddz_clz64(quads)) // 3 if quads else -1
    o.rocket = holds(hand.has[1], SMALL_JOKER) and holds(hand.has[1], BIG_JOKER)
    o.actions = count_of(cards, SKIP_CARD) != 0 or count_of(cards, REVERSE_CARD) != 0


cdef inline void load_opponents_of(Opponents* o, const Pos* p) noexcept nogil:
    """o: the cards of the side not to act in p, pooled."""
    cdef uint64_t cards = 0
    cdef int seat
    for seat in range(p.players):
        if side_of(p, seat) != side_of(p, p.current):
            cards += p.hands[seat]
    load_opponents(o, cards)


cdef inline int answer_by_bombs(const Opponents* o, int kind, int rank) noexcept nogil:
    """What the opponents' action cards, bombs and rocket decide of an answer to a move of
    kind and rank: 1 an answer may exist, 0 none can, -1 undecided (the move's own kind)."""
    if o.actions:
        return 1
    if kind == ROCKET:
        return 0
    if o.rocket:
        return 1
    if kind == BOMB:
        return o.bomb_rank > rank
    if o.bomb_rank >= 0:
        return 1
    return -1


cdef inline bint can_answer(const RuleSet* rs, const Opponents* o, uint64_t move) noexcept nogil:
    """May the opponents hold an answer to move? (True when unsure.)"""
    cdef int kind = code_kind(move), rank = code_rank(move)
    cdef Sink sink
    cdef int decided = answer_by_bombs(o, kind, rank)
    if decided >= 0:
        return decided
    if kind == SINGLE:
        return (o.has1 & ranks_above(rank)) != 0
    if kind == PAIR:
        return (o.has2 & ranks_above(rank)) != 0
    if kind == TRIO or kind == TRIO_SINGLE or kind == TRIO_PAIR:
        return (o.has3 & ranks_above(rank)) != 0   # kickers not looked at: maybe
    if kind == FOUR_TWO_SINGLES or kind == FOUR_TWO_PAIRS:
        return False                 # a higher one needs a quad, and they hold no bomb
    if kind == STRAIGHT or kind == PAIR_STRAIGHT:
        # a chain of the length topping higher (the generator's answers, no kickers)
        return (answer_tops(o.cards, kind, code_length(move)) & ranks_above(rank)) != 0
    # airplanes: count the answers without writing them (unfiltered readings only add)
    sink.out = NULL
    sink.cap = 0
    sink.n = 0
    generate(o.cards, move, rs, &sink)
    return sink.n > 1                # the pass is the first


cdef inline void advance(const RuleSet* rs, const Pos* p, const Opponents* o, uint64_t move,
                         Pos* child) noexcept nogil:
    """child: p after move and, in a two-seat position, after the opponent's pass too when it
    holds no answer to move (o: its cards, load_opponents_of): a node whose one move is the
    pass is not searched on its own."""
    cdef int kind = code_kind(move)
    child[0] = p[0]
    play(child, move)
    if p.players == 2 and move != 0 and kind != SKIP and kind != REVERSE \
            and not can_answer(rs, o, move):
        play(child, 0)


cdef bint split_wins(WinSearch* w, uint64_t hand, bint last_open) noexcept nogil:
    """Can hand be split into moves no opponent answers, plus (last_open) one more move?
    The move holding the hand's lowest card is chosen at each level."""
    cdef Sink sink
    cdef Py_ssize_t i, n
    cdef uint64_t* moves
    cdef uint64_t move
    cdef int low
    cdef bint answerable, exact
    if hand == 0 or (w.let > 0 and card_total(hand) <= w.let):
        return True
    if w.let == 0:
        answerable = forced_answerable(w.rs, hand, w.opp, &exact)
        if answerable >= (2 if last_open else 1):
            return False             # more answerable moves than the split may have
        if exact and not w.need_first:
            return True              # and no fewer: few enough
    w.budget -= 1
    if w.budget < 0:
        return False
    moves = w.buf
    sink.out = moves
    sink.cap = w.cap
    sink.n = 0
    generate_lowest(hand, w.rs, &sink)
    n = sink.n
    if n > sink.cap:
        return False
    low = ddz_ctz64(hand) // 3
    w.buf += n
    w.cap -= n
    for i in range(n):
        move = moves[i]
        if count_of(move, low) == 0:
            continue
        answerable = can_answer(w.rs, w.opp, move)
        if answerable and not last_open:
            continue
        if split_wins(w, hand - code_cards(move), last_open and not answerable):
            if not answerable or w.first_open:
                w.first = move       # an unanswerable move is played first
                w.first_open = answerable
            w.buf -= n
            w.cap += n
            return True
    w.buf -= n
    w.cap += n
    return False


cdef inline int forced_answerable(const RuleSet* rs, uint64_t mine,
                                  const Opponents* opp, bint* exact) noexcept nogil:
    """A lower bound on the answerable moves of every split of mine (that plays it all): the
    ranks it holds once or twice, in no chain it could form, whose single or pair the
    opponents could answer (held twice: two singles are answered wherever the pair is),
    less the kickers its trios and quads could carry them as (one a trio, two a quad). The
    static win test's split has at most one answerable move, so a bound of two rules it out
    before its search (measured: most tests fail, and their search was most of the test's
    cost). exact: set where the bound is the fewest a split can have (see below)."""
    cdef Hand hand
    cdef uint64_t loose, answerable
    load_hand(&hand, mine)
    loose = ~chain_ranks_of_hand(&hand, rs)     # (airplane ranks are held three times)
    answerable = answerable_ranks(&hand, opp)
    # exact: a hand of singles and pairs alone (no trio, quad or chain ranks) has no other
    # moves but the rocket, and its best split plays each pair whole and the rocket as one:
    # the bound is then the split's count (or more, never less: opponents' action cards
    # count the rocket's two jokers apart), so the test may answer without a search
    exact[0] = (hand.has[3] | ~loose) == 0
    # spread sets: one bit a rank
    return card_total(answerable & loose) - card_total(hand.has[3]) - card_total(hand.has[4])


cdef inline uint64_t answerable_ranks(const Hand* hand, const Opponents* opp) noexcept nogil:
    """The spread set of the ranks hand holds once or twice whose single or pair the
    opponents could answer (all of them where they hold a bomb, the rocket or an action
    card, but the hand's own rocket unless action cards answer it)."""
    cdef uint64_t once = hand.has[1] & ~hand.has[2], twice = hand.has[2] & ~hand.has[3]
    cdef uint64_t answerable
    if opp.actions or opp.rocket or opp.bomb_rank >= 0:
        answerable = once | twice
        if not opp.actions and holds(once, SMALL_JOKER) and holds(once, BIG_JOKER):
            answerable &= ~(rank_bit(SMALL_JOKER) | rank_bit(BIG_JOKER))   # the rocket
        return answerable
    return (once & below_top(opp.has1)) | (twice & below_top(opp.has2))


cdef inline uint64_t below_top(uint64_t spread) noexcept nogil:
    """The spread set of every rank below the highest of spread (none if it is empty)."""
    return (rank_bit(top_rank(spread)) - 1) & DDZ_SPREAD_RANKS if spread else 0


cdef int static_win(const RuleSet* rs, const Pos* p, const Opponents* opp, uint64_t* buf,
                    Py_ssize_t cap, int budget, uint64_t* first) noexcept nogil:
    """1 if the side to act, leading, wins by the split above (first: a winning move, unless
    NULL), 0 if the test finds no such split (the position may still be won). opp: the other
    side's cards (load_opponents_of); buf: cap codes of scratch; budget: generator calls it
    may make."""
    cdef WinSearch w
    cdef int me = p.current
    cdef uint64_t mine
    if p.table != 0:
        return 0
    mine = p.hands[me]
    if count_of(mine, SKIP_CARD) or count_of(mine, REVERSE_CARD):
        return 0                     # action cards move the turn: not this test's business
    w.rs = rs
    w.opp = opp
    w.buf = buf
    w.cap = cap
    w.budget = budget
    w.let = p.let if (p.let > 0 and me != p.landlord) else 0
    w.first = 0
    w.first_open = True
    w.need_first = first != NULL
    if split_wins(&w, mine, True):
        if first != NULL:
            first[0] = w.first
        return 1
    return 0


cdef inline bint wins_leading_after(const RuleSet* rs, const Pos* p, int seat,
                                   uint64_t cards, const Opponents* opp, uint64_t* buf,
                                   Py_ssize_t cap) noexcept nogil:
    """Does seat, having played cards of its hand in p that no opponent answers, lead again
    and win by static_win against opp (the other side's cards)?"""
    cdef Pos lead = p[0]
    lead.current = seat
    lead.hands[seat] -= cards
    lead.table = 0
    lead.table_player = -1
    return static_win(rs, &lead, opp, buf, cap, STATIC_BUDGET, NULL)


cdef bint answer_static_win(const RuleSet* rs, const Pos* p, const Opponents* o,
                            const uint64_t* moves, Py_ssize_t n, uint64_t* buf,
                            Py_ssize_t cap, int* index) noexcept nogil:
    """Does the side to act, answering p's table with one of moves[0..n), win by an answer
    no opponent can answer in turn (index: its) after which its hand, leading again, passes
    static_win? Sound as static_win is: every opponent passes the answer (a teammate may
    pass too), and the opponents' cards are those of the test."""
    cdef Py_ssize_t i
    cdef uint64_t move
    cdef int kind
    for i in range(n):
        move = moves[i]
        kind = code_kind(move)
        if move == 0 or kind == SKIP or kind == REVERSE or can_answer(rs, o, move):
            continue                 # the pass, an action card (it moves the turn), answerable
        if wins_leading_after(rs, p, p.current, code_cards(move), o, buf, cap):
            index[0] = <int>i
            return True
    return False


# Answered at once (two seats, win/loss mode): where no single of the side to act beats the
# opponent's highest single u, and the side holds no bomb, rocket or action card, the
# opponent answers any single below u with u, which nothing answers in turn, and leads
# again; if its hand without u then passes static_win against the side's cards as they are
# (a single more than it will hold: more cards only add answers), every single of the side
# below u loses. The same for pairs with the opponent's highest pair. One test stands
# for all such singles (pairs) of a node, which the search then leaves out (the child
# node's answer test would find each the same way, one node each). Only at nodes expected
# lost, which search every move (at a node expected won the first move mostly wins, and
# the test would be spent for nothing), and below the root (whose moves are read back).

cdef Py_ssize_t drop_answered(const RuleSet* rs, const Pos* p, const Opponents* o,
                              const uint64_t* moves, int* order, Py_ssize_t m,
                              uint64_t* buf, Py_ssize_t cap) noexcept nogil:
    """Leave out of order[0..m) (indices into moves) the singles and pairs of the side to
    act that the opponent answers to a win at once (above); returns how many are left.
    o: the opponent's cards (load_opponents_of); buf: cap codes of scratch."""
    cdef uint64_t mine = p.hands[p.current], theirs
    cdef Hand hand
    cdef Opponents side
    cdef int width, top, kind
    cdef int below[3]                # by width: the moves below this rank lose (-1: none)
    cdef Py_ssize_t j, kept
    cdef bint some
    if o.actions or count_of(mine, SKIP_CARD) or count_of(mine, REVERSE_CARD):
        return m
    load_hand(&hand, mine)
    if hand.has[4] or (count_of(mine, SMALL_JOKER) and count_of(mine, BIG_JOKER)):
        return m
    below[1] = -1
    below[2] = -1
    load_opponents(&side, mine)
    for width in range(1, 3):
        theirs = o.has1 if width == 1 else o.has2
        if not theirs:
            continue
        top = top_rank(theirs)
        if hand.has[width] & ranks_above(top):
            continue                 # the side could answer the opponent's answer
        some = False
        for j in range(m):
            kind = code_kind(moves[order[j]])
            if kind == (SINGLE if width == 1 else PAIR) and code_rank(moves[order[j]]) < top:
                some = True
                break
        if not some:
            continue
        if wins_leading_after(rs, p, 1 - p.current, digit(top, width), &side, buf, cap):
            below[width] = top
    if below[1] < 0 and below[2] < 0:
        return m
    kept = 0
    for j in range(m):
        kind = code_kind(moves[order[j]])
        if (kind == SINGLE and code_rank(moves[order[j]]) < below[1]) or \
                (kind == PAIR and code_rank(moves[order[j]]) < below[2]):
            continue
        order[kept] = order[j]
        kept += 1
    return kept


# ---------------------------------------------------------------------------------------
# Move ordering
#
# Measured on random two-seat positions (docs/solver.md): the table's move first, then the
# moves that leave the hand the cheapest split (split_cost: the fewest plays that empty it, as
# if it led every time, a play the opponents could answer counting twice), the most cards
# among those (long chains, airplanes, trios with kickers), generation order among equals
# (low ranks first), bombs and the rocket after every other move, the pass last. The plays
# first made 30- and 34-card trees 5-20 times smaller than the most cards alone; counting
# answerable plays twice and keeping the bombs back halved the hardest 34-card trees again.
# A history heuristic and a bonus for moves no opponent can answer made the trees bigger.

cdef inline int top_rank(uint64_t spread) noexcept nogil:
    """The highest rank of a spread set, -1 for none."""
    return (63 - ddz_clz64(spread)) // 3 if spread else -1


cdef inline uint64_t opponents_summary(const Opponents* o) noexcept nogil:
    """What rough_answer looks at, in one word (never 0)."""
    return (<uint64_t>(top_rank(o.has1) + 1) | (<uint64_t>(top_rank(o.has2) + 1) << 4)
            | (<uint64_t>(top_rank(o.has3) + 1) << 8) | (<uint64_t>(o.bomb_rank + 1) << 12)
            | (<uint64_t>o.rocket << 16) | (<uint64_t>o.actions << 17) | (1ULL << 20))


cdef inline bint rough_answer(const Opponents* o, uint64_t move) noexcept nogil:
    """can_answer from the summary alone, a chain judged by its top card against the
    opponents' highest of its width (a guess, for ordering only: never for a verdict)."""
    cdef int kind = code_kind(move), rank = code_rank(move)
    cdef int decided = answer_by_bombs(o, kind, rank)
    if decided >= 0:
        return decided
    if kind == FOUR_TWO_SINGLES or kind == FOUR_TWO_PAIRS:
        return False
    if kind == SINGLE or kind == STRAIGHT:
        return (o.has1 & ranks_above(rank)) != 0
    if kind == PAIR or kind == PAIR_STRAIGHT:
        return (o.has2 & ranks_above(rank)) != 0
    return (o.has3 & ranks_above(rank)) != 0     # trios, with kickers, airplanes


cdef inline int simple_cost(const Hand* h, const Opponents* o) noexcept nogil:
    """split_cost of a hand of singles and pairs alone (no trio, quad or chain ranks): each
    rank one move (a pair whole: two singles cost at least as much), both jokers one (the
    rocket), one more for each that rough_answer says the opponents answer."""
    cdef uint64_t ranks = h.has[1], answerable = answerable_ranks(h, o)
    cdef uint64_t jokers = rank_bit(SMALL_JOKER) | rank_bit(BIG_JOKER)
    cdef int cost = 0
    if (ranks & jokers) == jokers:
        ranks &= ~jokers
        answerable &= ~jokers
        cost = 1 + o.actions         # the rocket: answered by action cards alone
    return cost + card_total(ranks) + card_total(answerable)


cdef int split_cost(Searcher* S, uint64_t hand, const Opponents* o, uint64_t summary,
                    uint64_t* buf, Py_ssize_t cap) noexcept nogil:
    """The cheapest split of hand into moves, leading each time: a move costs 1, and 2 when
    rough_answer says the opponents can answer it (the move holding the hand's lowest card
    is chosen at each level). A hand of singles and pairs alone is counted (simple_cost);
    others are memoised by hand and summary; past the node's budget, or out of scratch
    (buf: cap codes), an upper bound, not memoised."""
    cdef uint64_t* slot
    cdef uint64_t tag
    cdef Sink sink
    cdef Py_ssize_t i, n
    cdef int low, best = 1 << 20, v
    cdef uint64_t move
    cdef Hand h
    if hand == 0:
        return 0
    load_hand(&h, hand)
    if h.has[3] == 0 and chain_ranks_of_hand(&h, &S.rs) == 0:
        return simple_cost(&h, o)
    tag = mix64(hand) ^ mix64(summary)
    slot = S.plays + (tag & S.plays_mask)
    if (slot[0] ^ tag) >> 8 == 0 and slot[0] & 255:
        return <int>(slot[0] & 255) - 1
    if S.plays_budget <= 0:
        return 2 * card_total(hand)
    S.plays_budget -= 1
    sink.out = buf
    sink.cap = cap
    sink.n = 0
    generate_lowest(hand, &S.rs, &sink)
    n = sink.n
    if n > cap:
        return 2 * card_total(hand)
    low = ddz_ctz64(hand) // 3
    for i in range(n):
        move = buf[i]
        if count_of(move, low) == 0:
            continue
        v = 2 if rough_answer(o, move) else 1
        if v >= best:
            continue
        v += split_cost(S, hand - code_cards(move), o, summary, buf + n, cap - n)
        if v < best:
            best = v
    if S.plays_budget > 0:
        slot[0] = (tag & ~255ULL) | <uint64_t>(best + 1)
    return best


# ---------------------------------------------------------------------------------------
# Dominated kickers
#
# Two seats, win/loss mode. Let k1 < k2 be ranks of 3..2 that the side to act holds c times
# each, c = 1 or c = 2, where no straight of its hand could hold k1, nor (c = 2) any pair
# straight (so no chain of a later hand can: hands only shrink; an airplane never holds a
# rank held at most twice). A move Y with kickers (trio + single or pair, four + two singles
# or pairs, an airplane with wings) that plays all c cards of k2 and no k1 is worth no more
# than Y', the same move with the c cards of k1 for those of k2:
#
# * Y' is legal where Y is: a rank held at most twice is no main rank, and the kicker rules
#   (distinct kickers, kicker matches main, wings next to the chain, the rocket) ask only
#   how many cards of a rank the kickers hold and whether it is a main rank or a joker,
#   the same for k1 as for k2 (neither is in the rest of Y). Y' has Y's type, main rank and
#   length, so it answers what Y answers and is answered by the same moves (answers(): the
#   comparison rank with wing trios and heavy_wings() look only at ranks held three or four
#   times in the move).
# * After Y and after Y' the positions differ only in the mover's hand (R + c k1 against
#   R + c k2) and the table (Y against Y'). The mover in the second copies the first move
#   for move, playing k2 wherever the first plays k1: k1 can go only as a single, a pair or
#   kickers (in no chain), k2 works as well (the same kicker rules), and a single or pair of
#   k2 beats whatever that of k1 beats while the answers to it are among those to k1 (the
#   same bombs, rocket, Skip and Reverse; fewer singles or pairs). After such a move the
#   hands differ the same way with fewer cards of k1 / k2, or not at all. The opponent's
#   moves in the second copy are always among those in the first, and the card counts (the
#   let, the empty hand) are the same throughout, so the second copy is won whenever the
#   first is. (A chain through k1 could not be copied: hence the condition on k1; a chain
#   through k2 is only one more choice for the second copy.)
#
# So Y can be left out of the search at every node: a won node keeps a winning move (Y' or
# better) and a lost node's value is unchanged. Not with three seats (a teammate may rather
# overtake a low single than a high one) nor in score mode (not argued there).
#
# Equivalent ranks (dominated_set), by the same copying. Let a < b be ranks of 3..2, a held
# c times (c = 1, 2, 3) and in no chain of the hand (no straight; with c >= 2 no pair
# straight; with c = 3 no airplane), b held c times too, and the opponent holding at least c
# cards of no rank in (a, b]. A move Y of b's c cards (a single, a pair, a trio with or
# without kickers, leading or answering the table) is worth no more than Y', the same move
# with a for b (when a beats the table, and, for a trio, when Y' is among the moves):
#
# * the opponent answers Y' with exactly what answers Y: the moves of that type above a are
#   those above b, as it holds none between (nor at b: a tie does not beat); and the same
#   bombs, rocket and action cards;
# * after Y the mover holds R + c a, after Y' it holds R + c b: the second copies the first
#   move for move, playing b wherever the first plays a, as above (a only as a single, a
#   pair, a trio or kickers; b beats whatever a beats and is answered by less).
#
# A single of a rank b held twice or three times (a pair of a trio) against an a held once
# (twice) goes the same way, the second hand holding one more b than the first: R + a + b
# against R + 2b. The copy then plays b and b where the first plays a and b as two single
# kickers of one move (four with two, an airplane's wings), which the kicker rules may
# forbid. So that case is taken only where the hand holds no quad and can form no airplane
# (then no move of it, nor of a smaller hand, has two single kickers), or, for a single of a
# pair, where two single kickers of a rank are allowed.
#
# Measured on the 12 random 34-card deals of docs/solver.md: 18.7M nodes before, 9.3M after,
# together with the forced pass (advance).

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


cdef inline bint dominated_by(uint64_t used, uint64_t spare) noexcept nogil:
    """A rank of spare below a rank of used?"""
    return used != 0 and spare != 0 and ddz_ctz64(spare) < 63 - ddz_clz64(used)


cdef inline bint dominated_kickers(uint64_t move, uint64_t ones, uint64_t spare_ones,
                                   uint64_t twos, uint64_t spare_twos) noexcept nogil:
    """Does move play, as kickers, every card of a rank k2 held once (ones) or twice (twos)
    and no card of a lower rank k1 held as often and in spare_ones / spare_twos? (Y above:
    then the same move with k1 for k2 is at least as good.)"""
    cdef int kind = code_kind(move)
    cdef uint64_t cards
    if not (kind == TRIO_SINGLE or kind == TRIO_PAIR or kind == FOUR_TWO_SINGLES
            or kind == FOUR_TWO_PAIRS or kind == AIRPLANE_SINGLES or kind == AIRPLANE_PAIRS):
        return False
    cards = code_cards(move)
    # ranks held once or twice are never main ranks (a trio or a quad): kickers
    if dominated_by(cards & ones, spare_ones & ~cards):
        return True
    return dominated_by((cards >> 1) & ~cards & twos, spare_twos & ~(cards | (cards >> 1)))


cdef inline bint dominated_set(const Pos* p, const Opponents* o, const uint64_t* moves,
                               Py_ssize_t n, uint64_t move, const uint64_t* held,
                               const uint64_t* spare, const uint64_t* broken) noexcept nogil:
    """Is move a single, pair or trio (with or without kickers) whose main rank b is held
    exactly that often (held[width]) while a lower rank a of spare[width] beats the table,
    the opponent holds that many of no rank in (a, b], and the same move with a for b is
    among the moves? (Then that move is at least as good: see above.)"""
    cdef int kind = code_kind(move), width, a, b
    cdef uint64_t bit, candidates, theirs, other
    cdef Py_ssize_t i
    if kind == SINGLE:
        width = 1
        theirs = o.has1
    elif kind == PAIR:
        width = 2
        theirs = o.has2
    elif kind == TRIO or kind == TRIO_SINGLE or kind == TRIO_PAIR:
        width = 3
        theirs = o.has3
    else:
        return False
    b = code_rank(move)
    bit = rank_bit(b)
    candidates = spare[width] & (bit - 1)
    if not candidates or not ((held[width] | broken[width]) & bit):
        return False
    if p.table:
        candidates &= ranks_above(code_rank(p.table))
        if not candidates:
            return False
    a = top_rank(candidates)
    if theirs & (bit | (bit - 1)) & ranks_above(a):
        return False
    if width < 3:
        return True                  # a single or pair of a: always a move
    other = make_code(code_cards(move) - digit(b, 3) + digit(a, 3), kind, a,
                      code_length(move))
    for i in range(n):
        if moves[i] == other:
            return True
    return False                     # a's cards among the kickers: no such move


cdef Py_ssize_t kept_moves(Searcher* S, const Pos* p, const Opponents* o, const uint64_t* moves,
                           Py_ssize_t n, int* order, uint64_t chained) noexcept nogil:
    """Fill order with the indices of the moves worth searching (all but the dominated
    ones above, where they apply) and return how many."""
    cdef Py_ssize_t i, m = 0
    cdef uint64_t choices
    cdef Hand hand
    cdef uint64_t held[4]
    cdef uint64_t spare[4]
    cdef uint64_t broken[4]     # broken[w]: ranks held more often than w whose w-card plays
                                # the dominance above may also judge
    cdef int width
    cdef bint some = False
    if p.players == 2 and not S.score_mode and S.rs.min_len[1] >= 2 \
            and S.rs.min_len[2] >= 2:
        # ranks 3..2 held exactly once, twice, three times
        load_hand(&hand, p.hands[p.current])
        for width in range(1, 4):
            held[width] = hand.has[width] & ~hand.has[width + 1] & LOW_RANKS
        for width in range(1, 4):
            # in no chain of the hand (a rank held w times is in no chain wider than w)
            spare[width] = held[width] & ~chained
        # a single b of a pair or trio (a pair of a trio) against an a held once (twice):
        # the hand that keeps the b's must be able to play them wherever the other plays
        # a's and b's, several single kickers of one move among that. Sure where no move of
        # the hand, nor of a smaller one, has more than one single kicker (no quad, no
        # airplane); else only for a single of a pair where two single kickers of a rank
        # are allowed
        broken[1] = 0
        broken[2] = 0
        broken[3] = 0
        if spare[1] or spare[2]:
            if hand.has[4] == 0 and not chain_starts(hand.has[3], S.rs.min_len[3]):
                broken[1] = held[2] | held[3]
                broken[2] = held[3]
            elif not (S.rs.options & OPT_SINGLE_KICKERS_DISTINCT_):
                broken[1] = held[2]
        for width in range(1, 4):
            choices = held[width] | broken[width]
            if (choices & (choices - 1)) == 0:
                spare[width] = 0     # fewer than two ranks to choose between
            some = some or spare[width] != 0
    for i in range(n):
        if some and (dominated_kickers(moves[i], held[1], spare[1], held[2], spare[2])
                     or dominated_set(p, o, moves, n, moves[i], held, spare, broken)):
            continue
        order[m] = <int>i
        m += 1
    return m


cdef void order_moves(Searcher* S, const Pos* p, const Opponents* o, const uint64_t* moves,
                      int* scores, const int* order, Py_ssize_t m, int tt_index, uint64_t* buf,
                      Py_ssize_t cap) noexcept nogil:
    """A score per move of order[0..m) (indices into moves), higher first (the search
    selects lazily). o: the other side's cards (load_opponents_of); buf: cap codes of
    scratch."""
    cdef Py_ssize_t i, j
    cdef int score, kind
    cdef uint64_t hand = p.hands[p.current], summary = opponents_summary(o)
    S.plays_budget = PLAYS_BUDGET
    while S.nodes > S.plays_mask and S.plays_mask < PLAYS_SIZE - 1:
        S.plays_mask = 2 * S.plays_mask + 1     # entries stored before are misses now
    for j in range(m):
        i = order[j]
        kind = code_kind(moves[i])
        if moves[i] == 0:
            score = -(1 << 20)           # the pass
        elif kind == BOMB or kind == ROCKET:
            score = -(1 << 19)           # kept back
        else:
            score = (8 * card_total(code_cards(moves[i]))
                     - 64 * split_cost(S, hand - code_cards(moves[i]), o, summary, buf, cap))
        if S.noise:
            score += <int>(mix64(moves[i] + <uint64_t>S.noise) & 7)
        if i == tt_index:
            score = 1 << 30
        scores[i] = score


# ---------------------------------------------------------------------------------------
# The transposition table

cdef inline int probe(const Table* tt, uint64_t key, uint64_t* data) noexcept nogil:
    cdef Entry* bucket = tt.entries + BUCKET * (key & tt.active_mask)
    cdef int i
    cdef uint64_t d
    for i in range(BUCKET):
        d = bucket[i].data
        if (bucket[i].lock ^ d) == key and d != 0 and ((d >> 40) & 0xFFFF) == tt.age:
            data[0] = d
            return 1
    return 0


cdef inline void store(Table* tt, uint64_t key, int value, int bound, int index,
                       uint64_t effort_nodes) noexcept nogil:
    cdef Entry* bucket
    tt.stores += 1
    if tt.stores > 2 * BUCKET * (tt.active_mask + 1) and tt.active_mask < tt.bucket_mask:
        tt.active_mask = 2 * tt.active_mask + 1      # entries stored before still count:
        tt.stores = 0                                # half of them stay where probes look
    bucket = tt.entries + BUCKET * (key & tt.active_mask)
    cdef int i, victim = 0, effort = 0, lowest = 1 << 30, e
    cdef uint64_t d
    while effort_nodes:
        effort += 1
        effort_nodes >>= 1
    d = (<uint64_t>(index & 0xFFFF) | (<uint64_t>bound << 16) | (<uint64_t>(value + 128) << 24)
         | (<uint64_t>effort << 32) | (tt.age << 40))
    for i in range(BUCKET):
        if (bucket[i].lock ^ bucket[i].data) == key or bucket[i].data == 0 \
                or ((bucket[i].data >> 40) & 0xFFFF) != tt.age:
            victim = i
            break
        e = <int>((bucket[i].data >> 32) & 255)
        if e < lowest:
            lowest = e
            victim = i
    bucket[victim].data = d
    bucket[victim].lock = key ^ d


# ---------------------------------------------------------------------------------------
# The search

cdef inline bint out_of_time(Searcher* S) noexcept nogil:
    if S.stop[0] or (S.node_limit and S.nodes >= S.node_limit):
        return True
    if S.deadline > 0 and (S.nodes & 1023) == 0 and now() > S.deadline:
        return True
    return False


cdef int search(Searcher* S, const Pos* p, int alpha, int beta, uint64_t key,
                const uint64_t* chains, bint cut) noexcept nogil:
    """The value of p for the side to act, within (alpha, beta) fail-soft; ABORT if a limit
    stopped the search. chains: chain_ranks_in of each hand of p. cut:
    the side to act is expected to win here (the first child of a node expected won is
    expected lost; every other child, expected won: the node types of alpha-beta)."""
    cdef uint64_t data, move, start_nodes = S.nodes, child_key
    cdef uint64_t* keys
    cdef Py_ssize_t base = S.top, n, m, i, j, pick
    cdef uint64_t* moves
    cdef int* scores
    cdef Sink sink
    cdef int tt_index = -1, value, best = -INFINITE, best_index = -1, bound, v, a, b
    cdef int most = -1, child_alpha, child_beta, kind, index
    cdef int* order
    cdef uint64_t most_nodes = 0, before
    cdef int alpha0 = alpha
    cdef Pos child
    cdef Opponents opponents
    cdef bint same, ahead, early_static
    cdef uint64_t child_chains[3]
    cdef uint64_t ahead_chains[3 * PREFETCH_MOVES]
    cdef int ahead_index[PREFETCH_MOVES]
    cdef Pos ahead_child[PREFETCH_MOVES]
    cdef bint good
    S.nodes += 1
    if out_of_time(S):
        S.aborted = 1
        S.stop[0] = 1
        return ABORT
    if probe(S.tt, key, &data):
        value = <int>((data >> 24) & 255) - 128
        bound = <int>((data >> 16) & 3)
        if bound == EXACT:
            return value
        if bound == LOWER and value > alpha:
            alpha = value
        elif bound == UPPER and value < beta:
            beta = value
        if alpha >= beta:
            return value
        tt_index = <int>(data & 0xFFFF)
        if tt_index == NO_MOVE:
            tt_index = -1
    moves = S.moves + base
    early_static = base > 0 and p.table == 0 and not S.score_mode
    if early_static:
        # below the root, a leader's static win is tested before its moves are generated:
        # a win needs none of them (the table keeps no best move for it; the root, whose
        # best move is read back, tests it below)
        load_opponents_of(&opponents, p)
        if static_win(&S.rs, p, &opponents, moves, STACK_SIZE - base, STATIC_BUDGET, NULL):
            store(S.tt, key, 1, EXACT, NO_MOVE, 1)
            return 1
    sink.out = moves
    sink.cap = STACK_SIZE - base
    sink.n = 0
    generate(p.hands[p.current], p.table, &S.rs, &sink)
    n = sink.n
    if n > sink.cap:
        S.overflow = 1
        S.aborted = 1
        return ABORT
    # a move that ends the game: the best there is, except a bigger win in score mode
    for i in range(n):
        if ends_game(p, moves[i]):
            v = terminal_value(S, p, moves[i])
            if v > best:
                best = v
                best_index = <int>i
    if best > 0 and (not S.score_mode or best >= beta):
        store(S.tt, key, best, EXACT if not S.score_mode else LOWER, best_index, 1)
        return best
    # a leader that splits its hand into unanswerable moves and one more (off in score mode:
    # it proves a win, not its score)
    if not early_static:
        load_opponents_of(&opponents, p)     # for the test and the ordering
    if base == 0 and p.table == 0 and not S.score_mode and \
            static_win(&S.rs, p, &opponents, moves + n, sink.cap - n, STATIC_BUDGET, &move):
        for i in range(n):
            if moves[i] == move:
                best_index = <int>i
                break
        store(S.tt, key, 1, EXACT, best_index, 1)
        return 1
    if p.table != 0 and not S.score_mode and \
            answer_static_win(&S.rs, p, &opponents, moves, n, moves + n, sink.cap - n, &index):
        store(S.tt, key, 1, EXACT, index, 1)
        return 1
    if tt_index >= n:
        tt_index = -1
    scores = S.scores + base
    order = S.order + base
    m = kept_moves(S, p, &opponents, moves, n, order, chains[p.current])
    if not cut and base > 0 and p.players == 2 and not S.score_mode:
        j = drop_answered(&S.rs, p, &opponents, moves, order, m, moves + n, sink.cap - n)
        if j < m:
            best = -1                # the moves left out lose
            m = j
    order_moves(S, p, &opponents, moves, scores, order, m, tt_index, moves + n, sink.cap - n)
    keys = S.keys + base
    ahead = not cut and 1 < m <= PREFETCH_MOVES
    if ahead:
        # the children's buckets, fetched together, so that their cache misses overlap
        # (measured: most of the search's time was the probe's wait for memory), at a node
        # expected to search them all: one the side to act is expected to lose. A node it
        # is expected to win searches one child (1.05 on average), and the keys of the
        # others would be computed for nothing
        for j in range(m):
            index = order[j]
            ahead_index[j] = index
            if ends_game(p, moves[index]):
                continue                 # never searched
            advance(&S.rs, p, &opponents, moves[index], &ahead_child[j])
            chains_after(&S.rs, &ahead_child[j], chains, p.current, ahead_chains + 3 * j)
            keys[index] = canonical_key(S, &ahead_child[j], ahead_chains + 3 * j)
            prefetch(S.tt.entries + BUCKET * (keys[index] & S.tt.active_mask))
    S.top = base + n
    for i in range(m):
        # lazy selection: the best-scored move left
        pick = i
        for j in range(i + 1, m):
            if scores[order[j]] > scores[order[pick]]:
                pick = j
        if pick != i:
            index = order[i]; order[i] = order[pick]; order[pick] = index
        index = order[i]
        move = moves[index]
        if ends_game(p, move):
            continue                     # counted above
        if ahead:
            j = 0
            while ahead_index[j] != index:
                j += 1
            child = ahead_child[j]
            child_key = keys[index]
            memcpy(child_chains, ahead_chains + 3 * j, sizeof(child_chains))
        else:
            advance(&S.rs, p, &opponents, move, &child)
            chains_after(&S.rs, &child, chains, p.current, child_chains)
            child_key = canonical_key(S, &child, child_chains)
        same = side_of(p, child.current) == side_of(p, p.current)
        good = cut and i == 0            # expected to win for the side to act here
        kind = code_kind(move)
        before = S.nodes
        if S.score_mode and (kind == BOMB or kind == ROCKET):
            child_alpha = -INFINITE      # a doubling changes every value: a full window
            child_beta = INFINITE
        else:
            child_alpha = alpha
            child_beta = beta
        if same:
            v = search(S, &child, child_alpha, child_beta, child_key, child_chains, good)
            if v == ABORT:
                S.top = base
                return ABORT
        else:
            v = search(S, &child, -child_beta, -child_alpha, child_key, child_chains, not good)
            if v == ABORT:
                S.top = base
                return ABORT
            v = -v
        if S.score_mode and (kind == BOMB or kind == ROCKET):
            v += 1 if v > 0 else -1
        if S.nodes - before > most_nodes:
            most_nodes = S.nodes - before
            most = index
        if v > best:
            best = v
            best_index = index
        if best > alpha:
            alpha = best
        if alpha >= beta:
            break
    S.top = base
    if best < 0 and most >= 0 and not S.score_mode:
        best_index = most                # a lost position: the longest defence
    if not S.score_mode or (alpha0 < best < beta):
        bound = EXACT                    # win/loss: every value is exact
    elif best <= alpha0:
        bound = UPPER
    else:
        bound = LOWER
    store(S.tt, key, best, bound, best_index if 0 <= best_index < NO_MOVE else NO_MOVE,
          S.nodes - start_nodes)
    return best


# ---------------------------------------------------------------------------------------
# The Python face: validate, then search without the GIL

cdef class SolverCore:
    """A solver for one rule set: a transposition table (kept between solves) and searchers.

    ``solve`` takes a position as plain integers (see ``Pos``) and returns
    ``(value, best move code or None, nodes, overflowed)``; value None when a limit stopped
    it. Every input is validated here."""

    cdef RuleSet rs
    cdef Table tt
    cdef Searcher** searchers
    cdef int nthreads
    cdef int spring
    cdef int* stop_flag
    cdef readonly object rules
    cdef readonly Py_ssize_t table_bytes

    def __cinit__(self, object rules, int memory_mb=256, int threads=1):
        cdef uint64_t buckets = 1
        cdef int i
        self.searchers = NULL
        self.tt.entries = NULL
        self.stop_flag = <int*>calloc(1, sizeof(int))
        if self.stop_flag == NULL:
            raise MemoryError()
        if memory_mb < 1 or memory_mb > 1 << 16:
            raise ValueError(f"memory_mb must be 1..65536, not {memory_mb}")
        if threads < 1 or threads > 64:
            raise ValueError(f"threads must be 1..64, not {threads}")
        self.rs = rules_of(rules)
        self.rules = rules
        self.spring = bool(rules.spring)
        self.nthreads = threads
        while buckets * 2 * BUCKET * sizeof(Entry) <= (<uint64_t>memory_mb) << 20:
            buckets *= 2
        self.tt.entries = <Entry*>table_alloc(buckets * BUCKET * sizeof(Entry))
        if self.tt.entries == NULL:
            raise MemoryError()
        self.tt.bucket_mask = buckets - 1
        self.tt.active_mask = min(buckets, 1 << 12) - 1
        self.tt.stores = 0
        self.table_bytes = buckets * BUCKET * sizeof(Entry)
        self.searchers = <Searcher**>calloc(threads, sizeof(Searcher*))
        if self.searchers == NULL:
            raise MemoryError()
        for i in range(threads):
            self.searchers[i] = <Searcher*>calloc(1, sizeof(Searcher))
            if self.searchers[i] == NULL:
                raise MemoryError()
            self.searchers[i].moves = <uint64_t*>malloc(STACK_SIZE * sizeof(uint64_t))
            self.searchers[i].scores = <int*>malloc(STACK_SIZE * sizeof(int))
            self.searchers[i].order = <int*>malloc(STACK_SIZE * sizeof(int))
            self.searchers[i].keys = <uint64_t*>malloc(STACK_SIZE * sizeof(uint64_t))
            self.searchers[i].plays = <uint64_t*>calloc(PLAYS_SIZE, sizeof(uint64_t))
            self.searchers[i].plays_mask = PLAYS_START - 1
            if self.searchers[i].moves == NULL or self.searchers[i].scores == NULL \
                    or self.searchers[i].order == NULL or self.searchers[i].keys == NULL \
                    or self.searchers[i].plays == NULL:
                raise MemoryError()

    def __dealloc__(self):
        cdef int i
        if self.searchers != NULL:
            for i in range(self.nthreads):
                if self.searchers[i] != NULL:
                    free(self.searchers[i].moves)
                    free(self.searchers[i].scores)
                    free(self.searchers[i].order)
                    free(self.searchers[i].keys)
                    free(self.searchers[i].plays)
                    free(self.searchers[i])
            free(self.searchers)
        if self.tt.entries != NULL:
            table_free(self.tt.entries, (self.tt.bucket_mask + 1) * BUCKET * sizeof(Entry))
        free(self.stop_flag)

    def clear(self):
        """Forget every stored value (the table's memory stays): a new age, so that old
        entries no longer match and are the first to be overwritten; a real wipe every
        65,536 clears, when the age comes round. Refused while a solve runs."""
        self.check_idle()
        self.tt.age = (self.tt.age + 1) & 0xFFFF
        self.tt.active_mask = min(self.tt.bucket_mask + 1, 1 << 12) - 1
        self.tt.stores = 0
        if self.tt.age == 0:
            memset(self.tt.entries, 0, (self.tt.bucket_mask + 1) * BUCKET * sizeof(Entry))

    def solve(self, hands, uint64_t table, int table_player, int current, int landlord, *,
              int direction=1, int let=0, int landlord_plays=2, int farmer_plays=1,
              bint score_mode=False, double time_limit=0.0, uint64_t node_limit=0,
              int thread=0):
        """(value, best move code or None, nodes, overflowed) of the position for the side
        to act; value None when a limit stopped the search. thread: search with this
        searcher (0..threads-1; the others are for lazy SMP helpers run by the caller)."""
        cdef Pos pos
        cdef Searcher* S
        self.check_position(hands, table, table_player, current, landlord, direction, let,
                            &pos)
        pos.landlord_plays = min(max(landlord_plays, 0), 2)
        pos.farmer_plays = min(max(farmer_plays, 0), 1)
        if not 0 <= thread < self.nthreads:
            raise ValueError(f"thread must be 0..{self.nthreads - 1}, not {thread}")
        if time_limit < 0:
            raise ValueError("time_limit must be >= 0")
        S = self.searchers[thread]
        if S.busy:  # two threads in one searcher would share its move stack and counters
            raise RuntimeError(f"searcher {thread} is in use by another thread's solve")
        S.busy = 1
        try:
            return self.run(S, &pos, score_mode, time_limit, node_limit, thread)
        finally:
            S.busy = 0

    def _answered_moves(self, hands, uint64_t table, int table_player, int current,
                        int landlord, int let=0):
        """The move codes the search leaves out at this position as answered at once
        (drop_answered; two seats, else none), for the tests, which check each loses.
        Validated like solve."""
        cdef Pos pos
        cdef Opponents o
        cdef Sink sink
        cdef Py_ssize_t n, m, i, j
        cdef uint64_t* moves
        cdef int* order
        cdef list dropped = []
        self.check_position(hands, table, table_player, current, landlord, 1, let, &pos)
        if pos.players != 2:
            return dropped
        moves = <uint64_t*>malloc(STACK_SIZE * sizeof(uint64_t))
        order = <int*>malloc(STACK_SIZE * sizeof(int))
        try:
            if moves == NULL or order == NULL:
                raise MemoryError()
            sink.out = moves
            sink.cap = STACK_SIZE
            sink.n = 0
            generate(pos.hands[pos.current], pos.table, &self.rs, &sink)
            n = sink.n
            if n > sink.cap:
                raise ValueError("the position has more moves than the solver's stack")
            for i in range(n):
                order[i] = <int>i
            load_opponents_of(&o, &pos)
            m = drop_answered(&self.rs, &pos, &o, moves, order, n, moves + n,
                              STACK_SIZE - n)
            for i in range(n):
                for j in range(m):
                    if order[j] == i:
                        break
                else:
                    dropped.append(moves[i])
            return dropped
        finally:
            free(moves)
            free(order)

    def check_idle(self):
        """RuntimeError if a solve is running on any of the searchers."""
        cdef int i
        for i in range(self.nthreads):
            if self.searchers[i].busy:
                raise RuntimeError("the solver is in use by another thread's solve")

    cdef object run(self, Searcher* S, Pos* p, bint score_mode, double time_limit,
                    uint64_t node_limit, int thread):
        cdef Pos pos = p[0]
        cdef int value, seat
        cdef uint64_t chains[3]
        cdef uint64_t best = 0
        cdef bint found
        S.rs = self.rs
        S.tt = &self.tt
        S.top = 0
        S.nodes = 0
        S.node_limit = node_limit
        S.deadline = now() + time_limit if time_limit > 0 else 0.0
        S.stop = self.stop_flag
        S.aborted = 0
        S.overflow = 0
        S.score_mode = score_mode
        S.spring = self.spring
        S.noise = thread * 7919
        if self.nthreads == 1:
            self.stop_flag[0] = 0
        with nogil:
            for seat in range(3):
                chains[seat] = chain_ranks_in(pos.hands[seat], &S.rs)
            value = search(S, &pos, -INFINITE if score_mode else -1, INFINITE if score_mode else 1,
                           pos_key(&pos, score_mode, False), chains, True)
        if value == ABORT:
            return None, None, S.nodes, bool(S.overflow)
        if thread == 0 or not S.aborted:
            self.stop_flag[0] = 1                # the helpers may stop
        best = root_move(S, &pos, &found)
        return value, best if found else None, S.nodes, False

    def request_stop(self):
        self.stop_flag[0] = 1

    def reset_stop(self):
        self.stop_flag[0] = 0

    cdef int check_position(self, hands, uint64_t table, int table_player, int current,
                            int landlord, int direction, int let, Pos* pos) except -1:
        cdef int players = len(hands), seat
        cdef uint64_t total = 0, hand
        if players != 2 and players != 3:
            raise ValueError(f"a position has 2 or 3 hands, not {players}")
        memset(pos, 0, sizeof(Pos))
        pos.players = players
        for seat in range(players):
            hand = hands[seat]
            if not is_subset(hand, self.rs.deck):
                raise ValueError(f"hand {seat} holds cards these rules' deck does not have")
            if card_total(total) + card_total(hand) != card_total(total + hand) or \
                    not is_subset(total + hand, self.rs.deck):
                raise ValueError("the hands hold more cards of a rank than the deck has")
            total += hand
            pos.hands[seat] = hand
        if not 0 <= current < players or not 0 <= landlord < players:
            raise ValueError("current and landlord must be seats of the position")
        for seat in range(players):
            if pos.hands[seat] == 0:
                raise ValueError(f"seat {seat} has no cards: the game is over")
        if direction != 1 and direction != -1:
            raise ValueError("direction is +1 or -1")
        if let < 0 or (let > 0 and players != 2):
            raise ValueError("a let count is for two seats only, and never negative")
        if table == 0:
            if table_player != -1:
                raise ValueError("an empty table has no table_player (-1)")
        else:
            if not is_reading(table, &self.rs) or code_kind(table) == SKIP \
                    or code_kind(table) == REVERSE:
                raise ValueError("the table's move is not a move under these rules")
            if not 0 <= table_player < players or table_player == current:
                raise ValueError("table_player must be another seat than the one to act")
        pos.table = table
        pos.table_player = table_player
        pos.current = current
        pos.landlord = landlord
        pos.direction = direction
        pos.let = let
        return 0

    @property
    def threads(self):
        return self.nthreads

    def stopped(self):
        return bool(self.stop_flag[0])


cdef uint64_t root_move(Searcher* S, const Pos* p, bint* found) noexcept nogil:
    """The best move the table holds for the root (the move just searched)."""
    cdef uint64_t key = pos_key(p, S.score_mode, False), data
    cdef Sink sink
    cdef int index
    found[0] = False
    if not probe(S.tt, key, &data):
        return 0
    index = <int>(data & 0xFFFF)
    if index == NO_MOVE:
        return 0
    sink.out = S.moves
    sink.cap = STACK_SIZE
    sink.n = 0
    generate(p.hands[p.current], p.table, &S.rs, &sink)
    if index >= sink.n or sink.n > sink.cap:
        return 0
    found[0] = True
    return S.moves[index]


def state_position(bytes state):
    """The position fields of a GameState's bytes (GameCore.state_bytes): (hands, table,
    table_player, current, landlord, direction, let, landlord_plays, farmer_plays, bombs,
    phase)."""
    cdef GameState s
    if len(state) != sizeof(GameState):
        raise ValueError("not a game state")
    memcpy(&s, <const char*>state, sizeof(GameState))
    if s.players != 2 and s.players != 3:
        raise ValueError("not a game state")
    let = s.grabs if s.players == 2 else 0
    return (tuple([s.hands[i] for i in range(s.players)]), s.table, s.table_player,
            s.current, s.landlord, s.direction, let, s.landlord_plays, s.farmer_plays,
            s.bombs, s.phase == PLAY)
