# cython: cdivision=True
# The exact solver's static tests (solver.pyx): the opposing side's cards and whether they
# may answer a move, the static win test (a split of the hand into unanswered moves and one
# more) and the tests built on it, the answer after which it passes and the singles and
# pairs the opponent answers to a win at once; and the forced pass.

from libc.stdint cimport uint64_t

from ddz._core.layout cimport *
from ddz._core.ruleset cimport *
from ddz._core.readings cimport *
from ddz._core.generator cimport *
from ddz._core.solver_position cimport *
from ddz._core.solver_keys cimport answer_tops, chain_ranks_of_hand, mix64

# ---------------------------------------------------------------------------------------
# A static win test: a hand that leads and splits into combinations of which all but one
# no opponent can answer wins (it plays the unanswerable ones, keeping the lead each time,
# then the last one). Sound under every rule set: the opponents' hand never changes along
# that line, a move is judged unanswerable only when the opponents (their cards pooled,
# which can only add answers) hold no answer to it, and the moves come from the generator.
# Off in score mode (it proves a win, not its score). The same test follows an answer no
# opponent can answer (answer_static_win): the side that made it leads next.

cdef enum:
    STATIC_BUDGET = 64      # generator calls a static_win test may spend
    MEMO_SIZE = 1 << 13     # slots of a searcher's static_win memo (two words each: 128 KB)
    MEMO_START = 1 << 10    # of which a new searcher uses (16 KB), doubled as nodes pass it

ctypedef struct Opponents:
    uint64_t cards           # the opposing side's cards, pooled (load_opponents_apart: the
                             # first opposing seat's)
    uint64_t other           # load_opponents_apart: the second opposing seat's cards, judged
                             # apart from the first's; else 0
    uint64_t has1, has2, has3    # spread rank sets held at least 1, 2, 3 times
    int bomb_rank            # their highest bomb's rank, -1 for none
    bint rocket
    bint actions             # a Skip or Reverse card answers anything
    int room                 # allow_covers: the cards the opposing seats may shed, each,
                             # while none goes out; -1: no covered plays (load_opponents)

ctypedef struct WinSearch:
    const RuleSet* rs
    const Opponents* opp
    uint64_t* buf            # scratch for the moves of each level
    Py_ssize_t cap
    int budget               # generator calls left; out of it: no verdict
    int let                  # the hand wins on reaching this many cards (0: on emptying)
    int shed                 # the cards of the covered plays so far (allow_covers)
    uint64_t first           # the line's first move, once found
    bint first_open          # first is still to be chosen (the last combination so far)
    bint need_first          # the caller reads first back
    bint overflow            # a level's moves did not fit in buf: the verdict is the
                             # scratch's, not the hand's (not memoised)


# The static_win memo (StaticMemo, one a searcher): the verdicts of static_win's searches,
# by the hand, the opposing cards and the test's parameters. A verdict is a function of
# those alone (the same generator calls in the same order, within the same budget), so
# the memo changes no verdict and no tree, only the work: about two in five of the tests
# that reach the split search ask about a hand and cards asked about before (the team test
# and the static losses ask after each of many moves), and a three-seat whole deal takes
# about 30% fewer instructions (measured: the history). Only the tests that split_bound
# does not settle are looked up: most are, for less than the lookup costs.
# A slot is two words: the first move of the line, and the hash of the question (bit 0:
# the verdict) xor that move, so that a slot whose two words were written by two
# questions reads as a miss. The question is known by its 64-bit hash only, as a table
# entry is by its key. The slots in use grow with the nodes searched (grown_mask), as the
# split_cost memo's do. (The struct is solver_position.pxd's, where the searcher holds one.)


cdef inline void load_opponents(Opponents* o, uint64_t cards) noexcept nogil:
    cdef Hand hand
    cdef uint64_t quads
    load_hand(&hand, cards)
    o.cards = cards
    o.other = 0
    o.has1 = hand.has[1]
    o.has2 = hand.has[2]
    o.has3 = hand.has[3]
    quads = hand.has[4]
    o.bomb_rank = (63 - ddz_clz64(quads)) // 3 if quads else -1
    o.rocket = holds(hand.has[1], SMALL_JOKER) and holds(hand.has[1], BIG_JOKER)
    o.actions = holds_actions(cards)
    o.room = -1


cdef inline void load_opponents_apart(Opponents* o, uint64_t first,
                                     uint64_t second) noexcept nogil:
    """o: two opposing seats' cards, each judged on its own: a move is answerable where one
    of them holds an answer (the ranks held 1, 2, 3 times, the bombs and the rocket of
    either, not of the two hands pooled: two pairs of a rank in two hands are no bomb, a
    joker in each no rocket). In a trick each seat answers from its own hand, so every
    test that asks whether the opponents may answer stays sound, and finds fewer answers
    than the pooled cards give."""
    cdef Opponents t
    load_opponents(o, first)
    if second == 0:
        return
    load_opponents(&t, second)
    o.other = second
    o.has1 |= t.has1
    o.has2 |= t.has2
    o.has3 |= t.has3
    if t.bomb_rank > o.bomb_rank:
        o.bomb_rank = t.bomb_rank
    o.rocket = o.rocket or t.rocket
    o.actions = o.actions or t.actions


cdef inline void load_opponents_of(Opponents* o, const Pos* p, bint apart) noexcept nogil:
    """o: the cards of the side not to act in p, pooled; apart (a three-seat landlord to
    act): the two farmers' judged apart (load_opponents_apart)."""
    cdef uint64_t cards = 0
    cdef int seat
    if apart and p.players == 3 and p.current == p.landlord:
        load_opponents_apart(o, p.hands[seat_after(p, p.current, 1)],
                             p.hands[seat_after(p, p.current, 2)])
        return
    for seat in range(p.players):
        if side_of(p, seat) != side_of(p, p.current):
            cards += p.hands[seat]
    load_opponents(o, cards)


# Covered plays (three seats, FLAG_COVERS; two, FLAG_TWO_COVERS): the static win test's
# split may also hold
# answerable singles and pairs, each with a cover of its own: a single (pair) of the hand
# above every single (pair) an opposing seat holds. The line: the side leads the covered
# move a; if no opponent answers it, the side leads again, the cover still in its hand (a
# move nobody answers, led later like the others); if one does, with b (or a second
# opponent overtakes b), the side plays the cover c: c beats every single (pair) the
# opponents hold, so b too, and nobody answers c, so the side leads again. Sound where:
# * no opposing seat holds a bomb, the rocket or an action card (then the only answers to
#   a single are singles, to a pair pairs, of the opponents' ranks: c beats each, and
#   nothing answers c);
# * no opposing seat goes out on the way: each answers a covered move at most once
#   (after it the side covers at once), with as many cards as the move has, so the
#   covered moves' cards in all (WinSearch.shed) stay below the cards of each opposing
#   seat (Opponents.room: the fewest an opposing seat holds, less one);
# * the opponents' hands are the ones loaded, not more (more cards only add answers, as
#   the plain test needs, but more cards would also put a seat further from going out
#   than it is): allow_covers only on the cards of the seats as they are, and each test
#   that judges a hand against more cards than its opponents hold (drop_answered, the
#   team test's lines in which the landlord has played) keeps room at -1;
# * a teammate between (a three-seat farmer's partner) passes: the side's own choice;
# * two seats: the one opponent, its cards as they are; under the let (the farmer wins on
#   reaching p.let cards) the farmer opponent's room is less p.let (load_side_opponents).
# The side's lead of a covered move is a legal move of its hand (the generator's), the
# cover a single (pair) of its rest: the line plays only moves of the hand. Tested against
# the minimax on small positions (tests/test_solver_team.py). Measured: the history.

cdef inline void allow_covers(Opponents* o) noexcept nogil:
    """Let the static tests against o (the opposing seats' cards, exactly as they are:
    load_opponents for one seat, load_opponents_apart for two) use covered plays (above),
    where no opposing seat holds a bomb, the rocket or an action card."""
    cdef int fewest
    o.room = -1
    if o.actions or o.rocket or o.bomb_rank >= 0:
        return
    fewest = card_total(o.cards)
    if o.other != 0 and card_total(o.other) < fewest:
        fewest = card_total(o.other)
    o.room = fewest - 1


# Action cards on the static win's line (Uno the Landlord): an opposing seat's Skip or
# Reverse beats nothing (the move on the table stays), so against a move no opposing seat
# answers by its other cards the side keeps the lead as before: whatever Skips and
# Reverses are played, the turn comes back to the move's maker after a pass or a Skip and
# it leads again (a Reverse passes over the maker and flips the order, which the line does
# not depend on). What action cards do change: an opposing seat sheds them, one a turn, so
# a seat holding nothing else could go out on the way. Hence line_opponents: where every
# opposing seat holds more cards other than action cards than it needs to win (none, or
# a two-seat farmer's let), the line's tests may judge the opposing cards without their
# action cards. Covered plays stay off (a Skip after an opponent's answer to a covered move
# would pass over the side, and the answer's maker would lead): room -1. Only for the
# tests whose line is the side's own moves, each unanswered (static_win, answer_static_win);
# the others (the team test, the static losses, drop_answered, the forced passes) reason
# about who acts next and still give up where action cards are held.

cdef inline void load_without_actions(Opponents* out, const Opponents* o) noexcept nogil:
    """out: the opposing seats of o (load_opponents or load_opponents_apart), each without
    its Skip and Reverse cards; no covered plays."""
    if o.other != 0:
        load_opponents_apart(out, without_actions(o.cards), without_actions(o.other))
    else:
        load_opponents(out, without_actions(o.cards))


cdef inline const Opponents* line_opponents(const Pos* p, const Opponents* o,
                                           Opponents* out) noexcept nogil:
    """o (the opposing seats' cards of p as they are, load_opponents_of), or out: the same
    seats without their action cards (no covered plays), where every opposing seat keeps
    cards it cannot shed on the static win's line (above); o where that is not so, or where
    no opposing seat holds an action card."""
    cdef int seat, need
    if not o.actions:
        return o
    for seat in range(p.players):
        if side_of(p, seat) == side_of(p, p.current):
            continue
        need = p.let if (p.let > 0 and seat != p.landlord) else 0
        if card_total(without_actions(p.hands[seat])) <= need:
            return o
    load_without_actions(out, o)
    return out


cdef inline int answer_by_bombs(const Opponents* o, int kind, int rank) noexcept nogil:
    """What the opponents' action cards, bombs and rocket decide of an answer to a move of
    kind and rank: 1 an answer may exist, 0 none can, -1 undecided (the move's own kind)."""
    if o.actions:
        return 1
    if kind == ROCKET:
        return 0
    if o.rocket:
        return 1
    if kind == BOMB:
        return o.bomb_rank > rank
    if o.bomb_rank >= 0:
        return 1
    return -1


cdef inline bint can_answer(const RuleSet* rs, const Opponents* o, uint64_t move) noexcept nogil:
    """May the opponents hold an answer to move? (True when unsure; o.other's cards asked
    apart.)"""
    cdef int kind = code_kind(move), rank = code_rank(move)
    cdef Sink sink
    cdef int decided = answer_by_bombs(o, kind, rank)
    if decided >= 0:
        return decided
    if kind == SINGLE:
        return (o.has1 & ranks_above(rank)) != 0
    if kind == PAIR:
        return (o.has2 & ranks_above(rank)) != 0
    if kind == TRIO or kind == TRIO_SINGLE or kind == TRIO_PAIR:
        return (o.has3 & ranks_above(rank)) != 0   # kickers not looked at: maybe
    if kind == FOUR_TWO_SINGLES or kind == FOUR_TWO_PAIRS:
        return False                 # a higher one needs a quad, and they hold no bomb
    if kind == STRAIGHT or kind == PAIR_STRAIGHT:
        # a chain of the length topping higher (the generator's answers, no kickers)
        if (answer_tops(o.cards, kind, code_length(move)) & ranks_above(rank)) != 0:
            return True
        return o.other != 0 and \
            (answer_tops(o.other, kind, code_length(move)) & ranks_above(rank)) != 0
    # airplanes: count the answers without writing them (unfiltered readings only add)
    sink.out = NULL
    sink.cap = 0
    sink.n = 0
    generate(o.cards, move, rs, &sink)
    if sink.n > 1 or o.other == 0:
        return sink.n > 1            # the pass is the first
    sink.n = 0
    generate(o.other, move, rs, &sink)
    return sink.n > 1


cdef inline void advance(const RuleSet* rs, const Pos* p, const Opponents* others,
                         const Opponents* seats, uint64_t move, Pos* child) noexcept nogil:
    """child: p after move and after the passes of the other seats too when none of them
    holds an answer to move (others: every other seat's cards pooled, which only adds
    answers; NULL: none skipped): a node whose one move is the pass is not searched on its
    own. The mover then leads again (the trick is over). seats (three seats; NULL: not
    used): each seat's cards, by seat: every seat that holds no answer to the move to beat
    passes at once, one after the other (its one move), the mover's pass too."""
    cdef int kind = code_kind(move), k
    child[0] = p[0]
    play(child, move)
    if seats != NULL:
        if kind == SKIP or kind == REVERSE:
            return
        for k in range(2):
            if child.table == 0 or can_answer(rs, seats + child.current, child.table):
                return
            play(child, 0)
        return
    if others != NULL and move != 0 and kind != SKIP and kind != REVERSE \
            and not can_answer(rs, others, move):
        play(child, 0)
        if p.players == 3:
            play(child, 0)


cdef inline bint split_wins(WinSearch* w, uint64_t hand, bint last_open) noexcept nogil:
    """Can hand be split into moves no opponent answers, plus (last_open) one more move?
    The move holding the hand's lowest card is chosen at each level."""
    cdef int known = split_bound(w, hand, last_open)
    if known >= 0:
        return known
    return split_search(w, hand, last_open)


cdef inline int split_bound(WinSearch* w, uint64_t hand, bint last_open) noexcept nogil:
    """split_wins' verdict where the hand's answerable ranks decide it without a search
    (1 wins, 0 does not), else -1."""
    cdef int answerable
    cdef bint exact
    if hand == 0 or (w.let > 0 and card_total(hand) <= w.let):
        return 1
    if w.let == 0:
        answerable = forced_answerable(w.rs, hand, w.opp, &exact)
        if answerable >= (2 if last_open else 1):
            # more answerable moves than the split may have, unless covered
            if not (w.opp.room > w.shed) or \
                    answerable >= (2 if last_open else 1) + most_covers(w, hand):
                return 0
        elif exact and not w.need_first:
            return 1                 # and no fewer: few enough
    return -1


cdef inline bint split_search(WinSearch* w, uint64_t hand, bint last_open) noexcept nogil:
    """split_wins past split_bound: the moves holding the hand's lowest card, each tried."""
    cdef Sink sink
    cdef Py_ssize_t i, n
    cdef uint64_t* moves
    cdef uint64_t move
    cdef int low
    cdef bint answerable
    cdef bint covers = w.opp.room > w.shed and w.let == 0
    w.budget -= 1
    if w.budget < 0:
        return False
    moves = w.buf
    sink.out = moves
    sink.cap = w.cap
    sink.n = 0
    generate_lowest(hand, w.rs, &sink)
    n = sink.n
    if n > sink.cap:
        w.overflow = True
        return False
    low = ddz_ctz64(hand) // 3
    w.buf += n
    w.cap -= n
    for i in range(n):
        move = moves[i]
        if count_of(move, low) == 0:
            continue
        answerable = can_answer(w.rs, w.opp, move)
        if (not answerable or last_open) and \
                split_wins(w, hand - code_cards(move), last_open and not answerable):
            if not answerable or w.first_open:
                w.first = move       # an unanswerable move is played first
                w.first_open = answerable
            w.buf -= n
            w.cap += n
            return True
        if answerable and covers and covered_wins(w, hand - code_cards(move), move,
                                                  last_open):
            w.first = move           # a covered move may be played first too
            w.first_open = False
            w.buf -= n
            w.cap += n
            return True
    w.buf -= n
    w.cap += n
    return False


cdef inline int most_covers(const WinSearch* w, uint64_t hand) noexcept nogil:
    """At most how many covered moves a split of hand may hold (allow_covers): each has a
    cover of its own, a single above the opponents' highest single or a pair above their
    highest pair, and sheds a card or more of the room left."""
    cdef int top1 = top_rank(w.opp.has1), top2 = top_rank(w.opp.has2)
    cdef int most = card_total(hand & ranks_above(top1)) + \
        card_total(hand & ranks_above(top2) & ~ranks_above(top1)) // 2
    return min(most, w.opp.room - w.shed)


cdef inline bint covered_wins(WinSearch* w, uint64_t rest, uint64_t move,
                              bint last_open) noexcept nogil:
    """Does rest (the hand but move, an answerable single or pair) hold a cover of move
    (allow_covers: a single, pair, above every single, pair of the opponents) after which
    the rest splits as split_wins asks?"""
    cdef int kind = code_kind(move), width, rank
    cdef bint won
    if kind == SINGLE:
        width = 1
    elif kind == PAIR:
        width = 2
    else:
        return False
    if w.shed + width > w.opp.room:
        return False                 # an opponent could go out answering
    for rank in range(top_rank(w.opp.has1 if width == 1 else w.opp.has2) + 1,
                      BIG_JOKER + 1):
        if count_of(rest, rank) < width:
            continue
        w.shed += width
        won = split_wins(w, rest - digit(rank, width), last_open)
        w.shed -= width
        if won:
            return True
    return False


cdef inline int forced_answerable(const RuleSet* rs, uint64_t mine,
                                  const Opponents* opp, bint* exact) noexcept nogil:
    """A lower bound on the answerable moves of every split of mine (that plays it all): the
    ranks it holds once or twice, in no chain it could form, whose single or pair the
    opponents could answer (held twice: two singles are answered wherever the pair is),
    less the kickers its trios and quads could carry them as (one a trio, two a quad). The
    static win test's split has at most one answerable move, so a bound of two rules it out
    before its search (measured: most tests fail, and their search was most of the test's
    cost). exact: set where the bound is the fewest a split can have (see below)."""
    cdef Hand hand
    cdef uint64_t loose, answerable
    load_hand(&hand, mine)
    loose = ~chain_ranks_of_hand(&hand, rs)     # (airplane ranks are held three times)
    answerable = answerable_ranks(&hand, opp)
    # exact: a hand of singles and pairs alone (no trio, quad or chain ranks) has no other
    # moves but the rocket, and its best split plays each pair whole and the rocket as one:
    # the bound is then the split's count (or more, never less: opponents' action cards
    # count the rocket's two jokers apart), so the test may answer without a search
    exact[0] = (hand.has[3] | ~loose) == 0
    # spread sets: one bit a rank
    return card_total(answerable & loose) - card_total(hand.has[3]) - card_total(hand.has[4])


cdef inline uint64_t answerable_ranks(const Hand* hand, const Opponents* opp) noexcept nogil:
    """The spread set of the ranks hand holds once or twice whose single or pair the
    opponents could answer (all of them where they hold a bomb, the rocket or an action
    card, but the hand's own rocket unless action cards answer it)."""
    cdef uint64_t once = hand.has[1] & ~hand.has[2], twice = hand.has[2] & ~hand.has[3]
    cdef uint64_t answerable
    if opp.actions or opp.rocket or opp.bomb_rank >= 0:
        answerable = once | twice
        if not opp.actions and holds(once, SMALL_JOKER) and holds(once, BIG_JOKER):
            answerable &= ~(rank_bit(SMALL_JOKER) | rank_bit(BIG_JOKER))   # the rocket
        return answerable
    return (once & below_top(opp.has1)) | (twice & below_top(opp.has2))


cdef inline int top_rank(uint64_t spread) noexcept nogil:
    """The highest rank of a spread set, -1 for none."""
    return (63 - ddz_clz64(spread)) // 3 if spread else -1


cdef inline uint64_t below_top(uint64_t spread) noexcept nogil:
    """The spread set of every rank below the highest of spread (none if it is empty)."""
    return (rank_bit(top_rank(spread)) - 1) & DDZ_SPREAD_RANKS if spread else 0


cdef inline int static_win(const RuleSet* rs, StaticMemo* memo, const Pos* p,
                           const Opponents* opp, uint64_t* buf, Py_ssize_t cap, int budget,
                           uint64_t* first) noexcept nogil:
    """1 if the side to act, leading, wins by the split above (first: a winning move, unless
    NULL), 0 if the test finds no such split (the position may still be won). opp: the other
    side's cards (load_opponents_of); buf: cap codes of scratch; budget: generator calls it
    may make; memo: the searcher's verdicts of the split searches (NULL: none)."""
    cdef WinSearch w
    cdef int me = p.current, won
    cdef uint64_t mine, question, tag
    cdef uint64_t* slot = NULL
    if p.table != 0:
        return 0
    mine = p.hands[me]
    if holds_actions(mine):
        return 0                     # action cards move the turn: not this test's business
    w.rs = rs
    w.opp = opp
    w.buf = buf
    w.cap = cap
    w.budget = budget
    w.let = p.let if (p.let > 0 and me != p.landlord) else 0
    w.shed = 0
    w.first = 0
    w.first_open = True
    w.need_first = first != NULL
    w.overflow = False
    won = split_bound(&w, mine, True)
    if won < 0 and memo != NULL:
        # the question: everything the split search reads (the opposing cards stand for
        # the rest of Opponents, which load_opponents* derive from them), each part
        # mixed apart, so that no two questions' parts cancel out in the xor
        question = mix64(mine ^ mix64(opp.cards ^ mix64(opp.other ^ mix64(
            <uint64_t>(opp.room + 1) | <uint64_t>w.let << 8 | <uint64_t>w.need_first << 16
            | <uint64_t>budget << 24))))
        slot = memo.slots + 2 * (question & memo.mask)
        tag = slot[0] ^ slot[1]
        if (tag ^ question) >> 1 == 0:
            won = <int>(tag & 1)
            w.first = slot[1]
            slot = NULL              # known: nothing to store
    if won < 0:
        won = split_search(&w, mine, True)
        if slot != NULL and not w.overflow:
            slot[1] = w.first
            slot[0] = ((question & ~(<uint64_t>1)) | <uint64_t>won) ^ w.first
    if won:
        if first != NULL:
            first[0] = w.first
        return 1
    return 0


cdef inline bint wins_leading_after(const RuleSet* rs, StaticMemo* memo, const Pos* p,
                                   int seat, uint64_t cards, const Opponents* opp,
                                   uint64_t* buf, Py_ssize_t cap) noexcept nogil:
    """Does seat, having played cards of its hand in p that no opponent answers, lead again
    and win by static_win against opp (the other side's cards)?"""
    cdef Pos lead = p[0]
    lead.current = seat
    lead.hands[seat] -= cards
    lead.table = 0
    lead.table_player = -1
    return static_win(rs, memo, &lead, opp, buf, cap, STATIC_BUDGET, NULL)


cdef inline bint answer_static_win(const RuleSet* rs, StaticMemo* memo, const Pos* p,
                                   const Opponents* o, const uint64_t* moves, Py_ssize_t n,
                                   uint64_t* buf, Py_ssize_t cap, int* index) noexcept nogil:
    """Does the side to act, answering p's table with one of moves[0..n), win by an answer
    no opponent can answer in turn (index: its) after which its hand, leading again, passes
    static_win? Sound as static_win is: every opponent passes the answer (a teammate may
    pass too), and the opponents' cards are those of the test."""
    cdef Py_ssize_t i
    cdef uint64_t move
    cdef int kind
    for i in range(n):
        move = moves[i]
        kind = code_kind(move)
        if move == 0 or kind == SKIP or kind == REVERSE or can_answer(rs, o, move):
            continue                 # the pass, an action card (it moves the turn), answerable
        if wins_leading_after(rs, memo, p, p.current, code_cards(move), o, buf, cap):
            index[0] = <int>i
            return True
    return False


cdef inline bint unanswered_bomb(const Opponents* o, uint64_t move) noexcept nogil:
    """Is move a bomb or the rocket that no opponent can answer (answer_by_bombs)?"""
    cdef int kind = code_kind(move)
    return (kind == BOMB or kind == ROCKET) and answer_by_bombs(o, kind, code_rank(move)) == 0


cdef inline int bombs_first_win(const RuleSet* rs, StaticMemo* memo, const Pos* p,
                                const Opponents* o, const uint64_t* moves, Py_ssize_t n,
                                uint64_t* buf, Py_ssize_t cap, int beta, bint spring,
                                bint need_bomb, int* index) noexcept nogil:
    """Score mode (FLAG_SCORE_BOMBS): the side to act plays every bomb and rocket among its
    legal moves[0..n) that no opponent can answer (unanswered_bomb), one after another, then
    leads and wins by static_win (or has no cards left): a lower bound of its score, 1 + the
    bombs it plays, + 1 where spring (a spring is still possible) and the static win holds
    no covered play; 0 where that bound would stay below beta, or the test proves no win
    (the split test is not run where the bound could not reach beta). Without a bomb the test
    is a lead's plain static win; need_bomb (the root, whose best move is read back) asks for
    one. index: the first bomb's, into moves. Sound as static_win is: no opponent answers any
    of the bombs, so the side keeps the lead, and no opponent plays a bomb or the rocket
    again (covered plays, which an opponent answers, are allowed only where none holds one:
    allow_covers); without covered plays no opponent plays again at all, and the spring
    happens. Why: in score mode a window that asks more than a win gets no static test
    otherwise, and a side that holds the top bomb proves its doubling only by searching to
    the end of the game."""
    cdef uint64_t cards = 0
    cdef int count = 0
    cdef Py_ssize_t i
    cdef Opponents bare
    cdef const Opponents* plain = o
    index[0] = -1
    for i in range(n):
        if unanswered_bomb(o, moves[i]):
            if count == 0:
                index[0] = <int>i
            cards += code_cards(moves[i])
            count += 1
    if count == 0 and (need_bomb or p.table != 0):
        return 0                     # an answer without a bomb is answer_static_win's
    if spring and 2 + count >= beta:
        if cards == p.hands[p.current]:
            return 2 + count         # the last of them ends the game
        if o.room >= 0:
            bare = o[0]
            bare.room = -1           # no covered play
            plain = &bare
        if wins_leading_after(rs, memo, p, p.current, cards, plain, buf, cap):
            return 2 + count
        if plain == o:
            return 0                 # the test below would be this one again
    if 1 + count >= beta:
        if cards == p.hands[p.current] or \
                wins_leading_after(rs, memo, p, p.current, cards, o, buf, cap):
            return 1 + count
    return 0


# Answered at once (two seats, or a three-seat landlord; win/loss mode): where no single
# of the side to act beats the opponents' highest single u, and the side holds no bomb,
# rocket or action card, the opponent holding u (three seats: the farmer holding it, its
# partner passing until it has played u) answers any single below u with u, which
# nothing answers in turn, and leads again; if its hand without u then passes static_win
# against the side's cards as they are (a single more than it will hold: more cards only
# add answers), every single of the side below u loses (Uno the Landlord: u the highest
# of the opposing seats' other cards, since their Skips and Reverses beat nothing). The
# same for pairs with the opponent's highest pair. One test stands for all such singles
# (pairs) of a node, which the search then leaves out (the child node's answer test
# would find each the same way, one node each). Only at nodes expected lost, which
# search every move (at a node expected won the first move mostly wins, and the test
# would be spent for nothing), and below the root (whose moves are read back).

cdef inline Py_ssize_t drop_answered(const RuleSet* rs, StaticMemo* memo, const Pos* p,
                                     const Opponents* o, const uint64_t* moves, int* order,
                                     Py_ssize_t m, uint64_t* buf, Py_ssize_t cap) noexcept nogil:
    """Leave out of order[0..m) (indices into moves) the singles and pairs of the side to
    act that the opponent answers to a win at once (above); returns how many are left.
    o: the opponent's cards (load_opponents_of); buf: cap codes of scratch.

    A three-seat farmer too (FLAG_FARMER_DROP): the landlord answers with its highest
    single (pair), above every single (pair) of both farmers (not level with one: the
    partner, playing between, could hold the trick with it), whatever the partner plays in
    between (a lower single or pair, or a pass: neither farmer holds a bomb, the rocket or
    an action card; its hand more than two cards, so that it does not go out with it), and
    then leads to a static win against both farmers' cards as they are now. So the side's
    cards below are both farmers', judged seat by seat (load_opponents_apart), and the
    answering seat the landlord alone."""
    cdef uint64_t theirs
    cdef Opponents side, bare
    cdef int width, top, kind, seat
    cdef int below[3]                # by width: the moves below this rank lose (-1: none)
    cdef Py_ssize_t j, kept
    cdef bint some, farmer = p.players == 3 and p.current != p.landlord
    cdef int partner = 3 - p.current - p.landlord
    if farmer:
        if card_total(p.hands[partner]) <= 2:
            return m                 # the partner might go out over the side's move
        # the two farmers judged seat by seat: each answers from its own hand
        load_opponents_apart(&side, p.hands[p.current], p.hands[partner])
    else:
        load_opponents(&side, p.hands[p.current])
    if side.actions or side.bomb_rank >= 0 or side.rocket:
        return m
    if o.actions:
        # Uno the Landlord: an opposing Skip or Reverse beats nothing, and the seat that
        # answers with u plays it by choice (its partner passing by choice too), so u is
        # the opposing seats' highest single (pair) of their other cards; the seat's hand
        # after u passes static_win only where it holds no action card itself
        load_without_actions(&bare, o)
        o = &bare
    below[1] = -1
    below[2] = -1
    for width in range(1, 3):
        theirs = o.has1 if width == 1 else o.has2
        if not theirs:
            continue
        top = top_rank(theirs)
        if (side.has1 if width == 1 else side.has2) & \
                (ranks_above(top) | (rank_bit(top) if farmer else 0)):
            continue                 # the side could answer the opponent's answer
        some = False
        for j in range(m):
            kind = code_kind(moves[order[j]])
            if kind == (SINGLE if width == 1 else PAIR) and code_rank(moves[order[j]]) < top:
                some = True
                break
        if not some:
            continue
        for seat in range(p.players):
            # the seat holding the answer (three seats: a farmer, its partner passing)
            if side_of(p, seat) == side_of(p, p.current) or \
                    (p.players == 3 and count_of(p.hands[seat], top) < width):
                continue
            if wins_leading_after(rs, memo, p, seat, digit(top, width), &side, buf, cap):
                below[width] = top
                break
    if below[1] < 0 and below[2] < 0:
        return m
    kept = 0
    for j in range(m):
        kind = code_kind(moves[order[j]])
        if (kind == SINGLE and code_rank(moves[order[j]]) < below[1]) or \
                (kind == PAIR and code_rank(moves[order[j]]) < below[2]):
            continue
        order[kept] = order[j]
        kept += 1
    return kept


# ---------------------------------------------------------------------------------------
# The team's static win (three seats, a farmer to act, win/loss mode): the farmers are one
# side, so a farmer also wins where its partner wins statically once the partner has the
# lead. Each line below plays only moves the generator makes, the landlord holds no answer
# to the partner's last move (its cards as they are then: no move of the landlord comes
# between), the farmer to act may always pass its partner's move, and static_win judges the
# partner's hand against the landlord's cards: sound as static_win is.
#
# * Answering the landlord's move, the partner next: pass; the partner answers with a move
#   the landlord cannot answer and then passes static_win (answer_static_win for it).
# * Answering the partner's move, the landlord having passed it: pass; the partner leads.
# * Answering the partner's move, the landlord next and holding no answer to it: pass; the
#   landlord passes; the partner leads.
# * Leading: a lead X of the farmer's that its partner overtakes with a move Y the landlord
#   cannot answer, after which the partner's hand passes static_win. The partner next:
#   X is any lead (the landlord never sees it); the landlord next: it must hold no answer
#   to X either, or (FLAG_TEAM_COVER) Y must overtake every answer B it holds too, none
#   of which empties its hand: the landlord plays B or passes, the partner plays Y (over
#   B, or over X), the farmer passes, the landlord cannot answer Y (its cards are fewer
#   than when it could not), and the partner leads. Its static_win is judged against the
#   landlord's cards before B, without covered plays (allow_covers: more cards than the
#   landlord holds only add answers, but would count it further from going out).
# Off where any seat holds an action card (they move the turn). Measured: the history.

cdef inline Py_ssize_t pass_index(const uint64_t* moves, Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t i
    for i in range(n):
        if moves[i] == 0:
            return i
    return -1


cdef inline bint overtakes(const RuleSet* rs, uint64_t hand, uint64_t table, uint64_t move,
                           uint64_t* buf, Py_ssize_t cap) noexcept nogil:
    """Is move among the generator's answers of hand to table? (buf: cap codes of scratch.)"""
    cdef Sink sink
    cdef Py_ssize_t i
    sink.out = buf
    sink.cap = cap
    sink.n = 0
    generate(hand, table, rs, &sink)
    if sink.n > cap:
        return False
    for i in range(sink.n):
        if buf[i] == move:
            return True
    return False


cdef inline bint overtakes_answers(const RuleSet* rs, const Pos* p, uint64_t x, uint64_t y,
                                   uint64_t* buf, Py_ssize_t cap) noexcept nogil:
    """Does the partner's move y overtake every answer of the landlord's to the farmer's
    lead x (the generator's), none of which empties the landlord's hand? (buf: cap codes
    of scratch.)"""
    cdef uint64_t lord = p.hands[p.landlord], mate = p.hands[3 - p.current - p.landlord]
    cdef Sink sink
    cdef Py_ssize_t i, nb
    sink.out = buf
    sink.cap = cap
    sink.n = 0
    generate(lord, x, rs, &sink)
    nb = sink.n
    if nb > cap:
        return False
    for i in range(nb):
        if buf[i] == 0:
            continue                 # the pass: y overtakes x (checked by the caller)
        if code_cards(buf[i]) == lord or not answers(y, buf[i], rs) or \
                not overtakes(rs, mate, buf[i], y, buf + nb, cap - nb):
            return False
    return True


cdef inline bint team_static_win(const RuleSet* rs, StaticMemo* memo, const Pos* p,
                                 const Opponents* lord, const uint64_t* moves, Py_ssize_t n,
                                 uint64_t* buf, Py_ssize_t cap, int* index,
                                 bint cover) noexcept nogil:
    """Does the farmer to act in p (three seats) win by one of the lines above? index: the
    winning move's, into moves[0..n) (the farmer's legal moves). lord: the landlord's cards
    (load_opponents_of); buf: cap codes of scratch; cover: FLAG_TEAM_COVER."""
    cdef int me = p.current, after = seat_after(p, p.current, 1)
    cdef int partner = 3 - p.current - p.landlord
    cdef Py_ssize_t i, j, ny, k
    cdef uint64_t mate = p.hands[partner], x, y
    cdef Pos q
    cdef Sink sink
    cdef int found
    cdef bint answered, failed
    cdef Opponents before            # lord without covered plays (the landlord answers)
    if lord.actions or holds_actions(mate + p.hands[me]):
        return False
    if p.table != 0:
        k = pass_index(moves, n)
        if k < 0:
            return False
        if p.table_player == p.landlord:
            if after != partner:
                return False
            q = p[0]
            q.current = partner
            sink.out = buf
            sink.cap = cap
            sink.n = 0
            generate(mate, p.table, rs, &sink)
            if sink.n > cap:
                return False
            for i in range(sink.n):
                if buf[i] != 0 and code_cards(buf[i]) == mate:
                    break                # the partner goes out
            else:
                if not answer_static_win(rs, memo, &q, lord, buf, sink.n, buf + sink.n,
                                         cap - sink.n, &found):
                    return False
        elif p.table_player == partner:
            if after == p.landlord and can_answer(rs, lord, p.table):
                return False
            if not wins_leading_after(rs, memo, p, partner, 0, lord, buf, cap):
                return False
        else:
            return False
        index[0] = <int>k
        return True
    # leading: the partner's moves the landlord cannot answer, each matched with a lead
    # of the farmer's that it overtakes
    sink.out = buf
    sink.cap = cap
    sink.n = 0
    generate(mate, 0, rs, &sink)
    ny = sink.n
    if ny > cap:
        return False
    before = lord[0]
    before.room = -1
    for j in range(ny):
        y = buf[j]
        failed = False
        if code_cards(y) != mate and can_answer(rs, lord, y):
            continue                 # (the partner going out wins whatever follows)
        for i in range(n):
            x = moves[i]
            if x == 0 or ends_game(p, x) or not answers(y, x, rs):
                continue
            answered = after == p.landlord and can_answer(rs, lord, x)
            if answered and (not cover or failed):
                continue                 # (the partner's test, failed, is the same)
            if not overtakes(rs, mate, x, y, buf + ny, cap - ny):
                continue
            if answered and not overtakes_answers(rs, p, x, y, buf + ny, cap - ny):
                continue
            if wins_leading_after(rs, memo, p, partner, code_cards(y),
                                  &before if answered else lord, buf + ny, cap - ny):
                index[0] = <int>i
                return True
            if not answered:
                break                # the partner's test does not depend on the lead
            failed = True            # nor, the landlord answering, on which lead
    return False


# ---------------------------------------------------------------------------------------
# The landlord's static loss (three seats, the landlord to act, win/loss mode;
# FLAG_LORD_LOSS): the farmers win whatever the landlord plays where, for each of its
# moves, a farmer holds a winning answer ready. A farmer's move a is ready (ready_init,
# ready_takes) where it empties the farmer's hand, or where the landlord's cards now
# cannot answer it and the farmer's hand without a passes static_win against the
# landlord's cards now. (A move of the landlord's that no farmer can answer at all has no
# ready answer: the test stops there first, cheaply.)
# The line, for a landlord's move m (not the pass) that a ready move a of a farmer F
# answers (the generator's answers of F to m hold a):
# * F is the seat after the landlord: F plays a; or F is the other farmer: the seat after
#   the landlord passes (always legal when answering) and F plays a;
# * a empties F's hand: the farmers have won; else the other farmer passes, and the
#   landlord, whose cards are now its cards less m, cannot answer a (fewer cards than those
#   that could not only remove answers), so F leads again with its hand less a, which
#   passes static_win against the landlord's cards less m (fewer cards only remove
#   answers: static_win's proof stands; no covered plays, allow_covers asking the seats'
#   cards exactly as they are, so the landlord's are loaded with room -1), the other farmer
#   passing each of F's unanswered moves (its own choice).
# The landlord's pass (answering a farmer's move): the trick goes back to the farmer who
# made the move on the table (the seat after the landlord passing too, where it is not
# that farmer), who leads: the landlord loses where that farmer's hand passes static_win
# against the landlord's cards. A move that ends the game, or any action card in play,
# and the test finds nothing. The moves asked about are the node's moves the search would
# search (kept_moves: a move left out is worth no more than one kept; drop_answered's lose),
# so a node whose every such move loses is lost. Asked only at nodes expected lost (a node
# expected won mostly wins with its first move) and below the root (whose moves are read
# back). The farmers' side of the same test: farmer_static_loss. Measured: the history.

ctypedef struct Ready:
    # a seat's ready answers (above), judged as they are first asked for: its leads that
    # empty its hand or that opp cannot answer, each with its verdict once known
    const RuleSet* rs
    StaticMemo* memo
    const Pos* p
    const Opponents* opp     # the other side's cards now (room -1)
    int seat
    uint64_t* moves          # the candidates
    uint64_t* state          # by candidate: 0 not judged yet, 1 ready, 2 not ready
    Py_ssize_t n
    uint64_t* buf            # scratch
    Py_ssize_t cap


cdef inline Py_ssize_t ready_init(Ready* r, const RuleSet* rs, StaticMemo* memo,
                                  const Pos* p, int seat,
                                  const Opponents* opp, uint64_t* buf,
                                  Py_ssize_t cap) noexcept nogil:
    """r: seat's candidates, written to buf; returns the codes of buf they take (-1: out of
    scratch). The caller sets r.buf and r.cap (scratch) before asking."""
    cdef uint64_t hand = p.hands[seat], a
    cdef Sink sink
    cdef Py_ssize_t i, n, k = 0
    cdef bint exact
    r.rs = rs
    r.memo = memo
    r.p = p
    r.opp = opp
    r.seat = seat
    r.moves = buf
    r.state = buf
    r.n = 0
    if forced_answerable(rs, hand, opp, &exact) >= 2:
        # every split of the hand has two answerable moves, so has every split of the
        # hand less an unanswerable move a: static_win fails after each. Only a move that
        # empties the hand could be ready, and the test does without it (fewer ready
        # answers, fewer losses found: no verdict changes), for what generating the
        # hand's leads would cost
        return 0
    sink.out = buf
    sink.cap = cap
    sink.n = 0
    generate(hand, 0, rs, &sink)
    n = sink.n
    if 2 * n > cap:
        return -1
    for i in range(n):
        a = buf[i]
        if code_cards(a) == hand or not can_answer(rs, opp, a):
            buf[k] = a                   # k <= i: the moves not yet read stay put
            k += 1
    r.state = buf + k
    r.n = k
    for i in range(k):
        r.state[i] = 0
    return 2 * k


cdef inline bint ready_takes(Ready* r, uint64_t table) noexcept nogil:
    """Does r's seat hold a ready answer to table among the generator's answers of its
    hand?"""
    cdef Py_ssize_t i
    cdef uint64_t a, hand = r.p.hands[r.seat]
    for i in range(r.n):
        a = r.moves[i]
        if not answers(a, table, r.rs):
            continue
        if r.state[i] == 0:
            r.state[i] = 1 if code_cards(a) == hand or wins_leading_after(
                r.rs, r.memo, r.p, r.seat, code_cards(a), r.opp, r.buf, r.cap) else 2
        if r.state[i] == 1 and overtakes(r.rs, hand, table, a, r.buf, r.cap):
            return True
    return False


cdef inline bint lord_static_loss(const RuleSet* rs, StaticMemo* memo, const Pos* p,
                                  const uint64_t* moves, const int* order, Py_ssize_t m,
                                  uint64_t* buf, Py_ssize_t cap) noexcept nogil:
    """Does the three-seat landlord to act in p lose whatever it plays of
    moves[order[0..m)) (above)? buf: cap codes of scratch."""
    cdef Opponents lord, farmers
    cdef int first = seat_after(p, p.landlord, 1), second = seat_after(p, p.landlord, 2)
    cdef int seat
    cdef uint64_t move
    cdef Py_ssize_t j, used0, used1
    cdef Ready ready[2]
    cdef int kind
    if p.players != 3 or p.current != p.landlord or m == 0:
        return False
    if holds_actions(p.hands[0] + p.hands[1] + p.hands[2]):
        return False
    # first, cheaply: a move no farmer can answer has no ready answer
    load_opponents_apart(&farmers, p.hands[first], p.hands[second])
    for j in range(m):
        move = moves[order[j]]
        if move != 0 and not can_answer(rs, &farmers, move):
            return False
    load_opponents(&lord, p.hands[p.landlord])
    # the pass: it needs no ready answer
    for j in range(m):
        if moves[order[j]] == 0 and not wins_leading_after(
                rs, memo, p, p.table_player, 0, &lord, buf, cap):
            return False
    used0 = ready_init(&ready[0], rs, memo, p, first, &lord, buf, cap)
    if used0 < 0:
        return False
    used1 = ready_init(&ready[1], rs, memo, p, second, &lord, buf + used0, cap - used0)
    if used1 < 0 or used0 + used1 == 0:
        return False
    for seat in range(2):
        ready[seat].buf = buf + used0 + used1
        ready[seat].cap = cap - used0 - used1
    for j in range(m):
        move = moves[order[j]]
        if move == 0:
            continue
        kind = code_kind(move)
        if ends_game(p, move) or kind == SKIP or kind == REVERSE:
            return False
        if not ready_takes(&ready[0], move) and not ready_takes(&ready[1], move):
            return False
    return True


cdef inline bint lord_takes_after(Ready* r, uint64_t mate, uint64_t table) noexcept nogil:
    """Does the landlord (r: its ready answers) take every answer of the farmer mate (next
    to act over table, the landlord after it) with a ready answer, none of them emptying
    mate's hand? (The pass is the caller's.)"""
    cdef Sink sink
    cdef Py_ssize_t i, k
    cdef uint64_t* answers_at = r.buf
    cdef bint took = True
    sink.out = answers_at
    sink.cap = r.cap
    sink.n = 0
    generate(mate, table, r.rs, &sink)
    k = sink.n
    if k > r.cap:
        return False
    r.buf += k                       # the answers stay while the landlord's are judged
    r.cap -= k
    for i in range(k):
        if answers_at[i] == 0:
            continue
        if code_cards(answers_at[i]) == mate or not ready_takes(r, answers_at[i]):
            took = False
            break
    r.buf -= k
    r.cap += k
    return took


cdef inline bint farmer_static_loss(const RuleSet* rs, StaticMemo* memo, const Pos* p,
                                    const uint64_t* moves, const int* order, Py_ssize_t m,
                                    uint64_t* buf, Py_ssize_t cap) noexcept nogil:
    """Does the three-seat farmer to act in p lose whatever it plays of moves[order[0..m))
    (FLAG_FARMER_LOSS)? The landlord's side of the test above: a ready answer of the
    landlord's is one that empties its hand, or that neither farmer's cards now answer
    (judged seat by seat) after which its hand passes static_win against the farmers' cards
    now. Where the landlord plays such an answer, neither farmer answers it (their cards
    are then fewer or the same) and the landlord leads to the static win. So the farmer
    loses a move where the landlord, next, takes it with a ready answer; where its partner
    is next, where the landlord takes the move (the partner passing) and every answer of
    the partner's to it, none emptying the partner's hand. The farmer's pass: the landlord
    next, it takes the move on the table (the partner's), or, its own, leads and passes
    static_win; the partner next over the landlord's move, the landlord takes each of the
    partner's answers and, the partner passing, leads and passes static_win; the partner
    next over its own move (it leads), the test finds nothing. buf: cap codes of
    scratch."""
    cdef Opponents farmers
    cdef int lord = p.landlord, partner = 3 - p.current - p.landlord
    cdef uint64_t move, hand = p.hands[p.landlord], mate = p.hands[partner]
    cdef Py_ssize_t j, used
    cdef bint before_lord
    cdef Ready ready
    cdef int kind
    if p.players != 3 or p.current == lord or m == 0:
        return False
    if holds_actions(p.hands[0] + p.hands[1] + p.hands[2]):
        return False
    before_lord = seat_after(p, p.current, 1) == lord
    # first, cheaply: a move the landlord cannot answer has no ready answer (the partner's
    # answers aside); nor has a pass that hands the partner the lead
    load_opponents(&farmers, hand)
    for j in range(m):
        move = moves[order[j]]
        if move == 0:
            if p.table_player == lord:
                continue
            if not before_lord:
                return False
            move = p.table
        if not can_answer(rs, &farmers, move):
            return False
    load_opponents_apart(&farmers, p.hands[p.current], mate)
    used = ready_init(&ready, rs, memo, p, lord, &farmers, buf, cap)
    if used <= 0:
        return False
    ready.buf = buf + used
    ready.cap = cap - used
    for j in range(m):
        move = moves[order[j]]
        if move == 0:
            if p.table_player == lord:
                if not wins_leading_after(rs, memo, p, lord, 0, &farmers, ready.buf,
                                          ready.cap):
                    return False
                if not before_lord and not lord_takes_after(&ready, mate, p.table):
                    return False
                continue
            move = p.table              # the partner's move, the landlord next
        else:
            kind = code_kind(move)
            if ends_game(p, move) or kind == SKIP or kind == REVERSE:
                return False
        if not ready_takes(&ready, move):
            return False
        if not before_lord and not lord_takes_after(&ready, mate, move):
            return False
    return True
