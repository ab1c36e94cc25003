# cython: language_level=3, cdivision=True
"""A game's state, stepped in C: bidding, play, scoring; undo and copy. The classic game,
the two-player game (call/grab, let cards) and Uno the Landlord (Skip, Reverse, direction).

A GameCore holds one GameState struct (every field a plain integer) and a stack of earlier
states, so undo restores the state bit for bit and copy is two memcpys. Actions are codes in
the move-code space (layout.pxd): a move's code in the play phase; in the bidding phase 0 is
the pass (decline), and three action types sit above the move types: BID (its rank field the
bid, 1..3), CALL and GRAB. `check` says why an action is not legal (0 when it is), without
changing anything; `step` checks and applies in one call; `push` applies without checking the
rules (for search) but never leaves the state's invariants (state.pxd's push_fault), so no
input can make it write outside the state (docs/safety.md).

Every method runs as one C call that never releases the GIL (and, on free-threaded Python,
inside a critical section on the object), so concurrent calls on one GameCore are serialised.
"""

from libc.stdint cimport uint64_t, int64_t, int8_t
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy, memset

cimport cython

from ddz._core.layout cimport *
from ddz._core.ruleset cimport *
from ddz._core.readings cimport *
from ddz._core.generator cimport *
from ddz._core.moves cimport Move, new_move, rules_of, codes_to_moves, run_to_moves
from ddz._core.rng cimport below
from ddz._core.state cimport *
from ddz._core.actions cimport ActionIndex, index_of, legal_codes
from ddz._core.observe cimport *
from ddz._core.stack cimport *

BID_ = BID
CALL_ = CALL
GRAB_ = GRAB
PHASES = ("bidding", "play", "over")
OBSERVATION_BASE = OBS_BASE
HISTORY_ENTRY_SIZE = HISTORY_ENTRY
HISTORY_LIMIT = MAX_HISTORY

cdef enum:
    CODES_ON_STACK = 4096   # legal moves a turn holds on the stack (more: the heap)


def shuffled_deal(object rules, uint64_t seed):
    """(hands, kitty, rng state after) of the seeded deal of rules (see deal_cards)."""
    cdef GameConfig cfg = config_of(rules)
    cdef uint64_t hands[3]
    cdef uint64_t kitty, rng
    if deal_cards(&cfg, seed, hands, &kitty, &rng) < 0:
        raise ValueError("the deck is too small for this deal")
    return [hands[seat] for seat in range(cfg.players)], kitty, rng


def seeded_below(uint64_t state, unsigned n):
    """(a uniform integer in [0, n), the state after) from the generator's state (n >= 1)."""
    cdef unsigned value
    if n == 0:
        raise ValueError("a draw from [0, n) needs n >= 1")
    value = below(&state, n)
    return value, state


cdef class GameCore:
    """One game's state and its undo stack (see the module docstring).

    GameCore(rules, hands, kitty, first_bidder, landlord): hands one card integer a seat and
    the kitty, together within the rules' deck (no card twice); the first bidder, or (random
    landlord) the landlord, a seat. ValueError for anything else."""

    cdef GameState s
    cdef Snapshots stack          # the states before each action, and its uint64_t code
    cdef GameConfig cfg
    cdef bint ready               # __init__ ran: until then every state method refuses
    cdef readonly object rules

    def __cinit__(self, *args, **kwargs):
        # zeroed by the allocator: players 0, so nothing can be pushed until __init__ runs
        stack_init(&self.stack, 128, sizeof(GameState), sizeof(uint64_t))

    @cython.critical_section
    def __init__(self, object rules, hands, uint64_t kitty, int first_bidder, int landlord):
        cdef GameConfig cfg = config_of(rules)
        cdef uint64_t dealt[3]
        cdef uint64_t total = 0
        cdef int seat
        hands = tuple(hands)
        if len(hands) != cfg.players:
            raise ValueError(f"one hand a seat ({cfg.players}), not {len(hands)}")
        for seat in range(3):
            dealt[seat] = hands[seat] if seat < cfg.players else 0
            if not is_subset(dealt[seat], cfg.deck - total):
                raise ValueError("the hands and the kitty hold cards the deck does not have, "
                                 "or a card twice")
            total += dealt[seat]
        if not is_subset(kitty, cfg.deck - total):
            raise ValueError("the hands and the kitty hold cards the deck does not have, "
                             "or a card twice")
        if not (0 <= first_bidder < cfg.players and 0 <= landlord < cfg.players):
            raise ValueError(f"the first bidder and the landlord are seats 0..{cfg.players - 1}")
        self.cfg = cfg
        self.rules = rules
        self.stack.depth = 0
        init_state(&self.s, &self.cfg, dealt, kitty,
                   landlord if self.cfg.bidding == RANDOM_LANDLORD else first_bidder)
        self.ready = True

    def __dealloc__(self):
        stack_free(&self.stack)

    cdef GameCore clone(self):
        cdef GameCore other = GameCore.__new__(GameCore)
        other.cfg = self.cfg
        other.rules = self.rules
        other.s = self.s
        stack_copy(&other.stack, &self.stack)
        other.ready = self.ready
        return other

    @cython.critical_section
    def copy(self):
        """An independent copy, undo stack included."""
        return self.clone()

    def __copy__(self):
        return self.copy()

    def __deepcopy__(self, memo):
        return self.copy()

    @cython.critical_section
    def __reduce__(self):
        if not self.ready:
            raise ValueError("an uninitialised GameCore does not pickle")
        return (restore_core, (self.rules, (<char*>&self.s)[:sizeof(GameState)],
                               self.stack.states[:self.stack.depth * sizeof(GameState)],
                               self.stack.actions[:self.stack.depth * sizeof(uint64_t)]))

    @cython.critical_section
    @cython.critical_section
    def set_position(self, hands, played, uint64_t kitty, int landlord, int to_act,
                     uint64_t table, int table_player, int bid, int bombs, int grabs,
                     int direction, int landlord_plays, int farmer_plays):
        """Replace the state by a play-phase position (see init_position in state.pxd) and
        clear the undo stack. The Python layer (Game.from_position) validates every value;
        seats and sizes are checked here too, so no call writes outside the state."""
        cdef uint64_t dealt[3]
        cdef uint64_t done[3]
        cdef GameState position
        cdef int seat, players = self.cfg.players
        if len(hands) != players or len(played) != players:
            raise ValueError("one hand and one played set a seat")
        if not (0 <= landlord < players and 0 <= to_act < players
                and -1 <= table_player < players and direction in (-1, 1)
                and 0 <= bid <= 3 and 0 <= bombs <= 14 and 0 <= grabs <= 8):
            raise ValueError("seat, direction, bid, bombs or grabs out of range")
        if not self.ready:
            raise ValueError("an uninitialised GameCore takes no position")
        for seat in range(3):
            dealt[seat] = hands[seat] if seat < players else 0
            done[seat] = played[seat] if seat < players else 0
        init_position(&position, &self.cfg, dealt, done, kitty, landlord, to_act, table,
                      table_player, bid, bombs, grabs, direction, landlord_plays,
                      farmer_plays)
        if state_fault(&position, &self.cfg) or (
                table != 0 and not is_reading(table, &self.cfg.rs)):
            # cards outside the deck or twice, a table that is no move: refused here too, so
            # the state keeps every invariant push and the generator rely on
            raise ValueError("the position holds cards the deck does not have (or a card "
                             "twice), or a table that is no move under these rules")
        self.s = position
        self.stack.depth = 0

    # --- acting ---------------------------------------------------------------------------

    @cython.critical_section
    def check(self, uint64_t action):
        """0 if action is legal now, else a reason (see ILLEGAL_* and legality())."""
        if not self.ready:
            return ILLEGAL_OVER
        return check_action(&self.s, &self.cfg, action)

    cdef int apply(self, uint64_t action) except -1:
        stack_push(&self.stack, &self.s, &action)
        apply_action(&self.s, &self.cfg, action)
        return 0

    @cython.critical_section
    def push(self, uint64_t action):
        """Apply action without checking the rules (the fast path for search); undo takes it
        back. Still refused (nothing changes) when it would break the state: returns 0 when
        applied, else push_fault's reason (the game is over, not a bidding action in
        bidding, not a move under the rules or cards the player does not hold in play)."""
        cdef int fault = push_fault(&self.s, &self.cfg, action) if self.ready else ILLEGAL_OVER
        if fault == 0:
            self.apply(action)
        return fault

    @cython.critical_section
    def step(self, uint64_t action):
        """Check and apply in one call: (reason, ply, player, phase) with reason 0 when the
        action was applied (ply, player and phase are the state it was taken in), else
        check()'s reason and nothing changed."""
        cdef int reason = check_action(&self.s, &self.cfg, action) if self.ready else ILLEGAL_OVER
        cdef int ply = self.s.ply, player = self.s.current
        cdef int phase = self.s.phase
        if reason == 0:
            self.apply(action)
        return reason, ply, player, PHASES[phase]

    @cython.critical_section
    def undo(self):
        """Take back the last action: (code, ply, player, phase) of the state it was taken
        in, which is the state after the undo (one call where a record needs all four).
        IndexError when there is none."""
        cdef uint64_t action
        if self.stack.depth == 0:
            raise IndexError("no action to undo")
        stack_pop(&self.stack, &self.s, &action)
        return action, self.s.ply, self.s.current, PHASES[self.s.phase]

    @cython.critical_section
    def legal_moves(self):
        """Every legal move of the player to act, as Move (play phase; [] otherwise)."""
        if self.s.phase != PLAY or not self.ready:
            return []
        return run_to_moves(self.s.hands[self.s.current], self.s.table, &self.cfg.rs, False)

    @cython.critical_section
    def bidding_codes(self):
        """Every legal bidding action's code (bidding phase; [] otherwise)."""
        cdef uint64_t codes[8]
        cdef int n
        if self.s.phase != BIDDING or not self.ready:
            return []
        n = bidding_actions(&self.s, &self.cfg, codes)
        return [codes[i] for i in range(n)]

    # --- reading the state ----------------------------------------------------------------

    @cython.critical_section
    def history_entries(self):
        """(ply, player, phase, action code) of every action so far, oldest first."""
        cdef const GameState* states = <const GameState*>self.stack.states
        cdef const uint64_t* actions = <const uint64_t*>self.stack.actions
        return [(states[i].ply, states[i].current, PHASES[states[i].phase], actions[i])
                for i in range(self.stack.depth)]

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
    def key(self):
        """The 64-bit state key (key_of in state.pxd): the hands' part kept incrementally."""
        return key_of(&self.s, &self.cfg)

    def key_from_scratch(self):
        """The state key computed from every field anew (for tests of the incremental key)."""
        return state_key(&self.s, &self.cfg)

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

    # --- for learning code: arrays, no objects ---------------------------------------------

    def legal_codes_into(self, uint64_t[::1] out):
        """Write the legal action codes (the engine's order) into out; returns how many there
        are. More than len(out): only len(out) were written, call again with that much room."""
        if out.shape[0] < 8:
            raise ValueError("room for at least 8 codes (every bidding action)")
        return legal_codes(&self.s, &self.cfg, &out[0], out.shape[0])

    def legal_indices_into(self, ActionIndex index, int64_t[::1] out):
        """Write the legal actions' indices in `index`'s numbering (the order of
        legal_codes_into; -1 for a code outside the space) into out; returns how many."""
        cdef uint64_t stack[CODES_ON_STACK]
        cdef uint64_t* codes = stack
        cdef Py_ssize_t count, i
        count = legal_codes(&self.s, &self.cfg, stack, CODES_ON_STACK)
        if count > CODES_ON_STACK:
            codes = <uint64_t*>malloc(count * sizeof(uint64_t))
            if codes == NULL:
                raise MemoryError()
            legal_codes(&self.s, &self.cfg, codes, count)
        for i in range(min(count, out.shape[0])):
            out[i] = index_of(&index.table, codes[i])
        if codes != stack:
            free(codes)
        return count

    def observation_into(self, int player, int history, int8_t[::1] out):
        """Write player's observation vector with the last `history` moves of play into out
        (observation_size(history) int8 entries; game.py's observation_layout)."""
        cdef Py_ssize_t i
        cdef int taken = 0
        cdef int8_t* row
        cdef const GameState* states = <const GameState*>self.stack.states
        cdef const uint64_t* actions = <const uint64_t*>self.stack.actions
        if not 0 <= player < self.s.players:
            raise ValueError(f"player must be a seat 0..{self.s.players - 1}")
        if not 0 <= history <= MAX_HISTORY:
            raise ValueError(f"history is 0 .. {MAX_HISTORY} moves, not {history}")
        if out.shape[0] != observation_size(history):
            raise ValueError(f"the observation takes {observation_size(history)} entries")
        with nogil:
            encode_base(&self.s, &self.cfg, player, &out[0])
            out[OBS_BASE] = <int8_t>self.s.bombs
            row = &out[OBS_BASE + OBS_BOMBS]
            memset(row, 0, HISTORY_ENTRY * history)
            # the undo stack holds every state and action: walk back over the play phase
            i = self.stack.depth - 1
            while i >= 0 and taken < history and states[i].phase == PLAY:
                encode_entry(row + HISTORY_ENTRY * taken, actions[i], states[i].current,
                             player, self.s.players)
                taken += 1
                i -= 1


def encode_observation(int player, list played, list counts, uint64_t hand, int landlord,
                       uint64_t kitty, uint64_t table, int table_player, int phase, int bid,
                       int multiplier_log2, int current, int direction, int8_t[::1] out):
    """Write Observation.encode()'s vector (OBS_BASE int8 entries) from the observation's
    fields: cards as masks, seats absolute (-1 for none), the multiplier as its log2. Every
    number is checked here, so no observation can write outside its fields."""
    cdef int seats = len(counts)
    cdef uint64_t played_masks[3]
    cdef int seat_counts[3]
    cdef int k
    if seats not in (2, 3) or len(played) != seats:
        raise ValueError("an observation has 2 or 3 seats, a count and played cards for each")
    if out.shape[0] != OBS_BASE:
        raise ValueError(f"the observation takes {OBS_BASE} entries")
    if not 0 <= player < seats:
        raise ValueError(f"player must be a seat 0..{seats - 1}")
    for seat in (landlord, table_player, current):
        if not -1 <= seat < seats:
            raise ValueError(f"a seat is -1 (none) or 0..{seats - 1}, not {seat}")
    if not (0 <= phase <= 2 and 0 <= bid <= 3 and 0 <= multiplier_log2 <= 127
            and direction in (1, -1)):
        raise ValueError("phase 0..2, bid 0..3, the multiplier's log2 0..127, direction +-1")
    if table and code_kind(table) >= 17:
        raise ValueError(f"code {table:#x} is no move")
    for k in range(seats):
        played_masks[k] = played[k]
        seat_counts[k] = counts[k]
        if not 0 <= seat_counts[k] <= 127:
            raise ValueError(f"a card count is 0..127, not {seat_counts[k]}")
    with nogil:
        encode_fields(&out[0], player, seats, hand, played_masks, seat_counts, landlord, kitty,
                      table, table_player, phase, bid, multiplier_log2, current, direction)


def restore_core(object rules, bytes state, bytes stack, bytes actions):
    """A GameCore from its pickled parts (GameCore.__reduce__): the state, the undo stack's
    states and their actions, each state checked against the rules (state.pxd's
    state_fault) so that no bytes can make a state the core would index out of range."""
    cdef GameCore core = GameCore.__new__(GameCore)
    cdef GameConfig cfg = config_of(rules)
    cdef Py_ssize_t depth = len(actions) // sizeof(uint64_t), i
    cdef const char* state_raw = state
    cdef const char* stack_raw = stack
    cdef const char* raw
    cdef GameState one
    if (len(state) != sizeof(GameState) or len(stack) != depth * sizeof(GameState)
            or len(actions) != depth * sizeof(uint64_t)):
        raise ValueError("the pickled game's parts have the wrong sizes for this build")
    for i in range(depth + 1):
        raw = state_raw if i == depth else stack_raw + i * sizeof(GameState)
        memcpy(&one, raw, sizeof(GameState))
        if state_fault(&one, &cfg) or one.hands_key != hands_key_of(&one):
            raise ValueError("the pickled game holds a state these rules cannot reach")
    stack_reserve(&core.stack, depth)
    core.cfg = cfg
    core.rules = rules
    memcpy(&core.s, state_raw, sizeof(GameState))
    memcpy(core.stack.states, stack_raw, depth * sizeof(GameState))
    memcpy(core.stack.actions, <const char*>actions, depth * sizeof(uint64_t))
    core.stack.depth = depth
    core.ready = True
    return core

