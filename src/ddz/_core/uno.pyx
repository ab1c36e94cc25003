# cython: language_level=3, cdivision=True
"""One round of UNO (docs/uno.md), stepped in C: deal, first card, turns, house rules.

A UnoCore holds one UnoState struct (plain integers and byte arrays, no Python objects) and a
stack of earlier states (stack.pxd), so undo restores the state bit for bit and copy is two
memcpys.

The card kinds and the action code layout are in uno_layout.pxd; the round's state machine is
uno_state.pxd and uno_rules.pxd (inline C, shared with uno_vector.pyx, whose vector of many
rounds this module re-exports).

An action is one small integer (uno_layout.pxd). ``legal`` lists every action any player
may take now: the turn actions of the player to act, the UNO call of a player on one card,
everyone else's catch of that player, and the jump-ins of players holding the twin of the
card just played. ``check`` says why an action is not legal (0 when it is, WRONG_JUMP_IN for
an out-of-turn play the house rules punish instead of forbidding); ``push`` applies an action
without checking it.
"""

from libc.stdint cimport uint8_t, int8_t, int32_t, uint64_t
from libc.string cimport memcpy, memset
from ddz._core.uno_layout cimport *
from ddz._core.uno_state cimport *
from ddz._core.uno_rules cimport *
from ddz._core.uno_observe cimport *
from ddz._core.stack cimport *

from ddz._core.uno_vector import (MAX_ROUNDS_, NUM_INDICES_, OBS_SIZE_, UnoVector,
                                  _restore_vector, round_seed_, simulate_rounds_)

# Exported for the Python layer (cdef enums are not visible from Python).
PLAY_, DRAW_, KEEP_, UNO_, CATCH_, COLOUR_ = PLAY, DRAW, KEEP, UNO, CATCH, COLOUR
FLAG_STACKING, FLAG_JUMP_IN, FLAG_CALL_OUT = F_STACKING, F_JUMP_IN, F_CALL_OUT
FLAG_NO_FINISH_WD4, FLAG_RESHUFFLE = F_NO_FINISH_WD4, F_RESHUFFLE
WRONG_JUMP_IN_ = WRONG_JUMP_IN
MAX_PLAYERS_ = MAX_PLAYERS

cdef object _BUILD = object()      # UnoCore's constructor token: only its factories build one


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
    cdef Snapshots stack          # the states before each action, and its int32_t code
    cdef readonly int flags

    def __cinit__(self, int flags, token=None):
        if token is not _BUILD:
            raise TypeError("build a UnoCore with UnoCore.seeded or UnoCore.arranged")
        check_flags(flags)
        self.flags = flags
        stack_init(&self.stack, 64, sizeof(UnoState), sizeof(int32_t))
        memset(&self.s, 0, sizeof(UnoState))    # padding too: equal states, equal bytes

    def __dealloc__(self):
        stack_free(&self.stack)

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
        stack_copy(&other.stack, &self.stack)
        return other

    def __reduce__(self):
        return (_restore_core, (self.flags, self.state_bytes(),
                                self.stack.states[:self.stack.depth * sizeof(UnoState)],
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
        cdef int32_t code = action
        stack_push(&self.stack, &self.s, &code)
        apply(&self.s, self.flags, action)
        self.s.key ^= uno_key_change(<UnoState*>snapshot_at(&self.stack, self.stack.depth - 1),
                                     &self.s)
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
        cdef int32_t code
        if self.stack.depth == 0:
            raise IndexError("no action to undo")
        stack_pop(&self.stack, &self.s, &code)
        return code

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
        cdef const int32_t* codes = <const int32_t*>self.stack.actions
        return [codes[i] for i in range(self.stack.depth)]

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
    cdef UnoState* undone
    if len(state) != sizeof(UnoState) or len(stack) != depth * sizeof(UnoState):
        raise ValueError("not a pickled UnoCore")
    stack_reserve(&core.stack, depth)
    memcpy(&core.s, <char*>state, sizeof(UnoState))
    memcpy(core.stack.states, <char*>stack, depth * sizeof(UnoState))
    for i in range(depth):
        (<int32_t*>core.stack.actions)[i] = actions[i]
    core.stack.depth = depth
    if not valid_state(&core.s):
        raise ValueError("not a pickled UnoCore: the state is not one the rules reach")
    for i in range(depth):
        undone = <UnoState*>snapshot_at(&core.stack, i)
        if not valid_state(undone):
            raise ValueError("not a pickled UnoCore: an undo state is not one the rules reach")
        undone.key = uno_key(undone)
    core.s.key = uno_key(&core.s)          # the key follows from the state: never trusted
    return core


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
