# The seeded generator every game in the core draws from: splitmix64, so the same seed gives
# the same deal on every machine and Python version. Inline code only (see ruleset.pxd).

from libc.stdint cimport uint64_t


cdef inline uint64_t splitmix64(uint64_t* state) noexcept nogil:
    cdef uint64_t z
    state[0] += 0x9E3779B97F4A7C15ULL
    z = state[0]
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef extern from *:
    """
    #include <stdint.h>
    /* Lemire's nearly divisionless draw of a uniform integer in [0, n): the high and low
       halves of a 64 x 64 -> 128-bit product. The types are uint64_t throughout, the
       same type Cython passes (unsigned long long and uint64_t differ on LP64 Linux, where
       GCC 14 refuses the pointer mix). Portable: a 128-bit integer where the compiler has
       one, MSVC's _umul128 / __umulh, or four 32-bit products in plain C (DDZ_PORTABLE_C
       forces them, for the test that compares). */
    #if defined(__SIZEOF_INT128__) && !defined(DDZ_PORTABLE_C)
    static inline uint64_t ddz_lemire(uint64_t x, uint64_t n, uint64_t* low) {
        unsigned __int128 m = (unsigned __int128)x * n;
        *low = (uint64_t)m;
        return (uint64_t)(m >> 64);
    }
    #elif defined(_MSC_VER) && defined(_M_X64) && !defined(DDZ_PORTABLE_C)
    #include <intrin.h>
    static __inline uint64_t ddz_lemire(uint64_t x, uint64_t n, uint64_t* low) {
        uint64_t high;
        *low = _umul128(x, n, &high);
        return high;
    }
    #elif defined(_MSC_VER) && defined(_M_ARM64) && !defined(DDZ_PORTABLE_C)
    #include <intrin.h>
    static __inline uint64_t ddz_lemire(uint64_t x, uint64_t n, uint64_t* low) {
        *low = x * n;
        return __umulh(x, n);
    }
    #else
    static inline uint64_t ddz_lemire(uint64_t x, uint64_t n, uint64_t* low) {
        uint64_t x0 = x & 0xFFFFFFFFu, x1 = x >> 32, n0 = n & 0xFFFFFFFFu, n1 = n >> 32;
        uint64_t p00 = x0 * n0, p01 = x0 * n1, p10 = x1 * n0, p11 = x1 * n1;
        uint64_t middle = (p00 >> 32) + (p01 & 0xFFFFFFFFu) + (p10 & 0xFFFFFFFFu);
        *low = (middle << 32) | (p00 & 0xFFFFFFFFu);
        return p11 + (p01 >> 32) + (p10 >> 32) + (middle >> 32);
    }
    #endif
    """
    uint64_t ddz_lemire(uint64_t x, uint64_t n, uint64_t* low) nogil


cdef extern from *:
    """
    /* (2^64 - 1) // n for n = 1..128, worked out by the compiler: below() reads its limit
       and its remainder from these instead of dividing (two 64-bit divisions a draw, the
       dearest part of a deal). */
    #define DDZ_R1(n) (0xFFFFFFFFFFFFFFFFULL / (n))
    #define DDZ_R4(n) DDZ_R1(n), DDZ_R1(n + 1), DDZ_R1(n + 2), DDZ_R1(n + 3)
    #define DDZ_R16(n) DDZ_R4(n), DDZ_R4(n + 4), DDZ_R4(n + 8), DDZ_R4(n + 12)
    static const unsigned long long ddz_reciprocals[129] = {
        0, DDZ_R16(1), DDZ_R16(17), DDZ_R16(33), DDZ_R16(49),
        DDZ_R16(65), DDZ_R16(81), DDZ_R16(97), DDZ_R16(113)};
    """
    const unsigned long long ddz_reciprocals[129]


cdef inline unsigned below(uint64_t* state, unsigned n) noexcept nogil:
    """A uniform integer in [0, n): rejection keeps it exactly uniform. For n <= 128 (every
    deal, every first player) without a division, the same draws: with m = (2^64 - 1) // n
    the limit is m * n, and the high half q of draw * m is draw // n or one less (draw / n
    - draw * m / 2^64 = draw * (2^64 - m * n) / (n * 2^64) < 1, as 2^64 - m * n <= n), so
    draw - q * n is the remainder or the remainder plus n."""
    cdef uint64_t m, limit, draw, quotient, low
    if n - 1 >= 128:                       # n = 0 too: the division it always was
        limit = (0xFFFFFFFFFFFFFFFFULL // n) * n
        draw = splitmix64(state)
        while draw >= limit:
            draw = splitmix64(state)
        return <unsigned>(draw % n)
    m = ddz_reciprocals[n]
    limit = m * n
    draw = splitmix64(state)
    while draw >= limit:
        draw = splitmix64(state)
    quotient = ddz_lemire(draw, m, &low)
    draw -= quotient * n
    if draw >= n:
        draw -= n
    return <unsigned>draw


cdef inline unsigned below_fast(uint64_t* state, unsigned n) noexcept nogil:
    """A uniform integer in [0, n), exactly uniform, without the divisions of below(): for
    agents' draws. (Not below()'s stream: deals keep below(), so seeds keep their deals.)"""
    cdef uint64_t low, threshold
    cdef uint64_t value = ddz_lemire(splitmix64(state), n, &low)
    if low < n:
        threshold = (0 - <uint64_t>n) % n
        while low < threshold:
            value = ddz_lemire(splitmix64(state), n, &low)
    return <unsigned>value
