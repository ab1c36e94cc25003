# cython: cdivision=True
# (A header's inline functions take its own directives, not the .pyx's that compiles it in:
# C division, as when they were in uno.pyx.)
#
# UNO's observation vector in C: what one seat may know, as int8 numbers (Observation.encode(),
# game.py's OBSERVATION_LAYOUT). uno.pyx (one round) and uno_vector.pyx (many) both compile
# it in.

from libc.stdint cimport int8_t
from libc.string cimport memset
from ddz._core.uno_layout cimport *
from ddz._core.uno_state cimport UnoState

cdef enum:
    OBS_SIZE = 267             # ddz.uno.OBSERVATION_SIZE (game.py's OBSERVATION_LAYOUT)


cdef inline void encode(const UnoState* s, int player, int8_t* out) noexcept nogil:
    """Observation.encode() of `player`, in C (game.py's OBSERVATION_LAYOUT)."""
    cdef int i, seats = s.players
    memset(out, 0, OBS_SIZE)
    for i in range(KINDS):
        out[i] = <int8_t>s.hands[player][i]
    out[54 + s.discard[s.n_discard - 1]] = 1
    if s.colour >= 0:
        out[108 + s.colour] = 1
    for i in range(s.n_discard):
        out[112 + s.discard[i]] += 1
    for i in range(seats):
        out[166 + i] = <int8_t>s.sizes[(player + i) % seats]
        out[176 + i] = 1
    if s.current >= 0:
        out[186 + (s.current - player + seats) % seats] = 1
    out[196] = s.direction
    out[197] = s.pending
    if s.pending > 0:
        out[198 + (1 if s.pending_face == FACE_WILD_DRAW_FOUR else 0)] = 1
    if s.drawn >= 0:
        if player == s.current:
            out[200 + s.drawn] = 1
        out[254] = 1
    if s.uno_seat >= 0:
        out[255 + (s.uno_seat - player + seats) % seats] = 1
    out[265] = 1 if s.jump_seat >= 0 else 0
    out[266] = <int8_t>s.n_draw
