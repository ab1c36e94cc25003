# cython: cdivision=True
# (A header's inline functions take its own directives, not the .pyx's that compiles it in:
# C division, as when they were in uno.pyx.)
#
# UNO's legality and scoring, as inline C on uno_state.pxd: the legal actions (stacking,
# jump-ins, UNO calls and catches), check()'s reasons, the turn actions the vector steps, the
# hands' points and the rewards, and random playouts. uno.pyx and uno_vector.pyx both
# compile it in.

from libc.stdint cimport uint64_t
from ddz._core.rng cimport below
from ddz._core.uno_layout cimport *
from ddz._core.uno_state cimport *

# --- what may be played ---------------------------------------------------------------------

cdef inline int turn_plays(const UnoState* s, int flags, int* out) noexcept nogil:
    """The cards the player to act may play now, as PLAY codes (a wild once per colour)."""
    cdef int n = 0, seat = s.current, kind, colour, first = 0, last = KINDS
    if s.drawn >= 0:
        first = s.drawn
        last = s.drawn + 1
    for kind in range(first, last):
        if s.hands[seat][kind] == 0:
            continue
        if s.pending > 0:
            if face_of(kind) != s.pending_face:
                continue
        elif s.drawn < 0 and not matches(s, kind):
            continue
        if is_last_wd4(s, flags, seat, kind):
            continue
        if kind < WILD:
            out[n] = make_action(PLAY, seat, kind, colour_of(kind))
            n += 1
        else:
            for colour in range(4):
                out[n] = make_action(PLAY, seat, kind, colour)
                n += 1
    return n


cdef inline int legal(const UnoState* s, int flags, int* out) noexcept nogil:
    """Every action any player may take now (see the module docstring), into out."""
    cdef int n = 0, seat = s.current, other, colour, top
    if s.over != PLAYING:
        return 0
    if s.colour < 0:
        for colour in range(4):
            out[n] = make_action(COLOUR, seat, 0, colour)
            n += 1
        return n
    n = turn_plays(s, flags, out)
    if s.drawn >= 0:
        out[n] = make_action(KEEP, seat, 0, 0)
        n += 1
    elif s.pending > 0 or n == 0 or can_draw(s, flags):
        # Drawing is always allowed, except as a way to pass: with nothing left to draw, a
        # player who can play must play (a player who cannot ends the round, blocked).
        out[n] = make_action(DRAW, seat, 0, 0)
        n += 1
    if (flags & F_CALL_OUT) and s.uno_seat >= 0:
        out[n] = make_action(UNO, s.uno_seat, 0, 0)
        n += 1
        for other in range(s.players):
            if other != s.uno_seat:
                out[n] = make_action(CATCH, other, s.uno_seat, 0)
                n += 1
    if (flags & F_JUMP_IN) and s.jump_seat >= 0:
        top = s.discard[s.n_discard - 1]
        if top < WILD:
            for other in range(s.players):
                if is_jump_in(s, flags, other, top):
                    out[n] = make_action(PLAY, other, top, colour_of(top))
                    n += 1
    return n


cdef inline bint has_turn_play(const UnoState* s, int flags) noexcept nogil:
    cdef int buffer[MAX_ACTIONS]
    return turn_plays(s, flags, buffer) > 0


cdef inline int check(const UnoState* s, int flags, int action) noexcept nogil:
    """OK if action is legal now, WRONG_JUMP_IN if it is a punished out-of-turn play, else
    the reason it is not legal (R_*)."""
    cdef int kind = action & 7, seat = (action >> 3) & 15, card = (action >> 7) & 63
    cdef int colour = (action >> 13) & 3
    if action < 0 or action >> 15:
        return R_MALFORMED
    if s.over != PLAYING:
        return R_OVER
    if seat >= s.players:
        return R_BAD_PLAYER
    if kind == PLAY:
        if card >= KINDS or (card < WILD and colour != colour_of(card)):
            return R_MALFORMED
        if s.hands[seat][card] == 0:
            return R_NOT_HELD
        if seat != s.current:
            if is_jump_in(s, flags, seat, card):
                return OK
            return WRONG_JUMP_IN if flags & F_JUMP_IN else R_NOT_YOUR_TURN
        if s.colour < 0:
            return R_CHOOSE_COLOUR
        if s.drawn >= 0 and card != s.drawn:
            return R_ONLY_DRAWN
        if s.pending > 0 and face_of(card) != s.pending_face:
            return R_MUST_STACK
        if is_last_wd4(s, flags, seat, card):
            return R_LAST_WD4
        if s.pending == 0 and s.drawn < 0 and not matches(s, card):
            return R_NO_MATCH
        return OK
    # The other actions leave the fields they do not use zero: one action, one code.
    if (kind == COLOUR and card != 0) or (kind != COLOUR and colour != 0) or (
            kind != CATCH and kind != COLOUR and card != 0):
        return R_MALFORMED
    if kind == DRAW:
        if seat != s.current:
            return R_NOT_YOUR_TURN
        if s.colour < 0:
            return R_CHOOSE_COLOUR
        if s.drawn >= 0:
            return R_ALREADY_DREW
        if s.pending == 0 and not can_draw(s, flags) and has_turn_play(s, flags):
            return R_NO_DRAW
        return OK
    if kind == KEEP:
        if seat != s.current:
            return R_NOT_YOUR_TURN
        if s.drawn < 0:
            return R_NOTHING_TO_KEEP
        return OK
    if kind == UNO or kind == CATCH:
        if not (flags & F_CALL_OUT):
            return R_RULE_OFF
        if kind == UNO:
            return OK if seat == s.uno_seat else R_NO_UNO
        if card >= s.players or card != s.uno_seat or card == seat:
            return R_NO_CATCH
        return OK
    if kind == COLOUR:
        if seat != s.current:
            return R_NOT_YOUR_TURN
        if s.colour >= 0:
            return R_NO_CHOICE
        return OK
    return R_MALFORMED


cdef inline int turn_codes(const UnoState* s, int flags, int* out) noexcept nogil:
    """The legal actions of the player to act that take their turn (legal() without the UNO
    calls, catches and jump-ins), into out; how many."""
    cdef int buffer[MAX_ACTIONS]
    cdef int n = legal(s, flags, buffer), m = 0, i, kind
    for i in range(n):
        kind = buffer[i] & 7
        if ((buffer[i] >> 3) & 15) == s.current and kind != UNO and kind != CATCH:
            out[m] = buffer[i]
            m += 1
    return m


# --- scoring and playouts ------------------------------------------------------------------

cdef inline int points_of(int kind) noexcept nogil:
    if kind >= WILD:
        return 50
    if face_of(kind) >= SKIP:
        return 20
    return face_of(kind)


cdef inline int hand_points(const UnoState* s, int seat) noexcept nogil:
    cdef int kind, total = 0
    for kind in range(KINDS):
        total += s.hands[seat][kind] * points_of(kind)
    return total


cdef inline int eager_choices(int* buffer, int n) noexcept nogil:
    """RLCard's policy: keep the actions that are not DRAW or KEEP, when there are any (a
    player draws only when they cannot play, and plays a playable card they drew); how many
    are left at the front of buffer."""
    cdef int i, m = 0
    for i in range(n):
        if (buffer[i] & 7) != DRAW and (buffer[i] & 7) != KEEP:
            buffer[m] = buffer[i]
            m += 1
    return m if m > 0 else n


cdef inline int playout(UnoState* s, int flags, uint64_t* rng, int max_steps,
                        bint eager) noexcept nogil:
    """Play random legal actions (any player's) until the round ends or max_steps actions;
    the number of actions taken. Uniform over every legal action, or (eager) over those
    that are not DRAW or KEEP when there are any: a player draws only when they cannot play
    and plays a playable card they drew, as RLCard's UNO requires."""
    cdef int buffer[MAX_ACTIONS]
    cdef int n, steps = 0
    while s.over == PLAYING and steps < max_steps:
        n = legal(s, flags, buffer)
        if eager:
            n = eager_choices(buffer, n)
        apply(s, flags, buffer[below(rng, n)])
        steps += 1
    return steps


cdef inline void round_rewards(const UnoState* s, bint points, double* out) noexcept nogil:
    """The rewards of a finished round, one a seat: points, minus each hand's golf value;
    else +1 for the player who went out and -1/(players-1) for the others (0 when
    blocked)."""
    cdef int seat
    for seat in range(s.players):
        if points:
            out[seat] = -hand_points(s, seat)
        elif s.winner < 0:
            out[seat] = 0.0
        elif seat == s.winner:
            out[seat] = 1.0
        else:
            out[seat] = -1.0 / (s.players - 1)


cdef inline int turn_playout(UnoState* s, int flags, uint64_t* rng, bint eager) noexcept nogil:
    """Play random turn actions (uniform, or eager as in playout) to the round's end; the
    number of actions taken."""
    cdef int buffer[MAX_ACTIONS]
    cdef int n, steps = 0
    while s.over == PLAYING:
        n = turn_codes(s, flags, buffer)
        if eager:
            n = eager_choices(buffer, n)
        apply(s, flags, buffer[below(rng, n)])
        steps += 1
    return steps
