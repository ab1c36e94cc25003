# cython: language_level=3, cdivision=True
"""The exact endgame solver: every hand known, the landlord against the farmers as a team.

A position is the play-phase part of a game's state (``Pos``): the hands, the move to beat
and who made it, the seat to act, the landlord, the direction of play, the two-player let
count and, for the exact score, the bombs and the spring flags. The search is a negamax
alpha-beta over the two sides (in a three-seat game a farmer's child may be the other
farmer's turn: then the value is not negated), in C without the GIL:

* a move that ends the game (empties the hand, or reaches the let count) wins at once and is
  looked for before anything else;
* a bounded transposition table (``memory_mb``) of 64-byte buckets of four 16-byte entries,
  written locklessly (an entry stores ``key ^ data``, so a torn write from another thread
  reads as a miss), keeps proven values and the best move's index;
* a side that leads and can split its hand into moves no opponent answers plus one more
  wins at once (``static_win``), and so does a side that answers with a move no opponent
  answers after which its hand passes that test (``answer_static_win``); a three-seat
  landlord's two opponents are judged seat by seat (two farmers' cards pooled would make
  bombs and a rocket nobody holds); a farmer also wins where its partner, given the lead by
  a pass or by overtaking the farmer's lead, passes that test (``team_static_win``; the
  landlord may answer that lead where the partner overtakes every answer); three seats,
  the split may also hold answerable singles and pairs each covered by a higher one of the
  hand's above every opponent's, while no opposing seat can go out answering them
  (``allow_covers``; two seats too, FLAG_TWO_COVERS); each searcher memoises the
  verdicts of those tests' split searches (``StaticMemo``: they depend on the hand and the
  opposing cards alone, so the trees stay the same); Uno the Landlord's Skips and Reverses
  beat nothing, so those two tests judge the opposing cards without them where every
  opposing seat keeps other cards it could not shed on the way (``line_opponents``);
* three seats, at nodes expected lost: a side loses at once where each move it would
  search meets an opposing seat's ready answer, one that empties its hand or that nobody
  answers, after which its hand passes static_win (``lord_static_loss`` for the
  landlord, ``farmer_static_loss`` for a farmer, its partner's answers in between too);
* win/loss mode: a move whose kickers could be swapped for lower cards of the same count,
  held as often and in no chain, is left out (the lower kickers are at least as good), and
  so is a single, pair or trio that a lower one would replace with the opponents holding no
  answer between the two (three seats: the landlord's moves, the farmers' cards pooled; a
  farmer's only where no other seat holds a card between the two ranks);
* a seat that holds no answer to the move to beat passes at once (the pass is no node of
  its own): two seats, the opponent; three seats, each seat in turn;
* win/loss mode, at nodes expected lost: the singles (pairs) below the opponents' highest
  single (pair), which the side cannot beat, are left out on one static test of the hand
  holding it after it (``drop_answered``; a three-seat farmer's only where the landlord
  holds it, above both farmers' cards, and the partner cannot go out in between);
* moves are ordered: the table's move first, then the moves that leave the hand the fewest
  plays from empty, those the opponents can answer counted twice (``split_cost``, memoised),
  the most cards among those, bombs and the rocket next to last, the pass last (a farmer's
  pass first where its partner's move is one the landlord's cards, its Skips and Reverses
  aside, cannot beat);
* a three-seat root of at least 40 cards is searched in rounds of a doubling node budget,
  that order and the one with a farmer's pass always first in turn, on one table
  (``search_in_rounds``; two seats only with FLAG_TWO_ROUNDS, off: measured, the history);
* after each round of those orders, in win/loss mode, the two-seat game of the landlord
  against each farmer alone, the other farmer passing throughout: a loss there is a loss
  of the deal (``lone_farmer``; FLAG_LONE_FARMER); then the three-seat game with the
  other farmer held to one move a node (``held_farmer``: with action cards in play,
  where the turn does not pass as between two seats, instead of the two-seat games); in
  the rounds of at least 1.6 M nodes an order, the two-seat games at every node below the
  root of at least 24 cards in play, within 8,000 nodes each (FLAG_LONE_TREE);
* node and time limits stop the search with an "unknown" result; threads search the same root
  on one shared table with different orderings (lazy SMP) and the first to finish answers.

Values: win/loss mode gives +1 / -1 for the side to act. Score mode gives sign x (e + 1), e
the number of doublings from this position on (bombs, rockets, a spring), so a bigger win is
a bigger number; the Python layer turns it into a score. Score mode settles the verdict in
win/loss mode first, then the score by null windows (``score_by_windows``); the doublings
that can still come bound every value, and a position with none to come is searched in
win/loss mode.

Each shortcut added for three seats and score mode is behind a flag (``FLAG_*`` of
``solver_order.pxd``, ``_set_flags``), so that the tests and benchmarks can compare the
searches with and without it.

The search and the Python face are here; the rest is in headers compiled in with it:
``solver_table.pxd`` (the transposition table), ``solver_position.pxd`` (the position, the
searcher, play), ``solver_keys.pxd`` (table keys, equivalent ranks), ``solver_static.pxd``
(the opponents' answers, the static win tests, the forced pass) and ``solver_order.pxd``
(move ordering, the dominated moves left out).
"""

from libc.stdint cimport uint64_t, int64_t, uint32_t
from libc.stdlib cimport calloc, malloc, free
from libc.string cimport memcpy, memset
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC

from ddz._core.layout cimport *
from ddz._core.ruleset cimport *
from ddz._core.readings cimport *
from ddz._core.generator cimport *
from ddz._core.moves cimport rules_of
from ddz._core.state cimport GameState, PLAY
from ddz._core.solver_table cimport *
from ddz._core.solver_position cimport *
from ddz._core.solver_keys cimport *
from ddz._core.solver_static cimport *
from ddz._core.solver_order cimport *

# The packing of the canonical key (solver_keys.pxd): pext where the CPU runs it fast, chosen
# once, here
FAST_PEXT = pext_is_fast()

# the shortcuts a new search uses (FLAG_* of solver_order.pxd); the tests switch some off to
# check that the verdicts do not change
cdef int search_flags = FLAGS_DEFAULT


def _set_flags(int flags):
    """Switch the search's shortcuts (a FLAG_* mask; FLAGS_DEFAULT by default) for the solves
    that start from now on: for the tests and benchmarks, which compare the verdicts."""
    global search_flags
    if not 0 <= flags <= FLAGS_ALL:
        raise ValueError(f"flags must be 0..{FLAGS_ALL}")
    search_flags = flags


def _get_flags():
    return search_flags


# the static_win memo (solver_static.pxd) in use; the tests switch it off to check that it
# changes no tree
cdef bint static_memo = True


def _set_memo(bint on):
    """Switch the static_win memo on or off for the solves that start from now on (for
    the tests, which compare the node counts); returns the setting before."""
    global static_memo
    before = static_memo
    static_memo = on
    return before


# search_in_rounds: the nodes of each order's first round, and the orders taken in turn
# (measured: the history)
cdef uint64_t round_first = 100000
cdef int round_orders = 4
cdef int round_cards = 40       # the fewest cards in play (all hands) searched in rounds
cdef int round_cards_two = 36   # the same for two seats (FLAG_TWO_ROUNDS)


def _set_rounds(uint64_t nodes, int orders=4, int cards=40, int cards_two=36):
    """The nodes of the first round of search_in_rounds (FLAG_ROUNDS), the move orders it
    takes in turn (1-4: the search's, the other of a farmer's pass to its partner, the two
    again with the lead under the partner, FLAG_FEED, switched) and the fewest cards in
    play it searches so, for the
    solves that start from now on; returns the nodes before. For the tests, which make the
    rounds tiny so that small positions are searched in many rounds too, and the
    benchmarks."""
    global round_first, round_orders, round_cards, round_cards_two
    if nodes < 1:
        raise ValueError("a round has at least one node")
    if not 1 <= orders <= 4:
        raise ValueError("rounds take 1 to 4 orders")
    if cards < 0 or cards_two < 0:
        raise ValueError("cards must be >= 0")
    before = round_first
    round_first = nodes
    round_orders = orders
    round_cards = cards
    round_cards_two = cards_two
    return before


# search_in_rounds with FLAG_LONE_TREE: the farmer-alone games inside the tree in the rounds
# of at least this many nodes an order, within this many nodes each, at the nodes of at
# least this many cards in play (measured: the history)
cdef uint64_t lone_tree_from = 1600000
cdef uint64_t lone_tree_nodes = 8000
cdef int lone_tree_cards = 24


def _set_lone_tree(uint64_t start, uint64_t nodes, int cards):
    """FLAG_LONE_TREE's settings for the solves that start from now on: the farmer-alone
    games asked inside the tree from the rounds of ``start`` nodes an order, within
    ``nodes`` nodes each, at the nodes of at least ``cards`` cards in play; returns the
    settings before. For the tests, which ask them at every node of tiny rounds."""
    global lone_tree_from, lone_tree_nodes, lone_tree_cards
    if start < 1 or nodes < 1:
        raise ValueError("start and nodes must be >= 1")
    if cards < 0:
        raise ValueError("cards must be >= 0")
    before = (lone_tree_from, lone_tree_nodes, lone_tree_cards)
    lone_tree_from = start
    lone_tree_nodes = nodes
    lone_tree_cards = cards
    return before


# FLAG_THREE_ETC: the enhanced transposition cutoff at the three-seat nodes of at least this
# many cards in play (nearer the leaves a child settles in a node or two anyway, and the
# keys computed ahead cost more than they save: measured, the history)
cdef int etc_cards_three = 16


def _set_etc_cards(int cards):
    """FLAG_THREE_ETC's fewest cards in play for the solves that start from now on; returns
    the setting before. For the tests, which ask the cutoff at every node of tiny
    positions."""
    global etc_cards_three
    if cards < 0:
        raise ValueError("cards must be >= 0")
    before = etc_cards_three
    etc_cards_three = cards
    return before


def _get_etc_cards():
    """_set_etc_cards's setting as it stands: for the tests, which set it back."""
    return etc_cards_three


def _get_lone_tree():
    """(start, nodes, cards) of _set_lone_tree as they stand: for the tests, which set them
    back."""
    return lone_tree_from, lone_tree_nodes, lone_tree_cards


def _get_memo():
    """Whether the solves from now on use the static_win memo (_set_memo)."""
    return static_memo


def _get_rounds():
    """(nodes, orders, cards, cards_two) of _set_rounds as they stand: for the tests, which
    set them back."""
    return round_first, round_orders, round_cards, round_cards_two


def _pack_both(uint64_t word, uint64_t mask):
    """(the portable packing, the BMI2 one or None where the CPU has none) of word under
    mask: for the tests, which check the two agree."""
    cdef uint64_t fast = word
    if mask >> 63:
        raise ValueError("mask must be below bit 63")
    if not FAST_PEXT:
        return pack_digits(word, mask), None
    pack_bmi2(&fast, 1, mask)
    return pack_digits(word, mask), fast


cdef enum:
    ABORT = 1000            # a search result: a limit stopped it
    INFINITE = 500          # beyond every value
    STACK_SIZE = 1 << 18    # move codes a searcher's move stack holds, every ply together
    PREFETCH_MOVES = 8      # an expected lost node of at most this many moves fetches its
                            # children's buckets ahead
    ETC_MOVES = 16          # FLAG_TWO_ETC and FLAG_THREE_ETC: at a node of at most this
                            # many moves
    ROUND_GROWTH = 2        # search_in_rounds: each round this many times the nodes of
                            # the one before
    LONE_BUDGET = 8         # search_in_rounds: each farmer's game alone (lone_farmer)
                            # within this many times the round's nodes of one order


cdef inline double now() noexcept nogil:
    cdef timespec t
    clock_gettime(CLOCK_MONOTONIC, &t)
    return t.tv_sec + t.tv_nsec * 1e-9


# ---------------------------------------------------------------------------------------
# The search

cdef inline bint out_of_time(Searcher* S) noexcept nogil:
    if S.stop[0] or (S.node_limit and S.nodes >= S.node_limit):
        return True
    if S.deadline > 0 and (S.nodes & 1023) == 0 and now() > S.deadline:
        return True
    return False


cdef inline void load_side_opponents(int flags, const Pos* p, Opponents* o) noexcept nogil:
    """o: the cards of the side not to act in p, for its tests (load_opponents_of), with
    covered plays allowed where flags and the position allow them (FLAG_COVERS: three
    seats, a farmer's one opponent or the landlord's two judged seat by seat; the cards
    are the seats' own, as allow_covers asks)."""
    load_opponents_of(o, p, flags & FLAG_SEAT_ANSWERS)
    if p.players == 3 and flags & FLAG_COVERS and \
            (p.current != p.landlord or flags & FLAG_SEAT_ANSWERS):
        allow_covers(o)
    elif p.players == 2 and flags & FLAG_TWO_COVERS:
        # two seats: the one opponent's cards as they are, so allow_covers' proof holds
        # word for word (no teammate between); a farmer opponent under the let wins on
        # reaching p.let cards, not on emptying its hand: room less p.let keeps it from
        # reaching the let on the way (a negative room allows no covered play)
        allow_covers(o)
        if p.let > 0 and p.current == p.landlord and o.room >= 0:
            o.room -= p.let


cdef inline uint64_t held_key(const Searcher* S, const Pos* p, uint64_t key,
                              int value) noexcept nogil:
    """The key to store p's value under (key: p's key in the game searched). In
    held_farmer's game (S.key_salt set) a farmers' win is one of the real game (held_farmer
    gives the argument, node by node), so it goes under the position's own key, for the
    deal's own search to reuse; a landlord's win there proves nothing and stays salted.
    Measured (the history): 76 against 75 of the 100 three-seat whole deals within 40 M
    nodes, a fifth fewer nodes and CPU on the 75 both settle."""
    if S.key_salt != 0 and (value > 0) != (p.current == p.landlord):
        return key ^ S.key_salt
    return key


cdef inline int probe_held(const Searcher* S, uint64_t key, uint64_t* data) noexcept nogil:
    """probe, in held_farmer's game the position's own key first: every value the real
    game holds is one of the held game too (a farmers' win is what the held game's wins
    stand for; a landlord's win against every farmer's play is one against the held
    farmer's), then the held game's own salted entry."""
    if S.key_salt != 0 and probe(S.tt, key ^ S.key_salt, data):
        return 1
    return probe(S.tt, key, data)


cdef int search(Searcher* S, const Pos* p, int alpha, int beta, uint64_t key,
                const uint64_t* chains, bint cut) noexcept nogil:
    """The value of p for the side to act, within (alpha, beta) fail-soft; ABORT if a limit
    stopped the search. chains: chain_ranks_in of each hand of p. cut:
    the side to act is expected to win here (the first child of a node expected won is
    expected lost; every other child, expected won: the node types of alpha-beta)."""
    cdef uint64_t data, move, start_nodes = S.nodes, child_key
    cdef uint64_t* keys
    cdef Py_ssize_t base = S.top, n, m, i, j, pick
    cdef uint64_t* moves
    cdef int* scores
    cdef Sink sink
    cdef int tt_index = -1, value, best = -INFINITE, best_index = -1, bound, v, a, b
    cdef int most = -1, child_alpha, child_beta, kind, index
    cdef int* order
    cdef uint64_t most_nodes = 0, before
    cdef int alpha0 = alpha
    cdef Pos child
    cdef Opponents opponents, others_cards, line
    cdef Opponents seat_cards[3]
    cdef const Opponents* seats = NULL
    cdef const Opponents* others = NULL
    cdef const Opponents* skipped = NULL
    cdef bint same, ahead, early_static, etc
    cdef uint64_t child_chains[3]
    cdef uint64_t ahead_chains[3 * ETC_MOVES]
    cdef int ahead_index[ETC_MOVES]
    cdef Pos ahead_child[ETC_MOVES]
    cdef bint good, statics
    cdef int k, won, ceiling, floor, in_hands
    if S.score_mode and S.flags & FLAG_SCORE_SETTLED:
        if S.flags & FLAG_SCORE_SIDES:
            # the value lies in [-(the other side's most), this side's most]
            ceiling = side_ceiling(S, p, p.current == p.landlord)
            floor = -side_ceiling(S, p, p.current != p.landlord)
        else:
            # the value lies in [-(1 + k), 1 + k]
            k = doublings_left(S, p)
            ceiling = 1 + k
            floor = -ceiling
        # a window beyond the bounds is settled at once
        if alpha >= ceiling:
            return ceiling
        if beta <= floor:
            return floor
        if ceiling == 1 and floor == -1:
            # no doubling to come: the score-mode value is the win/loss value, searched
            # with the win/loss shortcuts (its table entries keyed apart, as win/loss
            # ones; this node's under its score-mode key, an exact +-1 being right there)
            S.score_mode = 0
            v = search(S, p, -1, 1, key, chains, cut)
            S.score_mode = 1
            return v
    S.nodes += 1
    S.memo.mask = grown_mask(S.memo.mask, S.nodes, MEMO_SIZE)
    if out_of_time(S):
        S.aborted = 1
        S.stop[0] = 1
        return ABORT
    if S.nodes >= S.round_end:
        S.aborted = 1                # a round of search_in_rounds is over: not a stop
        return ABORT
    if probe_held(S, key, &data):
        value = <int>((data >> 24) & 255) - 128
        bound = <int>((data >> 16) & 3)
        if bound == EXACT:
            return value
        if bound == LOWER and value > alpha:
            alpha = value
        elif bound == UPPER and value < beta:
            beta = value
        if alpha >= beta:
            return value
        tt_index = <int>(data & 0xFFFF)
        if tt_index == NO_MOVE:
            tt_index = -1
    moves = S.moves + base
    # the static tests prove a win, not its score: in score mode they settle a node only
    # when a win is all the window asks for (value >= 1 >= beta: a lower bound)
    statics = not S.score_mode or (S.flags & FLAG_SCORE_WINDOWS and beta <= 1)
    won = EXACT if not S.score_mode else LOWER
    early_static = base > 0 and p.table == 0 and statics
    if early_static:
        # below the root, a leader's static win is tested before its moves are generated:
        # a win needs none of them (the table keeps no best move for it; the root, whose
        # best move is read back, tests it below)
        load_side_opponents(S.flags, p, &opponents)
        if static_win(&S.rs, S.statics, p, line_opponents(p, &opponents, &line), moves,
                      STACK_SIZE - base, STATIC_BUDGET, NULL):
            store(S.tt, held_key(S, p, key, 1), 1, won, NO_MOVE, 1)
            return 1
    sink.out = moves
    sink.cap = STACK_SIZE - base
    sink.n = 0
    generate(p.hands[p.current], p.table, &S.rs, &sink)
    n = sink.n
    if n > sink.cap:
        S.overflow = 1
        S.aborted = 1
        return ABORT
    # a move that ends the game: the best there is, except a bigger win in score mode
    for i in range(n):
        if ends_game(p, moves[i]):
            v = terminal_value(S, p, moves[i])
            if v > best:
                best = v
                best_index = <int>i
    if best > 0 and (not S.score_mode or best >= beta):
        store(S.tt, held_key(S, p, key, best), best, EXACT if not S.score_mode else LOWER,
              best_index, 1)
        return best
    # a leader that splits its hand into unanswerable moves and one more
    if not early_static:
        load_side_opponents(S.flags, p, &opponents)  # the tests, ordering
    if S.score_mode and not statics and S.flags & FLAG_SCORE_BOMBS:
        # a window asking more than a win: the bombs nobody answers, played first, then a
        # static win (bombs_first_win) give a lower bound, with a spring where it is still
        # possible and the static win needs no covered play (no opponent plays again)
        v = bombs_first_win(&S.rs, S.statics, p, &opponents, moves, n, moves + n,
                            sink.cap - n, beta, spring_open(S, p), base == 0, &index)
        if v > 0:
            store(S.tt, held_key(S, p, key, v), v, LOWER, index if index >= 0 else NO_MOVE, 1)
            return v
    if base == 0 and p.table == 0 and statics and \
            static_win(&S.rs, S.statics, p, line_opponents(p, &opponents, &line), moves + n,
                       sink.cap - n, STATIC_BUDGET, &move):
        for i in range(n):
            if moves[i] == move:
                best_index = <int>i
                break
        store(S.tt, held_key(S, p, key, 1), 1, won, best_index, 1)
        return 1
    if p.table != 0 and statics and \
            answer_static_win(&S.rs, S.statics, p, line_opponents(p, &opponents, &line),
                              moves, n, moves + n, sink.cap - n, &index):
        store(S.tt, held_key(S, p, key, 1), 1, won, index, 1)
        return 1
    if p.players == 3 and p.current != p.landlord and statics and \
            S.flags & FLAG_TEAM_STATIC and \
            team_static_win(&S.rs, S.statics, p, &opponents, moves, n, moves + n, sink.cap - n,
                            &index, S.flags & FLAG_TEAM_COVER):
        store(S.tt, held_key(S, p, key, 1), 1, won, index, 1)
        return 1
    # the cards still in the three hands, for the two win/loss tests below that ask (the
    # lone tree, the three-seat cutoff); not counted where neither can
    in_hands = card_total(p.hands[0] + p.hands[1] + p.hands[2]) \
        if p.players == 3 and not S.score_mode else 0
    if S.lone_tree and p.players == 3 and base > 0 and not S.score_mode and \
            in_hands >= S.lone_tree_cards:
        # FLAG_LONE_TREE, in the long rounds: the landlord's loss to one farmer alone from
        # here is a loss of this node (lone_farmer; its games' scratch above this node's
        # moves, and the round's end kept: a game stopped there stops the round)
        S.top = base + n
        v = lone_farmer(S, p, key, S.lone_tree, False)
        S.top = base
        if v != 0:
            return v                     # settled (and stored), or ABORT
    if tt_index >= n:
        tt_index = -1
    # the cards of every other seat, pooled, for the passes skipped (advance)
    if p.players == 2:
        others = &opponents
    elif p.current == p.landlord:
        others = &opponents
    elif S.flags & (FLAG_DOUBLE_PASS | FLAG_FARMER_PRUNING):
        load_opponents(&others_cards, p.hands[0] + p.hands[1] + p.hands[2]
                       - p.hands[p.current])
        others = &others_cards
    skipped = others if p.players == 2 or S.flags & FLAG_DOUBLE_PASS else NULL
    if p.players == 3 and S.flags & FLAG_FORCED_PASSES:
        # each other seat's own cards: a seat with no answer passes at once (advance)
        for j in range(3):
            if j != p.current:
                load_opponents(&seat_cards[j], p.hands[j])
        seats = seat_cards
        skipped = NULL
    scores = S.scores + base
    order = S.order + base
    m = kept_moves(S, p, &opponents, others, moves, n, order, chains[p.current])
    if not cut and base > 0 and not S.score_mode and (p.players == 2 or (
            S.flags & FLAG_LANDLORD_DROP and p.current == p.landlord) or (
            S.flags & FLAG_FARMER_DROP and p.current != p.landlord)):
        j = drop_answered(&S.rs, S.statics, p, &opponents, moves, order, m, moves + n,
                          sink.cap - n)
        if j < m:
            best = -1                # the moves left out lose
            m = j
    if p.players == 3 and p.current == p.landlord and not cut and base > 0 and \
            not S.score_mode and S.flags & FLAG_LORD_LOSS and \
            lord_static_loss(&S.rs, S.statics, p, moves, order, m, moves + n, sink.cap - n):
        # every move the node would search meets a farmer's ready answer (at nodes expected
        # lost, which search every move; below the root, whose moves are read back)
        store(S.tt, held_key(S, p, key, -1), -1, EXACT, NO_MOVE, 1)
        return -1
    if p.players == 3 and p.current != p.landlord and not cut and base > 0 and \
            not S.score_mode and S.flags & FLAG_FARMER_LOSS and \
            farmer_static_loss(&S.rs, S.statics, p, moves, order, m, moves + n, sink.cap - n):
        store(S.tt, held_key(S, p, key, -1), -1, EXACT, NO_MOVE, 1)
        return -1
    if p.current == S.held and m > 1:
        # held_farmer's game: the farmer that is not alone plays one move, the pass where
        # it answers (S.held_answers: only where it leads), else the move the ordering
        # puts first (any choice of a legal move is sound there)
        j = pass_index(moves, n) if p.table != 0 and not S.held_answers else -1
        if j < 0:
            order_moves(S, p, &opponents, moves, scores, order, m, tt_index, moves + n,
                        sink.cap - n)
            j = order[0]
            for i in range(1, m):
                if scores[order[i]] > scores[j]:
                    j = order[i]
        order[0] = <int>j
        m = 1
    keys = S.keys + base
    # FLAG_TWO_ETC, FLAG_THREE_ETC: the children's keys at a node expected won too, for the
    # cutoff below
    etc = not S.score_mode and (
        (p.players == 2 and S.flags & FLAG_TWO_ETC) or
        (p.players == 3 and S.flags & FLAG_THREE_ETC and
         in_hands >= S.etc_cards_three))
    ahead = (not cut and 1 < m <= PREFETCH_MOVES) or (etc and 1 < m <= ETC_MOVES)
    if ahead:
        # the children's buckets, fetched together, so that their cache misses overlap
        # (measured: most of the search's time was the probe's wait for memory), at a node
        # expected to search them all: one the side to act is expected to lose. A node it
        # is expected to win searches one child (1.05 on average), and the keys of the
        # others would be computed for nothing. Fetched before the ordering (which only
        # scores the moves, order[] stays), so that the fetches arrive while it runs: the
        # cutoff's probes below waited on them when they came right after (the same
        # trees, 2-6% less CPU)
        for j in range(m):
            index = order[j]
            ahead_index[j] = index
            if ends_game(p, moves[index]):
                continue                 # never searched
            advance(&S.rs, p, skipped, seats, moves[index], &ahead_child[j])
            chains_after(&S.rs, &ahead_child[j], chains, p.current, ahead_chains + 3 * j)
            keys[index] = canonical_key(S, &ahead_child[j], ahead_chains + 3 * j)
            prefetch(S.tt.entries + BUCKET * (keys[index] & S.tt.active_mask))
    order_moves(S, p, &opponents, moves, scores, order, m, tt_index, moves + n, sink.cap - n)
    if S.score_mode and beta > 1 and S.flags & FLAG_BOMBS_FIRST:
        # a window asking more than a win: the bombs and rocket nobody answers first (each
        # a doubling that keeps the lead), after the table's move
        for j in range(m):
            index = order[j]
            if index != tt_index and unanswered_bomb(&opponents, moves[index]):
                scores[index] = 1 << 28
    if ahead and etc:
        # an enhanced transposition cutoff (win/loss mode): a child the table already
        # holds as won for this side wins this node at once, before any subtree is
        # searched. Sound: in win/loss mode every value the table holds is an exact +1 / -1
        # of the position its key stands for (the window is (-1, 1) and a round stopped at
        # its budget stores nothing), so the child's value is the move's, negated where
        # the child is the other side's turn and kept where it is this side's again (the
        # opponent's forced pass skipped by advance, or a farmer's partner to act).
        # Measured (the history): a quarter fewer nodes on the two-seat whole deals, no
        # slower; up to 8 moves a node 3% more nodes than up to 16, up to 32 1% fewer; at
        # every node expected won however many its moves, without the buckets fetched
        # ahead, 15% slower. Three seats, from 16 cards in play: 8% fewer nodes on the
        # three-seat whole deals, 4% less CPU
        for j in range(m):
            index = order[j]
            if ends_game(p, moves[index]):
                continue
            if probe_held(S, keys[index], &data) and ((data >> 16) & 3) == EXACT:
                v = <int>((data >> 24) & 255) - 128
                if side_of(p, ahead_child[j].current) != side_of(p, p.current):
                    v = -v
                if v >= beta:
                    store(S.tt, held_key(S, p, key, v), v, EXACT, index, 1)
                    return v
    S.top = base + n
    for i in range(m):
        # lazy selection: the best-scored move left
        pick = i
        for j in range(i + 1, m):
            if scores[order[j]] > scores[order[pick]]:
                pick = j
        if pick != i:
            index = order[i]; order[i] = order[pick]; order[pick] = index
        index = order[i]
        move = moves[index]
        if ends_game(p, move):
            continue                     # counted above
        if ahead:
            j = 0
            while ahead_index[j] != index:
                j += 1
            child = ahead_child[j]
            child_key = keys[index]
            memcpy(child_chains, ahead_chains + 3 * j, sizeof(child_chains))
        else:
            advance(&S.rs, p, skipped, seats, move, &child)
            chains_after(&S.rs, &child, chains, p.current, child_chains)
            child_key = canonical_key(S, &child, child_chains)
        same = side_of(p, child.current) == side_of(p, p.current)
        good = cut and i == 0            # expected to win for the side to act here
        kind = code_kind(move)
        before = S.nodes
        if S.score_mode and (kind == BOMB or kind == ROCKET):
            if S.flags & FLAG_SCORE_WINDOWS:
                # the window mapped through the doubling (bomb_window_low)
                child_alpha = bomb_window_low(alpha)
                child_beta = bomb_window_high(beta)
            else:
                child_alpha = -INFINITE  # a doubling changes every value: a full window
                child_beta = INFINITE
        else:
            child_alpha = alpha
            child_beta = beta
        if same:
            v = search(S, &child, child_alpha, child_beta, child_key, child_chains, good)
            if v == ABORT:
                S.top = base
                return ABORT
        else:
            v = search(S, &child, -child_beta, -child_alpha, child_key, child_chains, not good)
            if v == ABORT:
                S.top = base
                return ABORT
            v = -v
        if S.score_mode and (kind == BOMB or kind == ROCKET):
            v += 1 if v > 0 else -1
        if S.nodes - before > most_nodes:
            most_nodes = S.nodes - before
            most = index
        if v > best:
            best = v
            best_index = index
        if best > alpha:
            alpha = best
        if alpha >= beta:
            break
    S.top = base
    if best < 0 and most >= 0 and not S.score_mode:
        best_index = most                # a lost position: the longest defence
    if not S.score_mode or (alpha0 < best < beta):
        bound = EXACT                    # win/loss: every value is exact
    elif best <= alpha0:
        bound = UPPER
    else:
        bound = LOWER
    store(S.tt, held_key(S, p, key, best), best, bound,
          best_index if 0 <= best_index < NO_MOVE else NO_MOVE, S.nodes - start_nodes)
    return best


# ---------------------------------------------------------------------------------------
# The Python face: validate, then search without the GIL

cdef class _HookStack:
    """A move stack and an order for the solver's test hooks (STACK_SIZE each), freed with
    the object: the hooks run the search's tests on a position outside any search."""

    cdef uint64_t* moves
    cdef int* order

    def __cinit__(self):
        self.moves = <uint64_t*>malloc(STACK_SIZE * sizeof(uint64_t))
        self.order = <int*>malloc(STACK_SIZE * sizeof(int))
        if self.moves == NULL or self.order == NULL:
            raise MemoryError()

    def __dealloc__(self):
        free(self.moves)
        free(self.order)


cdef class SolverCore:
    """A solver for one rule set: a transposition table (kept between solves) and searchers.

    ``solve`` takes a position as plain integers (see ``Pos``) and returns
    ``(value, best move code or None, nodes, overflowed)``; value None when a limit stopped
    it. Every input is validated here."""

    cdef RuleSet rs
    cdef Table tt
    cdef Searcher** searchers
    cdef int nthreads
    cdef int spring
    cdef int* stop_flag
    cdef readonly object rules
    cdef readonly Py_ssize_t table_bytes

    def __cinit__(self, object rules, int memory_mb=256, int threads=1):
        cdef uint64_t buckets = 1
        cdef int i
        self.searchers = NULL
        self.tt.entries = NULL
        self.stop_flag = <int*>calloc(1, sizeof(int))
        if self.stop_flag == NULL:
            raise MemoryError()
        if memory_mb < 1 or memory_mb > 1 << 16:
            raise ValueError(f"memory_mb must be 1..65536, not {memory_mb}")
        if threads < 1 or threads > 64:
            raise ValueError(f"threads must be 1..64, not {threads}")
        self.rs = rules_of(rules)
        self.rules = rules
        self.spring = bool(rules.spring)
        self.nthreads = threads
        while buckets * 2 * BUCKET * sizeof(Entry) <= (<uint64_t>memory_mb) << 20:
            buckets *= 2
        self.tt.entries = <Entry*>table_alloc(buckets * BUCKET * sizeof(Entry))
        if self.tt.entries == NULL:
            raise MemoryError()
        self.tt.bucket_mask = buckets - 1
        self.tt.active_mask = min(buckets, 1 << 12) - 1
        self.tt.stores = 0
        self.table_bytes = buckets * BUCKET * sizeof(Entry)
        self.searchers = <Searcher**>calloc(threads, sizeof(Searcher*))
        if self.searchers == NULL:
            raise MemoryError()
        for i in range(threads):
            self.searchers[i] = <Searcher*>calloc(1, sizeof(Searcher))
            if self.searchers[i] == NULL:
                raise MemoryError()
            self.searchers[i].moves = <uint64_t*>malloc(STACK_SIZE * sizeof(uint64_t))
            self.searchers[i].scores = <int*>malloc(STACK_SIZE * sizeof(int))
            self.searchers[i].order = <int*>malloc(STACK_SIZE * sizeof(int))
            self.searchers[i].keys = <uint64_t*>malloc(STACK_SIZE * sizeof(uint64_t))
            self.searchers[i].plays = <uint64_t*>calloc(PLAYS_SIZE, sizeof(uint64_t))
            self.searchers[i].plays_mask = PLAYS_START - 1
            self.searchers[i].memo.slots = <uint64_t*>calloc(2 * MEMO_SIZE, sizeof(uint64_t))
            self.searchers[i].memo.mask = MEMO_START - 1
            if self.searchers[i].moves == NULL or self.searchers[i].scores == NULL \
                    or self.searchers[i].order == NULL or self.searchers[i].keys == NULL \
                    or self.searchers[i].plays == NULL or self.searchers[i].memo.slots == NULL:
                raise MemoryError()

    def __dealloc__(self):
        cdef int i
        if self.searchers != NULL:
            for i in range(self.nthreads):
                if self.searchers[i] != NULL:
                    free(self.searchers[i].moves)
                    free(self.searchers[i].scores)
                    free(self.searchers[i].order)
                    free(self.searchers[i].keys)
                    free(self.searchers[i].plays)
                    free(self.searchers[i].memo.slots)
                    free(self.searchers[i])
            free(self.searchers)
        if self.tt.entries != NULL:
            table_free(self.tt.entries, (self.tt.bucket_mask + 1) * BUCKET * sizeof(Entry))
        free(self.stop_flag)

    def clear(self):
        """Forget every stored value (the table's memory stays): a new age, so that old
        entries no longer match and are the first to be overwritten; a real wipe every
        65,536 clears, when the age comes round. Refused while a solve runs."""
        self.check_idle()
        self.tt.age = (self.tt.age + 1) & 0xFFFF
        self.tt.active_mask = min(self.tt.bucket_mask + 1, 1 << 12) - 1
        self.tt.stores = 0
        if self.tt.age == 0:
            memset(self.tt.entries, 0, (self.tt.bucket_mask + 1) * BUCKET * sizeof(Entry))

    def solve(self, hands, uint64_t table, int table_player, int current, int landlord, *,
              int direction=1, int let=0, int landlord_plays=2, int farmer_plays=1,
              bint score_mode=False, double time_limit=0.0, uint64_t node_limit=0,
              int thread=0):
        """(value, best move code or None, nodes, overflowed) of the position for the side
        to act; value None when a limit stopped the search. thread: search with this
        searcher (0..threads-1; the others are for lazy SMP helpers run by the caller)."""
        cdef Pos pos
        cdef Searcher* S
        self.check_position(hands, table, table_player, current, landlord, direction, let,
                            &pos)
        pos.landlord_plays = min(max(landlord_plays, 0), 2)
        pos.farmer_plays = min(max(farmer_plays, 0), 1)
        if not 0 <= thread < self.nthreads:
            raise ValueError(f"thread must be 0..{self.nthreads - 1}, not {thread}")
        if time_limit < 0:
            raise ValueError("time_limit must be >= 0")
        S = self.searchers[thread]
        if S.busy:  # two threads in one searcher would share its move stack and counters
            raise RuntimeError(f"searcher {thread} is in use by another thread's solve")
        S.busy = 1
        try:
            return self.run(S, &pos, score_mode, time_limit, node_limit, thread)
        finally:
            S.busy = 0

    def _answered_moves(self, hands, uint64_t table, int table_player, int current,
                        int landlord, int let=0):
        """The move codes the search leaves out at this position as answered at once
        (drop_answered; two seats, else none), for the tests, which check each loses.
        Validated like solve."""
        cdef Pos pos
        cdef Opponents o
        cdef Py_ssize_t n, m, i, j
        cdef _HookStack stack
        cdef uint64_t* moves
        cdef int* order
        cdef list dropped = []
        self.check_position(hands, table, table_player, current, landlord, 1, let, &pos)
        if pos.players != 2 and not search_flags & (
                FLAG_LANDLORD_DROP if pos.current == pos.landlord else FLAG_FARMER_DROP):
            return dropped
        stack = _HookStack()
        moves = stack.moves
        order = stack.order
        n = self.root_moves(&pos, moves, order)
        load_opponents_of(&o, &pos, search_flags & FLAG_SEAT_ANSWERS)
        m = drop_answered(&self.rs, NULL, &pos, &o, moves, order, n, moves + n, STACK_SIZE - n)
        for i in range(n):
            for j in range(m):
                if order[j] == i:
                    break
            else:
                dropped.append(moves[i])
        return dropped

    def _team_move(self, hands, uint64_t table, int table_player, int current, int landlord):
        """The move code by which the farmer to act wins through its partner
        (team_static_win: 0 the pass), or None where the test finds none (the landlord to
        act, two seats: None), for the tests, which check it wins. Validated like solve."""
        cdef Pos pos
        cdef Opponents o
        cdef _HookStack stack
        cdef uint64_t* moves
        cdef Py_ssize_t n
        cdef int index = -1
        self.check_position(hands, table, table_player, current, landlord, 1, 0, &pos)
        if pos.players != 3 or pos.current == pos.landlord:
            return None
        stack = _HookStack()
        moves = stack.moves
        n = self.root_moves(&pos, moves, NULL)
        load_side_opponents(search_flags, &pos, &o)
        if team_static_win(&self.rs, NULL, &pos, &o, moves, n, moves + n, STACK_SIZE - n,
                           &index, search_flags & FLAG_TEAM_COVER):
            return moves[index]
        return None

    def _static_loss(self, hands, uint64_t table, int table_player, int current,
                     int landlord):
        """Does the three-seat side to act lose at once by the static loss tests, asked of
        every legal move (lord_static_loss for the landlord, farmer_static_loss for a
        farmer; two seats: False)? For the tests, which check each such position loses.
        Validated like solve."""
        cdef Pos pos
        cdef _HookStack stack
        cdef uint64_t* moves
        cdef int* order
        cdef Py_ssize_t n
        self.check_position(hands, table, table_player, current, landlord, 1, 0, &pos)
        if pos.players != 3:
            return False
        stack = _HookStack()
        moves = stack.moves
        order = stack.order
        n = self.root_moves(&pos, moves, order)
        if pos.current == pos.landlord:
            return bool(lord_static_loss(&self.rs, NULL, &pos, moves, order, n, moves + n,
                                         STACK_SIZE - n))
        return bool(farmer_static_loss(&self.rs, NULL, &pos, moves, order, n, moves + n,
                                       STACK_SIZE - n))

    def _lone_farmer(self, hands, uint64_t table, int table_player, int current,
                     int landlord, uint64_t budget):
        """(value, move code or None) of the three-seat position by the lone farmer test
        alone (lone_farmer, each farmer's two-seat game searched within budget nodes): value
        -1 or +1 for the side to act where a farmer alone beats the landlord, 0 where
        neither search settles it (two seats: 0). For the tests, which check each value
        and move against the minimax. Validated like solve."""
        cdef Pos pos
        cdef Searcher* S = self.searchers[0]
        cdef int value
        cdef uint64_t key, best = 0
        cdef bint found = False
        self.check_position(hands, table, table_player, current, landlord, 1, 0, &pos)
        if pos.players != 3:
            return 0, None
        if S.busy:
            raise RuntimeError("searcher 0 is in use by another thread's solve")
        S.busy = 1
        try:
            self.prepare(S, False, 0.0, 0, 0)
            key = pos_key(&pos, 0, False)
            with nogil:
                value = lone_farmer(S, &pos, key, budget, True)
                if value != 0 and value != ABORT:
                    best = root_move(S, &pos, key, &found)
            if value == ABORT:
                return 0, None
            return value, best if found else None
        finally:
            S.busy = 0

    def _static_move(self, hands, int current, int landlord):
        """The move code by which the seat to act, leading in a three-seat position, wins
        by the static test as the search asks it (static_win, with the covered plays of
        FLAG_COVERS where the flags allow them), or None where the test finds none; for
        the tests, which check it wins. Validated like solve."""
        cdef Pos pos
        cdef Opponents o, line
        cdef _HookStack stack
        cdef uint64_t first = 0
        self.check_position(hands, 0, -1, current, landlord, 1, 0, &pos)
        stack = _HookStack()
        load_side_opponents(search_flags, &pos, &o)
        if static_win(&self.rs, NULL, &pos, line_opponents(&pos, &o, &line), stack.moves,
                      STACK_SIZE, STATIC_BUDGET, &first):
            return first
        return None

    def check_idle(self):
        """RuntimeError if a solve is running on any of the searchers."""
        cdef int i
        for i in range(self.nthreads):
            if self.searchers[i].busy:
                raise RuntimeError("the solver is in use by another thread's solve")

    cdef Py_ssize_t root_moves(self, Pos* pos, uint64_t* moves, int* order) except -1:
        """The legal moves of the seat to act into ``moves`` (STACK_SIZE long) and, unless
        NULL, ``order`` the identity over them; their count. For the test hooks above."""
        cdef Sink sink
        cdef Py_ssize_t i
        sink.out = moves
        sink.cap = STACK_SIZE
        sink.n = 0
        generate(pos.hands[pos.current], pos.table, &self.rs, &sink)
        if sink.n > sink.cap:
            raise ValueError("the position has more moves than the solver's stack")
        if order != NULL:
            for i in range(sink.n):
                order[i] = <int>i
        return sink.n

    cdef void prepare(self, Searcher* S, bint score_mode, double time_limit,
                      uint64_t node_limit, int thread):
        """S ready for a new search on this solver's table, with its limits."""
        S.rs = self.rs
        S.tt = &self.tt
        S.statics = &S.memo if static_memo else NULL
        S.top = 0
        S.nodes = 0
        S.node_limit = node_limit
        S.round_end = ~(<uint64_t>0)
        S.round_first = round_first
        S.round_orders = round_orders
        S.round_cards = round_cards
        S.round_cards_two = round_cards_two
        S.deadline = now() + time_limit if time_limit > 0 else 0.0
        S.stop = self.stop_flag
        S.aborted = 0
        S.overflow = 0
        S.score_mode = score_mode
        S.verdict = 0
        S.verdict_found = 0
        S.spring = self.spring
        S.noise = thread * 7919
        S.lone_tree = 0
        S.held = -1
        S.held_answers = 0
        S.key_salt = 0
        S.lone_tree_from = lone_tree_from
        S.lone_tree_nodes = lone_tree_nodes
        S.lone_tree_cards = lone_tree_cards
        S.etc_cards_three = etc_cards_three
        S.flags = search_flags
        if self.nthreads == 1:
            self.stop_flag[0] = 0

    cdef object run(self, Searcher* S, Pos* p, bint score_mode, double time_limit,
                    uint64_t node_limit, int thread):
        cdef Pos pos = p[0]
        cdef int value, seat
        cdef uint64_t chains[3]
        cdef uint64_t best = 0
        cdef bint found
        self.prepare(S, score_mode, time_limit, node_limit, thread)
        with nogil:
            for seat in range(3):
                chains[seat] = chain_ranks_in(pos.hands[seat], &S.rs)
            if score_mode and S.flags & FLAG_SCORE_WINDOWS:
                value = score_by_windows(S, &pos, chains, &best, &found)
            else:
                value = settle(S, &pos, chains) if not score_mode else \
                    search(S, &pos, -INFINITE, INFINITE, pos_key(&pos, 1, False), chains, True)
                if value != ABORT:
                    best = root_move(S, &pos, pos_key(&pos, score_mode, False), &found)
        if value == ABORT:
            return None, None, S.nodes, bool(S.overflow)
        if thread == 0 or not S.aborted:
            self.stop_flag[0] = 1                # the helpers may stop
        return value, best if found else None, S.nodes, False

    def verdict(self, int thread=0):
        """(value, move code or None) of the win/loss verdict that the last score-mode solve
        on searcher thread settled before its score's search (value None: none settled):
        the answer of a solve its limits stopped after the verdict."""
        if not 0 <= thread < self.nthreads:
            raise ValueError(f"thread must be 0..{self.nthreads - 1}")
        S = self.searchers[thread]
        if S.verdict == 0:
            return None, None
        return S.verdict, S.verdict_move if S.verdict_found else None

    def request_stop(self):
        self.stop_flag[0] = 1

    def reset_stop(self):
        self.stop_flag[0] = 0

    cdef int check_position(self, hands, uint64_t table, int table_player, int current,
                            int landlord, int direction, int let, Pos* pos) except -1:
        cdef int players = len(hands), seat
        cdef uint64_t total = 0, hand
        if players != 2 and players != 3:
            raise ValueError(f"a position has 2 or 3 hands, not {players}")
        memset(pos, 0, sizeof(Pos))
        pos.players = players
        for seat in range(players):
            hand = hands[seat]
            if not is_subset(hand, self.rs.deck):
                raise ValueError(f"hand {seat} holds cards these rules' deck does not have")
            if card_total(total) + card_total(hand) != card_total(total + hand) or \
                    not is_subset(total + hand, self.rs.deck):
                raise ValueError("the hands hold more cards of a rank than the deck has")
            total += hand
            pos.hands[seat] = hand
        if not 0 <= current < players or not 0 <= landlord < players:
            raise ValueError("current and landlord must be seats of the position")
        for seat in range(players):
            if pos.hands[seat] == 0:
                raise ValueError(f"seat {seat} has no cards: the game is over")
        if direction != 1 and direction != -1:
            raise ValueError("direction is +1 or -1")
        if let < 0 or (let > 0 and players != 2):
            raise ValueError("a let count is for two seats only, and never negative")
        if table == 0:
            if table_player != -1:
                raise ValueError("an empty table has no table_player (-1)")
        else:
            if not is_reading(table, &self.rs) or code_kind(table) == SKIP \
                    or code_kind(table) == REVERSE:
                raise ValueError("the table's move is not a move under these rules")
            if not 0 <= table_player < players or table_player == current:
                raise ValueError("table_player must be another seat than the one to act")
        pos.table = table
        pos.table_player = table_player
        pos.current = current
        pos.landlord = landlord
        pos.direction = direction
        pos.let = let
        return 0

    @property
    def threads(self):
        return self.nthreads

    def stopped(self):
        return bool(self.stop_flag[0])


cdef int settle(Searcher* S, const Pos* p, const uint64_t* chains) noexcept nogil:
    """The win/loss value of the root p (S in win/loss mode; ABORT if a limit stopped it)."""
    return root_search(S, p, -1, 1, pos_key(p, 0, False), chains)


cdef int root_search(Searcher* S, const Pos* p, int alpha, int beta, uint64_t key,
                     const uint64_t* chains) noexcept nogil:
    """search of the root p in (alpha, beta) under key: three seats with FLAG_ROUNDS and at
    least S.round_cards cards in play, in rounds (search_in_rounds; measured on the shipped
    30- and 33-card sets, whose deepest trees the rounds made up to 1.4 times bigger: the
    history); two seats with FLAG_TWO_ROUNDS (off by default) and at least
    S.round_cards_two cards, the same; else at once."""
    if p.players == 3 and S.flags & FLAG_ROUNDS and \
            card_total(p.hands[0] + p.hands[1] + p.hands[2]) >= S.round_cards:
        return search_in_rounds(S, p, alpha, beta, key, chains)
    if p.players == 2 and S.flags & FLAG_TWO_ROUNDS and \
            card_total(p.hands[0] + p.hands[1]) >= S.round_cards_two:
        return search_in_rounds(S, p, alpha, beta, key, chains)
    return search(S, p, alpha, beta, key, chains, True)


cdef int search_in_rounds(Searcher* S, const Pos* p, int alpha, int beta, uint64_t key,
                          const uint64_t* chains) noexcept nogil:
    """search of the three-seat root p in (alpha, beta), in rounds: the move order of
    S.flags for S.round_first nodes, then the other order of a farmer's pass to its partner's
    move (FLAG_PARTNER_PASS switched) for as many, then each again with ROUND_GROWTH times
    the nodes, and so on, until one settles the root or a limit stops the search. The
    table is kept throughout: it holds only proven values and bounds (an aborted search
    stores nothing on its way back), so a round starts from every subtree the rounds before
    proved, whatever their order. Score mode's null windows go the same way. Why: which
    order settles a whole deal quickly varies from deal to deal, 20 times either way (the
    history), and the rounds pay at most a few times the better order's nodes instead of
    the worse's. In score mode (FLAG_SCORE_BOMB_ROUNDS) each order is taken twice a round,
    the second time with FLAG_BOMBS_FIRST switched: which of the two settles a score sooner
    varies from deal to deal too. After each round of the orders, in win/loss mode, each
    farmer's game alone against the landlord within LONE_BUDGET times the round's budget
    (lone_farmer, FLAG_LONE_FARMER): the landlord wins most of those games within a few
    thousand nodes, kept in the table from then on, while a game it loses is a two-seat
    proof of 1-8 M nodes, which the round's budget alone reached only rounds later
    (measured: the history)."""
    cdef int flags = S.flags, noise = S.noise, v, k
    cdef int orders = S.round_orders if p.players == 3 else 2
    if S.score_mode and p.players == 3 and flags & FLAG_SCORE_BOMB_ROUNDS:
        orders *= 2                  # each again with FLAG_BOMBS_FIRST switched
    cdef uint64_t budget = S.round_first
    while True:
        for k in range(orders):
            if p.players == 2:
                # two seats (FLAG_TWO_ROUNDS): the partner's orders do not apply; the
                # second order is the search's with its ties broken apart (as a lazy SMP
                # helper's: S.noise)
                S.noise = noise if k == 0 else noise + 104729
                S.round_end = S.nodes + budget
                S.aborted = 0
                v = search(S, p, alpha, beta, key, chains, True)
                if v != ABORT or S.stop[0] or S.overflow:
                    S.noise = noise
                    S.round_end = ~(<uint64_t>0)
                    return v
                continue
            # order k: the pass to the partner switched where k is odd (with FLAG_ROUND_FEED
            # the farmer's lead under its partner too), the lead under the partner
            # (FLAG_FEED) switched where k is 2 or 3 (orders 2 and 3: measured: the history)
            S.flags = flags
            if k & 1:
                S.flags ^= FLAG_PARTNER_PASS
                if flags & FLAG_ROUND_FEED:
                    S.flags ^= FLAG_FEED
            if k & 2:
                S.flags ^= FLAG_FEED
            if k & 4:
                S.flags ^= FLAG_BOMBS_FIRST
            S.round_end = S.nodes + budget
            S.aborted = 0
            S.lone_tree = S.lone_tree_nodes if (flags & FLAG_LONE_TREE and not S.score_mode
                                                and budget >= S.lone_tree_from) else 0
            v = search(S, p, alpha, beta, key, chains, True)
            S.lone_tree = 0
            if v != ABORT or S.stop[0] or S.overflow:
                S.flags = flags
                S.round_end = ~(<uint64_t>0)
                return v             # settled, or stopped by a limit, a helper, the stack
        S.flags = flags
        if p.players == 3 and flags & FLAG_LONE_FARMER and not S.score_mode:
            S.round_end = ~(<uint64_t>0)
            v = lone_farmer(S, p, key, budget * LONE_BUDGET, True)
            if v != 0:
                return v             # a lone farmer beats the landlord, or a limit
        budget *= ROUND_GROWTH


cdef bint lone_position(const Pos* p, int alone, Pos* r) noexcept nogil:
    """r: the three-seat position p as a two-seat game of the landlord (seat 0) against
    the farmer ``alone`` (seat 1), the other farmer passing whenever it acts, its cards out
    of play; False where that is no game of p's: the other farmer leads or made the move to
    beat, or a hand holds action cards (Uno the Landlord: one of two seats playing a Skip or
    Reverse would not hand the turn on as three do).

    Why the landlord's loss in r is a loss of p (FLAG_LONE_FARMER): "pass whenever it is my
    turn" is a legal strategy for the other farmer in p (it never has to lead: the lead
    comes back to a seat only when its own move stands), and against it p is played move
    for move as r, whichever way round the seats sit: after the landlord's move both farmers
    act before the landlord again, the other passing; after the lone farmer's, the other
    passes and the landlord answers it or passes, after which the lone farmer leads; a move
    both other seats pass leaves its maker to lead; the game ends when the landlord or the
    lone farmer is out of cards. So a winning strategy of the lone farmer's in r, with its
    partner passing, wins p for the farmers."""
    cdef int other = 3 - p.landlord - alone
    cdef Pos q = p[0]
    if holds_actions(p.hands[0] + p.hands[1] + p.hands[2]):
        return False
    if q.table_player == other:
        return False
    if q.current == other:
        if q.table == 0:
            return False
        play(&q, 0)                      # it passes
    memset(r, 0, sizeof(Pos))
    r.players = 2
    r.hands[0] = q.hands[q.landlord]
    r.hands[1] = q.hands[alone]
    r.landlord = 0
    r.current = 0 if q.current == q.landlord else 1
    r.table = q.table
    r.table_player = -1 if q.table == 0 else (0 if q.table_player == q.landlord else 1)
    r.direction = 1
    r.landlord_plays = 2                 # win/loss mode: no spring to count
    r.farmer_plays = 1
    return True


cdef int search_within(Searcher* S, const Pos* p, uint64_t key, const uint64_t* chains,
                       bint cut, uint64_t budget) noexcept nogil:
    """search of p (key) in win/loss mode within budget nodes and the round's end
    (S.round_end, kept): its value, +1 or -1; 0 where its own budget stopped it (unknown);
    ABORT where a limit stopped the solve or the round ended. lone_farmer's and
    held_farmer's games: a search stopped at its budget stores nothing on its way back, so
    what it proved stays for the next round."""
    cdef uint64_t round_end = S.round_end
    cdef int v
    S.round_end = min(S.nodes + budget, round_end)
    S.aborted = 0
    v = search(S, p, -1, 1, key, chains, cut)
    S.round_end = round_end
    if v == ABORT:
        if S.stop[0] or S.overflow or S.nodes >= round_end:
            return ABORT
        S.aborted = 0
        return 0
    return v


cdef int lone_farmer(Searcher* S, const Pos* p, uint64_t key, uint64_t budget,
                     bint root) noexcept nogil:
    """FLAG_LONE_FARMER, at the three-seat root p (key) in win/loss mode, and FLAG_LONE_TREE
    at a node below it: the two-seat game of the landlord against each farmer alone
    (lone_position) searched within budget nodes on this searcher's table (the two-seat
    positions' keys hold an empty third hand, which no three-seat position has: they never
    meet the three-seat entries). Where the landlord loses one, so does p: -1 for the side
    to act there (the landlord), +1 (a farmer), with p's move stored under key: the lone
    game's own best move where the seat to act is the same with the same hand and move to
    beat (the two games generate the same moves), else the pass (the other farmer passes
    in it). 0 where neither search settles it; ABORT where a limit stopped the solve or the
    round (S.round_end, which a game's budget never passes). A search stopped at its budget
    stores nothing on its way back, as a round of search_in_rounds; what it proved stays
    for the next round. The moves' scratch is above S.top. Why only at the root at first,
    and inside the tree only in the long rounds (measured: the history): asked at every
    node of 30 cards or more from the start, within a few thousand nodes, it cost easy
    deals many times their nodes; from the rounds of 1.6 M nodes an order, deals settled
    within about 6 M nodes keep their trees, while the wins of the farmers together that
    one farmer finishes alone settle rounds sooner. At the root (root), the three-seat
    game with the other farmer held to one move a node as well (held_farmer): where a
    hand holds action cards (no two-seat game of p's: they move the turn) instead of the
    two-seat games, the held farmer passing where it answers; in the classic game after
    them, the held farmer answering as the ordering says, for the wins that take both
    farmers' cards (within the same budget: half or a quarter of it settled fewer deals).
    Inside the tree too, it cost more than it saved (Uno the Landlord's deal 1 15.6 M ->
    55.1 M nodes, the others the same: the history)."""
    cdef Pos r
    cdef int seat, v, index = NO_MOVE
    cdef uint64_t chains[3]
    cdef uint64_t lone_key, data, start = S.nodes
    cdef Py_ssize_t i
    cdef Sink sink
    cdef bint actions = holds_actions(p.hands[0] + p.hands[1] + p.hands[2])
    if actions:
        # no two-seat game of p's: the held farmer's game alone, passing where it answers
        return held_farmer(S, p, key, budget, False) if root else 0
    for seat in range(3):
        if seat == p.landlord or not lone_position(p, seat, &r):
            continue
        chains[0] = chain_ranks_in(r.hands[0], &S.rs)
        chains[1] = chain_ranks_in(r.hands[1], &S.rs)
        chains[2] = 0
        # the game's own key, so that its best move is stored for the landlord's moves
        lone_key = pos_key(&r, 0, False)
        v = search_within(S, &r, lone_key, chains, r.current == 1, budget)
        if v == ABORT:
            return ABORT                 # a limit, or the round's end
        if v == 0:
            continue                     # its own budget: unknown
        if r.current != 0:
            v = -v                       # the landlord's value
        if v > 0:
            continue
        if r.hands[r.current] == p.hands[p.current] and r.table == p.table:
            if probe(S.tt, lone_key, &data):
                index = <int>(data & 0xFFFF)
        else:
            # p's farmer passes (it is the other farmer): the pass's index
            sink.out = S.moves + S.top
            sink.cap = STACK_SIZE - S.top
            sink.n = 0
            generate(p.hands[p.current], p.table, &S.rs, &sink)
            i = pass_index(S.moves + S.top, min(sink.n, sink.cap))
            if i >= 0:
                index = <int>i
        v = -1 if p.current == p.landlord else 1
        store(S.tt, key, v, EXACT, index, S.nodes - start)
        return v
    # the farmers' wins that take both: the held farmer answering as the ordering says,
    # not passing throughout (the two-seat games above)
    return held_farmer(S, p, key, budget, True) if root else 0


cdef int held_farmer(Searcher* S, const Pos* p, uint64_t key, uint64_t budget,
                     bint answers) noexcept nogil:
    """lone_farmer's held-farmer games: for each farmer in turn, the three-seat position p
    (key) searched within budget nodes with the other farmer held to one move a node
    (S.held: the pass where it answers, unless answers, else the move the ordering puts
    first), every other seat searched as ever, its keys salted apart (S.key_salt). -1 for
    the landlord to act, +1 for a farmer, stored under key, where the farmers win one of
    those searches; 0 where the landlord wins both or their budgets stop them; ABORT where
    a limit stopped the solve or the round. Where a hand holds action cards (Uno the
    Landlord) the held farmer passes where it answers; in the classic game, where the
    two-seat games of lone_position already hold a farmer to passing, it answers as the
    ordering says.

    Why a farmers' win there is a win of p: the value that search gives a node is the
    minimax value over a subset of the moves at the held farmer's nodes (every move at the
    others'), plus the shortcuts, each of which claims only what holds in p's own game (a
    static win, a static loss, a move left out as dominated or answered: none of them asks
    who chooses the partner's moves). By induction from the leaves, a farmers' win it finds
    is one of the real game: at the landlord's nodes every move it searches loses for the
    landlord (the moves left out lose too, by the shortcuts' own proofs), at the free
    farmer's one move wins, and at the held farmer's the one move it searches wins, which
    that farmer may play. Any choice of that move would do, even a different one at each
    visit. A landlord's win there proves nothing, so it is stored under the salted key,
    apart from the search's (the two kinds of held game may share those: a value that
    proves nothing never makes a farmers' win); a farmers' win is stored under the
    position's own key (held_key), for the search of p to reuse, and the held game reads
    the position's own entries first (probe_held: a farmers' win there is one of the real
    game, all the induction asks of a leaf; a landlord's claims nothing). Unlike the
    two-seat game of lone_position, the held farmer may lead (its own move standing, or a
    Skip or Reverse played on an empty table handing the lead on)."""
    cdef int alone, held, v, seat, index
    cdef uint64_t chains[3]
    cdef uint64_t data, salt, start, lone_tree = S.lone_tree
    for seat in range(3):
        chains[seat] = chain_ranks_in(p.hands[seat], &S.rs)
    for alone in range(3):
        if alone == p.landlord:
            continue
        held = 3 - p.landlord - alone
        # the salt leaves the low 32 bits alone, the bucket's index (at most 2**30 buckets):
        # a position's salted and own entries share a bucket, so probe_held's second probe
        # reads the cache line the first fetched
        salt = mix64(<uint64_t>(held + 1) * 0x9E3779B97F4A7C15ULL) & 0xFFFFFFFF00000000ULL
        start = S.nodes
        S.held = held
        S.held_answers = answers
        S.key_salt = salt
        S.lone_tree = 0
        v = search_within(S, p, key ^ salt, chains, p.current != p.landlord, budget)
        S.held = -1
        S.held_answers = 0
        S.key_salt = 0
        S.lone_tree = lone_tree
        if v == ABORT:
            return ABORT                 # a limit, or the round's end
        if v == 0 or (v > 0) == (p.current == p.landlord):
            continue                     # its own budget, or the landlord wins it
        index = NO_MOVE
        if probe(S.tt, key, &data):
            # its root's move: a farmers' win is stored under the position's own key
            # (held_key), never under the salted one
            index = <int>(data & 0xFFFF)
        store(S.tt, key, v, EXACT, index, S.nodes - start)
        return v
    return 0


cdef int score_by_windows(Searcher* S, Pos* p, const uint64_t* chains, uint64_t* best,
                          bint* found) noexcept nogil:
    """The score-mode value of the root p (ABORT if a limit stopped it), best: its best
    move (found: one is known). First the win/loss verdict, with every win/loss shortcut;
    then the score by null windows from the score closest to an even game, 1 or -1, outward
    (with the sign known, each test asks "at least one more?" of a win, "no worse than
    this?" of a loss, and most nodes of a null window fall outside the range the doublings
    still to come allow, or reach a position with none to come: side_ceiling, each side's
    own bombs, rocket and spring, and doublings_left without FLAG_SCORE_SIDES). The best
    move is the root's in the search that proved the value."""
    cdef uint64_t key = pos_key(p, 1, False), move
    cdef int sign, v, bound
    cdef bint have
    S.score_mode = 0
    sign = settle(S, p, chains)
    S.score_mode = 1
    if sign == ABORT:
        return ABORT
    best[0] = root_move(S, p, pos_key(p, 0, False), found)
    S.verdict = sign
    S.verdict_move = best[0]
    S.verdict_found = found[0]
    if sign > 0:
        bound = 1                        # the value is at least this
        while True:
            v = root_search(S, p, bound, bound + 1, key, chains)
            if v == ABORT:
                return ABORT
            if v <= bound:
                return bound             # no more than it either
            bound = v
            move = root_move(S, p, key, &have)
            if have:
                best[0] = move
                found[0] = True
    bound = -1                           # a loss: the value is at most this
    while True:
        v = root_search(S, p, bound - 1, bound, key, chains)
        if v == ABORT:
            return ABORT
        if v >= bound:
            move = root_move(S, p, key, &have)
            if have:
                best[0] = move
                found[0] = True
            return bound
        bound = v


cdef uint64_t root_move(Searcher* S, const Pos* p, uint64_t key, bint* found) noexcept nogil:
    """The best move the table holds for the root (the move just searched), under key."""
    cdef uint64_t data
    cdef Sink sink
    cdef int index
    found[0] = False
    if not probe(S.tt, key, &data):
        return 0
    index = <int>(data & 0xFFFF)
    if index == NO_MOVE:
        return 0
    sink.out = S.moves
    sink.cap = STACK_SIZE
    sink.n = 0
    generate(p.hands[p.current], p.table, &S.rs, &sink)
    if index >= sink.n or sink.n > sink.cap:
        return 0
    found[0] = True
    return S.moves[index]


def state_position(bytes state):
    """The position fields of a GameState's bytes (GameCore.state_bytes): (hands, table,
    table_player, current, landlord, direction, let, landlord_plays, farmer_plays, bombs,
    phase)."""
    cdef GameState s
    if len(state) != sizeof(GameState):
        raise ValueError("not a game state")
    memcpy(&s, <const char*>state, sizeof(GameState))
    if s.players != 2 and s.players != 3:
        raise ValueError("not a game state")
    let = s.grabs if s.players == 2 else 0
    return (tuple([s.hands[i] for i in range(s.players)]), s.table, s.table_player,
            s.current, s.landlord, s.direction, let, s.landlord_plays, s.farmer_plays,
            s.bombs, s.phase == PLAY)
