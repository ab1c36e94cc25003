# cython: language_level=3, cdivision=True
"""A game's state, stepped in C: bidding, play, scoring; undo and copy. The classic game,
the two-player game (call/grab, let cards) and Uno the Landlord (Skip, Reverse, direction).

A GameCore holds one GameState struct (every field a plain integer) and a stack of earlier
states, so undo restores the state bit for bit and copy is two memcpys. Actions are codes in
the move-code space (layout.pxd): a move's code in the play phase; in the bidding phase 0 is
the pass (decline), and three action types sit above the move types: BID (its rank field the
bid, 1..3), CALL and GRAB. `push` applies an action without checking it (for search);
`check` says why an action is not legal (0 when it is), without changing anything.
"""

from libc.stdint cimport uint64_t
from libc.stdlib cimport malloc, realloc, free
from libc.string cimport memcpy, memset

from ddz._core.layout cimport *
from ddz._core.ruleset cimport *
from ddz._core.readings cimport *
from ddz._core.generator cimport *
from ddz._core.moves cimport Move, new_move, rules_of, codes_to_moves, run_to_moves
from ddz._core.rng cimport below
from ddz._core.state cimport *

BID_ = BID
CALL_ = CALL
GRAB_ = GRAB
PHASES = ("bidding", "play", "over")

def shuffled_deal(object rules, uint64_t seed):
    """(hands, kitty, rng state after) of the seeded deal of rules (see deal_cards)."""
    cdef GameConfig cfg = config_of(rules)
    cdef uint64_t hands[3]
    cdef uint64_t kitty, rng
    if deal_cards(&cfg, seed, hands, &kitty, &rng) < 0:
        raise ValueError("the deck is too small for this deal")
    return [hands[seat] for seat in range(cfg.players)], kitty, rng


def seeded_below(uint64_t state, unsigned n):
    """(a uniform integer in [0, n), the state after) from the generator's state."""
    cdef unsigned value = below(&state, n)
    return value, state


cdef class GameCore:
    """One game's state and its undo stack (see the module docstring)."""

    cdef GameState s
    cdef GameState* stack
    cdef uint64_t* actions
    cdef Py_ssize_t depth, capacity
    cdef GameConfig cfg
    cdef readonly object rules

    def __cinit__(self, object rules, hands, uint64_t kitty, int first_bidder, int landlord):
        """A new game: rules (a ddz.Rules), the hands' card integers and the kitty; the first
        bidder, or (random landlord) the landlord. The Python layer validates the deal."""
        cdef uint64_t dealt[3]
        cdef int seat
        self.cfg = config_of(rules)
        self.rules = rules
        self.capacity = 128
        self.stack = <GameState*>malloc(self.capacity * sizeof(GameState))
        self.actions = <uint64_t*>malloc(self.capacity * sizeof(uint64_t))
        if self.stack == NULL or self.actions == NULL:
            raise MemoryError()
        self.depth = 0
        for seat in range(3):
            dealt[seat] = hands[seat] if seat < self.cfg.players else 0
        init_state(&self.s, &self.cfg, dealt, kitty,
                   landlord if self.cfg.bidding == RANDOM_LANDLORD else first_bidder)

    def __dealloc__(self):
        free(self.stack)
        free(self.actions)

    def copy(self):
        """An independent copy, undo stack included."""
        cdef GameCore other = GameCore.__new__(GameCore, self.rules, (0, 0, 0), 0, 0, 0)
        other.s = self.s
        if other.capacity < self.capacity:
            grow(other, self.capacity)
        memcpy(other.stack, self.stack, self.depth * sizeof(GameState))
        memcpy(other.actions, self.actions, self.depth * sizeof(uint64_t))
        other.depth = self.depth
        return other

    def set_position(self, hands, played, uint64_t kitty, int landlord, int to_act,
                     uint64_t table, int table_player, int bid, int bombs, int grabs,
                     int direction, int landlord_plays, int farmer_plays):
        """Replace the state by a play-phase position (see init_position in state.pxd) and
        clear the undo stack. The Python layer (Game.from_position) validates every value;
        seats and sizes are checked here too, so no call writes outside the state."""
        cdef uint64_t dealt[3]
        cdef uint64_t done[3]
        cdef int seat, players = self.cfg.players
        if len(hands) != players or len(played) != players:
            raise ValueError("one hand and one played set a seat")
        if not (0 <= landlord < players and 0 <= to_act < players
                and -1 <= table_player < players and direction in (-1, 1)
                and 0 <= bid <= 3 and 0 <= bombs <= 14 and 0 <= grabs <= 8):
            raise ValueError("seat, direction, bid, bombs or grabs out of range")
        for seat in range(3):
            dealt[seat] = hands[seat] if seat < players else 0
            done[seat] = played[seat] if seat < players else 0
        init_position(&self.s, &self.cfg, dealt, done, kitty, landlord, to_act, table,
                      table_player, bid, bombs, grabs, direction, landlord_plays,
                      farmer_plays)
        self.depth = 0

    # --- acting ---------------------------------------------------------------------------

    cpdef int check(self, uint64_t action):
        """0 if action is legal now, else a reason (see ILLEGAL_* and legality())."""
        return check_action(&self.s, &self.cfg, action)

    cpdef void push(self, uint64_t action):
        """Apply action, unchecked (the fast path for search); undo takes it back."""
        if self.depth == self.capacity:
            grow(self, 2 * self.capacity)
        self.stack[self.depth] = self.s
        self.actions[self.depth] = action
        self.depth += 1
        apply_action(&self.s, &self.cfg, action)

    def undo(self):
        """Take back the last action; returns its code. IndexError when there is none."""
        if self.depth == 0:
            raise IndexError("no action to undo")
        self.depth -= 1
        self.s = self.stack[self.depth]
        return self.actions[self.depth]

    def legal_moves(self):
        """Every legal move of the player to act, as Move (play phase; [] otherwise)."""
        if self.s.phase != PLAY:
            return []
        return run_to_moves(self.s.hands[self.s.current], self.s.table, &self.cfg.rs, False)

    def bidding_codes(self):
        """Every legal bidding action's code (bidding phase; [] otherwise)."""
        cdef uint64_t codes[8]
        cdef int n
        if self.s.phase != BIDDING:
            return []
        n = bidding_actions(&self.s, &self.cfg, codes)
        return [codes[i] for i in range(n)]

    # --- reading the state ----------------------------------------------------------------

    def history_entries(self):
        """(ply, player, phase, action code) of every action so far, oldest first."""
        return [(self.stack[i].ply, self.stack[i].current, PHASES[self.stack[i].phase],
                 self.actions[i]) for i in range(self.depth)]

    @property
    def phase(self):
        return PHASES[self.s.phase]

    @property
    def current(self):
        return self.s.current

    @property
    def landlord(self):
        return self.s.landlord

    @property
    def first_bidder(self):
        return self.s.first_bidder

    @property
    def hands(self):
        return tuple([self.s.hands[seat] for seat in range(self.s.players)])

    @property
    def kitty(self):
        return self.s.kitty

    @property
    def table(self):
        return self.s.table

    @property
    def table_player(self):
        return self.s.table_player

    @property
    def bid(self):
        return self.s.bid

    @property
    def high_bidder(self):
        return self.s.high_bidder

    @property
    def caller(self):
        return self.s.caller

    @property
    def grabs(self):
        return self.s.grabs

    @property
    def bombs(self):
        return self.s.bombs

    @property
    def winner(self):
        return self.s.winner

    @property
    def void(self):
        return bool(self.s.void)

    @property
    def ply(self):
        return self.s.ply

    @property
    def direction(self):
        """+1 while play runs in seat order, -1 after an odd number of Reverses."""
        return self.s.direction

    @property
    def spring(self):
        """Did the winners shut the losers out (no card, or only the landlord's opening)?"""
        return is_spring(&self.s)

    def multiplier(self):
        """The score so far: base (bid, or 1 with grabs doubling) x 2 per bomb and rocket,
        x 2 for a spring once the game is over and the rules count springs."""
        return score(&self.s, &self.cfg)

    def payoffs(self):
        """Points per seat (see payoffs_of in state.pxd)."""
        cdef long long out[3]
        payoffs_of(&self.s, &self.cfg, out)
        return [out[seat] for seat in range(self.s.players)]

    @property
    def played(self):
        """The cards each seat has played, as card integers."""
        return tuple([self.s.played[seat] for seat in range(self.s.players)])

    @property
    def landlord_plays(self):
        """Moves (not passes) the landlord has made: a spring needs to know."""
        return self.s.landlord_plays

    @property
    def farmer_plays(self):
        """Moves the farmers have made."""
        return self.s.farmer_plays

    def state_bytes(self):
        """The state struct as bytes: equal bytes, equal states (for tests of undo)."""
        return (<char*>&self.s)[:sizeof(GameState)]


cdef int grow(GameCore game, Py_ssize_t capacity) except -1:
    cdef GameState* stack = <GameState*>realloc(game.stack, capacity * sizeof(GameState))
    if stack == NULL:
        raise MemoryError()
    game.stack = stack
    cdef uint64_t* actions = <uint64_t*>realloc(game.actions, capacity * sizeof(uint64_t))
    if actions == NULL:
        raise MemoryError()
    game.actions = actions
    game.capacity = capacity
    return 0
