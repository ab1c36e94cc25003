# cython: cdivision=True
# The exact solver's move ordering (solver.pyx): the moves a node searches (the dominated
# ones left out) and the order it searches them in, by the cost of the split each leaves.

from libc.stdint cimport uint64_t

from ddz._core.layout cimport *
from ddz._core.ruleset cimport *
from ddz._core.readings cimport *
from ddz._core.generator cimport *
from ddz._core.solver_position cimport *
from ddz._core.solver_keys cimport mix64, chain_starts, chain_ranks_of_hand, LOW_RANKS
from ddz._core.solver_static cimport (Opponents, answer_by_bombs, answerable_ranks, top_rank,
                                      can_answer, load_without_actions)

# ---------------------------------------------------------------------------------------
# Move ordering
#
# Measured on random two-seat positions (docs/solver.md): the table's move first, then the
# moves that leave the hand the cheapest split (split_cost: the fewest plays that empty it, as
# if it led every time, a play the opponents could answer counting twice), the most cards
# among those (long chains, airplanes, trios with kickers), generation order among equals
# (low ranks first), bombs and the rocket after every other move, the pass last. The plays
# first made 30- and 34-card trees 5-20 times smaller than the most cards alone; counting
# answerable plays twice and keeping the bombs back halved the hardest 34-card trees again.
# A history heuristic and a bonus for moves no opponent can answer made the trees bigger.
# Answering a move in win/loss mode, the bombs and the rocket go after the pass too
# (FLAG_PASS_BEFORE_BOMBS), and with two seats a pair of the hand's highest rank after the
# other answers (FLAG_TWO_TOP_PAIR): at the won nodes of the whole deals whose first move
# failed, those answers were the costly failures, the pass winning instead. Score mode keeps
# the bombs before the pass: a score's proof wants its doublings early (measured: the
# history).

cdef enum:
    FLAG_LANDLORD_PRUNING = 1   # the dominated moves left out for a three-seat landlord too
    FLAG_DOUBLE_PASS = 2        # three seats: a move no other seat answers skips both passes
    FLAG_PARTNER_PASS = 4       # three seats: a farmer passes its partner's move first
    FLAG_FARMER_PRUNING = 8     # three seats: a farmer's dominated moves, no other seat
                                # holding a card between the two ranks
    FLAG_PARTNER_HOLDS = 16     # three seats: ... only where the landlord cannot answer it
    FLAG_LANDLORD_DROP = 32     # three seats: drop_answered for the landlord too
    FLAG_FORCED_PASSES = 64     # three seats: a seat that holds no answer passes at once
    FLAG_TEAM_STATIC = 128      # three seats: a farmer wins where its partner, given the
                                # lead, wins statically (team_static_win)
    FLAG_SCORE_SETTLED = 256    # score mode: the doublings still to come bound the value;
                                # where none can come, the win/loss search
    FLAG_THREE_ETC = 512        # three seats, win/loss mode: the cutoff of FLAG_TWO_ETC
                                # at the nodes of at least etc_cards_three (16) cards in
                                # play (at the expected lost nodes alone: left out before;
                                # the history)
    FLAG_FARMER_DROP = 1024     # three seats: drop_answered for a farmer too
    FLAG_SCORE_SIDES = 2048     # score mode, with FLAG_SCORE_SETTLED: each side's own
                                # doublings bound its value (side_ceiling), not every
                                # doubling still to come
    FLAG_SCORE_WINDOWS = 4096   # score mode: the win/loss verdict first, then the score by
                                # null windows; a bomb's child searched in the window
                                # mapped through its doubling
    FLAG_SEAT_ANSWERS = 8192    # three seats: the landlord's opponents judged seat by seat
                                # (load_opponents_apart), not pooled
    FLAG_ROUNDS = 16384         # three seats: the root searched in rounds of a
                                # growing node budget, the move order with and without
                                # FLAG_PARTNER_PASS in turn, the table kept (search_in_rounds)
    FLAG_COVERS = 32768         # three seats: the static tests' splits may hold covered
                                # singles and pairs (allow_covers)
    FLAG_TEAM_COVER = 65536     # three seats: the team test's lead may be one the landlord
                                # answers, where the partner overtakes every answer
    FLAG_FEED = 131072          # three seats: a farmer leads first the singles (pairs)
                                # its partner tops above the landlord's
    FLAG_ROUND_FEED = 262144    # search_in_rounds: the second order switches FLAG_FEED too
    FLAG_TWO_COVERS = 524288    # two seats: the static tests' splits may hold covered
                                # singles and pairs (allow_covers)
    FLAG_TWO_ROUNDS = 1048576   # two seats: a root of at least round_cards_two cards in
                                # rounds, the order and a perturbed one in turn (off:
                                # more nodes on the whole deals, the history)
    FLAG_TWO_ETC = 2097152      # two seats, win/loss mode: at a node of at most
                                # ETC_MOVES (16) moves, a child the table holds as won for
                                # the side to act is taken before any search (an enhanced
                                # transposition cutoff)
    FLAG_LORD_LOSS = 4194304    # three seats: the landlord loses at once where each of its
                                # moves meets a farmer's ready answer (lord_static_loss)
    FLAG_FARMER_LOSS = 8388608  # three seats: the farmer before the landlord loses at once
                                # where each of its moves meets the landlord's ready answer
                                # (farmer_static_loss)
    FLAG_LONE_FARMER = 16777216 # three seats, win/loss mode, search_in_rounds: after each
                                # round's orders, each farmer alone against the landlord
                                # (lone_farmer: the landlord's loss there is one of the
                                # root's), then the three-seat game with the other farmer
                                # held to one move a node (held_farmer; with action
                                # cards in play, instead)
    FLAG_LONE_TREE = 33554432   # three seats, win/loss mode, search_in_rounds: in the
                                # rounds of at least lone_tree_from nodes an order, the
                                # two-seat games at every node below the root of at least
                                # lone_tree_cards cards in play, lone_tree_nodes each
    FLAG_SCORE_BOMBS = 67108864 # score mode: a side that plays bombs nobody answers, then
                                # wins statically, wins by at least 1 + those bombs (+ a
                                # spring): a lower bound where a win alone is not enough
                                # (bombs_first_win)
    FLAG_SCORE_BOMB_ROUNDS = 134217728  # score mode, search_in_rounds: every order of the
                                # rounds taken again with FLAG_BOMBS_FIRST switched
    FLAG_BOMBS_FIRST = 268435456    # score mode: a window asking more than a win tries the
                                # bombs and rocket nobody answers first (an order)
    FLAG_PASS_BEFORE_BOMBS = 536870912  # win/loss mode, answering a move: the pass is
                                # tried before the bombs and the rocket (an order)
    FLAG_TWO_TOP_PAIR = 1073741824  # two seats, answering: a pair of the hand's highest
                                # rank is tried after the other answers, before the pass,
                                # unless the hand holds that rank twice and the opponent
                                # can answer the pair (an order)
    FLAGS_OLD = 123             # the default before the team and score shortcuts (128 up)
    FLAGS_ALL = 2147483647
    FLAGS_DEFAULT = 1877606395  # all but FLAG_PARTNER_PASS, FLAG_TWO_ROUNDS (measured: see
                                # the history)

cdef enum:
    PLAYS_SIZE = 1 << 16    # entries of a searcher's split_cost memo (512 KB)
    PLAYS_START = 1 << 10   # of which a new searcher uses (8 KB), doubled as nodes pass it
    PLAYS_BUDGET = 4000     # generator calls a node's ordering may spend on split_cost

cdef inline uint64_t opponents_summary(const Opponents* o) noexcept nogil:
    """What rough_answer looks at, in one word (never 0)."""
    return (<uint64_t>(top_rank(o.has1) + 1) | (<uint64_t>(top_rank(o.has2) + 1) << 4)
            | (<uint64_t>(top_rank(o.has3) + 1) << 8) | (<uint64_t>(o.bomb_rank + 1) << 12)
            | (<uint64_t>o.rocket << 16) | (<uint64_t>o.actions << 17) | (1ULL << 20))


cdef inline bint rough_answer(const Opponents* o, uint64_t move) noexcept nogil:
    """can_answer from the summary alone, a chain judged by its top card against the
    opponents' highest of its width (a guess, for ordering only: never for a verdict)."""
    cdef int kind = code_kind(move), rank = code_rank(move)
    cdef int decided = answer_by_bombs(o, kind, rank)
    if decided >= 0:
        return decided
    if kind == FOUR_TWO_SINGLES or kind == FOUR_TWO_PAIRS:
        return False
    if kind == SINGLE or kind == STRAIGHT:
        return (o.has1 & ranks_above(rank)) != 0
    if kind == PAIR or kind == PAIR_STRAIGHT:
        return (o.has2 & ranks_above(rank)) != 0
    return (o.has3 & ranks_above(rank)) != 0     # trios, with kickers, airplanes


cdef inline int simple_cost(const Hand* h, const Opponents* o) noexcept nogil:
    """split_cost of a hand of singles and pairs alone (no trio, quad or chain ranks): each
    rank one move (a pair whole: two singles cost at least as much), both jokers one (the
    rocket), one more for each that rough_answer says the opponents answer."""
    cdef uint64_t ranks = h.has[1], answerable = answerable_ranks(h, o)
    cdef uint64_t jokers = rank_bit(SMALL_JOKER) | rank_bit(BIG_JOKER)
    cdef int cost = 0
    if (ranks & jokers) == jokers:
        ranks &= ~jokers
        answerable &= ~jokers
        cost = 1 + o.actions         # the rocket: answered by action cards alone
    return cost + card_total(ranks) + card_total(answerable)


cdef inline int split_cost(Searcher* S, uint64_t hand, const Opponents* o, uint64_t summary,
                           uint64_t* buf, Py_ssize_t cap) noexcept nogil:
    """The cheapest split of hand into moves, leading each time: a move costs 1, and 2 when
    rough_answer says the opponents can answer it (the move holding the hand's lowest card
    is chosen at each level). A hand of singles and pairs alone is counted (simple_cost);
    others are memoised by hand and summary; past the node's budget, or out of scratch
    (buf: cap codes), an upper bound, not memoised."""
    cdef uint64_t* slot
    cdef uint64_t tag
    cdef Sink sink
    cdef Py_ssize_t i, n
    cdef int low, best = 1 << 20, v
    cdef uint64_t move
    cdef Hand h
    if hand == 0:
        return 0
    load_hand(&h, hand)
    if h.has[3] == 0 and chain_ranks_of_hand(&h, &S.rs) == 0:
        return simple_cost(&h, o)
    tag = mix64(hand) ^ mix64(summary)
    slot = S.plays + (tag & S.plays_mask)
    if (slot[0] ^ tag) >> 8 == 0 and slot[0] & 255:
        return <int>(slot[0] & 255) - 1
    if S.plays_budget <= 0:
        return 2 * card_total(hand)
    S.plays_budget -= 1
    sink.out = buf
    sink.cap = cap
    sink.n = 0
    generate_lowest(hand, &S.rs, &sink)
    n = sink.n
    if n > cap:
        return 2 * card_total(hand)
    low = ddz_ctz64(hand) // 3
    for i in range(n):
        move = buf[i]
        if count_of(move, low) == 0:
            continue
        v = 2 if rough_answer(o, move) else 1
        if v >= best:
            continue
        v += split_cost(S, hand - code_cards(move), o, summary, buf + n, cap - n)
        if v < best:
            best = v
    if S.plays_budget > 0:
        slot[0] = (tag & ~255ULL) | <uint64_t>(best + 1)
    return best


# ---------------------------------------------------------------------------------------
# Dominated kickers
#
# Two seats, win/loss mode. Let k1 < k2 be ranks of 3..2 that the side to act holds c times
# each, c = 1 or c = 2, where no straight of its hand could hold k1, nor (c = 2) any pair
# straight (so no chain of a later hand can: hands only shrink; an airplane never holds a
# rank held at most twice). A move Y with kickers (trio + single or pair, four + two singles
# or pairs, an airplane with wings) that plays all c cards of k2 and no k1 is worth no more
# than Y', the same move with the c cards of k1 for those of k2:
#
# * Y' is legal where Y is: a rank held at most twice is no main rank, and the kicker rules
#   (distinct kickers, kicker matches main, wings next to the chain, the rocket) ask only
#   how many cards of a rank the kickers hold and whether it is a main rank or a joker,
#   the same for k1 as for k2 (neither is in the rest of Y). Y' has Y's type, main rank and
#   length, so it answers what Y answers and is answered by the same moves (answers(): the
#   comparison rank with wing trios and heavy_wings() look only at ranks held three or four
#   times in the move).
# * After Y and after Y' the positions differ only in the mover's hand (R + c k1 against
#   R + c k2) and the table (Y against Y'). The mover in the second copies the first move
#   for move, playing k2 wherever the first plays k1: k1 can go only as a single, a pair or
#   kickers (in no chain), k2 works as well (the same kicker rules), and a single or pair of
#   k2 beats whatever that of k1 beats while the answers to it are among those to k1 (the
#   same bombs, rocket, Skip and Reverse; fewer singles or pairs). After such a move the
#   hands differ the same way with fewer cards of k1 / k2, or not at all. The opponent's
#   moves in the second copy are always among those in the first, and the card counts (the
#   let, the empty hand) are the same throughout, so the second copy is won whenever the
#   first is. (A chain through k1 could not be copied: hence the condition on k1; a chain
#   through k2 is only one more choice for the second copy.)
#
# So Y can be left out of the search at every node: a won node keeps a winning move (Y' or
# better) and a lost node's value is unchanged. Not with three seats (a teammate may rather
# overtake a low single than a high one) nor in score mode (not argued there).
#
# Equivalent ranks (dominated_set), by the same copying. Let a < b be ranks of 3..2, a held
# c times (c = 1, 2, 3) and in no chain of the hand (no straight; with c >= 2 no pair
# straight; with c = 3 no airplane), b held c times too, and the opponent holding at least c
# cards of no rank in (a, b]. A move Y of b's c cards (a single, a pair, a trio with or
# without kickers, leading or answering the table) is worth no more than Y', the same move
# with a for b (when a beats the table, and, for a trio, when Y' is among the moves):
#
# * the opponent answers Y' with exactly what answers Y: the moves of that type above a are
#   those above b, as it holds none between (nor at b: a tie does not beat); and the same
#   bombs, rocket and action cards;
# * after Y the mover holds R + c a, after Y' it holds R + c b: the second copies the first
#   move for move, playing b wherever the first plays a, as above (a only as a single, a
#   pair, a trio or kickers; b beats whatever a beats and is answered by less).
#
# A single of a rank b held twice or three times (a pair of a trio) against an a held once
# (twice) goes the same way, the second hand holding one more b than the first: R + a + b
# against R + 2b. The copy then plays b and b where the first plays a and b as two single
# kickers of one move (four with two, an airplane's wings), which the kicker rules may
# forbid. So that case is taken only where the hand holds no quad and can form no airplane
# (then no move of it, nor of a smaller hand, has two single kickers), or, for a single of a
# pair, where two single kickers of a rank are allowed.
#
# Measured on the 12 random 34-card deals of docs/solver.md: 18.7M nodes before, 9.3M after,
# together with the forced pass (advance).

cdef inline bint dominated_by(uint64_t used, uint64_t spare) noexcept nogil:
    """A rank of spare below a rank of used?"""
    return used != 0 and spare != 0 and ddz_ctz64(spare) < 63 - ddz_clz64(used)


cdef inline bint dominated_strictly(uint64_t used, uint64_t spare,
                                    uint64_t theirs) noexcept nogil:
    """A rank k2 of used and a rank k1 of spare below it, theirs holding no rank in (k1, k2]?"""
    cdef uint64_t bit, below
    while used:
        bit = used & (~used + 1)         # the lowest rank left
        used &= used - 1
        below = spare & (bit - 1)
        if below and not (theirs & (bit | (bit - 1)) & ranks_above(top_rank(below))):
            return True
    return False


cdef inline bint dominated_kickers(uint64_t move, uint64_t ones, uint64_t spare_ones,
                                   uint64_t twos, uint64_t spare_twos,
                                   const uint64_t* strict) noexcept nogil:
    """Does move play, as kickers, every card of a rank k2 held once (ones) or twice (twos)
    and no card of a lower rank k1 held as often and in spare_ones / spare_twos? (Y above:
    then the same move with k1 for k2 is at least as good.) strict (a three-seat farmer):
    the ranks every other seat holds (a spread set), none of which may lie in (k1, k2]."""
    cdef int kind = code_kind(move)
    cdef uint64_t cards
    if not (kind == TRIO_SINGLE or kind == TRIO_PAIR or kind == FOUR_TWO_SINGLES
            or kind == FOUR_TWO_PAIRS or kind == AIRPLANE_SINGLES or kind == AIRPLANE_PAIRS):
        return False
    cards = code_cards(move)
    # ranks held once or twice are never main ranks (a trio or a quad): kickers
    if strict != NULL:
        return (dominated_strictly(cards & ones, spare_ones & ~cards, strict[0])
                or dominated_strictly((cards >> 1) & ~cards & twos,
                                      spare_twos & ~(cards | (cards >> 1)), strict[0]))
    if dominated_by(cards & ones, spare_ones & ~cards):
        return True
    return dominated_by((cards >> 1) & ~cards & twos, spare_twos & ~(cards | (cards >> 1)))


cdef inline bint dominated_set(const Pos* p, const Opponents* o, const uint64_t* moves,
                               Py_ssize_t n, uint64_t move, const uint64_t* held,
                               const uint64_t* spare, const uint64_t* broken,
                               bint strict) noexcept nogil:
    """Is move a single, pair or trio (with or without kickers) whose main rank b is held
    exactly that often (held[width]) while a lower rank a of spare[width] beats the table,
    the opponent holds that many of no rank in (a, b], and the same move with a for b is
    among the moves? (Then that move is at least as good: see above.) strict (a three-seat
    farmer, o every other seat's cards): they hold no card at all in (a, b], so that every
    seat, the partner too, answers a's moves of every width exactly as b's."""
    cdef int kind = code_kind(move), width, a, b
    cdef uint64_t bit, candidates, theirs, other
    cdef Py_ssize_t i
    if kind == SINGLE:
        width = 1
        theirs = o.has1
    elif kind == PAIR:
        width = 2
        theirs = o.has2
    elif kind == TRIO or kind == TRIO_SINGLE or kind == TRIO_PAIR:
        width = 3
        theirs = o.has3
    else:
        return False
    b = code_rank(move)
    bit = rank_bit(b)
    candidates = spare[width] & (bit - 1)
    if not candidates or not ((held[width] | broken[width]) & bit):
        return False
    if p.table:
        candidates &= ranks_above(code_rank(p.table))
        if not candidates:
            return False
    a = top_rank(candidates)
    if strict:
        theirs = o.has1
    if theirs & (bit | (bit - 1)) & ranks_above(a):
        return False
    if width < 3:
        return True                  # a single or pair of a: always a move
    other = make_code(code_cards(move) - digit(b, 3) + digit(a, 3), kind, a,
                      code_length(move))
    for i in range(n):
        if moves[i] == other:
            return True
    return False                     # a's cards among the kickers: no such move


cdef inline Py_ssize_t every_move(int* order, Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t i
    for i in range(n):
        order[i] = <int>i
    return n


cdef inline Py_ssize_t kept_moves(Searcher* S, const Pos* p, const Opponents* o,
                                  const Opponents* others, const uint64_t* moves,
                                  Py_ssize_t n, int* order, uint64_t chained) noexcept nogil:
    """Fill order with the indices of the moves worth searching (all but the dominated
    ones above, where they apply) and return how many. o: the other side's cards; others:
    every other seat's (a three-seat farmer's partner too), NULL where not loaded.

    Three seats: the landlord's opponents are the two farmers, their cards pooled (which
    only adds answers): the copying above holds as with one opponent. A farmer's partner
    would rather overtake a low card than a high one, so for a farmer the two ranks must
    have no card of another seat between them (strict): then every seat answers the one as
    it answers the other, and the copy plays the same game."""
    cdef Py_ssize_t i, m = 0
    cdef uint64_t choices
    cdef Hand hand
    cdef uint64_t held[4]
    cdef uint64_t spare[4]
    cdef uint64_t broken[4]     # broken[w]: ranks held more often than w whose w-card plays
                                # the dominance above may also judge
    cdef int width
    cdef bint some = False, strict = False
    cdef uint64_t strict_ranks = 0
    cdef const uint64_t* strict_kickers = NULL
    if p.players == 3 and p.current != p.landlord:
        if not (S.flags & FLAG_FARMER_PRUNING) or others == NULL:
            return every_move(order, n)
        strict = True
        o = others
        strict_ranks = others.has1
        strict_kickers = &strict_ranks
    if (p.players == 2 or strict or (S.flags & FLAG_LANDLORD_PRUNING)) \
            and not S.score_mode and S.rs.min_len[1] >= 2 and S.rs.min_len[2] >= 2:
        # ranks 3..2 held exactly once, twice, three times
        load_hand(&hand, p.hands[p.current])
        for width in range(1, 4):
            held[width] = hand.has[width] & ~hand.has[width + 1] & LOW_RANKS
        for width in range(1, 4):
            # in no chain of the hand (a rank held w times is in no chain wider than w)
            spare[width] = held[width] & ~chained
        # a single b of a pair or trio (a pair of a trio) against an a held once (twice):
        # the hand that keeps the b's must be able to play them wherever the other plays
        # a's and b's, several single kickers of one move among that. Sure where no move of
        # the hand, nor of a smaller one, has more than one single kicker (no quad, no
        # airplane); else only for a single of a pair where two single kickers of a rank
        # are allowed
        broken[1] = 0
        broken[2] = 0
        broken[3] = 0
        if spare[1] or spare[2]:
            if hand.has[4] == 0 and not chain_starts(hand.has[3], S.rs.min_len[3]):
                broken[1] = held[2] | held[3]
                broken[2] = held[3]
            elif not (S.rs.options & OPT_SINGLE_KICKERS_DISTINCT_):
                broken[1] = held[2]
        for width in range(1, 4):
            choices = held[width] | broken[width]
            if (choices & (choices - 1)) == 0:
                spare[width] = 0     # fewer than two ranks to choose between
            some = some or spare[width] != 0
    for i in range(n):
        if some and (dominated_kickers(moves[i], held[1], spare[1], held[2], spare[2],
                                       strict_kickers)
                     or dominated_set(p, o, moves, n, moves[i], held, spare, broken,
                                      strict)):
            continue
        order[m] = <int>i
        m += 1
    return m


cdef inline void order_moves(Searcher* S, const Pos* p, const Opponents* o,
                             const uint64_t* moves, int* scores, const int* order, Py_ssize_t m,
                             int tt_index, uint64_t* buf, Py_ssize_t cap) noexcept nogil:
    """A score per move of order[0..m) (indices into moves), higher first (the search
    selects lazily). o: the other side's cards (load_opponents_of); buf: cap codes of
    scratch."""
    cdef Py_ssize_t i, j
    cdef int score, kind
    cdef uint64_t hand = p.hands[p.current], summary = opponents_summary(o)
    cdef int fed[3]                  # by width: the partner's top above the landlord's
    cdef Hand own
    cdef int top = -1                # FLAG_TWO_TOP_PAIR: the hand's highest rank
    cdef Hand mate
    cdef Opponents beating
    cdef const Opponents* lord = o   # the landlord's cards that could beat the partner's move
    fed[1] = -1
    fed[2] = -1
    if S.flags & FLAG_FEED and p.players == 3 and p.table == 0 and p.current != p.landlord:
        load_hand(&mate, p.hands[3 - p.current - p.landlord])
        if top_rank(mate.has[1]) > top_rank(o.has1):
            fed[1] = top_rank(mate.has[1])
        if top_rank(mate.has[2]) > top_rank(o.has2):
            fed[2] = top_rank(mate.has[2])
    if S.flags & FLAG_TWO_TOP_PAIR and p.players == 2 and p.table != 0:
        load_hand(&own, hand)
        top = top_rank(own.has[1])
    S.plays_budget = PLAYS_BUDGET
    S.plays_mask = grown_mask(S.plays_mask, S.nodes, PLAYS_SIZE)
    for j in range(m):
        i = order[j]
        kind = code_kind(moves[i])
        if moves[i] == 0:
            score = -(1 << 20)           # the pass
            if S.flags & (FLAG_PARTNER_PASS | FLAG_PARTNER_HOLDS) and p.players == 3 and \
                    p.table_player >= 0 and side_of(p, p.table_player) == side_of(p, p.current):
                if o.actions:
                    # a Skip or Reverse beats nothing: the landlord's other cards decide
                    # (measured on Uno the Landlord's deals: the history)
                    load_without_actions(&beating, o)
                    lord = &beating
                if S.flags & FLAG_PARTNER_PASS or not can_answer(&S.rs, lord, p.table):
                    score = 1 << 29      # the partner's move: let it hold the trick first
        elif kind == BOMB or kind == ROCKET:
            score = -(1 << 19)           # kept back
            if p.table != 0 and S.flags & FLAG_PASS_BEFORE_BOMBS and not S.score_mode:
                score = -(1 << 21)       # and, answering, the pass first
        else:
            score = (8 * card_total(code_cards(moves[i]))
                     - 64 * split_cost(S, hand - code_cards(moves[i]), o, summary, buf, cap))
            if (kind == SINGLE and code_rank(moves[i]) < fed[1]) or \
                    (kind == PAIR and code_rank(moves[i]) < fed[2]):
                score += 64              # the partner takes the trick (FLAG_FEED)
            if kind == PAIR and code_rank(moves[i]) == top and \
                    (holds(own.has[3], top) or not can_answer(&S.rs, o, moves[i])):
                # the pair of the highest rank (a control, or a trio or quad broken): the
                # last answer, the pass next (FLAG_TWO_TOP_PAIR; top is -1 without it)
                score = -(1 << 20) + 1
        if S.noise:
            score += <int>(mix64(moves[i] + <uint64_t>S.noise) & 7)
        if i == tt_index:
            score = 1 << 30
        scores[i] = score
