# The observation vector in C: what one seat may know, as int8 numbers (game.py's
# observation_layout: the base part is OBSERVATION_LAYOUT, Observation.encode()'s vector;
# the history part follows). game.pyx (one game, its history from the undo stack) and
# vector.pyx (many games, each with a ring of its last moves) both compile it in.

from libc.stdint cimport uint64_t, int8_t
from libc.string cimport memset

from ddz._core.layout cimport *
from ddz._core.state cimport GameState, GameConfig, score

cdef enum:
    OBS_BASE = 140          # ddz.OBSERVATION_SIZE: Observation.encode()'s fields
    OBS_BOMBS = 1           # bombs and rockets played so far
    HISTORY_ENTRY = 20      # a past move: its cards (17 counts), who played it (3, relative)
    MAX_HISTORY = 1024      # the most moves a vector may look back (a bound, not a cost)


cdef inline Py_ssize_t observation_size(int history) noexcept nogil:
    """Entries of the observation vector with `history` past moves."""
    return OBS_BASE + OBS_BOMBS + HISTORY_ENTRY * history


cdef inline int log2_floor(long long value) noexcept nogil:
    cdef int bits = 0
    while value > 1:
        value >>= 1
        bits += 1
    return bits


cdef inline void encode_base(const GameState* s, const GameConfig* cfg, int player,
                             int8_t* out) noexcept nogil:
    """Observation.encode() of `player` (OBSERVATION_LAYOUT); all zero for player < 0."""
    cdef int i, k, seat, seats = s.players, offset = 0
    cdef uint64_t table_cards
    cdef long long points
    memset(out, 0, OBS_BASE)
    if player < 0:
        return
    for i in range(17):
        out[i] = <int8_t>count_of(s.hands[player], i)
    offset = 17
    for k in range(seats):
        seat = (player + k) % seats
        for i in range(17):
            out[offset + 17 * k + i] = <int8_t>count_of(s.played[seat], i)
    offset += 51
    for k in range(seats):
        out[offset + k] = <int8_t>card_total(s.hands[(player + k) % seats])
    offset += 3
    if s.landlord >= 0:
        out[offset + (s.landlord - player + seats) % seats] = 1
        for i in range(17):
            out[offset + 3 + i] = <int8_t>count_of(s.kitty, i)
    offset += 3 + 17
    if s.table:
        table_cards = code_cards(s.table)
        for i in range(17):
            out[offset + i] = <int8_t>count_of(table_cards, i)
        out[offset + 17 + (s.table_player - player + seats) % seats] = 1
        out[offset + 20 + code_kind(s.table)] = 1
    offset += 17 + 3 + 17
    out[offset + s.phase] = 1
    offset += 3
    out[offset + s.bid] = 1
    offset += 4
    points = score(s, cfg)
    out[offset] = <int8_t>log2_floor(points) if points > 0 else 0
    offset += 1
    if s.current >= 0:
        out[offset + (s.current - player + seats) % seats] = 1
    offset += 3
    out[offset] = <int8_t>s.direction


cdef inline void encode_entry(int8_t* out, uint64_t code, int seat, int player,
                              int seats) noexcept nogil:
    """One past move of the history part: its cards' counts (all zero for a pass) and who
    played it, one-hot relative to `player` (out is already zero)."""
    cdef int i
    cdef uint64_t cards = code_cards(code)
    if cards:
        for i in range(17):
            out[i] = <int8_t>count_of(cards, i)
    out[17 + (seat - player + seats) % seats] = 1
