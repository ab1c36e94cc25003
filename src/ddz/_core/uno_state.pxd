# cython: cdivision=True
# (A header's inline functions take its own directives, not the .pyx's that compiles it in:
# C division, as when they were in uno.pyx.)
#
# One round of UNO's state machine, as inline C: the UnoState struct, drawing, dealing, what a
# played card does, stepping (apply), the boundary checks (in_bounds, valid_state) and the
# state key. uno.pyx (one round, with undo) and uno_vector.pyx (many rounds) both compile it
# in; the legality and scoring on top are uno_rules.pxd.
#
# A hand is a count per kind; the draw pile and the discard pile are arrays of kinds in order
# (the draw pile's top is its *last* entry, so drawing is a pop; the discard pile's top is its
# last entry too).

from libc.stdint cimport uint8_t, int32_t, int16_t, uint64_t
from libc.string cimport memcpy, memset, memcmp
from ddz._core.rng cimport below, splitmix64
from ddz._core.zobrist cimport fmix64
from ddz._core.uno_layout cimport *

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


cdef inline int next_seat(const UnoState* s, int seat) noexcept nogil:
    return (seat + s.direction + s.players) % s.players


# --- drawing --------------------------------------------------------------------------------

cdef inline bint can_draw(const UnoState* s, int flags) noexcept nogil:
    return s.n_draw > 0 or ((flags & F_RESHUFFLE) and s.n_discard > 1)


cdef inline void refill(UnoState* s) noexcept nogil:
    """The draw pile is empty: keep the top discard, shuffle the rest into a new draw pile."""
    cdef uint8_t top = s.discard[s.n_discard - 1]
    memcpy(s.draw, s.discard, s.n_discard - 1)
    s.n_draw = s.n_discard - 1
    shuffle(s.draw, s.n_draw, &s.rng)
    s.discard[0] = top
    s.n_discard = 1


cdef inline int draw_one(UnoState* s, int flags, int seat) noexcept nogil:
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


# --- what a card may go on (apply needs these; the rest of legality is uno_rules.pxd) ------

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


# --- acting ---------------------------------------------------------------------------------

cdef inline void card_effect(UnoState* s, int flags, int seat, int kind) noexcept nogil:
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


cdef inline void apply(UnoState* s, int flags, int action) noexcept nogil:
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


cdef inline void start(UnoState* s, int flags) noexcept nogil:
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


cdef inline uint64_t mix_seed(uint64_t seed, uint64_t index, uint64_t salt) noexcept nogil:
    """A seed for one round (salt 0) or one round's random agent (salt 1), from a run's seed
    (the same mixing as ddz._core.vector's)."""
    cdef uint64_t state = seed ^ (index * 0xD1B54A32D192ED03ULL) ^ (salt * 0x8CB92BA72F3D8DD7ULL)
    return splitmix64(&state)


cdef inline void seeded_round(UnoState* s, int flags, int players, int dealer,
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


# --- the boundary ---------------------------------------------------------------------------
#
# apply() trusts its action and the state it is given. These two checks are what the
# Python-facing classes run before trusting anything from outside: an action that passes
# in_bounds cannot make apply() write outside the state (it may still break the *rules*, the
# documented meaning of an unchecked push), and a state that passes valid_state (a restored
# pickle) holds only values apply() and legal() can index with.

cdef inline bint in_bounds(const UnoState* s, int action) noexcept nogil:
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


cdef inline bint valid_state(const UnoState* s) noexcept nogil:
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


cdef inline uint64_t uno_key_change(const UnoState* a, const UnoState* b) noexcept nogil:
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


cdef inline uint64_t uno_key(const UnoState* s) noexcept nogil:
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
