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

cdef enum:
    BID = 17            # action type: bid the value in the rank field
    CALL = 18           # call the landlord (call/grab bidding)
    GRAB = 19           # grab the landlord

cdef enum:
    BIDDING = 0
    PLAY = 1
    OVER = 2

cdef enum:
    POINTS = 0
    CALL_GRAB = 1
    RANDOM_LANDLORD = 2

cdef enum:
    ILLEGAL_OK = 0
    ILLEGAL_OVER = 1          # the game is over
    ILLEGAL_PHASE = 2         # a bidding action in play or a move in bidding
    ILLEGAL_BID = 3           # not a bid this player may make now
    ILLEGAL_MOVE = 5          # 5 + legality() reason: not a move, not held, ...

BID_ = BID
CALL_ = CALL
GRAB_ = GRAB
PHASES = ("bidding", "play", "over")

ctypedef struct GameState:
    uint64_t hands[3]       # seat 2 stays empty with two players
    uint64_t kitty
    uint64_t table          # the move on the table; 0 when the trick is empty
    int table_player        # who played it, -1 when the table is empty
    int current             # the seat to act, -1 when the game is over
    int phase
    int landlord            # -1 until bidding settles it
    int first_bidder
    int bid                 # the highest bid so far (points), the base score once settled
    int high_bidder
    int turns               # bidding actions taken
    int caller              # call/grab: the first caller, -1 before a call
    int declined            # call/grab: bit per seat that declined to call
    int grab_turn           # call/grab: grabbing turns taken since the call
    int grabs
    int winner              # -1 until someone empties their hand (and for a void deal)
    int bombs               # bombs and rockets played
    int landlord_plays      # moves (not passes) the landlord made
    int farmer_plays        # moves the farmers made
    int ply                 # actions taken
    int void                # all passed: nobody is landlord, payoffs are zero
    int players             # 2 or 3
    int direction           # +1 in seat order, -1 after an odd number of Reverses


def shuffled_deal(uint64_t deck, uint64_t seed, int players, int hand_size, int kitty_size):
    """(hands, kitty, rng state after) of a seeded shuffle of deck (a card integer):
    the Fisher-Yates shuffle of the cards low to high, dealt hand_size each, then the kitty."""
    cdef int cards[64]
    cdef int n = 0, rank, i, j, tmp
    cdef unsigned m
    cdef uint64_t state = seed
    cdef list hands = []
    cdef uint64_t hand
    for rank in range(NUM_DIGITS):
        for m in range(count_of(deck, rank)):
            cards[n] = rank
            n += 1
    if players * hand_size + kitty_size > n:
        raise ValueError("the deck is too small for this deal")
    for i in range(n - 1, 0, -1):
        j = below(&state, i + 1)
        tmp = cards[i]
        cards[i] = cards[j]
        cards[j] = tmp
    j = 0
    for i in range(players):
        hand = 0
        for _ in range(hand_size):
            hand += digit(cards[j], 1)
            j += 1
        hands.append(hand)
    hand = 0
    for _ in range(kitty_size):
        hand += digit(cards[j], 1)
        j += 1
    return hands, hand, state


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
    cdef RuleSet rs
    cdef int bidding, max_grabs, spring
    cdef readonly object rules

    def __cinit__(self, object rules, hands, uint64_t kitty, int first_bidder, int landlord):
        """A new game: rules (a ddz.Rules), three hand card integers and the kitty; the first
        bidder, or (random landlord) the landlord. The Python layer validates the deal."""
        cdef int seat
        self.rs = rules_of(rules)
        self.rules = rules
        self.bidding = {"points": POINTS, "call-grab": CALL_GRAB, "random": RANDOM_LANDLORD}[
            rules.bidding.value]
        self.max_grabs = rules.max_grabs
        self.spring = rules.spring
        self.capacity = 128
        self.stack = <GameState*>malloc(self.capacity * sizeof(GameState))
        self.actions = <uint64_t*>malloc(self.capacity * sizeof(uint64_t))
        if self.stack == NULL or self.actions == NULL:
            raise MemoryError()
        self.depth = 0
        memset(&self.s, 0, sizeof(GameState))   # padding too: equal states, equal bytes
        self.s.players = rules.players
        self.s.direction = 1
        for seat in range(self.s.players):
            self.s.hands[seat] = hands[seat]
        self.s.kitty = kitty
        self.s.table = 0
        self.s.table_player = -1
        self.s.phase = BIDDING
        self.s.landlord = -1
        self.s.first_bidder = first_bidder
        self.s.current = first_bidder
        self.s.bid = 0
        self.s.high_bidder = -1
        self.s.turns = 0
        self.s.caller = -1
        self.s.declined = 0
        self.s.grab_turn = 0
        self.s.grabs = 0
        self.s.winner = -1
        self.s.bombs = 0
        self.s.landlord_plays = 0
        self.s.farmer_plays = 0
        self.s.ply = 0
        self.s.void = 0
        if self.bidding == RANDOM_LANDLORD:
            self.s.bid = 1
            settle(&self.s, landlord)

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

    # --- acting ---------------------------------------------------------------------------

    cpdef int check(self, uint64_t action):
        """0 if action is legal now, else a reason (see ILLEGAL_* and legality())."""
        return check_action(self, action)

    cpdef void push(self, uint64_t action):
        """Apply action, unchecked (the fast path for search); undo takes it back."""
        if self.depth == self.capacity:
            grow(self, 2 * self.capacity)
        self.stack[self.depth] = self.s
        self.actions[self.depth] = action
        self.depth += 1
        apply_action(self, action)

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
        return run_to_moves(self.s.hands[self.s.current], self.s.table, &self.rs, False)

    def bidding_codes(self):
        """Every legal bidding action's code (bidding phase; [] otherwise)."""
        cdef uint64_t codes[8]
        cdef int n
        if self.s.phase != BIDDING:
            return []
        n = bidding_actions(self, codes)
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
        return score(self)

    def payoffs(self):
        """Points per seat: zero until the game is over and for a void deal. Three players:
        the landlord wins or loses twice the score, each farmer the opposite once; two
        players: the loser pays the winner the score."""
        cdef int seat
        cdef long long total
        cdef list result = [0] * self.s.players
        if self.s.phase != OVER or self.s.void:
            return result
        total = score(self)
        for seat in range(self.s.players):
            if seat == self.s.landlord:
                result[seat] = (self.s.players - 1) * total
            else:
                result[seat] = -total
        if self.s.winner != self.s.landlord:
            result = [-value for value in result]
        return result

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


cdef inline void settle(GameState* s, int landlord) noexcept nogil:
    """The landlord takes the kitty and leads."""
    s.landlord = landlord
    s.hands[landlord] += s.kitty
    s.phase = PLAY
    s.current = landlord
    s.table = 0
    s.table_player = -1


cdef inline void void_deal(GameState* s) noexcept nogil:
    s.void = 1
    s.phase = OVER
    s.current = -1


cdef inline bint is_spring(const GameState* s) noexcept nogil:
    if s.phase != OVER or s.void:
        return False
    if s.winner == s.landlord:
        return s.farmer_plays == 0
    return s.landlord_plays == 1


cdef long long score(GameCore game) noexcept:
    # at most 3 x 2^8 grabs x 2^14 bombs and rocket x 2: a long long never overflows
    cdef long long total = (<long long>game.s.bid) << game.s.grabs
    total <<= game.s.bombs
    if game.spring and is_spring(&game.s):
        total *= 2
    return total


cdef inline int next_grabber(const GameState* s) noexcept nogil:
    """Call/grab: who may grab next after the call, or -1 when grabbing is over. Each other
    player who did not decline to call, in seat order after the caller, once; then the caller
    once, to grab back, if someone grabbed."""
    cdef int turn, seat
    for turn in range(s.grab_turn, 3):
        if turn < 2:
            seat = (s.caller + 1 + turn) % 3
            if not (s.declined >> seat) & 1:
                return seat
        elif s.grabs > 0:
            return s.caller
    return -1


cdef inline int grab_turn_of(const GameState* s, int seat) noexcept nogil:
    if seat == s.caller:
        return 2
    return (seat - s.caller + 2) % 3


cdef inline int seat_after(const GameState* s, int seat, int steps) noexcept nogil:
    """The seat `steps` turns after seat, in the direction of play."""
    return ((seat + steps * s.direction) % s.players + s.players) % s.players


cdef inline int two_player_grabber(const GameState* s) noexcept nogil:
    """Two players: who may grab now, or -1 when grabbing is over: the player who does not
    hold the landlord, unless they declined to call or the grabs ran out (max_grabs is
    checked by the caller of this function)."""
    cdef int holder = s.high_bidder if s.high_bidder >= 0 else s.caller
    cdef int other = 1 - holder
    if (s.declined >> other) & 1:
        return -1
    return other


cdef int bidding_actions(GameCore game, uint64_t* codes) noexcept:
    cdef int n = 0, value
    codes[n] = 0
    n += 1
    if game.bidding == POINTS:
        for value in range(game.s.bid + 1, 4):
            codes[n] = make_code(0, BID, value, 1)
            n += 1
    elif game.s.caller < 0:
        codes[n] = make_code(0, CALL, 0, 1)
        n += 1
    elif game.s.grabs < game.max_grabs:
        codes[n] = make_code(0, GRAB, 0, 1)
        n += 1
    return n


cdef int check_action(GameCore game, uint64_t action) noexcept:
    cdef uint64_t codes[8]
    cdef int n, i
    if game.s.phase == OVER:
        return ILLEGAL_OVER
    if game.s.phase == BIDDING:
        if action != 0 and code_kind(action) < BID:
            return ILLEGAL_PHASE
        n = bidding_actions(game, codes)
        for i in range(n):
            if codes[i] == action:
                return ILLEGAL_OK
        return ILLEGAL_BID
    if code_kind(action) >= BID:
        return ILLEGAL_PHASE
    i = legality(game.s.hands[game.s.current], action, game.s.table, game.s.table == 0,
                 &game.rs)
    return ILLEGAL_OK if i == 0 else ILLEGAL_MOVE + i


cdef void apply_action(GameCore game, uint64_t action) noexcept:
    cdef GameState* s = &game.s
    s.ply += 1
    if s.phase == BIDDING:
        if game.bidding == POINTS:
            apply_points_bid(s, action)
        elif s.players == 2:
            apply_two_player_call(game, action)
        else:
            apply_three_player_call(s, action, game.max_grabs)
    else:
        apply_play(s, action)


cdef void apply_points_bid(GameState* s, uint64_t action) noexcept:
    """Each player once bids higher or passes; a 3 ends bidding at once."""
    if code_kind(action) == BID:
        s.bid = code_rank(action)
        s.high_bidder = s.current
    s.turns += 1
    if s.bid == 3 or s.turns == s.players:
        if s.high_bidder < 0:
            void_deal(s)
        else:
            settle(s, s.high_bidder)
    else:
        s.current = seat_after(s, s.current, 1)


cdef void apply_three_player_call(GameState* s, uint64_t action, int max_grabs) noexcept:
    """Call, then each other player who did not decline once may grab, then the caller may
    grab back once (RULES.md section 4, last paragraph)."""
    cdef int seat = s.current, kind = code_kind(action), next_seat
    if s.caller < 0:
        s.turns += 1
        if kind == CALL:
            s.caller = seat
            s.bid = 1
        else:
            s.declined |= 1 << seat
            if s.turns == 3:
                void_deal(s)
            else:
                s.current = (seat + 1) % 3
            return
    else:
        if kind == GRAB:
            s.grabs += 1
            s.high_bidder = seat
        s.grab_turn = grab_turn_of(s, seat) + 1
    next_seat = next_grabber(s)
    if next_seat < 0 or s.grabs >= max_grabs:      # nobody left who may grab
        settle(s, s.high_bidder if s.high_bidder >= 0 else s.caller)
    else:
        s.current = next_seat


cdef void apply_two_player_call(GameCore game, uint64_t action) noexcept:
    """Call or decline; once called, grabs go back and forth, each by the player who does not
    hold the landlord, until one declines or max_grabs is reached (RULES.md section 4)."""
    cdef GameState* s = &game.s
    cdef int seat = s.current, kind = code_kind(action), next_seat
    if s.caller < 0:
        s.turns += 1
        if kind == CALL:
            s.caller = seat
            s.bid = 1
        else:
            s.declined |= 1 << seat
            if s.turns == 2:
                void_deal(s)
            else:
                s.current = 1 - seat
            return
    elif kind == GRAB:
        s.grabs += 1
        s.high_bidder = seat
    else:
        settle(s, s.high_bidder if s.high_bidder >= 0 else s.caller)
        return
    next_seat = two_player_grabber(s)
    if next_seat < 0 or s.grabs >= game.max_grabs:
        settle(s, s.high_bidder if s.high_bidder >= 0 else s.caller)
    else:
        s.current = next_seat


cdef void apply_play(GameState* s, uint64_t action) noexcept:
    cdef int seat = s.current, kind = code_kind(action), next_seat
    if action == 0:
        next_seat = seat_after(s, seat, 1)
        if next_seat == s.table_player:
            s.table = 0                   # everyone else passed: the trick is over
            s.table_player = -1
        s.current = next_seat
        return
    s.hands[seat] -= code_cards(action)
    if seat == s.landlord:
        s.landlord_plays += 1
    else:
        s.farmer_plays += 1
    if kind == SKIP or kind == REVERSE:
        # Uno the Landlord: the table's move stays; only the turn order changes
        if kind == SKIP:
            next_seat = seat_after(s, seat, 2)          # the next player loses their turn
            if next_seat == s.table_player:
                s.table = 0                            # the turn is back with the move's maker
                s.table_player = -1
        else:
            s.direction = -s.direction
            next_seat = seat_after(s, seat, 1)
            if next_seat == s.table_player:
                next_seat = seat_after(s, next_seat, 1)  # nobody answers their own move
    else:
        s.table = action
        s.table_player = seat
        if kind == BOMB or kind == ROCKET:
            s.bombs += 1
        next_seat = seat_after(s, seat, 1)
    if s.hands[seat] == 0 or (s.players == 2 and seat != s.landlord and s.grabs > 0
                              and card_total(s.hands[seat]) <= s.grabs):
        s.winner = seat                   # out of cards, or a farmer down to the let count
        s.phase = OVER
        s.current = -1
    else:
        s.current = next_seat
