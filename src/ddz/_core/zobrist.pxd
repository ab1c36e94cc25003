# Zobrist keys of card sets: the 64-bit state key's building blocks (docs/positions.md, "The
# state key"). Each (seat, card symbol, count) has a fixed pseudo-random 64-bit number,
# computed by a pure function rather than read from a table, so every module that compiles
# this file in agrees without sharing memory or running an initialiser. A hand's key is the
# XOR of its (seat, symbol, count) numbers over the symbols it holds (count 0 adds nothing);
# when a hand changes, only the changed symbols' numbers are XORed out and in.

from libc.stdint cimport uint64_t

from ddz._core.layout cimport count_of, ddz_ctz64


cdef inline uint64_t fmix64(uint64_t z) noexcept nogil:
    """A bijective 64-bit mixer (splitmix64's finaliser): nearby inputs, unrelated outputs."""
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline uint64_t zobrist_number(int seat, int symbol, unsigned count) noexcept nogil:
    """The number of `count` cards of `symbol` in seat's hand (0 for count 0)."""
    if count == 0:
        return 0
    return fmix64((<uint64_t>((seat * 17 + symbol) * 8 + count) + 1) * 0x9E3779B97F4A7C15ULL)


cdef inline uint64_t zobrist_cards(int seat, uint64_t cards) noexcept nogil:
    """The key of a whole hand, from scratch."""
    cdef uint64_t key = 0
    cdef int symbol
    while cards:
        symbol = ddz_ctz64(cards) // 3
        key ^= zobrist_number(seat, symbol, count_of(cards, symbol))
        cards &= ~((<uint64_t>7) << (3 * symbol))
    return key


cdef inline uint64_t zobrist_change(int seat, uint64_t before, uint64_t after) noexcept nogil:
    """What to XOR into a key when seat's hand goes from `before` to `after`: only the
    symbols whose count changed cost anything."""
    cdef uint64_t key = 0
    cdef uint64_t changed = before ^ after
    cdef int symbol
    while changed:
        symbol = ddz_ctz64(changed) // 3
        key ^= (zobrist_number(seat, symbol, count_of(before, symbol))
                ^ zobrist_number(seat, symbol, count_of(after, symbol)))
        changed &= ~((<uint64_t>7) << (3 * symbol))
    return key
