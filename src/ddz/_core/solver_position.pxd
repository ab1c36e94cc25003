# cython: cdivision=True
# The exact solver's position (solver.pyx): the play-phase part of a game's state, the
# searcher that holds a search's stacks, limits and memo, and play on a position (the seat
# after, a game-ending move, a move played, the value of ending the game).

from libc.stdint cimport uint64_t

from ddz._core.layout cimport *
from ddz._core.ruleset cimport *
from ddz._core.readings cimport *
from ddz._core.solver_table cimport Table

ctypedef struct Pos:
    uint64_t hands[3]       # seat 2 empty with two seats
    uint64_t table          # the move to beat, 0 when leading
    int table_player        # who made it, -1 when leading
    int current             # the seat to act
    int landlord
    int players             # 2 or 3
    int direction           # +1 in seat order, -1 reversed (Uno the Landlord)
    int let                 # two seats: the farmer wins on reaching this many cards (0: off)
    int landlord_plays      # moves the landlord made, capped at 2 (spring bookkeeping)
    int farmer_plays        # moves the farmers made, capped at 1

ctypedef struct StaticMemo:
    # static_win's verdicts (solver_static.pxd): two words a slot
    uint64_t* slots
    uint64_t mask           # the slots in use, less one

ctypedef struct Searcher:
    RuleSet rs
    Table* tt
    uint64_t* moves         # the move stack: each node's moves above its parent's
    int* scores
    int* order              # the search order: indices into the node's moves
    uint64_t* keys          # the children's table keys, when computed ahead
    Py_ssize_t top
    uint64_t nodes
    uint64_t node_limit     # 0: none
    uint64_t round_end      # the nodes at which a round of search_in_rounds ends (this
                            # searcher only, the stop flag left alone); ~0: none
    uint64_t round_first    # the nodes of its first round
    int round_orders        # the move orders it takes in turn
    int round_cards         # the fewest cards in play searched in rounds
    int round_cards_two     # the same, two seats (FLAG_TWO_ROUNDS)
    double deadline         # monotonic seconds; 0: none
    int* stop      # shared by the threads of one solve
    int aborted
    int overflow            # the move stack ran out (a position too wide: unknown)
    int score_mode
    int verdict             # score mode: the root's win/loss value once score_by_windows has
                            # settled it in this solve (0: not yet), so that a solve its
                            # limits stop before the score still answers it
    uint64_t verdict_move   # the root's best move for it (verdict_found: one is known)
    int verdict_found
    int spring              # the rules count a spring
    uint64_t lone_tree      # FLAG_LONE_TREE: the nodes of each farmer-alone game asked in
                            # the tree in this round of search_in_rounds (0: none)
    uint64_t lone_tree_from # the rounds that ask them: at least this many nodes an order
    uint64_t lone_tree_nodes    # the nodes of each game there
    int lone_tree_cards     # the fewest cards in play at a node that asks them
    int held                # held_farmer's game: the farmer held to one move a node
                            # (-1: none, every seat searched)
    int held_answers        # that farmer answers as the ordering says (0: it passes)
    uint64_t key_salt       # xor-ed into every key of that game (0 otherwise): its
                            # landlord's wins are not the position's, and never meet the
                            # search's own (its farmers' wins are: held_key)
    int etc_cards_three     # FLAG_THREE_ETC: the fewest cards in play at a node that
                            # looks its children up first
    int noise               # lazy SMP: this thread's ordering perturbation (0: none)
    int flags               # the shortcuts switched on (FLAG_* of solver.pyx; tests turn
                            # them off to cross-check the search)
    int busy                # a solve is using this searcher (set and tested under the GIL)
    uint64_t* plays         # split_cost memo, direct-mapped: the top 56 bits of the hash of
                            # the hand and the opponents' summary, then cost + 1 (a hash
                            # collision could only misorder moves, never change a value)
    int plays_budget        # generator calls left to the ordering of the current node
    uint64_t plays_mask     # the memo's entries in use, less one (grown_mask)
    StaticMemo memo         # static_win's verdicts (solver_static.pxd)
    StaticMemo* statics     # &memo, or NULL where the tests switch it off (_set_memo)


cdef inline int side_of(const Pos* p, int seat) noexcept nogil:
    return 0 if seat == p.landlord else 1


cdef inline int seat_after(const Pos* p, int seat, int steps) noexcept nogil:
    """The seat steps (1 or 2) places after seat in the direction of play (no division:
    this runs at every node)."""
    cdef int after = seat + steps * p.direction
    if after < 0:
        after += p.players
    elif after >= p.players:
        after -= p.players
    if after >= p.players:                   # two seats, two steps
        after -= p.players
    return after


cdef inline uint64_t grown_mask(uint64_t mask, uint64_t nodes, uint64_t size) noexcept nogil:
    """The mask of a memo's slots in use (size in all, a power of two), doubled while the
    nodes searched outnumber them: a small search touches (and page-faults in) a few pages
    of the memo. A slot stored before is a miss after, looked for elsewhere."""
    while nodes > mask and mask < size - 1:
        mask = 2 * mask + 1
    return mask


cdef inline bint holds_actions(uint64_t cards) noexcept nogil:
    """Do the cards hold a Skip or Reverse card (Uno the Landlord)? Those move the turn as
    no other move does, so the tests that reason about who acts next give up on them."""
    return count_of(cards, SKIP_CARD) != 0 or count_of(cards, REVERSE_CARD) != 0


cdef inline uint64_t without_actions(uint64_t cards) noexcept nogil:
    """The cards but their Skip and Reverse cards."""
    return cards - digit(SKIP_CARD, count_of(cards, SKIP_CARD)) \
        - digit(REVERSE_CARD, count_of(cards, REVERSE_CARD))


cdef inline bint ends_game(const Pos* p, uint64_t move) noexcept nogil:
    """Does the player to act end the game with move (out of cards, or down to the let)?"""
    cdef uint64_t rest
    if move == 0:
        return False
    rest = p.hands[p.current] - code_cards(move)
    if rest == 0:
        return True
    return p.let > 0 and p.current != p.landlord and card_total(rest) <= p.let


cdef inline void play(Pos* p, uint64_t move) noexcept nogil:
    """state.pxd's apply_play on the position (the caller checks ends_game first)."""
    cdef int seat = p.current, kind = code_kind(move), next_seat
    if move == 0:
        next_seat = seat_after(p, seat, 1)
        if next_seat == p.table_player:
            p.table = 0
            p.table_player = -1
        p.current = next_seat
        return
    p.hands[seat] -= code_cards(move)
    if seat == p.landlord:
        if p.landlord_plays < 2:
            p.landlord_plays += 1
    else:
        p.farmer_plays = 1
    if kind == SKIP or kind == REVERSE:
        if kind == SKIP:
            next_seat = seat_after(p, seat, 2)
            if next_seat == p.table_player:
                p.table = 0
                p.table_player = -1
        else:
            p.direction = -p.direction
            next_seat = seat_after(p, seat, 1)
            if next_seat == p.table_player:
                next_seat = seat_after(p, next_seat, 1)
    else:
        p.table = move
        p.table_player = seat
        next_seat = seat_after(p, seat, 1)
    p.current = next_seat


cdef inline int spring_open(const Searcher* S, const Pos* p) noexcept nogil:
    """1 where the side to act, ending the game with no opponent playing again, earns a
    spring (terminal_value's test), else 0."""
    if not S.spring:
        return 0
    if p.current == p.landlord:
        return 1 if p.farmer_plays == 0 else 0
    return 1 if p.landlord_plays == 1 else 0


cdef inline int terminal_value(const Searcher* S, const Pos* p, uint64_t move) noexcept nogil:
    """The value, for the side that ends the game with move, of ending it: 1 in win/loss
    mode; 1 + the doublings it brings (the move a bomb or rocket, a spring) in score mode."""
    cdef int kind
    if not S.score_mode:
        return 1
    kind = code_kind(move)
    return 1 + (1 if kind == BOMB or kind == ROCKET else 0) + spring_open(S, p)


cdef inline int bombs_held(uint64_t cards) noexcept nogil:
    """The bombs (four of a rank) and the rocket (both jokers) in one hand: each can double
    the score once. Hands only shrink, so no other bomb or rocket ever forms."""
    cdef int held = card_total((cards >> 2) & DDZ_DIGIT_LOW)     # a digit of 4: a quad
    if count_of(cards, SMALL_JOKER) and count_of(cards, BIG_JOKER):
        held += 1
    return held


cdef inline int doublings_left(const Searcher* S, const Pos* p) noexcept nogil:
    """The most doublings that can still come from p on (score mode): one a bomb (four of
    a rank in one hand) or the rocket (bombs_held), one for a spring while it is possible
    (terminal_value: until the landlord has moved twice and a farmer once). The score-mode
    value, sign x (1 + the doublings to come), lies within 1 + this on either side; at 0 it
    is the win/loss value."""
    cdef int seat, left = 0
    if S.spring and (p.landlord_plays < 2 or p.farmer_plays == 0):
        left = 1
    for seat in range(p.players):
        left += bombs_held(p.hands[seat])
    return left


cdef inline int side_ceiling(const Searcher* S, const Pos* p, bint landlord_side) noexcept nogil:
    """The most the landlord's side (landlord_side) or the farmers' can win from p on, in
    score mode: 1 + its own bombs and rockets + 1 while its kind of spring is possible. The
    other side's bombs add nothing to a game this side wins: that side can always keep them
    back (a pass answers anything, and on the lead any one card of a bomb or the rocket is a
    single), so a win against its play that never bombs is all this side can be sure of
    (and that play is one of its choices). Symmetrically, -side_ceiling(other side) is the
    least this side can get (FLAG_SCORE_SIDES)."""
    cdef int seat, most = 1
    if S.spring:
        if landlord_side:
            most += 1 if p.farmer_plays == 0 else 0
        else:
            most += 1 if p.landlord_plays < 2 else 0
    for seat in range(p.players):
        if (seat == p.landlord) == landlord_side:
            most += bombs_held(p.hands[seat])
    return most


cdef inline int bomb_window_low(int alpha) noexcept nogil:
    """Score mode, a bomb or rocket's child: its value v' becomes f(v') = v' + 1 (v' > 0) or
    v' - 1 (v' < 0) for the parent, f increasing; the highest v' with f(v') <= alpha (values
    are never 0), so that the child's window maps onto the parent's."""
    if alpha >= 2:
        return alpha - 1
    if alpha >= -1:
        return -1
    return alpha + 1


cdef inline int bomb_window_high(int beta) noexcept nogil:
    """The lowest v' with f(v') >= beta (see bomb_window_low)."""
    if beta >= 2:
        return beta - 1
    if beta >= -1:
        return 1
    return beta + 1
