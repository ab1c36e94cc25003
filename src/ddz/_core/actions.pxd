# Legal actions in C: the legal action codes of a game state, a uniformly random one (the
# random agent), and a table from action code to action index (ddz.ActionSpace's numbering),
# shared read-only by every game of a rule set. game.pyx and vector.pyx cimport it to hand out
# legal codes, indices, masks and packed masks without leaving C; vector.pyx and playouts.pyx
# draw their random actions from it.

from libc.stdint cimport uint64_t, int32_t
from libc.stdlib cimport malloc, free

from ddz._core.readings cimport Sink
from ddz._core.rng cimport below_fast
from ddz._core.generator cimport generate
from ddz._core.state cimport GameState, GameConfig, BIDDING, OVER, bidding_actions

ctypedef struct IndexTable:
    const uint64_t* keys    # open addressing, linear probing; ~0 marks an empty slot
    const int32_t* values   # the action index of each key
    const uint64_t* codes   # the code of each action index
    int bits                # the table has 1 << bits slots
    Py_ssize_t size         # how many actions


cdef class ActionIndex:
    cdef uint64_t* keys
    cdef int32_t* values
    cdef uint64_t* codes
    cdef IndexTable table


cdef inline int index_of(const IndexTable* t, uint64_t code) noexcept nogil:
    """The action index of a code, or -1 when the code is not in the space."""
    cdef uint64_t slot = (code * 0x9E3779B97F4A7C15ULL) >> (64 - t.bits)
    cdef uint64_t last = (1ULL << t.bits) - 1
    while True:
        if t.keys[slot] == code:
            return t.values[slot]
        if t.keys[slot] == 0xFFFFFFFFFFFFFFFFULL:
            return -1
        slot = (slot + 1) & last


cdef inline int legal_codes(const GameState* s, const GameConfig* cfg, uint64_t* codes,
                            Py_ssize_t cap) noexcept nogil:
    """The legal action codes of the player to act, in the engine's order (the pass first
    when answering); returns how many there are, which may exceed cap (only cap written).
    cap must be at least 8 (the bidding actions)."""
    cdef Sink sink
    if s.phase == BIDDING:
        return bidding_actions(s, cfg, codes)
    if s.phase == OVER:
        return 0
    sink.out = codes
    sink.cap = cap
    sink.n = 0
    generate(s.hands[s.current], s.table, &cfg.rs, &sink)
    return <int>sink.n


cdef inline uint64_t random_legal(const GameState* s, const GameConfig* cfg, uint64_t* rng,
                                  uint64_t* codes, Py_ssize_t cap) noexcept nogil:
    """A uniformly random legal action of the player to act, drawn from rng (below_fast:
    simulate's random agents, VectorGame.sample_legal and the playouts' epsilon moves share
    this stream); 0 when there is none (the game is over, or a stuck state that the callers
    end). codes: scratch room for cap codes (at least 8); a hand with more legal moves than
    that lists them on the heap (without memory: a draw among the first cap)."""
    cdef int n = legal_codes(s, cfg, codes, cap)
    cdef uint64_t* heap
    cdef uint64_t chosen
    if n == 0:
        return 0
    if n <= cap:
        return codes[below_fast(rng, n)]
    heap = <uint64_t*>malloc(n * sizeof(uint64_t))
    if heap == NULL:
        return codes[below_fast(rng, <unsigned>cap)]
    legal_codes(s, cfg, heap, n)
    chosen = heap[below_fast(rng, n)]
    free(heap)
    return chosen
