# The bit layout of hands, card multisets and move codes: written down here, and only here.
#
# CARDS (a hand, a kitty, the cards of a move): one uint64, an octal number with one digit
# (3 bits) per rank holding that rank's count. Digit i is rank i:
#
#   digit:  16  15  14  13  12  11  10   9   8   7   6   5   4   3   2   1   0
#   rank:    V   S   D   X   2   A   K   Q   J   T   9   8   7   6   5   4   3
#   max:     2   2   1   1   4   4   4   4   4   4   4   4   4   4   4   4   4
#   bits: 50-48 ...                                                       5-3 2-0
#
#   (X small joker, D big joker, S Skip, V Reverse; bits 51..63 are zero.)
#
# Counts never exceed 4, so adding two disjoint parts of one deck never carries, and a
# subset's cards can be subtracted with one machine subtraction: hand - move_cards.
#
# MOVE CODE: one uint64. Its low 51 bits are the move's CARDS in the layout above; above
# them sits the reading the player chose:
#
#    63     60 59     56 55       51 50                                      0
#   +---------+---------+-----------+-----------------------------------------+
#   | length  |  rank   |   type    |              cards (17 digits)          |
#   +---------+---------+-----------+-----------------------------------------+
#
#   type    MoveType value (0 = PASS ... 16 = REVERSE), see the enum below.
#   rank    main rank (0 = '3' ... 14 = 'D'): the rank of a single, pair, trio or quad, the
#           trio / quad rank of a kicker type, the HIGHEST rank of a chain (of the trio
#           chain for airplanes). 0 for PASS, SKIP and REVERSE; 14 for the rocket.
#   length  chain length (ranks in the chain) for chain types, 1 for every other move,
#           0 for PASS.
#
# The pass is the code 0. Two codes are the same move exactly when they are equal.

from libc.stdint cimport uint64_t

cdef extern from *:
    """
    #define DDZ_CARDS_MASK  ((unsigned long long)0x7FFFFFFFFFFFFULL)   /* bits 0..50 */
    #define DDZ_DIGIT_LOW   ((unsigned long long)0x1249249249249ULL)   /* bit 3i of each digit */
    #define DDZ_DIGIT_TOP   ((unsigned long long)0x4924924924924ULL)   /* bit 3i+2 */
    """
    const uint64_t DDZ_CARDS_MASK
    const uint64_t DDZ_DIGIT_LOW
    const uint64_t DDZ_DIGIT_TOP

# Bit scans, portable: GCC and Clang have builtins, MSVC has intrinsics, anything else gets
# plain C (DDZ_PORTABLE_C forces it: tests/adversarial/test_portable_build.py compares the
# two). Each takes a nonzero argument (every caller tests for zero first).
cdef extern from *:
    """
    #if (defined(__GNUC__) || defined(__clang__)) && !defined(DDZ_PORTABLE_C)
    static inline int ddz_ctz32(unsigned x) { return __builtin_ctz(x); }
    static inline int ddz_ctz64(unsigned long long x) { return __builtin_ctzll(x); }
    static inline int ddz_clz64(unsigned long long x) { return __builtin_clzll(x); }
    #elif defined(_MSC_VER) && (defined(_M_X64) || defined(_M_ARM64)) && !defined(DDZ_PORTABLE_C)
    #include <intrin.h>
    static __inline int ddz_ctz32(unsigned x) {
        unsigned long i; _BitScanForward(&i, x); return (int)i; }
    static __inline int ddz_ctz64(unsigned long long x) {
        unsigned long i; _BitScanForward64(&i, x); return (int)i; }
    static __inline int ddz_clz64(unsigned long long x) {
        unsigned long i; _BitScanReverse64(&i, x); return 63 - (int)i; }
    #else
    static inline int ddz_ctz64(unsigned long long x) {
        int n = 0; while (!(x & 1)) { x >>= 1; n++; } return n; }
    static inline int ddz_ctz32(unsigned x) { return ddz_ctz64(x); }
    static inline int ddz_clz64(unsigned long long x) {
        int n = 0; while (!(x & (1ULL << 63))) { x <<= 1; n++; } return n; }
    #endif
    """
    int ddz_ctz32(unsigned x) nogil          # trailing zero bits of a nonzero 32-bit word
    int ddz_ctz64(unsigned long long x) nogil  # of a nonzero 64-bit word
    int ddz_clz64(unsigned long long x) nogil  # leading zero bits of a nonzero 64-bit word

cdef enum:
    NUM_DIGITS = 17      # ranks 3..2, the two jokers, Skip and Reverse
    NUM_RANKS = 15       # ranks that form combinations: 3..2 and the jokers
    ACE = 11             # the highest rank a chain may reach
    TWO = 12             # the highest rank that has a pair
    SMALL_JOKER = 13
    BIG_JOKER = 14
    SKIP_CARD = 15
    REVERSE_CARD = 16
    TYPE_SHIFT = 51
    RANK_SHIFT = 56
    LENGTH_SHIFT = 60

cdef enum MoveKind:
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
    NUM_KINDS = 17


cdef inline unsigned count_of(uint64_t cards, int rank) noexcept nogil:
    return <unsigned>((cards >> (3 * rank)) & 7)

cdef inline uint64_t digit(int rank, uint64_t count) noexcept nogil:
    return count << (3 * rank)

cdef inline uint64_t make_code(uint64_t cards, int kind, int rank, int length) noexcept nogil:
    return (cards | ((<uint64_t>kind) << TYPE_SHIFT) | ((<uint64_t>rank) << RANK_SHIFT)
            | ((<uint64_t>length) << LENGTH_SHIFT))

cdef inline uint64_t code_cards(uint64_t code) noexcept nogil:
    return code & DDZ_CARDS_MASK

cdef inline int code_kind(uint64_t code) noexcept nogil:
    return <int>((code >> TYPE_SHIFT) & 31)

cdef inline int code_rank(uint64_t code) noexcept nogil:
    return <int>((code >> RANK_SHIFT) & 15)

cdef inline int code_length(uint64_t code) noexcept nogil:
    return <int>(code >> LENGTH_SHIFT)

cdef inline int card_total(uint64_t cards) noexcept nogil:
    """How many cards: the sum of the digits, added pairwise into wider and wider fields and
    then all at once by one multiplication (no popcount: the wheel targets baseline x86-64)."""
    cdef uint64_t sums = (cards & 0x71c71c71c71c7ULL) + ((cards >> 3) & 0x71c71c71c71c7ULL)
    sums = (sums & 0x3f03f03f03f03fULL) + ((sums >> 6) & 0x3f03f03f03f03fULL)
    return <int>(((sums * 0x1001001001001ULL) >> 48) & 0xFFF)


cdef inline bint is_subset(uint64_t part, uint64_t whole) noexcept nogil:
    """Every digit of part is at most the same digit of whole (no digit borrows)."""
    cdef uint64_t diff = whole - part
    cdef uint64_t borrows = (~whole & part) | (~(whole ^ part) & diff)
    return (part & ~DDZ_CARDS_MASK) == 0 and (borrows & DDZ_DIGIT_TOP) == 0
