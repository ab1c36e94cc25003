# RLCard 1.2.0's rule agent for Dou Dizhu (DouDizhuRuleAgentV1, `doudizhu-rule-v1`) in C:
# the playout policy behind PIMCAgent(opponent="rlcard-rule"). Inline code only (see
# ruleset.pxd). ddz.compat.rlcard_rule.RLCardRuleAgent asks RLCard itself;
# tests/test_rule_model.py checks this port against it, move for move.
#
# What the rule agent does, read off its behaviour (three seats, the landlord known):
#
# * leading: it splits its hand into groups (the rocket, bombs, trios with runs of
#   consecutive trios up to the ace joined into planes, straights of 5+ ranks from what is
#   left of 3..A, then pairs and singles) and leads the group that holds its lowest card.
#   Only that group matters here, and it follows from the counts of the ranks: the lowest
#   rank's bomb, its trio or the plane of consecutive trios it starts, the straight it
#   starts among the ranks held once or twice (bombs and trios set aside), else its pair or
#   its single. (RLCard's pair-straight step never finds one: the straight step before it
#   leaves no run of five ranks still held twice.)
# * answering: the lowest-ranked legal move of the table's type (the type includes a chain's
#   length); among moves of equal rank (kickers), the first in RLCard's list of answers, the
#   order `RuleOrder` carries. Without one: a farmer passes when the seat that acted just
#   before it is no landlord (RLCard reads the "partner's move" off the last entry of its
#   trace, a pass included), and otherwise draws uniformly among all legal actions, the pass
#   included.
# * bidding (RLCard does not bid; RLCardRuleAgent takes the first legal action): the pass.

from libc.stdint cimport uint64_t, int32_t
from libc.stdlib cimport free

from ddz._core.layout cimport *
from ddz._core.ruleset cimport *
from ddz._core.readings cimport *
from ddz._core.generator cimport *
from ddz._core.rng cimport below
from ddz._core.state cimport *
from ddz._core.greedy cimport greedy_action

ctypedef struct RuleTable:
    const uint64_t* codes     # RLCard's moves' codes, ascending
    const int32_t* places     # each one's place in RLCard's list of answers
    Py_ssize_t n


cdef inline int32_t rule_place(const RuleTable* table, uint64_t code) noexcept nogil:
    """The place of code in RLCard's answers (binary search); past every place if absent."""
    cdef Py_ssize_t low = 0, high = table.n, mid
    while low < high:
        mid = (low + high) >> 1
        if table.codes[mid] < code:
            low = mid + 1
        else:
            high = mid
    if low < table.n and table.codes[low] == code:
        return table.places[low]
    return 0x7FFFFFFF


cdef inline uint64_t rule_lead(uint64_t hand) noexcept nogil:
    """The rule agent's lead: the group of its hand holding its lowest card (see above)."""
    cdef int counts[NUM_RANKS]
    cdef int rank, low = -1, top
    cdef uint64_t cards = 0
    for rank in range(NUM_RANKS):
        counts[rank] = <int>count_of(hand, rank)
        if low < 0 and counts[rank]:
            low = rank
    if low < 0:
        return 0
    if counts[SMALL_JOKER] and counts[BIG_JOKER]:
        if low == SMALL_JOKER:
            return make_code(digit(SMALL_JOKER, 1) | digit(BIG_JOKER, 1), ROCKET, BIG_JOKER, 1)
    if counts[low] == 4:
        return make_code(digit(low, 4), BOMB, low, 1)
    if counts[low] == 3:
        top = low
        # a run of trios (no 2: the 2 joins no run) becomes a plane without wings
        while low < TWO and top + 1 <= ACE and counts[top + 1] == 3:
            top += 1
        if top == low:
            return make_code(digit(low, 3), TRIO, low, 1)
        for rank in range(low, top + 1):
            cards |= digit(rank, 3)
        return make_code(cards, AIRPLANE, top, top - low + 1)
    if low <= ACE:
        # the straight the lowest rank starts among 3..A held once or twice
        top = low
        while top + 1 <= ACE and 1 <= counts[top + 1] <= 2:
            top += 1
        if top - low + 1 >= 5:
            for rank in range(low, top + 1):
                cards |= digit(rank, 1)
            return make_code(cards, STRAIGHT, top, top - low + 1)
    if counts[low] == 2:
        return make_code(digit(low, 2), PAIR, low, 1)
    return make_code(digit(low, 1), SINGLE, low, 1)


cdef inline uint64_t rule_answer(const GameState* s, const uint64_t* codes, Py_ssize_t n,
                                 const RuleTable* table, uint64_t* rng, bint* drew) noexcept nogil:
    """The rule agent's answer to s.table among codes (the legal answers, the pass first);
    *drew set when it draws at random."""
    cdef uint64_t tab = s.table, best = 0, code
    cdef int kind = code_kind(tab), length = code_length(tab), rank, best_rank = 1 << 30
    cdef int32_t place, best_place = 0
    cdef int me = s.current, before
    cdef Py_ssize_t i
    for i in range(n):
        code = codes[i]
        if code == 0 or code_kind(code) != kind or code_length(code) != length:
            continue
        rank = code_rank(code)
        if rank > best_rank:
            continue
        place = rule_place(table, code)
        if rank < best_rank or place < best_place:
            best, best_rank, best_place = code, rank, place
    if best:
        return best
    before = seat_after(s, me, -1)
    if me != s.landlord and before != s.landlord:
        return 0
    drew[0] = True
    return codes[below(rng, <uint64_t>n)] if n > 0 else 0


cdef inline uint64_t rule_action(const GameState* s, const GameConfig* cfg, uint64_t* codes,
                                 Py_ssize_t cap, const RuleTable* table, uint64_t* rng,
                                 uint64_t* work, bint* drew) noexcept nogil:
    """The rule agent's action for the player to act (codes: scratch room for cap codes; a
    richer hand takes the heap); 0 when the game is over. *drew is set when the choice was a
    uniform draw among the legal actions (then any of them was as likely). A lead that is not
    legal under the rules (rules without RLCard's moves) falls back to the greedy agent's.
    A work counter other than NULL gains the moves scored plus one, as greedy_action's."""
    cdef uint64_t* moves
    cdef Py_ssize_t n
    cdef uint64_t chosen
    drew[0] = False
    if s.phase == BIDDING:
        if work != NULL:
            work[0] += 1
        return 0                               # the pass: always legal in bidding
    if s.phase != PLAY:
        return 0
    if s.table == 0:
        if work != NULL:
            work[0] += 1
        chosen = rule_lead(s.hands[s.current])
        if legality(s.hands[s.current], chosen, 0, True, &cfg.rs) == 0:
            return chosen
        return greedy_action(s, cfg, codes, cap, work)
    moves = generate_all(s.hands[s.current], s.table, &cfg.rs, codes, cap, &n)
    if work != NULL:
        work[0] += <uint64_t>n + 1
    chosen = rule_answer(s, moves, n, table, rng, drew)
    if moves != codes:
        free(moves)
    return chosen
