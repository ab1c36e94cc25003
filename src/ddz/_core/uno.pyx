# cython: language_level=3, cdivision=True
"""One round of UNO (docs/uno.md), stepped in C: deal, first card, turns, house rules.

A UnoCore holds one UnoState struct (plain integers and byte arrays, no Python objects) and a
stack of earlier states, so undo restores the state bit for bit and copy is two memcpys.

Cards are *kinds* 0..53, one per distinct card face of the 108-card deck::

    kind = 13 * colour + face        colour 0 red, 1 yellow, 2 green, 3 blue
                                     face 0..9 the numbers, 10 Skip, 11 Reverse, 12 Draw Two
    kind 52 Wild, kind 53 Wild Draw Four

A hand is a count per kind; the draw pile and the discard pile are arrays of kinds in order
(the draw pile's top is its *last* entry, so drawing is a pop; the discard pile's top is its
last entry too).

An action is one small integer (the layout below). ``legal`` lists every action any player
may take now: the turn actions of the player to act, the UNO call of a player on one card,
everyone else's catch of that player, and the jump-ins of players holding the twin of the
card just played. ``check`` says why an action is not legal (0 when it is, WRONG_JUMP_IN for
an out-of-turn play the house rules punish instead of forbidding); ``push`` applies an action
without checking it.

Action code layout (15 bits)::

    bits  0-2   type: PLAY, DRAW, KEEP, UNO, CATCH, COLOUR
    bits  3-6   the acting player, 0..9
    bits  7-12  PLAY: the card kind; CATCH: the caught player
    bits 13-14  PLAY: the colour the card sets (its own colour, or a wild's chosen colour);
                COLOUR: the starting colour the first player chooses on a Wild
"""

from libc.stdint cimport uint8_t, int8_t, int16_t, int32_t, int64_t, uint64_t
from libc.stdlib cimport malloc, realloc, free
from libc.string cimport memcpy, memset
from ddz._core.rng cimport below, splitmix64
from ddz._core.zobrist cimport fmix64
from libc.string cimport memcmp

cdef enum:
    MAX_PLAYERS = 10
    KINDS = 54
    DECK_SIZE = 108
    HAND_SIZE = 7
    WILD = 52
    WILD_DRAW_FOUR = 53
    SKIP = 10              # faces
    REVERSE = 11
    DRAW_TWO = 12
    FACE_WILD = 13
    FACE_WILD_DRAW_FOUR = 14
    MAX_ACTIONS = 128      # a hand's plays (<= 52 + 8) + draw + call + catches + jump-ins

cdef enum:
    PLAY = 0
    DRAW = 1
    KEEP = 2
    UNO = 3
    CATCH = 4
    COLOUR = 5

cdef enum:                 # UnoState.over
    PLAYING = 0
    WENT_OUT = 1           # someone played their last card
    BLOCKED = 2            # a player had to draw and no card was left to draw

cdef enum:                 # rule flags, one bit each (ddz.uno.Rules.core_flags)
    F_STACKING = 1
    F_JUMP_IN = 2
    F_CALL_OUT = 4
    F_NO_FINISH_WD4 = 8
    F_RESHUFFLE = 16

cdef enum:                 # reasons check() gives; the Python layer words them
    OK = 0
    WRONG_JUMP_IN = 1      # legal, but punished: the player draws two, nothing else changes
    R_OVER = 2
    R_MALFORMED = 3
    R_BAD_PLAYER = 4
    R_NOT_HELD = 5
    R_NOT_YOUR_TURN = 6
    R_CHOOSE_COLOUR = 7
    R_ONLY_DRAWN = 8
    R_MUST_STACK = 9
    R_LAST_WD4 = 10
    R_NO_MATCH = 11
    R_ALREADY_DREW = 12
    R_NO_DRAW = 13
    R_NOTHING_TO_KEEP = 14
    R_RULE_OFF = 15
    R_NO_UNO = 16
    R_NO_CATCH = 17
    R_NO_CHOICE = 18

# Exported for the Python layer (cdef enums are not visible from Python).
PLAY_, DRAW_, KEEP_, UNO_, CATCH_, COLOUR_ = PLAY, DRAW, KEEP, UNO, CATCH, COLOUR
FLAG_STACKING, FLAG_JUMP_IN, FLAG_CALL_OUT = F_STACKING, F_JUMP_IN, F_CALL_OUT
FLAG_NO_FINISH_WD4, FLAG_RESHUFFLE = F_NO_FINISH_WD4, F_RESHUFFLE
WRONG_JUMP_IN_ = WRONG_JUMP_IN
MAX_PLAYERS_ = MAX_PLAYERS

ctypedef struct UnoState:
    uint64_t rng                        # splitmix64 state: reshuffles are seeded too
    int32_t ply                         # actions taken
    int16_t n_draw                      # cards in the draw pile
    int16_t n_discard                   # cards in the discard pile
    signed char players
    signed char dealer
    signed char current                 # the player to act, -1 once the round is over
    signed char direction               # +1 seat order (to the dealer's left), -1 reversed
    signed char colour                  # the colour to match, -1 while the first player
                                        # chooses one for a starting Wild
    signed char pending                 # stacking: cards owed by the player to act
    signed char pending_face            # DRAW_TWO or FACE_WILD_DRAW_FOUR while pending > 0
    signed char drawn                   # the playable card the player to act just drew, -1
    signed char uno_seat                # on one card and has not called UNO (catchable), -1
    signed char jump_seat               # who played the top card while it may be jumped on
    signed char winner                  # who went out, -1
    signed char over                    # PLAYING, WENT_OUT or BLOCKED
    uint8_t sizes[MAX_PLAYERS]          # cards per hand
    uint8_t hands[MAX_PLAYERS][KINDS]   # count per kind per hand
    uint8_t draw[DECK_SIZE]             # the draw pile, bottom first
    uint8_t discard[DECK_SIZE]          # the discard pile, bottom first
    uint64_t key                        # the state key (uno_key); UnoCore keeps it on push
                                        # and undo, UnoVector computes keys anew


cdef inline void shuffle(uint8_t* cards, int n, uint64_t* rng) noexcept nogil:
    cdef int i, j
    cdef uint8_t tmp
    for i in range(n - 1, 0, -1):
        j = below(rng, i + 1)
        tmp = cards[i]
        cards[i] = cards[j]
        cards[j] = tmp


# --- cards ----------------------------------------------------------------------------------

cdef inline int colour_of(int kind) noexcept nogil:
    return kind // 13 if kind < WILD else -1


cdef inline int face_of(int kind) noexcept nogil:
    return kind % 13 if kind < WILD else kind - WILD + FACE_WILD


cdef inline int make_action(int kind, int player, int card, int colour) noexcept nogil:
    return kind | (player << 3) | (card << 7) | (colour << 13)


cdef inline int next_seat(const UnoState* s, int seat) noexcept nogil:
    return (seat + s.direction + s.players) % s.players


cdef void fill_deck(uint8_t* deck) noexcept nogil:
    """The 108 cards in canonical order: per colour 0, 1, 1, ..., 9, 9, S, S, R, R, +2, +2;
    then four Wilds and four Wild Draw Fours."""
    cdef int n = 0, colour, face, copy
    for colour in range(4):
        for face in range(13):
            for copy in range(1 if face == 0 else 2):
                deck[n] = 13 * colour + face
                n += 1
    for copy in range(4):
        deck[n] = WILD
        n += 1
    for copy in range(4):
        deck[n] = WILD_DRAW_FOUR
        n += 1


# --- drawing --------------------------------------------------------------------------------

cdef inline bint can_draw(const UnoState* s, int flags) noexcept nogil:
    return s.n_draw > 0 or ((flags & F_RESHUFFLE) and s.n_discard > 1)


cdef void refill(UnoState* s) noexcept nogil:
    """The draw pile is empty: keep the top discard, shuffle the rest into a new draw pile."""
    cdef uint8_t top = s.discard[s.n_discard - 1]
    memcpy(s.draw, s.discard, s.n_discard - 1)
    s.n_draw = s.n_discard - 1
    shuffle(s.draw, s.n_draw, &s.rng)
    s.discard[0] = top
    s.n_discard = 1


cdef int draw_one(UnoState* s, int flags, int seat) noexcept nogil:
    """Move the top card of the draw pile to seat's hand; its kind, or -1 if none is left."""
    cdef int kind
    if s.n_draw == 0:
        if not ((flags & F_RESHUFFLE) and s.n_discard > 1):
            return -1
        refill(s)
    s.n_draw -= 1
    kind = s.draw[s.n_draw]
    s.hands[seat][kind] += 1
    s.sizes[seat] += 1
    if seat == s.uno_seat:
        s.uno_seat = -1                 # no longer on one card: nothing left to catch
    return kind


cdef inline void draw_cards(UnoState* s, int flags, int seat, int count) noexcept nogil:
    """A penalty: as many of count cards as there are left to draw."""
    cdef int i
    for i in range(count):
        if draw_one(s, flags, seat) < 0:
            return


# --- what may be played ---------------------------------------------------------------------

cdef inline bint matches(const UnoState* s, int kind) noexcept nogil:
    """Would kind go on the top card in an ordinary turn: a wild, the colour, or the face?"""
    cdef int top
    if kind >= WILD or colour_of(kind) == s.colour:
        return True
    top = s.discard[s.n_discard - 1]
    return top < WILD and face_of(top) == face_of(kind)


cdef inline bint is_last_wd4(const UnoState* s, int flags, int seat, int kind) noexcept nogil:
    """Playing kind would make seat go out on a Wild Draw Four, which the house rule forbids."""
    return kind == WILD_DRAW_FOUR and (flags & F_NO_FINISH_WD4) and s.sizes[seat] == 1


cdef inline bint is_jump_in(const UnoState* s, int flags, int seat, int kind) noexcept nogil:
    """Is seat's play of kind, out of turn, a jump-in: the exact twin of the card just played
    (a coloured card: a wild has no colour of its own to match), by someone other than the
    player to act and the player who played it?"""
    return ((flags & F_JUMP_IN) and s.jump_seat >= 0 and seat != s.current
            and seat != s.jump_seat and kind < WILD and kind == s.discard[s.n_discard - 1]
            and s.hands[seat][kind] > 0)


cdef int turn_plays(const UnoState* s, int flags, int* out) noexcept nogil:
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


cdef int legal(const UnoState* s, int flags, int* out) noexcept nogil:
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


cdef bint has_turn_play(const UnoState* s, int flags) noexcept nogil:
    cdef int buffer[MAX_ACTIONS]
    return turn_plays(s, flags, buffer) > 0


cdef int check(const UnoState* s, int flags, int action) noexcept nogil:
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


# --- acting ---------------------------------------------------------------------------------

cdef void card_effect(UnoState* s, int flags, int seat, int kind) noexcept nogil:
    """What kind does once seat has played it: who acts next, and the penalty. Also used for
    the first card, as if the dealer had played it (so it acts on the first player)."""
    cdef int face = face_of(kind), victim, count
    if face == SKIP:
        s.current = next_seat(s, next_seat(s, seat))
    elif face == REVERSE:
        s.direction = -s.direction
        # With two players a Reverse acts as a Skip: the turn comes back to its player.
        s.current = seat if s.players == 2 else next_seat(s, seat)
    elif face == DRAW_TWO or face == FACE_WILD_DRAW_FOUR:
        count = 2 if face == DRAW_TWO else 4
        if flags & F_STACKING:
            # The next player may stack the same penalty or draw the total (pending).
            s.pending += count
            s.pending_face = face
            s.current = next_seat(s, seat)
        else:
            victim = next_seat(s, seat)
            draw_cards(s, flags, victim, count)
            s.current = next_seat(s, victim)
    else:
        s.current = next_seat(s, seat)


cdef void apply(UnoState* s, int flags, int action) noexcept nogil:
    cdef int kind = action & 7, seat = (action >> 3) & 15, card = (action >> 7) & 63
    cdef int colour = (action >> 13) & 3, drawn
    s.ply += 1
    if kind == PLAY:
        if seat != s.current:
            if not is_jump_in(s, flags, seat, card):
                # A wrong jump-in: two cards, and play goes on from the player to act.
                draw_cards(s, flags, seat, 2)
                return
            s.current = seat                # a jump-in: play continues from the jumper
        # A card played closes the UNO window (the next player acted) and the jump-in window
        # of the card below it.
        s.uno_seat = -1
        s.jump_seat = -1
        s.drawn = -1
        s.hands[seat][card] -= 1
        s.sizes[seat] -= 1
        s.discard[s.n_discard] = card
        s.n_discard += 1
        s.colour = colour
        if s.sizes[seat] == 0:
            # The round ends as the last card lands: a penalty on it is not drawn.
            s.winner = seat
            s.over = WENT_OUT
            s.current = -1
            s.pending = 0
            s.pending_face = 0
            return
        if (flags & F_CALL_OUT) and s.sizes[seat] == 1:
            s.uno_seat = seat
        if (flags & F_JUMP_IN) and card < WILD:
            s.jump_seat = seat
        card_effect(s, flags, seat, card)
    elif kind == DRAW:
        s.uno_seat = -1
        s.jump_seat = -1
        seat = s.current
        if s.pending > 0:
            draw_cards(s, flags, seat, s.pending)
            s.pending = 0
            s.pending_face = 0
            s.current = next_seat(s, seat)
            return
        drawn = draw_one(s, flags, seat)
        if drawn < 0:
            s.over = BLOCKED
            s.current = -1
        elif matches(s, drawn):
            s.drawn = drawn                 # play it or keep it
        else:
            s.current = next_seat(s, seat)
    elif kind == KEEP:
        s.drawn = -1
        s.current = next_seat(s, s.current)
    elif kind == UNO:
        s.uno_seat = -1
    elif kind == CATCH:
        draw_cards(s, flags, card, 2)
        s.uno_seat = -1
    elif kind == COLOUR:
        s.colour = colour


cdef void start(UnoState* s, int flags) noexcept nogil:
    """Flip the first card (a Wild Draw Four goes back into the pile, which is shuffled, and
    another is flipped) and apply it as if the dealer had played it."""
    cdef int top
    while True:
        s.n_draw -= 1
        top = s.draw[s.n_draw]
        if top != WILD_DRAW_FOUR:
            break
        s.n_draw += 1
        shuffle(s.draw, s.n_draw, &s.rng)
    s.discard[s.n_discard] = top
    s.n_discard += 1
    s.colour = colour_of(top)               # -1 for a Wild: the first player chooses
    s.direction = 1
    card_effect(s, flags, s.dealer, top)


cdef int points_of(int kind) noexcept nogil:
    if kind >= WILD:
        return 50
    if face_of(kind) >= SKIP:
        return 20
    return face_of(kind)


cdef int hand_points(const UnoState* s, int seat) noexcept nogil:
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


cdef int playout(UnoState* s, int flags, uint64_t* rng, int max_steps,
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


# --- the boundary ---------------------------------------------------------------------------
#
# apply() trusts its action and the state it is given. These two checks are what the
# Python-facing classes run before trusting anything from outside: an action that passes
# in_bounds cannot make apply() write outside the state (it may still break the *rules*, the
# documented meaning of an unchecked push), and a state that passes valid_state (a restored
# pickle) holds only values apply() and legal() can index with.

cdef bint in_bounds(const UnoState* s, int action) noexcept nogil:
    """Can apply() take action without reading or writing outside the state: a well-formed
    code (one code per action, as check() requires, so every code pushed reads back as an
    Action) of a seat in the game, while the round is on; a play of a card the seat holds; a
    catch of a seat in the game."""
    cdef int kind = action & 7, seat = (action >> 3) & 15, card = (action >> 7) & 63
    cdef int colour = (action >> 13) & 3
    if action < 0 or action >> 15 or s.over != PLAYING or seat >= s.players or s.current < 0:
        return False
    if kind == PLAY:
        return (card < KINDS and (card >= WILD or colour == colour_of(card))
                and s.hands[seat][card] > 0)
    if kind > COLOUR or (kind == COLOUR and card != 0) or (kind != COLOUR and colour != 0):
        return False
    if kind == CATCH:
        return card < s.players
    return kind == COLOUR or card == 0


cdef bint valid_state(const UnoState* s) noexcept nogil:
    """Is s a state the rules could reach, as far as every index the core takes from it goes:
    players, seats, piles and hands in range, and the 108 cards exactly once each."""
    cdef int counts[KINDS]
    cdef uint8_t deck[DECK_SIZE]
    cdef int i, seat, kind, total
    if not 2 <= s.players <= MAX_PLAYERS or not 0 <= s.dealer < s.players:
        return False
    if not 0 <= s.n_draw <= DECK_SIZE or not 1 <= s.n_discard <= DECK_SIZE or s.ply < 0:
        return False
    if s.over == PLAYING:
        if not 0 <= s.current < s.players:
            return False
    elif (s.over != WENT_OUT and s.over != BLOCKED) or s.current != -1:
        return False
    if s.direction != 1 and s.direction != -1 or not -1 <= s.colour <= 3:
        return False
    if s.pending < 0 or (s.pending_face != 0 and s.pending_face != DRAW_TWO
                         and s.pending_face != FACE_WILD_DRAW_FOUR):
        return False
    if not -1 <= s.drawn < KINDS:
        return False
    if not (-1 <= s.uno_seat < s.players and -1 <= s.jump_seat < s.players
            and -1 <= s.winner < s.players):
        return False
    memset(counts, 0, sizeof(counts))
    for i in range(s.n_draw):
        if s.draw[i] >= KINDS:
            return False
        counts[s.draw[i]] += 1
    for i in range(s.n_discard):
        if s.discard[i] >= KINDS:
            return False
        counts[s.discard[i]] += 1
    for seat in range(MAX_PLAYERS):
        total = 0
        for kind in range(KINDS):
            total += s.hands[seat][kind]
            counts[kind] += s.hands[seat][kind]
        if total != s.sizes[seat] or (seat >= s.players and total != 0):
            return False
    fill_deck(deck)
    for i in range(DECK_SIZE):
        counts[deck[i]] -= 1
    for kind in range(KINDS):
        if counts[kind] != 0:
            return False
    return True


cdef int check_flags(int flags) except -1:
    if not 0 <= flags <= F_STACKING | F_JUMP_IN | F_CALL_OUT | F_NO_FINISH_WD4 | F_RESHUFFLE:
        raise ValueError(f"rule flags are 0..31 (ddz.uno.Rules.core_flags), not {flags}")
    return 0


cdef object _BUILD = object()      # UnoCore's constructor token: only its factories build one
MAX_ROUNDS_ = 1 << 22              # the most rounds one UnoVector holds (about 3.7 GB)


# --- the Python-facing object ---------------------------------------------------------------

# --- the state key ----------------------------------------------------------------------
# 64 bits, equal for equal states and, with near certainty, different for different ones
# (docs/positions.md, "The state key"): Zobrist numbers for every hand's count of each kind
# and for each pile entry at its height, mixed with the small fields and the generator's
# state (it decides future reshuffles). Only the ply and the dealer are left out.

cdef inline uint64_t uno_number(int table, int index, int value) noexcept nogil:
    """The Zobrist number of `value` at `index` of a table (0 hands, 1 draw, 2 discard)."""
    return fmix64(((<uint64_t>((table * 1024 + index) * 256 + value)) + 1)
                  * 0x9E3779B97F4A7C15ULL)


cdef inline uint64_t uno_small_key(const UnoState* s) noexcept nogil:
    cdef uint64_t packed = 0
    cdef int i
    cdef signed char fields[11]
    fields[:] = [s.players, s.current, s.direction, s.colour, s.pending, s.pending_face,
                 s.drawn, s.uno_seat, s.jump_seat, s.winner, s.over]
    for i in range(11):
        packed = packed * 0x100000001B3ULL + <uint8_t>fields[i]
    return fmix64(packed + 0x2545F4914F6CDD1DULL) ^ fmix64(s.rng * 0xA0761D6478BD642FULL + 1)


cdef inline uint64_t uno_pile_change(int table, const uint8_t* before, int n_before,
                                     const uint8_t* after, int n_after) noexcept nogil:
    """XOR out the entries above the piles' common bottom, XOR the new ones in."""
    cdef uint64_t key = 0
    cdef int i, common = 0
    while common < n_before and common < n_after and before[common] == after[common]:
        common += 1
    for i in range(common, n_before):
        key ^= uno_number(table, i, before[i])
    for i in range(common, n_after):
        key ^= uno_number(table, i, after[i])
    return key


cdef uint64_t uno_key_change(const UnoState* a, const UnoState* b) noexcept nogil:
    """What to XOR into a's key to get b's: only what differs costs anything."""
    cdef uint64_t key = uno_small_key(a) ^ uno_small_key(b)
    cdef int seat, kind
    for seat in range(MAX_PLAYERS):
        if memcmp(a.hands[seat], b.hands[seat], KINDS) != 0:
            for kind in range(KINDS):
                if a.hands[seat][kind] != b.hands[seat][kind]:
                    if a.hands[seat][kind]:
                        key ^= uno_number(0, seat * KINDS + kind, a.hands[seat][kind])
                    if b.hands[seat][kind]:
                        key ^= uno_number(0, seat * KINDS + kind, b.hands[seat][kind])
    key ^= uno_pile_change(1, a.draw, a.n_draw, b.draw, b.n_draw)
    key ^= uno_pile_change(2, a.discard, a.n_discard, b.discard, b.n_discard)
    return key


cdef uint64_t uno_key(const UnoState* s) noexcept nogil:
    """The state key from scratch."""
    cdef uint64_t key = uno_small_key(s)
    cdef int seat, kind
    for seat in range(MAX_PLAYERS):
        for kind in range(KINDS):
            if s.hands[seat][kind]:
                key ^= uno_number(0, seat * KINDS + kind, s.hands[seat][kind])
    key ^= uno_pile_change(1, s.draw, 0, s.draw, s.n_draw)
    key ^= uno_pile_change(2, s.discard, 0, s.discard, s.n_discard)
    return key


cdef class UnoCore:
    """One round's state and its undo stack (see the module docstring).

    Build one with ``UnoCore.seeded`` (a shuffled deck) or ``UnoCore.arranged`` (a given
    deal); ``UnoCore(...)`` itself is refused, so every core holds a dealt round. The Python
    layer validates its arguments, and these check them again so that no input can crash
    the core: ``push`` skips the rules but refuses (ValueError) any code that would index
    outside the state (see ``in_bounds``). One core is not for two threads at once without a
    lock (``ddz.uno.Game`` holds one); every method runs with the GIL held.
    """

    cdef UnoState s
    cdef UnoState* stack
    cdef int32_t* actions
    cdef Py_ssize_t depth, capacity
    cdef readonly int flags

    def __cinit__(self, int flags, token=None):
        if token is not _BUILD:
            raise TypeError("build a UnoCore with UnoCore.seeded or UnoCore.arranged")
        check_flags(flags)
        self.flags = flags
        self.capacity = 64
        self.stack = <UnoState*>malloc(self.capacity * sizeof(UnoState))
        self.actions = <int32_t*>malloc(self.capacity * sizeof(int32_t))
        if self.stack == NULL or self.actions == NULL:
            raise MemoryError()
        self.depth = 0
        memset(&self.s, 0, sizeof(UnoState))    # padding too: equal states, equal bytes

    def __dealloc__(self):
        free(self.stack)
        free(self.actions)

    cdef void reset(self, int players, int dealer, uint64_t seed):
        self.s.rng = seed
        self.s.players = players
        self.s.dealer = dealer
        self.s.current = -1
        self.s.direction = 1
        self.s.drawn = -1
        self.s.uno_seat = -1
        self.s.jump_seat = -1
        self.s.winner = -1

    @staticmethod
    def seeded(int flags, int players, int dealer, uint64_t seed):
        """A round from a shuffled deck: 7 cards each, dealt one at a time from the dealer's
        left, the rest the draw pile; then the first card."""
        cdef UnoCore core = UnoCore(flags, _BUILD)
        cdef int i, seat
        if not 2 <= players <= MAX_PLAYERS or not 0 <= dealer < players:
            raise ValueError("2..10 players and a dealer among them")
        core.reset(players, dealer, seed)
        fill_deck(core.s.draw)
        core.s.n_draw = DECK_SIZE
        shuffle(core.s.draw, DECK_SIZE, &core.s.rng)
        for i in range(HAND_SIZE * players):
            seat = (dealer + 1 + i) % players
            draw_one(&core.s, 0, seat)
        start(&core.s, flags)
        core.s.key = uno_key(&core.s)
        return core

    @staticmethod
    def arranged(int flags, int dealer, uint64_t seed, hands, draw_pile, discard_pile):
        """A round from a given deal: hands (a sequence of kind sequences), the draw pile
        (kinds, the next card to draw first) and the discard pile (bottom first). Together
        they must be the 108 cards, and the draw pile must hold a card other than a Wild Draw
        Four to flip. The first card is flipped from the draw pile as in a seeded round."""
        cdef UnoCore core = UnoCore(flags, _BUILD)
        cdef Py_ssize_t players = len(hands), seat, i, n
        cdef int kind
        cdef int counts[KINDS]
        cdef uint8_t deck[DECK_SIZE]
        if not 2 <= players <= MAX_PLAYERS or not 0 <= dealer < players:
            raise ValueError("2..10 players and a dealer among them")
        hands = [list(hand) for hand in hands]
        draw_pile = list(draw_pile)
        discard_pile = list(discard_pile)
        # Lengths first: nothing is written until every part fits the deck.
        if (sum(len(hand) for hand in hands) + len(draw_pile) + len(discard_pile)
                != DECK_SIZE):
            raise ValueError("the deal is not the 108 cards of the deck")
        core.reset(<int>players, dealer, seed)
        memset(counts, 0, sizeof(counts))
        for seat in range(players):
            for kind in hands[seat]:
                if not 0 <= kind < KINDS:
                    raise ValueError(f"no card kind {kind}")
                core.s.hands[seat][kind] += 1
                core.s.sizes[seat] += 1
                counts[kind] += 1
        n = len(draw_pile)
        for i in range(n):
            kind = draw_pile[n - 1 - i]
            if not 0 <= kind < KINDS:
                raise ValueError(f"no card kind {kind}")
            core.s.draw[i] = kind
            counts[kind] += 1
        core.s.n_draw = n
        for i, kind in enumerate(discard_pile):
            if not 0 <= kind < KINDS:
                raise ValueError(f"no card kind {kind}")
            core.s.discard[i] = kind
            counts[kind] += 1
        core.s.n_discard = len(discard_pile)
        fill_deck(deck)
        for i in range(DECK_SIZE):
            counts[deck[i]] -= 1
        for kind in range(KINDS):
            if counts[kind] != 0:
                raise ValueError("the deal is not the 108 cards of the deck")
        for i in range(core.s.n_draw):
            if core.s.draw[i] != WILD_DRAW_FOUR:
                break
        else:
            raise ValueError("the draw pile needs a card other than a Wild Draw Four to flip")
        start(&core.s, flags)
        core.s.key = uno_key(&core.s)
        return core

    def copy(self):
        """An independent copy, undo stack included."""
        cdef UnoCore other = UnoCore(self.flags, _BUILD)
        other.s = self.s
        if other.capacity < self.capacity:
            grow(other, self.capacity)
        memcpy(other.stack, self.stack, self.depth * sizeof(UnoState))
        memcpy(other.actions, self.actions, self.depth * sizeof(int32_t))
        other.depth = self.depth
        return other

    def __reduce__(self):
        return (_restore_core, (self.flags, self.state_bytes(),
                                (<char*>self.stack)[:self.depth * sizeof(UnoState)],
                                self.action_codes()))

    # --- acting ---------------------------------------------------------------------------

    cpdef int check(self, int action):
        """0 if action is legal now, 1 (WRONG_JUMP_IN_) for a punished out-of-turn play,
        else the reason it is not legal (2 and up)."""
        return check(&self.s, self.flags, action)

    cpdef int push(self, int action) except -1:
        """Apply action without checking the rules (the fast path); undo takes it back.
        ValueError, and nothing changes, for a code that is not well formed, names a seat
        outside the game, plays a card its player does not hold, catches no seat, or comes
        after the round ended: such a code would make the core index outside its state."""
        if not in_bounds(&self.s, action):
            raise ValueError(f"action code {action} cannot be applied here (malformed, a seat "
                             "or card not in the game, or the round is over)")
        if self.depth == self.capacity:
            grow(self, 2 * self.capacity)
        self.stack[self.depth] = self.s
        self.actions[self.depth] = action
        self.depth += 1
        apply(&self.s, self.flags, action)
        self.s.key ^= uno_key_change(&self.stack[self.depth - 1], &self.s)
        return 0

    cpdef int step_checked(self, int action) except -1:
        """check and push in one call (atomic: no other thread's call runs in between): 0 or
        WRONG_JUMP_IN_ when the action was taken, else the reason it was not (nothing
        changed)."""
        cdef int reason = check(&self.s, self.flags, action)
        if reason == OK or reason == WRONG_JUMP_IN:
            self.push(action)
        return reason

    def undo(self):
        """Take back the last action; returns its code. IndexError when there is none."""
        if self.depth == 0:
            raise IndexError("no action to undo")
        self.depth -= 1
        self.s = self.stack[self.depth]
        return self.actions[self.depth]

    cpdef list legal_codes(self):
        """Every legal action's code now (see ``legal`` for the order)."""
        cdef int buffer[MAX_ACTIONS]
        cdef int n = legal(&self.s, self.flags, buffer)
        return [buffer[i] for i in range(n)]

    def playout(self, uint64_t seed, int max_steps=1_000_000, bint eager=False):
        """Play random legal actions (see ``playout``) from here to the end of the round on a
        copy of the state (this core is unchanged): (winner or -1, blocked, actions taken,
        each hand's points at the end)."""
        cdef UnoState state = self.s
        cdef uint64_t rng = seed
        cdef int steps
        if max_steps < 0:
            raise ValueError("max_steps must not be negative")
        with nogil:
            steps = playout(&state, self.flags, &rng, max_steps, eager)
        return (state.winner, state.over == BLOCKED, steps,
                [hand_points(&state, seat) for seat in range(state.players)])

    # --- reading the state ----------------------------------------------------------------

    def action_codes(self):
        """The code of every action so far, oldest first."""
        return [self.actions[i] for i in range(self.depth)]

    def observation_into(self, int player, int8_t[::1] out):
        """Write player's Observation.encode() vector into out (OBSERVATION_SIZE int8)."""
        if not 0 <= player < self.s.players:
            raise ValueError(f"player must be a seat 0..{self.s.players - 1}")
        if out.shape[0] != OBS_SIZE:
            raise ValueError(f"the observation takes {OBS_SIZE} entries")
        encode(&self.s, player, &out[0])

    @property
    def players(self):
        return self.s.players

    @property
    def dealer(self):
        return self.s.dealer

    @property
    def current(self):
        return self.s.current

    @property
    def direction(self):
        return self.s.direction

    @property
    def colour(self):
        return self.s.colour

    @property
    def top(self):
        return self.s.discard[self.s.n_discard - 1]

    @property
    def pending(self):
        return self.s.pending

    @property
    def pending_face(self):
        return self.s.pending_face

    @property
    def drawn(self):
        return self.s.drawn

    @property
    def uno_seat(self):
        return self.s.uno_seat

    @property
    def jump_seat(self):
        return self.s.jump_seat

    @property
    def winner(self):
        return self.s.winner

    @property
    def over(self):
        return self.s.over

    @property
    def ply(self):
        return self.s.ply

    @property
    def draw_size(self):
        return self.s.n_draw

    @property
    def sizes(self):
        return [self.s.sizes[seat] for seat in range(self.s.players)]

    def hand_counts(self, int seat):
        """The count of each of the 54 kinds in seat's hand, as bytes."""
        if not 0 <= seat < self.s.players:
            raise IndexError("no such seat")
        return (<char*>self.s.hands[seat])[:KINDS]

    def draw_pile(self):
        """The draw pile's kinds, the next card to draw first, as bytes."""
        return bytes((<char*>self.s.draw)[:self.s.n_draw])[::-1]

    def discard_pile(self):
        """The discard pile's kinds, bottom first (the top card last), as bytes."""
        return (<char*>self.s.discard)[:self.s.n_discard]

    def hand_points(self, int seat):
        """The golf value of seat's hand."""
        if not 0 <= seat < self.s.players:
            raise IndexError("no such seat")
        return hand_points(&self.s, seat)

    def state_bytes(self):
        """The state struct as bytes: equal bytes, equal states (for tests of undo)."""
        return (<char*>&self.s)[:sizeof(UnoState)]

    @property
    def key(self):
        """The 64-bit state key, kept incrementally on push and undo."""
        return self.s.key

    def key_from_scratch(self):
        """The state key computed anew (for tests of the incremental key)."""
        return uno_key(&self.s)


def _restore_core(int flags, bytes state, bytes stack, list actions):
    """The UnoCore pickled as (flags, state, stack, actions); every state is checked with
    valid_state, so a tampered pickle gives ValueError, never a core that indexes outside
    its arrays."""
    cdef UnoCore core = UnoCore(flags, _BUILD)
    cdef Py_ssize_t depth = len(actions), i
    if len(state) != sizeof(UnoState) or len(stack) != depth * sizeof(UnoState):
        raise ValueError("not a pickled UnoCore")
    if depth > core.capacity:
        grow(core, depth)
    memcpy(&core.s, <char*>state, sizeof(UnoState))
    memcpy(core.stack, <char*>stack, depth * sizeof(UnoState))
    for i in range(depth):
        core.actions[i] = actions[i]
    core.depth = depth
    if not valid_state(&core.s):
        raise ValueError("not a pickled UnoCore: the state is not one the rules reach")
    for i in range(depth):
        if not valid_state(&core.stack[i]):
            raise ValueError("not a pickled UnoCore: an undo state is not one the rules reach")
        core.stack[i].key = uno_key(&core.stack[i])
    core.s.key = uno_key(&core.s)          # the key follows from the state: never trusted
    return core


cdef int grow(UnoCore core, Py_ssize_t capacity) except -1:
    cdef UnoState* stack = <UnoState*>realloc(core.stack, capacity * sizeof(UnoState))
    if stack == NULL:
        raise MemoryError()
    core.stack = stack
    cdef int32_t* actions = <int32_t*>realloc(core.actions, capacity * sizeof(int32_t))
    if actions == NULL:
        raise MemoryError()
    core.actions = actions
    core.capacity = capacity
    return 0


def card_points(int kind):
    """The golf value of one card kind: a number its face, Skip/Reverse/Draw Two 20, wilds
    50."""
    if not 0 <= kind < KINDS:
        raise ValueError(f"no card kind {kind}")
    return points_of(kind)


def shuffled_kinds(kinds, uint64_t seed):
    """The card kinds in kinds, shuffled by the seeded generator (the same on every machine)."""
    cdef uint8_t buffer[DECK_SIZE]
    cdef int n = len(kinds), i
    cdef uint64_t rng = seed
    if n > DECK_SIZE:
        raise ValueError("more cards than the deck holds")
    for i in range(n):
        if not 0 <= kinds[i] < KINDS:
            raise ValueError(f"no card kind {kinds[i]}")
        buffer[i] = kinds[i]
    shuffle(buffer, n, &rng)
    return [buffer[i] for i in range(n)]


# --- many rounds at once: ddz.uno.VectorGame and ddz.uno.simulate_rounds ------------------
#
# The vector steps the *turn* player of each round only: its actions are the turn actions of
# the player to act (plays, draw, keep, the starting colour), indexed as
# ddz.uno.ActionSpace indexes them. Out-of-turn actions (jump-ins, UNO calls, catches)
# and the pass are left out, and rounds still play to their end.

cdef enum:
    OBS_SIZE = 267             # ddz.uno.OBSERVATION_SIZE (game.py's OBSERVATION_LAYOUT)
    NUM_INDICES = 77           # ddz.uno.ActionSpace.SIZE
    I_PLAY = 1                 # the space's bases
    I_WILD = 53
    I_WILD4 = 57
    I_DRAW = 61
    I_KEEP = 62
    I_COLOUR = 64

OBS_SIZE_, NUM_INDICES_ = OBS_SIZE, NUM_INDICES


cdef inline uint64_t mix_seed(uint64_t seed, uint64_t index, uint64_t salt) noexcept nogil:
    """A seed for one round (salt 0) or one round's random agent (salt 1), from a run's seed
    (the same mixing as ddz._core.vector's)."""
    cdef uint64_t state = seed ^ (index * 0xD1B54A32D192ED03ULL) ^ (salt * 0x8CB92BA72F3D8DD7ULL)
    return splitmix64(&state)


def round_seed_(uint64_t seed, uint64_t index):
    """The deal seed of round `index` of a run seeded with `seed`."""
    return mix_seed(seed, index, 0)


cdef void seeded_round(UnoState* s, int flags, int players, int dealer,
                       uint64_t seed) noexcept nogil:
    """The round UnoCore.seeded(flags, players, dealer, seed) deals, into s."""
    cdef int i
    memset(s, 0, sizeof(UnoState))
    s.rng = seed
    s.players = players
    s.dealer = dealer
    s.current = -1
    s.direction = 1
    s.drawn = -1
    s.uno_seat = -1
    s.jump_seat = -1
    s.winner = -1
    fill_deck(s.draw)
    s.n_draw = DECK_SIZE
    shuffle(s.draw, DECK_SIZE, &s.rng)
    for i in range(HAND_SIZE * players):
        draw_one(s, 0, (dealer + 1 + i) % players)
    start(s, flags)


cdef int turn_codes(const UnoState* s, int flags, int* out) noexcept nogil:
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


cdef inline int index_of(int code) noexcept nogil:
    """The UnoActionSpace index of a turn action's code (-1 for the others)."""
    cdef int kind = code & 7, card = (code >> 7) & 63, colour = (code >> 13) & 3
    if kind == PLAY:
        if card < WILD:
            return I_PLAY + card
        return (I_WILD if card == WILD else I_WILD4) + colour
    if kind == DRAW:
        return I_DRAW
    if kind == KEEP:
        return I_KEEP
    if kind == COLOUR:
        return I_COLOUR + colour
    return -1


cdef inline int code_of(long long index, int player) noexcept nogil:
    """The code of player's turn action of UnoActionSpace index `index` (-1 for the pass,
    the UNO call, the catches and indices outside the space)."""
    if I_PLAY <= index < I_WILD:
        return make_action(PLAY, player, <int>index - I_PLAY, colour_of(<int>index - I_PLAY))
    if I_WILD <= index < I_DRAW:
        return make_action(PLAY, player, WILD if index < I_WILD4 else WILD_DRAW_FOUR,
                           (<int>index - I_WILD) % 4)
    if index == I_DRAW:
        return make_action(DRAW, player, 0, 0)
    if index == I_KEEP:
        return make_action(KEEP, player, 0, 0)
    if I_COLOUR <= index < I_COLOUR + 4:
        return make_action(COLOUR, player, 0, <int>index - I_COLOUR)
    return -1


cdef void encode(const UnoState* s, int player, int8_t* out) noexcept nogil:
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


cdef void round_rewards(const UnoState* s, bint points, double* out) noexcept nogil:
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


cdef int turn_playout(UnoState* s, int flags, uint64_t* rng, bint eager) noexcept nogil:
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


def simulate_rounds_(int flags, int players, int dealer, uint64_t seed, Py_ssize_t first,
                     Py_ssize_t start, Py_ssize_t stop, bint eager, int8_t[::1] winners,
                     uint8_t[::1] blocked, int64_t[::1] lengths, int64_t[:, ::1] points):
    """Play rows start..stop-1 (rounds first + row of a run) with random turn actions,
    entirely in C without the GIL, writing each round's row of the result arrays (callers run
    slices of the rows on several threads)."""
    cdef UnoState s
    cdef uint64_t rng
    cdef Py_ssize_t row
    cdef int seat
    check_flags(flags)
    if not 2 <= players <= MAX_PLAYERS or not 0 <= dealer < players:
        raise ValueError("2..10 players and a dealer among them")
    if first < 0 or not (0 <= start <= stop <= points.shape[0] and points.shape[1] == players
            and winners.shape[0] == blocked.shape[0] == lengths.shape[0] == points.shape[0]):
        raise ValueError("result arrays of the wrong shape for this slice")
    with nogil:
        for row in range(start, stop):
            seeded_round(&s, flags, players, dealer, mix_seed(seed, first + row, 0))
            rng = mix_seed(seed, first + row, 1)
            lengths[row] = turn_playout(&s, flags, &rng, eager)
            winners[row] = s.winner
            blocked[row] = s.over == BLOCKED
            for seat in range(players):
                points[row, seat] = hand_points(&s, seat)


cdef class UnoVector:
    """n rounds stepped together; see ddz.uno.VectorGame for the contract.

    Every method that reads or writes the rounds marks the vector busy while it runs (it may
    release the GIL): a call from a second thread meanwhile raises RuntimeError rather than
    reading a round half stepped. ``ddz.uno.VectorGame`` serialises its callers with a lock,
    so they never see that error.
    """

    cdef UnoState* states
    cdef uint64_t* episodes
    cdef int* codes               # step's actions, copied once out of the caller's array
    cdef bint busy
    cdef Py_ssize_t n
    cdef uint64_t seed
    cdef uint64_t rng             # for sample_legal
    cdef readonly int flags, players, dealer
    cdef readonly bint points

    def __cinit__(self, int flags, int players, int dealer, Py_ssize_t n, uint64_t seed,
                  bint points):
        cdef Py_ssize_t i
        check_flags(flags)
        if not 1 <= n <= MAX_ROUNDS_:
            raise ValueError(f"a VectorGame holds 1..{MAX_ROUNDS_} rounds, not {n}")
        if not 2 <= players <= MAX_PLAYERS or not 0 <= dealer < players:
            raise ValueError("2..10 players and a dealer among them")
        self.flags = flags
        self.players = players
        self.dealer = dealer
        self.points = points
        self.n = n
        self.seed = seed
        self.rng = mix_seed(seed, 0, 2)
        self.states = <UnoState*>malloc(n * sizeof(UnoState))
        self.episodes = <uint64_t*>malloc(n * sizeof(uint64_t))
        self.codes = <int*>malloc(n * sizeof(int))
        if self.states == NULL or self.episodes == NULL or self.codes == NULL:
            raise MemoryError()
        for i in range(n):
            self.episodes[i] = 0
            seeded_round(&self.states[i], flags, players, dealer, self.episode_seed(i))

    def __dealloc__(self):
        free(self.states)
        free(self.episodes)
        free(self.codes)

    cdef int enter(self) except -1:
        if self.busy:
            raise RuntimeError("this UnoVector is in use by another thread (ddz.uno.VectorGame "
                               "serialises its callers; the raw core does not)")
        self.busy = True
        return 0

    def __reduce__(self):
        self.enter()
        try:
            return (_restore_vector, (self.flags, self.players, self.dealer, self.n, self.seed,
                                      self.points, self.rng,
                                      (<char*>self.states)[:self.n * sizeof(UnoState)],
                                      (<char*>self.episodes)[:self.n * sizeof(uint64_t)]))
        finally:
            self.busy = False

    cdef inline uint64_t episode_seed(self, Py_ssize_t game) noexcept nogil:
        return mix_seed(self.seed, <uint64_t>game + (<uint64_t>self.n) * self.episodes[game], 0)

    def deal_seed(self, Py_ssize_t game):
        """The seed of round `game`'s current deal."""
        if not 0 <= game < self.n:
            raise IndexError(game)
        return self.episode_seed(game)

    def legal_action_mask(self, unsigned char[:, ::1] mask):
        """Fill mask (n x 77, bool / uint8) with each round's legal turn actions."""
        cdef int codes[MAX_ACTIONS]
        cdef Py_ssize_t game
        cdef int count, i
        if mask.shape[0] != self.n or mask.shape[1] != NUM_INDICES:
            raise ValueError("the mask needs one row a round and one column an action")
        self.enter()
        try:
            with nogil:
                for game in range(self.n):
                    memset(&mask[game, 0], 0, NUM_INDICES)
                    count = turn_codes(&self.states[game], self.flags, codes)
                    for i in range(count):
                        mask[game, index_of(codes[i])] = 1
        finally:
            self.busy = False

    def step(self, int64_t[::1] actions, double[:, ::1] rewards, unsigned char[::1] done):
        """Apply one action index a round for its player to act; rounds that end write their
        rewards, set done and start their next deal. All actions are checked first: if one is
        not legal, ValueError names the round and nothing changes. Each action is read from
        the caller's array once, into the vector's own memory, and applied from there: a
        thread writing the array meanwhile cannot get an unchecked action applied."""
        cdef int codes[MAX_ACTIONS]
        cdef Py_ssize_t game, bad = -1
        cdef long long bad_index = 0
        cdef int count, i, code, seat
        cdef UnoState* s
        if (actions.shape[0] != self.n or rewards.shape[0] != self.n
                or rewards.shape[1] != self.players or done.shape[0] != self.n):
            raise ValueError("one action, one reward row and one done flag a round")
        self.enter()
        try:
            with nogil:
                for game in range(self.n):
                    s = &self.states[game]
                    bad_index = actions[game]
                    code = code_of(bad_index, s.current)
                    count = turn_codes(s, self.flags, codes) if code >= 0 else 0
                    for i in range(count):
                        if codes[i] == code:
                            break
                    else:
                        bad = game
                        break
                    self.codes[game] = code
                if bad < 0:
                    for game in range(self.n):
                        s = &self.states[game]
                        apply(s, self.flags, self.codes[game])
                        done[game] = s.over != PLAYING
                        if done[game]:
                            round_rewards(s, self.points, &rewards[game, 0])
                            self.episodes[game] += 1
                            seeded_round(s, self.flags, self.players, self.dealer,
                                         self.episode_seed(game))
                        else:
                            for seat in range(self.players):
                                rewards[game, seat] = 0.0
        finally:
            self.busy = False
        if bad >= 0:
            raise ValueError(f"round {bad}: action {bad_index} is not a legal turn action "
                             f"of player {self.states[bad].current} there")

    def sample_legal(self, int64_t[::1] out):
        """One uniformly random legal action index a round, drawn in C."""
        cdef int codes[MAX_ACTIONS]
        cdef Py_ssize_t game
        cdef int count
        if out.shape[0] != self.n:
            raise ValueError("one action a round")
        self.enter()
        try:
            with nogil:
                for game in range(self.n):
                    count = turn_codes(&self.states[game], self.flags, codes)
                    out[game] = index_of(codes[below(&self.rng, count)])
        finally:
            self.busy = False

    def observations(self, int8_t[:, ::1] out):
        """Fill out (n x 267) with each round's observation of its player to act."""
        cdef Py_ssize_t game
        if out.shape[0] != self.n or out.shape[1] != OBS_SIZE:
            raise ValueError("one row a round, OBSERVATION_SIZE columns")
        self.enter()
        try:
            with nogil:
                for game in range(self.n):
                    encode(&self.states[game], self.states[game].current, &out[game, 0])
        finally:
            self.busy = False

    def keys(self, uint64_t[::1] out):
        """Fill out (n) with each round's state key, computed anew (uno_key)."""
        cdef Py_ssize_t game
        if out.shape[0] != self.n:
            raise ValueError("one key a round")
        self.enter()
        try:
            with nogil:
                for game in range(self.n):
                    out[game] = uno_key(&self.states[game])
        finally:
            self.busy = False

    def current_players(self, int8_t[::1] out):
        cdef Py_ssize_t game
        if out.shape[0] != self.n:
            raise ValueError("one entry a round")
        self.enter()
        for game in range(self.n):
            out[game] = self.states[game].current
        self.busy = False


def _restore_vector(int flags, int players, int dealer, Py_ssize_t n, uint64_t seed,
                    bint points, uint64_t rng, bytes states, bytes episodes):
    """The UnoVector pickled by __reduce__; every round's state is checked with valid_state
    (a tampered pickle gives ValueError, never a vector that indexes outside its arrays)."""
    cdef UnoVector vector = UnoVector(flags, players, dealer, n, seed, points)
    cdef Py_ssize_t i
    if (len(states) != n * sizeof(UnoState)) or len(episodes) != n * sizeof(uint64_t):
        raise ValueError("not a pickled UnoVector")
    memcpy(vector.states, <char*>states, n * sizeof(UnoState))
    memcpy(vector.episodes, <char*>episodes, n * sizeof(uint64_t))
    vector.rng = rng
    for i in range(n):
        if (not valid_state(&vector.states[i]) or vector.states[i].players != players
                or vector.states[i].over != PLAYING):
            raise ValueError(f"not a pickled UnoVector: round {i} is not one the rules reach")
    return vector
