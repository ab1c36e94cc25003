# The move engine's C-level interface, for other core modules to cimport.
# Card and move layouts: layout.pxd.

from libc.stdint cimport uint64_t

cdef enum:
    # Option bits of RuleSet.options (the low bits of a packed rule integer).
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

ctypedef struct Sink:
    uint64_t* out        # where move codes go; may be NULL when cap is 0
    Py_ssize_t cap       # how many codes fit
    Py_ssize_t n         # how many codes were produced (may exceed cap: only cap written)

cdef void unpack_rules(uint64_t packed, RuleSet* rs) noexcept nogil
cdef bint hand_fits_deck(uint64_t hand, const RuleSet* rs) noexcept nogil
cdef bint is_reading(uint64_t code, const RuleSet* rs) noexcept nogil
cdef bint beats(uint64_t move, uint64_t table) noexcept nogil
cdef bint answers(uint64_t move, uint64_t table, const RuleSet* rs) noexcept nogil
cdef void classify(uint64_t cards, const RuleSet* rs, Sink* sink) noexcept nogil
cdef void generate(uint64_t hand, uint64_t table, const RuleSet* rs, Sink* sink) noexcept nogil
cdef int legality(uint64_t hand, uint64_t move, uint64_t table, bint leading,
                  const RuleSet* rs) noexcept nogil

cdef class Move:
    cdef readonly uint64_t code

cdef Move new_move(uint64_t code)
