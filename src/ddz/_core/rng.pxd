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
