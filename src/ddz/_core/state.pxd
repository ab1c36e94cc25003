# A game's state machine, as inline C: the GameState struct, its configuration, dealing,
# bidding, play, scoring. game.pyx (one game, with undo) and vector.pyx (many games, whole
# games across threads) both compile it in. Actions are codes in the move-code space
# (layout.pxd): a move's code in play; in bidding 0 is the pass (decline), and BID (its rank
# field the bid, 1..3), CALL and GRAB sit above the move types.

from libc.stdint cimport uint64_t
from libc.string cimport memset

from ddz._core.layout cimport *
from ddz._core.ruleset cimport *
from ddz._core.readings cimport *
from ddz._core.generator cimport *
from ddz._core.rng cimport below
from ddz._core.moves cimport rules_of
from ddz._core.zobrist cimport fmix64, zobrist_cards, zobrist_change

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

ctypedef struct GameConfig:
    RuleSet rs
    uint64_t deck           # every card of the rules' deck
    int bidding             # POINTS, CALL_GRAB or RANDOM_LANDLORD
    int max_grabs
    int spring              # does a spring double the score?
    int players
    int hand_size
    int kitty_size

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
    uint64_t played[3]      # the cards each seat has played: public knowledge
    uint64_t hands_key      # the hands' Zobrist key, kept up to date by every change; the
                            # state key (key_of below) adds the other fields' part to it


cdef enum:
    MAX_HAND = 64            # the most cards a rule set may deal a hand (the deck has 58)
    MAX_GRABS = 8            # the most grabs a rule set may allow (Rules says the same)
    MAX_PLIES = 1024         # no game lasts longer: every ply but at most players - 1 passes
                             # in a row plays a card, and a deck holds at most 58


cdef inline GameConfig config_of(object rules) except *:
    """The core's configuration of a ddz.Rules, checked: whatever object arrives, the
    configuration is one the state machine can run (2 or 3 players, a deal the deck holds in
    which every hand gets a card, grabs in range). ValueError otherwise."""
    cdef GameConfig cfg
    cfg.rs = rules_of(rules)
    cfg.deck = cfg.rs.deck
    try:
        cfg.bidding = {"points": POINTS, "call-grab": CALL_GRAB, "random": RANDOM_LANDLORD}[
            rules.bidding.value]
        cfg.max_grabs = rules.max_grabs
        cfg.spring = bool(rules.spring)
        cfg.players = rules.players
        cfg.hand_size = rules.hand_size
        cfg.kitty_size = rules.kitty_size
    except (AttributeError, KeyError):
        raise TypeError("rules must be a ddz.Rules") from None
    if not 2 <= cfg.players <= 3:
        raise ValueError(f"the core plays 2 or 3 players, not {cfg.players}")
    if not 0 <= cfg.max_grabs <= MAX_GRABS:
        raise ValueError(f"max_grabs must lie in 0..{MAX_GRABS}, not {cfg.max_grabs}")
    if not (1 <= cfg.hand_size <= MAX_HAND and 0 <= cfg.kitty_size <= MAX_HAND
            and cfg.players * cfg.hand_size + cfg.kitty_size <= card_total(cfg.deck)):
        raise ValueError(f"{cfg.players} hands of {cfg.hand_size} cards and a kitty of "
                         f"{cfg.kitty_size} is no deal of a {card_total(cfg.deck)}-card deck "
                         f"(every hand holds at least one card)")
    return cfg


cdef inline int deal_cards(const GameConfig* cfg, uint64_t seed, uint64_t* hands,
                           uint64_t* kitty, uint64_t* rng) noexcept nogil:
    """A seeded deal: the Fisher-Yates shuffle of the deck's cards low to high, hand_size
    each, then the kitty (the rest is set aside). rng is left where the shuffle ended; -1 if
    the deck is too small."""
    cdef int cards[64]
    cdef int n = 0, rank, i, j, tmp, seat
    cdef unsigned m
    rng[0] = seed
    for rank in range(NUM_DIGITS):
        for m in range(count_of(cfg.deck, rank)):
            cards[n] = rank
            n += 1
    if cfg.players * cfg.hand_size + cfg.kitty_size > n:
        return -1
    for i in range(n - 1, 0, -1):
        j = below(rng, i + 1)
        tmp = cards[i]
        cards[i] = cards[j]
        cards[j] = tmp
    j = 0
    for seat in range(cfg.players):
        hands[seat] = 0
        for i in range(cfg.hand_size):
            hands[seat] += digit(cards[j], 1)
            j += 1
    kitty[0] = 0
    for i in range(cfg.kitty_size):
        kitty[0] += digit(cards[j], 1)
        j += 1
    return 0


cdef inline void init_state(GameState* s, const GameConfig* cfg, const uint64_t* hands,
                            uint64_t kitty, int first_player) noexcept nogil:
    """A game at its start: the deal, the first bidder (or, random landlord, the landlord)."""
    cdef int seat
    memset(s, 0, sizeof(GameState))   # padding too: equal states, equal bytes
    s.players = cfg.players
    s.direction = 1
    for seat in range(cfg.players):
        s.hands[seat] = hands[seat]
    s.kitty = kitty
    s.table_player = -1
    s.phase = BIDDING
    s.landlord = -1
    s.first_bidder = first_player
    s.current = first_player
    s.high_bidder = -1
    s.caller = -1
    s.winner = -1
    if cfg.bidding == RANDOM_LANDLORD:
        s.bid = 1
        settle(s, first_player)
    s.hands_key = hands_key_of(s)


cdef inline void init_position(GameState* s, const GameConfig* cfg, const uint64_t* hands,
                               const uint64_t* played, uint64_t kitty, int landlord,
                               int to_act, uint64_t table, int table_player, int bid,
                               int bombs, int grabs, int direction, int landlord_plays,
                               int farmer_plays) noexcept nogil:
    """A play-phase position (ddz.Game.from_position): every hand, the cards each seat has
    played, the kitty as shown (already among the landlord's cards), the move to beat
    (0: the seat to act leads) and who made it, and the multiplier's inputs. The Python
    layer validates every field; this only writes them."""
    cdef int seat
    init_state(s, cfg, hands, 0, landlord)
    for seat in range(cfg.players):
        s.played[seat] = played[seat]
    s.kitty = kitty
    s.phase = PLAY
    s.landlord = landlord
    s.first_bidder = landlord
    s.current = to_act
    s.table = table
    s.table_player = table_player if table != 0 else -1
    s.bid = bid
    s.high_bidder = landlord
    s.caller = landlord if cfg.bidding == CALL_GRAB else -1
    s.grabs = grabs
    s.bombs = bombs
    s.direction = direction
    s.landlord_plays = landlord_plays
    s.farmer_plays = farmer_plays
    s.hands_key = hands_key_of(s)


cdef inline void seeded_start(GameState* s, const GameConfig* cfg, uint64_t seed) noexcept nogil:
    """The game ddz.Game(rules, seed=seed) starts with: the seeded deal, then the first
    player drawn from the same generator."""
    cdef uint64_t hands[3]
    cdef uint64_t kitty, rng
    deal_cards(cfg, seed, hands, &kitty, &rng)
    init_state(s, cfg, hands, kitty, below(&rng, cfg.players))


cdef inline void payoffs_of(const GameState* s, const GameConfig* cfg, long long* out) noexcept nogil:
    """Points per seat: zero until the game is over and for a void deal. Three players: the
    landlord wins or loses twice the score, each farmer the opposite once; two players: the
    loser pays the winner the score."""
    cdef int seat
    cdef long long total = 0
    if s.phase == OVER and not s.void:
        total = score(s, cfg)
        if s.winner != s.landlord:
            total = -total
    for seat in range(s.players):
        out[seat] = (s.players - 1) * total if seat == s.landlord else -total


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


cdef inline long long score(const GameState* s, const GameConfig* cfg) noexcept nogil:
    # at most 3 x 2^8 grabs x 2^14 bombs and rocket x 2 in a game the rules allow; states
    # push_code made (bombs of any kind) are capped at 2^60 so the shift never overflows
    cdef int doublings = s.grabs + s.bombs
    cdef long long total
    if doublings > 60:
        doublings = 60
    total = (<long long>s.bid) << doublings
    if cfg.spring and is_spring(s):
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
    """The seat `steps` turns after seat, in the direction of play. Without a division:
    this runs on every move, and steps is 1 or 2 (a loop turn or two at most)."""
    cdef int next_seat = seat + steps * s.direction
    while next_seat >= s.players:
        next_seat -= s.players
    while next_seat < 0:
        next_seat += s.players
    return next_seat


cdef inline int two_player_grabber(const GameState* s) noexcept nogil:
    """Two players: who may grab now, or -1 when grabbing is over: the player who does not
    hold the landlord, unless they declined to call or the grabs ran out (max_grabs is
    checked by the caller of this function)."""
    cdef int holder = s.high_bidder if s.high_bidder >= 0 else s.caller
    cdef int other = 1 - holder
    if (s.declined >> other) & 1:
        return -1
    return other


cdef inline int bidding_actions(const GameState* s, const GameConfig* cfg, uint64_t* codes) noexcept nogil:
    cdef int n = 0, value
    codes[n] = 0
    n += 1
    if cfg.bidding == POINTS:
        for value in range(s.bid + 1, 4):
            codes[n] = make_code(0, BID, value, 1)
            n += 1
    elif s.caller < 0:
        codes[n] = make_code(0, CALL, 0, 1)
        n += 1
    elif s.grabs < cfg.max_grabs:
        codes[n] = make_code(0, GRAB, 0, 1)
        n += 1
    return n


cdef inline int check_action(const GameState* s, const GameConfig* cfg, uint64_t action) noexcept nogil:
    cdef uint64_t codes[8]
    cdef int n, i
    if s.phase == OVER:
        return ILLEGAL_OVER
    if s.phase == BIDDING:
        if action != 0 and code_kind(action) < BID:
            return ILLEGAL_PHASE
        n = bidding_actions(s, cfg, codes)
        for i in range(n):
            if codes[i] == action:
                return ILLEGAL_OK
        return ILLEGAL_BID
    if code_kind(action) >= BID:
        return ILLEGAL_PHASE
    i = legality(s.hands[s.current], action, s.table, s.table == 0,
                 &cfg.rs)
    return ILLEGAL_OK if i == 0 else ILLEGAL_MOVE + i


cdef inline int push_fault(const GameState* s, const GameConfig* cfg,
                           uint64_t action) noexcept nogil:
    """0 if apply_action may take action without breaking the state's invariants, else an
    ILLEGAL_* reason. This is what an unchecked push still checks: the game is not over; in
    bidding the action is a bidding action's code (pass, bid 1..3, call, grab); in play it
    is the pass or a move under the rules (a reading of its cards) of cards the player holds.
    What push skips are the rules of turn: beating the table, the leader's pass, the bidding
    order. So no seat index, hand digit, bid or table ever leaves its range, and every view of
    the state (the table as a Move, the history) still reads."""
    if s.phase == OVER or not 0 <= s.current < s.players:
        return ILLEGAL_OVER
    if s.phase == BIDDING:
        if (action == 0 or action == make_code(0, CALL, 0, 1) or action == make_code(0, GRAB, 0, 1)
                or (1 <= code_rank(action) <= 3
                    and action == make_code(0, BID, code_rank(action), 1))):
            return ILLEGAL_OK
        return ILLEGAL_PHASE if code_kind(action) < BID else ILLEGAL_BID
    if code_kind(action) >= BID:
        return ILLEGAL_PHASE
    if not is_reading(action, &cfg.rs):
        return ILLEGAL_MOVE + NOT_A_READING
    if not is_subset(code_cards(action), s.hands[s.current]):
        return ILLEGAL_MOVE + NOT_IN_HAND
    return ILLEGAL_OK


cdef inline int state_fault(const GameState* s, const GameConfig* cfg) noexcept nogil:
    """0 if every field of s lies in the range the core indexes by, under cfg (a state read
    back from bytes: pickles, greedy_action); else the number of the first bad check. Every
    field used as an index or a shift is listed here: a field added to GameState that is
    used so must be added too."""
    cdef int seat
    # the kitty's cards are in the landlord's hand (or played) once bidding settled it
    cdef uint64_t total = s.kitty if s.landlord < 0 else 0
    if s.players != cfg.players or not is_subset(s.kitty, cfg.deck):
        return 1
    if not (BIDDING <= s.phase <= OVER and -1 <= s.current < s.players
            and (s.current >= 0) == (s.phase != OVER)):
        return 2
    if not (-1 <= s.landlord < s.players and (s.landlord >= 0 or s.phase != PLAY)
            and 0 <= s.first_bidder < s.players and -1 <= s.high_bidder < s.players
            and -1 <= s.caller < s.players and -1 <= s.winner < s.players
            and -1 <= s.table_player < s.players):
        return 3
    if not (0 <= s.bid <= 3 and 0 <= s.grabs <= cfg.max_grabs and 0 <= s.bombs <= 64
            and 0 <= s.turns <= 16 and 0 <= s.grab_turn <= 3 and 0 <= s.declined < 8
            and (s.direction == 1 or s.direction == -1) and 0 <= s.ply <= MAX_PLIES
            and 0 <= s.landlord_plays <= MAX_PLIES and 0 <= s.farmer_plays <= MAX_PLIES
            and (s.void == 0 or s.void == 1)):
        return 4
    if code_kind(s.table) >= BID or (s.table != 0) != (s.table_player >= 0):
        return 5
    for seat in range(3):
        if seat >= s.players and (s.hands[seat] or s.played[seat]):
            return 6
        if not is_subset(s.hands[seat], cfg.deck - total):
            return 6
        total += s.hands[seat]
        if not is_subset(s.played[seat], cfg.deck - total):
            return 6
        total += s.played[seat]
    return 0


cdef inline void apply_action(GameState* s, const GameConfig* cfg, uint64_t action) noexcept nogil:
    cdef uint64_t before[3]
    cdef int seat
    for seat in range(3):
        before[seat] = s.hands[seat]
    apply_unkeyed(s, cfg, action)
    for seat in range(s.players):
        # the hands' key, incrementally: one hand in play (none for a pass), the landlord's
        # when it takes the kitty; only the changed ranks cost anything
        if s.hands[seat] != before[seat]:
            s.hands_key ^= zobrist_change(seat, before[seat], s.hands[seat])


cdef inline void apply_unkeyed(GameState* s, const GameConfig* cfg, uint64_t action) noexcept nogil:
    """apply_action without the hands' key: s.hands_key goes stale. Only for a loop that
    never reads a key nor hands the state on (simulate's games), which so saves the key's
    upkeep on every ply (a sixth of a random game's instructions)."""
    s.ply += 1
    if s.phase == BIDDING:
        if cfg.bidding == POINTS:
            apply_points_bid(s, action)
        elif s.players == 2:
            apply_two_player_call(s, action, cfg.max_grabs)
        else:
            apply_three_player_call(s, action, cfg.max_grabs)
    else:
        apply_play(s, action)


# The state key: 64 bits that are equal for equal states and, with near certainty, differ
# for different ones (docs/positions.md, "The state key"): the hands' Zobrist key, which
# apply_action keeps in the state (so undo restores it), XOR a mix of the few other fields,
# computed when the key is read (a handful of multiplications; a game loop that never reads
# keys pays only for the hands' part). It covers what decides the game
# from here on: every hand (Zobrist: zobrist.pxd), the phase, the seat to act, the landlord,
# the move to beat and its maker, the direction, the grabs (the let count), the winner and a
# void deal, whether a spring is still possible (when the rules count springs), and in
# bidding every bidding field and the kitty. It leaves out what only records the past or only
# scales the score: the ply, the history, the cards played, the first bidder, the bid and the
# bombs once play starts, and the kitty once shown; so transposed move orders meet on one key.

cdef inline uint64_t small_fields_key(const GameState* s, const GameConfig* cfg) noexcept nogil:
    """The key's part from every field but the hands, from scratch (a few multiplications)."""
    cdef uint64_t packed = (<uint64_t>s.phase
                            | (<uint64_t>(s.current + 1) << 2)
                            | (<uint64_t>(s.landlord + 1) << 5)
                            | (<uint64_t>(s.table_player + 1) << 8)
                            | (<uint64_t>(s.direction < 0) << 11)
                            | (<uint64_t>s.grabs << 12)
                            | (<uint64_t>(s.winner + 1) << 20)
                            | (<uint64_t>s.void << 23))
    cdef uint64_t key
    if cfg.spring:
        # a landlord's spring needs farmer_plays == 0; the farmers' landlord_plays == 1
        packed |= ((<uint64_t>(2 if s.landlord_plays > 2 else s.landlord_plays) << 24)
                   | (<uint64_t>(s.farmer_plays > 0) << 26))
    key = fmix64(packed * 0xD6E8FEB86659FD93ULL + 0x2545F4914F6CDD1DULL)
    key ^= fmix64(s.table * 0xA0761D6478BD642FULL + 0xE7037ED1A0B428DBULL)
    if s.phase == BIDDING:
        packed = (<uint64_t>s.bid
                  | (<uint64_t>(s.high_bidder + 1) << 4)
                  | (<uint64_t>(s.caller + 1) << 8)
                  | (<uint64_t>s.declined << 12)
                  | (<uint64_t>s.grab_turn << 16)
                  | (<uint64_t>s.turns << 20))
        key ^= fmix64(packed * 0x8EBC6AF09C88C6E3ULL + 0x589965CC75374CC3ULL)
        key ^= fmix64(s.kitty * 0x1D8E4E27C47D124FULL + 0x5851F42D4C957F2DULL)
    return key


cdef inline uint64_t key_of(const GameState* s, const GameConfig* cfg) noexcept nogil:
    """The state key: the hands' key kept in the state, and the other fields mixed in."""
    return s.hands_key ^ small_fields_key(s, cfg)


cdef inline uint64_t hands_key_of(const GameState* s) noexcept nogil:
    """The hands' Zobrist key from scratch (apply_action keeps s.hands_key equal to it)."""
    cdef uint64_t key = 0
    cdef int seat
    for seat in range(s.players):
        key ^= zobrist_cards(seat, s.hands[seat])
    return key


cdef inline uint64_t state_key(const GameState* s, const GameConfig* cfg) noexcept nogil:
    """The state key from scratch, nothing incremental (for tests and checks)."""
    return hands_key_of(s) ^ small_fields_key(s, cfg)


cdef inline void apply_points_bid(GameState* s, uint64_t action) noexcept nogil:
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


cdef inline bint apply_call_turn(GameState* s, int kind) noexcept nogil:
    """Before anyone has called: a call makes the caller (base 1); a decline is remembered
    and the turn passes on, or the deal is void once every seat has declined. True for a
    decline (the action is done), False for a call (grabbing begins)."""
    cdef int seat = s.current
    s.turns += 1
    if kind == CALL:
        s.caller = seat
        s.bid = 1
        return False
    s.declined |= 1 << seat
    if s.turns == s.players:
        void_deal(s)
    else:
        s.current = seat_after(s, seat, 1)
    return True


cdef inline void apply_three_player_call(GameState* s, uint64_t action, int max_grabs) noexcept nogil:
    """Call, then each other player who did not decline once may grab, then the caller may
    grab back once (docs/rules.md#call-grab-three-players)."""
    cdef int seat = s.current, kind = code_kind(action), next_seat
    if s.caller < 0:
        if apply_call_turn(s, kind):
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


cdef inline void apply_two_player_call(GameState* s, uint64_t action, int max_grabs) noexcept nogil:
    """Call or decline; once called, grabs go back and forth, each by the player who does not
    hold the landlord, until one declines or max_grabs is reached (docs/two-player.md#grabbing)."""
    cdef int seat = s.current, kind = code_kind(action), next_seat
    if s.caller < 0:
        if apply_call_turn(s, kind):
            return
    elif kind == GRAB:
        s.grabs += 1
        s.high_bidder = seat
    else:
        settle(s, s.high_bidder if s.high_bidder >= 0 else s.caller)
        return
    next_seat = two_player_grabber(s)
    if next_seat < 0 or s.grabs >= max_grabs:
        settle(s, s.high_bidder if s.high_bidder >= 0 else s.caller)
    else:
        s.current = next_seat


cdef inline void apply_play(GameState* s, uint64_t action) noexcept nogil:
    cdef int seat = s.current, kind = code_kind(action), next_seat
    if action == 0:
        next_seat = seat_after(s, seat, 1)
        if next_seat == s.table_player:
            s.table = 0                   # everyone else passed: the trick is over
            s.table_player = -1
        s.current = next_seat
        return
    s.hands[seat] -= code_cards(action)
    s.played[seat] += code_cards(action)
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
