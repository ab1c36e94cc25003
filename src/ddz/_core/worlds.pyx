# cython: language_level=3, cdivision=True
"""Sampled worlds, in C: the cards a seat cannot see, dealt among their possible holders with
the probabilities a uniformly random physical deal gives them.

The Python layer (ddz.doudizhu.worlds) works out what the seat knows: the pool of cards it cannot
place, how many of them each holder has now (each other seat, the unseen kitty, and last the
cards set aside), and for each holder the cards it held at the deal and has since played
(`played`: a seat's plays, less the kitty cards for the landlord).

Why the plays matter: the deal was uniform over physical cards, and a seat that played a 5
had at least one 5 when the cards were dealt. Counting the physical deals behind a world
(each holder's cards now plus its plays, as dealt), a world in which holder h has x_r cards
of rank r now has weight proportional to prod over h, r of 1 / (x_r + played_r)! -- not
1 / x_r!, which dealing the pool uniformly would give. (Two Js unseen, one J and one 7 in the
pool, a farmer who played a J: the farmer was dealt JJ in one physical deal and J7 in two, so
it holds the J now with probability 1/3, not 1/2.)

`sample_deals` draws exactly from that distribution, rank by rank: a dynamic programme over
the ranks counts, for each way of splitting the remaining ranks' cards among the holders'
remaining room, the total weight of the deals that complete it; each world then splits each
rank's cards in proportion to the weight of the deals each split leaves. Floating point:
the probabilities are exact up to double rounding (about 1e-15, relative).
"""

from libc.stdint cimport uint64_t, int64_t
from libc.stdlib cimport malloc, free

from ddz._core.layout cimport NUM_DIGITS, count_of, digit
from ddz._core.rng cimport splitmix64

cdef enum:
    MAX_HOLDERS = 4         # two other seats, the unseen kitty, the cards set aside
    MAX_SPLITS = 35         # ways to split 4 cards among 4 holders: C(7, 3)
    MAX_STATES = 1 << 16    # the programme's table: 18 x 64 K doubles at most (9 MB)

cdef double INVERSE_FACTORIAL[9]
INVERSE_FACTORIAL[:] = [1.0, 1.0, 1 / 2.0, 1 / 6.0, 1 / 24.0, 1 / 120.0, 1 / 720.0,
                        1 / 5040.0, 1 / 40320.0]


cdef int splits_of(int count, int holders, int* out) noexcept nogil:
    """Every way to split `count` cards among `holders` holders (holders ints each, into out);
    how many."""
    cdef int n = 0, a, b, c
    if holders == 1:
        out[0] = count
        return 1
    for a in range(count + 1):
        if holders == 2:
            out[2 * n] = a
            out[2 * n + 1] = count - a
            n += 1
            continue
        for b in range(count - a + 1):
            if holders == 3:
                out[3 * n] = a
                out[3 * n + 1] = b
                out[3 * n + 2] = count - a - b
                n += 1
                continue
            for c in range(count - a - b + 1):
                out[4 * n] = a
                out[4 * n + 1] = b
                out[4 * n + 2] = c
                out[4 * n + 3] = count - a - b - c
                n += 1
    return n


cdef inline double uniform01(uint64_t* rng) noexcept nogil:
    return (splitmix64(rng) >> 11) * (1.0 / 9007199254740992.0)


def sample_deals(uint64_t pool, int64_t[::1] sizes, uint64_t[::1] played, uint64_t seed,
                 uint64_t[:, ::1] out):
    """Deal `pool` (a card integer) out.shape[0] times among len(sizes) holders, holder h
    getting sizes[h] cards, with the weights of the module docstring (played[h]: the cards
    holder h has played since the deal). Seeded: the same seed, the same worlds. ValueError
    for sizes that do not add up to the pool or arrays of the wrong shape; returns the total
    weight of the deals (0.0: no deal is consistent, and out is left unwritten)."""
    cdef int holders = sizes.shape[0], free_holders, h, r, i, k, splits, chosen
    cdef int pool_counts[NUM_DIGITS]
    cdef int remaining[NUM_DIGITS + 1]
    cdef int radix[MAX_HOLDERS]
    cdef int stride[MAX_HOLDERS]
    cdef int caps[MAX_HOLDERS]
    cdef int split_table[NUM_DIGITS][MAX_SPLITS * MAX_HOLDERS]
    cdef int split_count[NUM_DIGITS]
    cdef double split_weight[NUM_DIGITS][MAX_SPLITS]
    cdef Py_ssize_t states = 1, s, t, world, n = out.shape[0]
    cdef double* table
    cdef double total, target, acc, weight
    cdef uint64_t rng = seed, hand
    cdef int64_t needed = 0
    cdef bint fits
    cdef uint64_t hands[MAX_HOLDERS]
    if not 1 <= holders <= MAX_HOLDERS or played.shape[0] != holders \
            or out.shape[1] != holders:
        raise ValueError("one size, one played set and one column a holder (1 to 4)")
    if pool >> (3 * NUM_DIGITS):
        raise ValueError("not a card integer")
    for h in range(holders):
        if played[h] >> (3 * NUM_DIGITS):
            raise ValueError("not a card integer")
        if not 0 <= sizes[h] <= 64:
            raise ValueError("a holder holds 0 to 64 cards")
        needed += sizes[h]
    remaining[NUM_DIGITS] = 0
    for r in range(NUM_DIGITS - 1, -1, -1):
        pool_counts[r] = count_of(pool, r)
        if pool_counts[r] > 4:      # more than a deck holds: MAX_SPLITS assumes at most 4
            raise ValueError("not a card integer: a digit above 4")
        remaining[r] = remaining[r + 1] + pool_counts[r]
    if needed != remaining[0]:
        raise ValueError(f"the holders hold {needed} cards; the pool has {remaining[0]}")
    # the table's states: the room left in each holder but the last (whose room follows)
    free_holders = holders - 1
    for h in range(free_holders):
        radix[h] = <int>sizes[h] + 1
        stride[h] = <int>states
        states *= radix[h]
    if states > MAX_STATES:
        raise ValueError("too many states to count")
    for r in range(NUM_DIGITS):
        split_count[r] = splits_of(pool_counts[r], holders, split_table[r])
        for i in range(split_count[r]):
            weight = 1.0
            for h in range(holders):
                k = split_table[r][i * holders + h] + <int>count_of(played[h], r)
                weight *= INVERSE_FACTORIAL[k] if k <= 8 else 0.0
            split_weight[r][i] = weight
    table = <double*>malloc((NUM_DIGITS + 1) * states * sizeof(double))
    if table == NULL:
        raise MemoryError()
    try:
        with nogil:
            # table[r * states + s]: the weight of the ways to deal ranks r.. into room s
            for s in range(states):
                table[NUM_DIGITS * states + s] = 1.0 if s == 0 else 0.0
            for r in range(NUM_DIGITS - 1, -1, -1):
                for s in range(states):
                    total = 0.0
                    t = s
                    k = remaining[r]           # the last holder's room: what the others lack
                    for h in range(free_holders):
                        caps[h] = <int>(t % radix[h])
                        t //= radix[h]
                        k -= caps[h]
                    if 0 <= k <= sizes[holders - 1]:
                        for i in range(split_count[r]):
                            fits = split_table[r][i * holders + holders - 1] <= k
                            for h in range(free_holders):
                                if split_table[r][i * holders + h] > caps[h]:
                                    fits = False
                            if fits:
                                total += split_weight[r][i] * table[
                                    (r + 1) * states + s
                                    - split_offset(split_table[r], i, holders, stride)]
                    table[r * states + s] = total
            s = 0
            for h in range(free_holders):
                s += sizes[h] * stride[h]
            total = table[s]
            if total > 0.0:
                for world in range(n):
                    for h in range(holders):
                        hands[h] = 0
                    t = s
                    for r in range(NUM_DIGITS):
                        for h in range(free_holders):
                            caps[h] = <int>((t // stride[h]) % radix[h])
                        k = remaining[r]
                        for h in range(free_holders):
                            k -= caps[h]
                        target = uniform01(&rng) * table[r * states + t]
                        acc = 0.0
                        chosen = -1
                        for i in range(split_count[r]):
                            fits = split_table[r][i * holders + holders - 1] <= k
                            for h in range(free_holders):
                                if split_table[r][i * holders + h] > caps[h]:
                                    fits = False
                            if not fits:
                                continue
                            weight = split_weight[r][i] * table[
                                (r + 1) * states + t - split_offset(split_table[r], i,
                                                                    holders, stride)]
                            if weight <= 0.0:
                                continue
                            chosen = i          # the last split with weight, for rounding
                            acc += weight
                            if target < acc:
                                break
                        for h in range(holders):
                            hands[h] += digit(r, <uint64_t>split_table[r][chosen * holders + h])
                        t -= split_offset(split_table[r], chosen, holders, stride)
                    for h in range(holders):
                        out[world, h] = hands[h]
    finally:
        free(table)
    return total


cdef inline Py_ssize_t split_offset(const int* splits, int i, int holders,
                                    const int* stride) noexcept nogil:
    """How far a split moves the table's state: the room it takes from each free holder."""
    cdef Py_ssize_t offset = 0
    cdef int h
    for h in range(holders - 1):
        offset += splits[i * holders + h] * stride[h]
    return offset
