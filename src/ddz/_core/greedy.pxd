# The greedy agent (ddz.agents.GreedyAgent) in C: the same choice as the Python agent in
# every state, for the whole-game loop of vector.pyx. Inline code only (see ruleset.pxd).
#
# The Python agent is deterministic (no generator): it scores the legal moves in the
# generator's order and keeps the first of equal scores, and so does this port. Every
# constant and every comparison below mirrors ddz/agents.py; change both together.

from libc.stdint cimport uint64_t
from libc.stdlib cimport free

from ddz._core.layout cimport *
from ddz._core.ruleset cimport *
from ddz._core.readings cimport *
from ddz._core.generator cimport *
from ddz._core.state cimport *

cdef extern from *:
    """
    #define DDZ_GREEDY_ONES    ((unsigned long long)0x1249249249249ULL & ((1ULL << 45) - 1))
    #define DDZ_GREEDY_FOURS   (DDZ_GREEDY_ONES << 2)
    #define DDZ_GREEDY_JOKERS  ((7ULL << 39) | (7ULL << 42))
    #define DDZ_GREEDY_ROCKET  ((1ULL << 39) | (1ULL << 42))
    """
    const uint64_t DDZ_GREEDY_ONES      # bit 0 of the digits of ranks 3 .. big joker
    const uint64_t DDZ_GREEDY_FOURS     # bit 2 of those digits: a rank held four times
    const uint64_t DDZ_GREEDY_JOKERS
    const uint64_t DDZ_GREEDY_ROCKET

cdef enum:
    G_LEAD_GAIN = 9
    G_SPLIT = 7
    G_CLOSE = 3
    G_PARTNER_CHEAP = 24
    G_CALL_AT = 3
    G_GRAB_AT = 7


cdef inline int g_keep(int rank) noexcept nogil:
    """What keeping a card of a rank is worth (agents.py's _KEEP)."""
    if rank <= ACE:
        return rank
    if rank == TWO:
        return 14
    if rank == SMALL_JOKER:
        return 17
    return 19


cdef inline int g_worth(uint64_t cards) noexcept nogil:
    """Keep-worth of the cards of ranks 3 .. big joker | their number << 16 (_worth)."""
    cdef int rank, count, worth = 0, number = 0
    for rank in range(NUM_RANKS):
        count = <int>((cards >> (3 * rank)) & 7)
        if count:
            worth += count * g_keep(rank)
            number += count
    return worth | (number << 16)


cdef inline uint64_t g_ranks_held(uint64_t cards) noexcept nogil:
    return (cards | (cards >> 1) | (cards >> 2)) & DDZ_GREEDY_ONES


cdef inline int g_popcount(uint64_t x) noexcept nogil:
    x = x - ((x >> 1) & 0x5555555555555555ULL)
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL
    return <int>((x * 0x0101010101010101ULL) >> 56)


cdef inline int g_strength(uint64_t hand) noexcept nogil:
    """How strong a hand is for bidding (_strength)."""
    cdef int rank
    cdef int strength = (4 * <int>count_of(hand, BIG_JOKER) + 3 * <int>count_of(hand, SMALL_JOKER)
                         + 2 * <int>count_of(hand, TWO) + <int>count_of(hand, ACE) // 2)
    for rank in range(TWO + 1):
        if count_of(hand, rank) == 4:
            strength += 4
    return strength


cdef inline bint g_breaks(uint64_t cards, int kind, uint64_t hand) noexcept nogil:
    """Does a move take cards from a bomb or the rocket without playing it whole?"""
    if kind == BOMB or kind == ROCKET:
        return False
    if g_ranks_held(cards) & ((hand & DDZ_GREEDY_FOURS) >> 2):
        return True
    return (hand & DDZ_GREEDY_ROCKET) == DDZ_GREEDY_ROCKET and (cards & DDZ_GREEDY_JOKERS) != 0


cdef inline bint g_is_one_move(uint64_t cards, const uint64_t* codes, Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t i
    if cards == 0:
        return True
    for i in range(n):
        if (codes[i] & DDZ_CARDS_MASK) == cards:
            return True
    return False


cdef inline uint64_t g_bid(const GameState* s, const GameConfig* cfg) noexcept nogil:
    """GreedyAgent._bid: call/grab by strength, else bid 1, 2 or 3 from 3, 5, 7 points."""
    cdef uint64_t codes[8]
    cdef int n = bidding_actions(s, cfg, codes), i, kind, points
    cdef int strength = g_strength(s.hands[s.current])
    cdef bint can_call = False, can_grab = False
    cdef uint64_t want
    for i in range(n):
        kind = code_kind(codes[i]) if codes[i] else 0
        if kind == CALL:
            can_call = True
        elif kind == GRAB:
            can_grab = True
    if can_call or can_grab:
        if can_grab and strength >= G_GRAB_AT:
            return make_code(0, GRAB, 0, 1)
        if can_call and strength >= G_CALL_AT:
            return make_code(0, CALL, 0, 1)
        return 0                             # the pass is always legal in bidding
    points = (strength >= 3) + (strength >= 5) + (strength >= 7)
    if points:
        want = make_code(0, BID, points, 1)
        for i in range(n):
            if codes[i] == want:
                return want
    return 0


cdef inline uint64_t g_lead(const uint64_t* codes, Py_ssize_t n, uint64_t hand,
                            int opponents_left, int partner_left) noexcept nogil:
    cdef uint64_t best, code, cards, rest
    cdef bint have_score = False, feed_partner = partner_left == 1
    cdef long best_score = 0, score
    cdef int kind, worth, number, keep, splits
    cdef Py_ssize_t i
    if n == 0:
        return 0
    best = codes[0]
    for i in range(n):
        code = codes[i]
        cards = code & DDZ_CARDS_MASK
        if cards == hand:
            return code
        kind = code_kind(code)
        if kind >= SKIP or g_breaks(cards, kind, hand):
            continue
        rest = hand - cards
        worth = g_worth(cards)
        number = worth >> 16
        keep = worth & 0xFFFF
        if kind == BOMB or kind == ROCKET:
            if not g_is_one_move(rest, codes, n):
                continue
            score = 1000
        else:
            splits = g_popcount(g_ranks_held(cards) & g_ranks_held(rest))
            score = number * G_LEAD_GAIN - keep - G_SPLIT * splits
            if feed_partner and kind == SINGLE:
                score = 500 - keep
            elif opponents_left <= 2 and (
                    kind == SINGLE or (opponents_left == 2 and kind == PAIR)):
                score = -100 + keep
        if not have_score or score > best_score:
            best = code
            best_score = score
            have_score = True
    return best


cdef inline uint64_t g_answer(const uint64_t* codes, Py_ssize_t n, uint64_t hand,
                              int opponents_left, bint partner_on_table, int partner_left,
                              bint opponent_next) noexcept nogil:
    cdef uint64_t best = 0, bomb = 0, skip = 0, code, cards
    cdef bint have_best = False, have_bomb = False
    cdef bint urgent = opponents_left <= G_CLOSE, cheap
    cdef long best_cost = 0, bomb_cost = 0, cost
    cdef int kind, worth, splits
    cdef Py_ssize_t i
    if n <= 1:
        return 0                             # only the pass
    for i in range(1, n):                    # the pass comes first
        code = codes[i]
        cards = code & DDZ_CARDS_MASK
        if cards == hand:
            return code
        kind = code_kind(code)
        if kind >= SKIP:
            if kind == SKIP:
                skip = code
            continue
        if g_breaks(cards, kind, hand):
            continue
        if kind == BOMB or kind == ROCKET:
            cost = code_rank(code) + (100 if kind == ROCKET else 0)
            if not have_bomb or cost < bomb_cost:
                bomb = code
                bomb_cost = cost
                have_bomb = True
            continue
        worth = g_worth(cards)
        splits = g_popcount(g_ranks_held(cards) & g_ranks_held(hand - cards))
        cost = (worth & 0xFFFF) + G_SPLIT * splits
        if opponents_left <= 2:
            cost = -cost
        if not have_best or cost < best_cost:
            best = code
            best_cost = cost
            have_best = True
    if partner_on_table:
        cheap = have_best and 0 <= best_cost <= G_PARTNER_CHEAP
        if best and cheap and partner_left > 2:
            worth = g_worth(best & DDZ_CARDS_MASK)
            if (worth & 0xFFFF) <= 8 * (worth >> 16):
                return best
        return 0
    if best:
        return best
    if bomb and (urgent or g_is_one_move(hand - (bomb & DDZ_CARDS_MASK), codes, n)):
        return bomb
    if skip and urgent and opponent_next:
        return skip
    return 0


cdef inline uint64_t g_play(const GameState* s, const GameConfig* cfg, const uint64_t* codes,
                            Py_ssize_t n) noexcept nogil:
    """GreedyAgent.act in the play phase, given the legal move codes in generator order."""
    cdef int me = s.current, landlord = s.landlord, seats = s.players, seat
    cdef uint64_t hand = s.hands[me]
    cdef int counts[3]
    cdef int lets = s.grabs if seats == 2 else 0
    cdef int partner = -1, opponents_left = 0, goal, most
    cdef Py_ssize_t i
    for seat in range(seats):
        counts[seat] = card_total(s.hands[seat])
    if me == landlord:
        opponents_left = 1 << 30
        for seat in range(seats):
            if seat != me and counts[seat] < opponents_left:
                opponents_left = counts[seat]
        opponents_left -= lets
        goal = 0
    else:
        opponents_left = counts[landlord]
        goal = lets
        if seats == 3:
            partner = 3 - me - landlord
    if goal:
        # out: a two-player farmer holding no more than the lets (_winning_move)
        most = counts[me] - goal
        for i in range(n):
            if codes[i] and (g_worth(codes[i] & DDZ_CARDS_MASK) >> 16) >= most:
                return codes[i]
    if s.table == 0:
        return g_lead(codes, n, hand, opponents_left,
                      counts[partner] if partner >= 0 else 0)
    return g_answer(codes, n, hand, opponents_left,
                    partner >= 0 and s.table_player == partner,
                    counts[partner] if partner >= 0 else 0,
                    (me + s.direction + seats) % seats != partner)


cdef inline uint64_t greedy_action(const GameState* s, const GameConfig* cfg, uint64_t* codes,
                                   Py_ssize_t cap, uint64_t* work) noexcept nogil:
    """The greedy agent's action for the player to act (codes: scratch room for cap codes;
    a richer hand takes the heap). 0 when the game is over. A work counter other than NULL
    gains the legal moves scored plus one (a bid counts one): a playout's cost is in those,
    and a hand rich in kickers has thousands."""
    cdef uint64_t* moves
    cdef Py_ssize_t n
    cdef uint64_t chosen
    if s.phase == BIDDING:
        if work != NULL:
            work[0] += 1
        return g_bid(s, cfg)
    if s.phase != PLAY:
        return 0
    moves = generate_all(s.hands[s.current], s.table, &cfg.rs, codes, cap, &n)
    if work != NULL:
        work[0] += <uint64_t>n + 1
    chosen = g_play(s, cfg, moves, n)
    if moves != codes:
        free(moves)
    return chosen
