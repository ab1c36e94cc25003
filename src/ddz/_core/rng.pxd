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


cdef inline unsigned below(uint64_t* state, unsigned n) noexcept nogil:
    """A uniform integer in [0, n): rejection keeps it exactly uniform."""
    cdef uint64_t limit = (0xFFFFFFFFFFFFFFFFULL // n) * n
    cdef uint64_t draw = splitmix64(state)
    while draw >= limit:
        draw = splitmix64(state)
    return <unsigned>(draw % n)


cdef extern from *:
    """
    /* Lemire's nearly divisionless draw of a uniform integer in [0, n): a multiplication,
       and a division only in the rare case the low half falls below n. */
    static inline unsigned long long ddz_lemire(unsigned long long x, unsigned long long n,
                                                unsigned long long* low) {
        unsigned __int128 m = (unsigned __int128)x * n;
        *low = (unsigned long long)m;
        return (unsigned long long)(m >> 64);
    }
    """
    uint64_t ddz_lemire(uint64_t x, uint64_t n, uint64_t* low) nogil


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
