# The observation vector in C: what one seat may know, as int8 numbers (the layout is
# ddz.doudizhu.observation's observation_layout, defined there once and checked against these
# constants by tests/test_observation_vector.py: the base part is OBSERVATION_LAYOUT,
# Observation.encode()'s vector, written by encode_fields; the history part follows). game.pyx (one game, its history from the undo stack) and
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


cdef inline void encode_fields(int8_t* out, int player, int seats, uint64_t hand,
                               const uint64_t* played, const int* counts, int landlord,
                               uint64_t kitty, uint64_t table, int table_player, int phase,
                               int bid, int multiplier_log2, int current,
                               int direction) noexcept nogil:
    """Observation.encode() from its fields (OBSERVATION_LAYOUT, OBS_BASE entries): the one
    definition of the base encoding. Seats are given absolute and written relative to
    `player`; -1 is "none" for landlord, table_player and current. The kitty's counts are
    written as given (0 while not shown), the table's kind one-hot when there is a table.
    The caller checked every number's range (encode_observation, encode_base)."""
    cdef int i, k, offset = 0
    cdef uint64_t table_cards
    memset(out, 0, OBS_BASE)
    for i in range(17):
        out[i] = <int8_t>count_of(hand, i)
    offset = 17
    for k in range(seats):
        for i in range(17):
            out[offset + 17 * k + i] = <int8_t>count_of(played[(player + k) % seats], i)
    offset += 51
    for k in range(seats):
        out[offset + k] = <int8_t>counts[(player + k) % seats]
    offset += 3
    if landlord >= 0:
        out[offset + (landlord - player + seats) % seats] = 1
    for i in range(17):
        out[offset + 3 + i] = <int8_t>count_of(kitty, i)
    offset += 3 + 17
    if table:
        table_cards = code_cards(table)
        for i in range(17):
            out[offset + i] = <int8_t>count_of(table_cards, i)
        out[offset + 20 + code_kind(table)] = 1
    if table_player >= 0:
        out[offset + 17 + (table_player - player + seats) % seats] = 1
    offset += 17 + 3 + 17
    out[offset + phase] = 1
    offset += 3
    out[offset + bid] = 1
    offset += 4
    out[offset] = <int8_t>multiplier_log2
    offset += 1
    if current >= 0:
        out[offset + (current - player + seats) % seats] = 1
    offset += 3
    out[offset] = <int8_t>direction


cdef inline void encode_base(const GameState* s, const GameConfig* cfg, int player,
                             int8_t* out) noexcept nogil:
    """Observation.encode() of `player` in state `s` (OBSERVATION_LAYOUT); all zero for
    player < 0."""
    cdef int k
    cdef int counts[3]
    cdef long long points
    if player < 0:
        memset(out, 0, OBS_BASE)
        return
    for k in range(s.players):
        counts[k] = card_total(s.hands[k])
    points = score(s, cfg)
    encode_fields(out, player, s.players, s.hands[player], s.played, counts, s.landlord,
                  s.kitty if s.landlord >= 0 else 0, s.table,
                  s.table_player if s.table else -1, s.phase, s.bid,
                  log2_floor(points) if points > 0 else 0, s.current, s.direction)


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
