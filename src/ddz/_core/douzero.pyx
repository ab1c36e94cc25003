# cython: language_level=3, cdivision=True
"""DouZero 1.1.0's card-play phase, stepped in C, with its observation encodings.

``ddz.compat.douzero`` is a drop-in for ``douzero.env.env.Env``. Its observations must equal
DouZero's ``get_obs`` array for array, and ``x_batch`` has one row per legal action, so the
legal actions must come out in DouZero's exact order, duplicates included. That order is not
a property of the move set (which ``ddz.DOUZERO`` reproduces) but of how DouZero's
``MovesGener`` walks a hand: singles in the iteration order of a Python ``set`` of card
values, pairs and triples in ascending order, combinations of kicker cards taken from the
sorted hand with repeats (equal combinations come out adjacent and ``itertools.groupby``
drops them, yet ``333444555+666`` and ``444555666+333`` both stay), and the answers to a
move chosen by DouZero's ``get_move_type`` reading of it, quirks included. This module
ports that walk, the reading and the filters one for one, on count vectors, so no Python
object is touched until the legal actions are handed out as lists.

A move (and a hand) is 16 bytes: the count of each of the 15 ranks, 3 first and the big
joker last, then the number of cards. DouZero's card values are 3..14 for 3..A, 17 for 2,
20 and 30 for the jokers; continuity (chains) is judged on those values, so A and 2 are
never adjacent.

Positions are 0 landlord, 1 landlord_up, 2 landlord_down; the order of play is landlord,
landlord_down, landlord_up.
"""

from cpython.list cimport PyList_New, PyList_SET_ITEM
from cpython.ref cimport Py_INCREF
from libc.stdint cimport uint8_t, int8_t, int32_t, int64_t, uint64_t
from libc.stdlib cimport calloc, malloc, qsort, realloc, free
from libc.string cimport memcpy, memset, memcmp

from ddz._core.layout cimport DDZ_CARDS_MASK
from ddz._core.rng cimport below, splitmix64

import numpy as np

from ddz._core.game import GameCore

cdef enum:
    RANKS = 15
    MOVE_BYTES = 16          # 15 counts, then the card total
    TOTAL = 15
    MAX_PLIES = 256          # at most 3 plies per card played, 54 cards
    HISTORY = 15             # the moves z encodes
    CARD_BITS = 54
    LANDLORD = 0
    UP = 1
    DOWN = 2
    LANDLORD_X = 319         # x_no_action sizes
    FARMER_X = 430
    Z_VALUES = 810           # z: 5 x 162
    ADP = 0                  # DouZero's objectives
    LOGADP = 1
    WP = 2

cdef enum:                   # douzero.env.utils move types
    T_PASS = 0
    T_SINGLE = 1
    T_PAIR = 2
    T_TRIPLE = 3
    T_BOMB = 4
    T_KING_BOMB = 5
    T_3_1 = 6
    T_3_2 = 7
    T_SERIAL_SINGLE = 8
    T_SERIAL_PAIR = 9
    T_SERIAL_TRIPLE = 10
    T_SERIAL_3_1 = 11
    T_SERIAL_3_2 = 12
    T_4_2 = 13
    T_4_22 = 14
    T_WRONG = 15

cdef int VALUE[15]
for _rank, _value in enumerate((3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17, 20, 30)):
    VALUE[_rank] = _value

cdef int RANK_OF[31]              # card value -> rank, -1 for no card
for _value in range(31):
    RANK_OF[_value] = -1
for _rank in range(15):
    RANK_OF[VALUE[_rank]] = _rank

# a count's 4 thermometer entries (count c: the first c are 1), as bytes and as floats:
# encode_cards writes a rank with one 4-byte copy, table_rows a row's action with one
# 16-byte copy a rank, rather than a loop over the count
cdef int8_t THERMO[5][4]
cdef float THERMO_F[5][4]
for _count in range(5):
    for _c in range(4):
        THERMO[_count][_c] = 1 if _c < _count else 0
        THERMO_F[_count][_c] = 1.0 if _c < _count else 0.0

# the card values as Python ints, handed out in the legal-action lists
cdef tuple CARD_OBJECTS = tuple(VALUE[r] for r in range(RANKS))


cdef struct MoveList:
    uint8_t* moves
    int n
    int cap
    int failed               # an allocation failed: the caller raises MemoryError


cdef inline void emit(MoveList* ml, uint8_t* m) noexcept nogil:
    cdef int r, total = 0
    cdef uint8_t* grown
    if ml.n == ml.cap:
        grown = <uint8_t*>realloc(ml.moves, 2 * ml.cap * MOVE_BYTES)
        if grown == NULL:
            ml.failed = 1
            return
        ml.moves = grown
        ml.cap *= 2
    for r in range(RANKS):
        total += m[r]
    m[TOTAL] = total
    memcpy(ml.moves + ml.n * MOVE_BYTES, m, MOVE_BYTES)
    ml.n += 1


cdef inline int sorted_at(const uint8_t* m, int index) noexcept nogil:
    """The value of the card at ``index`` of the move's sorted card list (0 if none)."""
    cdef int r, seen = 0
    for r in range(RANKS):
        seen += m[r]
        if seen > index:
            return VALUE[r]
    return 0


cdef inline int max_with_count(const uint8_t* m, int count) noexcept nogil:
    cdef int r
    for r in range(RANKS - 1, -1, -1):
        if m[r] == count:
            return VALUE[r]
    return 0


cdef inline bint continuous(const int* ranks, int n) noexcept nogil:
    cdef int i
    for i in range(n - 1):
        if VALUE[ranks[i + 1]] - VALUE[ranks[i]] != 1:
            return False
    return True


cdef int set_order(const uint8_t* h, int* out) noexcept nogil:
    """The ranks in ``h`` in the iteration order of CPython's ``set(cards_list)``.

    Card values are their own hashes. A set of at most 4 values lives in an 8-slot table
    (slot ``value & 7``, collisions probed by ``i = 5 i + 1 + (perturb >>= 5)``); from the
    fifth value it grows to 32 slots, where the values 3..30 sit in ascending order.
    tests/test_compat_douzero.py checks this against ``set`` itself.
    """
    cdef int r, n = 0, i, perturb, k
    cdef int ranks[15]
    cdef int table[8]
    for r in range(RANKS):
        if h[r]:
            ranks[n] = r
            n += 1
    if n >= 5:
        memcpy(out, ranks, n * sizeof(int))
        return n
    for i in range(8):
        table[i] = -1
    for k in range(n):
        perturb = VALUE[ranks[k]]
        i = perturb & 7
        while table[i] >= 0:
            perturb >>= 5
            i = (i * 5 + 1 + perturb) & 7
        table[i] = ranks[k]
    k = 0
    for i in range(8):
        if table[i] >= 0:
            out[k] = table[i]
            k += 1
    return k


cdef int detect(const uint8_t* m, int* length) noexcept nogil:
    """``douzero.env.move_detector.get_move_type``: the type, and the chain length."""
    cdef int size = m[TOTAL], distinct = 0, r, n3 = 0
    cdef int cd[5]
    cdef int keys[15]
    cdef int triples[15]
    length[0] = 1
    memset(cd, 0, sizeof(cd))
    for r in range(RANKS):
        if m[r]:
            keys[distinct] = r
            distinct += 1
            cd[m[r]] += 1
            if m[r] == 3:
                triples[n3] = r
                n3 += 1
    if size == 0:
        return T_PASS
    if size == 1:
        return T_SINGLE
    if size == 2:
        if distinct == 1:
            return T_PAIR
        if m[13] and m[14]:
            return T_KING_BOMB
        return T_WRONG
    if size == 3:
        return T_TRIPLE if distinct == 1 else T_WRONG
    if size == 4:
        if distinct == 1:
            return T_BOMB
        if distinct == 2 and cd[3] == 1:
            return T_3_1
        return T_WRONG
    if distinct == size and continuous(keys, distinct):
        length[0] = size
        return T_SERIAL_SINGLE
    if size == 5:
        return T_3_2 if distinct == 2 else T_WRONG
    if size == 6 and (distinct == 2 or distinct == 3) and cd[4] == 1 and (
            cd[2] == 1 or cd[1] == 2):
        return T_4_2
    if size == 8 and (((distinct == 3 or distinct == 2) and cd[4] == 1 and cd[2] == 2)
                      or cd[4] == 2):
        return T_4_22
    if distinct == cd[2] and continuous(keys, distinct):
        length[0] = distinct
        return T_SERIAL_PAIR
    if distinct == cd[3] and continuous(keys, distinct):
        length[0] = distinct
        return T_SERIAL_TRIPLE
    if cd[3] >= 2:
        if cd[4]:
            return T_WRONG
        if continuous(triples, n3):
            if n3 == cd[1] + 2 * cd[2]:
                length[0] = n3
                return T_SERIAL_3_1
            if n3 == cd[2] and distinct == 2 * n3:
                length[0] = n3
                return T_SERIAL_3_2
        if n3 == 4:
            if continuous(triples + 1, 3) or continuous(triples, 3):
                length[0] = 3
                return T_SERIAL_3_1
    return T_WRONG


cdef int chains(const uint8_t* h, int least, int min_serial, int repeat_num,
                int* lows, int* lengths) noexcept nogil:
    """``MovesGener._gen_serial_moves`` over the ranks holding ``least`` cards or more.

    Returns the chains in DouZero's order as (lowest rank, length) pairs.
    """
    cdef int q[15]
    cdef int nq = 0, r, i, start, longest, steps, index, n = 0
    if repeat_num < min_serial:
        repeat_num = 0
    for r in range(RANKS):
        if h[r] >= least:
            q[nq] = r
            nq += 1
    i = 0
    start = 0
    longest = 1
    while i < nq:
        if i + 1 < nq and VALUE[q[i + 1]] - VALUE[q[i]] == 1:
            longest += 1
            i += 1
            continue
        if longest >= min_serial:
            if repeat_num == 0:
                for steps in range(min_serial, longest + 1):
                    for index in range(longest - steps + 1):
                        lows[n] = q[start + index]
                        lengths[n] = steps
                        n += 1
            elif longest >= repeat_num:
                for index in range(longest - repeat_num + 1):
                    lows[n] = q[start + index]
                    lengths[n] = repeat_num
                    n += 1
        i += 1
        start = i
        longest = 1
    return n


cdef void gen_serial(const uint8_t* h, int least, int min_serial, int repeat_num,
                     MoveList* ml) noexcept nogil:
    cdef int lows[128]
    cdef int lengths[128]
    cdef int n = chains(h, least, min_serial, repeat_num, lows, lengths), k, r
    cdef uint8_t m[16]
    for k in range(n):
        memset(m, 0, MOVE_BYTES)
        for r in range(lows[k], lows[k] + lengths[k]):
            m[r] = least
        emit(ml, m)


cdef int spread(const uint8_t* h, int skip_low, int skip_high, int* cards) noexcept nogil:
    """The hand's cards as ranks, ascending with repeats, leaving out ranks in the range."""
    cdef int r, c, n = 0
    for r in range(RANKS):
        if skip_low <= r < skip_high:
            continue
        for c in range(h[r]):
            cards[n] = r
            n += 1
    return n


cdef void kicker_combinations(const int* cards, int n, int k, uint8_t* base,
                              MoveList* ml) noexcept nogil:
    """``itertools.combinations(cards, k)`` added to ``base``, adjacent repeats dropped.

    ``cards`` is sorted, so equal combinations come out next to each other and dropping
    adjacent repeats is what DouZero's ``itertools.groupby`` pass does.
    """
    cdef int idx[20]
    cdef int previous[20]
    cdef int j, t
    cdef bint first = True, same
    cdef uint8_t m[16]
    if k > n or k <= 0:
        return
    for j in range(k):
        idx[j] = j
    while True:
        same = not first
        if same:
            for j in range(k):
                if cards[idx[j]] != previous[j]:
                    same = False
                    break
        if not same:
            memcpy(m, base, MOVE_BYTES)
            for j in range(k):
                previous[j] = cards[idx[j]]
                m[previous[j]] += 1
            emit(ml, m)
        first = False
        j = k - 1
        while j >= 0 and idx[j] == n - k + j:
            j -= 1
        if j < 0:
            return
        idx[j] += 1
        for t in range(j + 1, k):
            idx[t] = idx[t - 1] + 1


cdef void gen_singles(const uint8_t* h, MoveList* ml) noexcept nogil:
    cdef int order[15]
    cdef int n = set_order(h, order), k
    cdef uint8_t m[16]
    for k in range(n):
        memset(m, 0, MOVE_BYTES)
        m[order[k]] = 1
        emit(ml, m)


cdef void gen_sets(const uint8_t* h, int least, int exact, MoveList* ml) noexcept nogil:
    """Pairs (2, 0), triples (3, 0) or bombs (4, 4): ``least`` cards of each rank holding
    at least ``least`` (exactly ``exact`` when it is not 0)."""
    cdef int r
    cdef uint8_t m[16]
    for r in range(RANKS):
        if h[r] >= least and (exact == 0 or h[r] == exact):
            memset(m, 0, MOVE_BYTES)
            m[r] = least
            emit(ml, m)


cdef void gen_king_bomb(const uint8_t* h, MoveList* ml) noexcept nogil:
    cdef uint8_t m[16]
    if h[13] and h[14]:
        memset(m, 0, MOVE_BYTES)
        m[13] = 1
        m[14] = 1
        emit(ml, m)


cdef void gen_3_1(const uint8_t* h, MoveList* ml) noexcept nogil:
    cdef int order[15]
    cdef int n = set_order(h, order), k, t
    cdef uint8_t m[16]
    for k in range(n):
        for t in range(RANKS):
            if h[t] >= 3 and t != order[k]:
                memset(m, 0, MOVE_BYTES)
                m[order[k]] = 1
                m[t] = 3
                emit(ml, m)


cdef void gen_3_2(const uint8_t* h, MoveList* ml) noexcept nogil:
    cdef int p, t
    cdef uint8_t m[16]
    for p in range(RANKS):
        if h[p] < 2:
            continue
        for t in range(RANKS):
            if h[t] >= 3 and t != p:
                memset(m, 0, MOVE_BYTES)
                m[p] = 2
                m[t] = 3
                emit(ml, m)


cdef void gen_serial_3_1(const uint8_t* h, int repeat_num, MoveList* ml) noexcept nogil:
    cdef int lows[128]
    cdef int lengths[128]
    cdef int cards[20]
    cdef int n = chains(h, 3, 2, repeat_num, lows, lengths), k, r, nc
    cdef uint8_t base[16]
    for k in range(n):
        memset(base, 0, MOVE_BYTES)
        for r in range(lows[k], lows[k] + lengths[k]):
            base[r] = 3
        nc = spread(h, lows[k], lows[k] + lengths[k], cards)
        kicker_combinations(cards, nc, lengths[k], base, ml)


cdef void gen_serial_3_2(const uint8_t* h, int repeat_num, MoveList* ml) noexcept nogil:
    cdef int lows[128]
    cdef int lengths[128]
    cdef int pairs[15]
    cdef int idx[15]
    cdef int n = chains(h, 3, 2, repeat_num, lows, lengths), k, r, np_, L, j, t
    cdef uint8_t m[16]
    for k in range(n):
        L = lengths[k]
        np_ = 0
        for r in range(RANKS):
            if h[r] >= 2 and not (lows[k] <= r < lows[k] + L):
                pairs[np_] = r
                np_ += 1
        if L > np_:
            continue
        for j in range(L):
            idx[j] = j
        while True:
            memset(m, 0, MOVE_BYTES)
            for r in range(lows[k], lows[k] + L):
                m[r] = 3
            for j in range(L):
                m[pairs[idx[j]]] = 2
            emit(ml, m)
            j = L - 1
            while j >= 0 and idx[j] == np_ - L + j:
                j -= 1
            if j < 0:
                break
            idx[j] += 1
            for t in range(j + 1, L):
                idx[t] = idx[t - 1] + 1


cdef void gen_4_2(const uint8_t* h, MoveList* ml) noexcept nogil:
    cdef int cards[20]
    cdef int four, nc
    cdef uint8_t base[16]
    for four in range(RANKS):
        if h[four] != 4:
            continue
        memset(base, 0, MOVE_BYTES)
        base[four] = 4
        nc = spread(h, four, four + 1, cards)
        kicker_combinations(cards, nc, 2, base, ml)


cdef void gen_4_22(const uint8_t* h, MoveList* ml) noexcept nogil:
    cdef int four, a, b
    cdef uint8_t m[16]
    for four in range(RANKS):
        if h[four] != 4:
            continue
        for a in range(RANKS):
            if a == four or h[a] < 2:
                continue
            for b in range(a + 1, RANKS):
                if b == four or h[b] < 2:
                    continue
                memset(m, 0, MOVE_BYTES)
                m[four] = 4
                m[a] = 2
                m[b] = 2
                emit(ml, m)


cdef void gen_leads(const uint8_t* h, MoveList* ml) noexcept nogil:
    """``MovesGener.gen_moves``."""
    gen_singles(h, ml)
    gen_sets(h, 2, 0, ml)
    gen_sets(h, 3, 0, ml)
    gen_sets(h, 4, 4, ml)
    gen_king_bomb(h, ml)
    gen_3_1(h, ml)
    gen_3_2(h, ml)
    gen_serial(h, 1, 5, 0, ml)
    gen_serial(h, 2, 3, 0, ml)
    gen_serial(h, 3, 2, 0, ml)
    gen_serial_3_1(h, 0, ml)
    gen_serial_3_2(h, 0, ml)
    gen_4_2(h, ml)
    gen_4_22(h, ml)


cdef int rank_of(const uint8_t* m, int kind) noexcept nogil:
    """The number ``douzero.env.move_selector`` compares for a move of type ``kind``."""
    if kind == T_3_1:
        return sorted_at(m, 1)
    if kind == T_3_2 or kind == T_4_2:
        return sorted_at(m, 2)
    if kind == T_SERIAL_3_1 or kind == T_SERIAL_3_2:
        return max_with_count(m, 3)
    if kind == T_4_22:
        return max_with_count(m, 4)
    return sorted_at(m, 0)


cdef void keep_beating(MoveList* ml, int start, const uint8_t* rival, int kind) noexcept nogil:
    cdef int bar = rank_of(rival, kind), k, kept = start
    for k in range(start, ml.n):
        if rank_of(ml.moves + k * MOVE_BYTES, kind) > bar:
            if kept != k:
                memcpy(ml.moves + kept * MOVE_BYTES, ml.moves + k * MOVE_BYTES, MOVE_BYTES)
            kept += 1
    ml.n = kept


cdef void legal_moves(const uint8_t* h, const uint8_t* rival, MoveList* ml) noexcept nogil:
    """``GameEnv.get_legal_card_play_actions`` for the hand ``h`` against ``rival``."""
    cdef int length
    cdef int kind = detect(rival, &length)
    cdef uint8_t m[16]
    ml.n = 0
    if kind == T_PASS:
        gen_leads(h, ml)
    elif kind == T_SINGLE:
        gen_singles(h, ml)
    elif kind == T_PAIR:
        gen_sets(h, 2, 0, ml)
    elif kind == T_TRIPLE:
        gen_sets(h, 3, 0, ml)
    elif kind == T_BOMB:
        gen_sets(h, 4, 4, ml)
        gen_king_bomb(h, ml)
    elif kind == T_3_1:
        gen_3_1(h, ml)
    elif kind == T_3_2:
        gen_3_2(h, ml)
    elif kind == T_SERIAL_SINGLE:
        gen_serial(h, 1, 5, length, ml)
    elif kind == T_SERIAL_PAIR:
        gen_serial(h, 2, 3, length, ml)
    elif kind == T_SERIAL_TRIPLE:
        gen_serial(h, 3, 2, length, ml)
    elif kind == T_SERIAL_3_1:
        gen_serial_3_1(h, length, ml)
    elif kind == T_SERIAL_3_2:
        gen_serial_3_2(h, length, ml)
    elif kind == T_4_2:
        gen_4_2(h, ml)
    elif kind == T_4_22:
        gen_4_22(h, ml)
    if kind != T_PASS and kind != T_KING_BOMB and kind != T_WRONG:
        keep_beating(ml, 0, rival, kind)
    if kind != T_PASS and kind != T_BOMB and kind != T_KING_BOMB:
        gen_sets(h, 4, 4, ml)
        gen_king_bomb(h, ml)
    if rival[TOTAL]:
        memset(m, 0, MOVE_BYTES)
        emit(ml, m)


cdef inline void encode_cards(const uint8_t* m, int8_t* out) noexcept nogil:
    """``douzero.env.env._cards2array``: 4 bits per rank 3..2 (count as a thermometer),
    then one bit per joker."""
    cdef int r
    for r in range(13):
        # a count is at most 4 (a deal of one deck, checked where it enters)
        memcpy(out + 4 * r, THERMO[m[r] if m[r] <= 4 else 4], 4)
    out[52] = m[13] > 0
    out[53] = m[14] > 0


cdef inline void encode_cards_float(const uint8_t* m, float* out) noexcept nogil:
    """``encode_cards`` written as float32, for the rows of ``x_batch``."""
    cdef int r
    for r in range(13):
        memcpy(out + 4 * r, THERMO_F[m[r] if m[r] <= 4 else 4], 4 * sizeof(float))
    out[52] = 1.0 if m[13] > 0 else 0.0
    out[53] = 1.0 if m[14] > 0 else 0.0


cdef inline void one_hot(int count, int size, int8_t* out) noexcept nogil:
    memset(out, 0, size)
    # DouZero writes one_hot[count - 1]; a count of 0 (never observed) wraps to the end
    out[count - 1 if count > 0 else size - 1] = 1


cdef inline bint detect_bomb(const uint8_t* m) noexcept nogil:
    cdef int r
    for r in range(RANKS):
        if m[r] == 4:
            return True
    return False



cdef inline void bomb_one_hot(int bombs, int8_t* out) noexcept nogil:
    # at most 14 bombs (13 fours and the rocket) fit in DouZero's 15 entries
    memset(out, 0, 15)
    out[bombs] = 1


cdef object POSITIONS = ("landlord", "landlord_up", "landlord_down")


cdef struct Table:
    # the card-play state of one game: DouzeroCore holds one, DouzeroTables an array
    uint8_t hands[3][16]
    uint8_t played[3][16]
    uint8_t last[3][16]
    uint8_t kitty[16]            # the landlord's three extra cards (DouzeroTables' deals)
    uint8_t history[MAX_PLIES][16]
    int n_plies
    int to_act
    int n_bombs
    int winner_at                # -1 while playing, else the position that emptied its hand
    MoveList legal


cdef int table_init(Table* t) noexcept nogil:
    """An empty table with its legal-move buffer; -1 when that allocation fails."""
    memset(t, 0, sizeof(Table))
    t.winner_at = -1
    t.legal.cap = 256
    t.legal.moves = <uint8_t*>malloc(t.legal.cap * MOVE_BYTES)
    return 0 if t.legal.moves != NULL else -1


cdef void table_free(Table* t) noexcept nogil:
    free(t.legal.moves)
    t.legal.moves = NULL


cdef inline const uint8_t* rival_of(const uint8_t* history, int n_plies,
                                    const uint8_t* empty) noexcept nogil:
    """DouZero's ``last_move`` after ``n_plies`` moves (rows of MOVE_BYTES): the last move,
    or the one before it when the last was a pass; ``empty`` when nothing was played."""
    cdef const uint8_t* rival = empty
    if n_plies:
        rival = history + (n_plies - 1) * MOVE_BYTES
        if rival[TOTAL] == 0 and n_plies >= 2:
            rival = history + (n_plies - 2) * MOVE_BYTES
    return rival


cdef inline const uint8_t* table_rival(Table* t, const uint8_t* empty) noexcept nogil:
    return rival_of(&t.history[0][0], t.n_plies, empty)


cdef int table_generate(Table* t) noexcept nogil:
    """The legal moves of the position to act; -1 when growing their list failed."""
    cdef uint8_t empty[16]
    memset(empty, 0, MOVE_BYTES)
    t.legal.failed = 0
    legal_moves(t.hands[t.to_act], table_rival(t, empty), &t.legal)
    return -1 if t.legal.failed else 0


cdef int table_deal(Table* t, const uint8_t* hands, const uint8_t* kitty) noexcept nogil:
    """Start the card play from three hands of 15 counts each (``hands``, landlord first)
    and the landlord's three extra cards (15 counts, or NULL), both checked by the caller.
    -1 when the legal moves could not be stored."""
    cdef int p, r, total
    memset(t.hands, 0, sizeof(t.hands))
    memset(t.played, 0, sizeof(t.played))
    memset(t.last, 0, sizeof(t.last))
    memset(t.kitty, 0, MOVE_BYTES)
    for p in range(3):
        total = 0
        for r in range(RANKS):
            t.hands[p][r] = hands[p * RANKS + r]
            total += hands[p * RANKS + r]
        t.hands[p][TOTAL] = total
    if kitty != NULL:
        total = 0
        for r in range(RANKS):
            t.kitty[r] = kitty[r]
            total += kitty[r]
        t.kitty[TOTAL] = total
    t.n_plies = 0
    t.to_act = LANDLORD
    t.n_bombs = 0
    t.winner_at = -1
    return table_generate(t)


cdef int table_play(Table* t, int index) noexcept nogil:
    """Play legal move ``index`` (the caller checks it, and that the game goes on and has
    room for a ply): 1 when the game is over, 0 when not, -1 when the next legal moves
    could not be stored."""
    cdef const uint8_t* m = t.legal.moves + index * MOVE_BYTES
    cdef int a = t.to_act, r
    if (m[TOTAL] == 4 and detect_bomb(m)) or (m[TOTAL] == 2 and m[13] and m[14]):
        t.n_bombs += 1
    memcpy(t.last[a], m, MOVE_BYTES)
    memcpy(t.history[t.n_plies], m, MOVE_BYTES)
    t.n_plies += 1
    for r in range(RANKS + 1):
        t.hands[a][r] -= m[r]
        t.played[a][r] += m[r]
    if t.hands[a][TOTAL] == 0:
        t.winner_at = a
        t.legal.n = 0
        return 1
    t.to_act = DOWN if a == LANDLORD else (UP if a == DOWN else LANDLORD)
    return table_generate(t)


cdef int encode_features(int a, const uint8_t* hand, const uint8_t* other, const int* left,
                         const uint8_t* played, const uint8_t* last, int n_bombs,
                         const uint8_t* history, int n_plies,
                         int8_t* xna, int8_t* z) noexcept nogil:
    """``get_obs``'s ``x_no_action`` (into ``xna``, room for FARMER_X values) and ``z`` (810
    values) of position ``a`` from what DouZero's features read: its hand, the other two
    hands as one set (``other``: never how it is split), each position's cards left
    (``left``), cards played and last move (``played``, ``last``: three rows of MOVE_BYTES),
    the bombs and the moves so far (``n_plies`` rows of MOVE_BYTES); returns the width of
    ``x_no_action``. The count of each position is at least 1 and ``n_bombs`` at most 14
    (the callers' games)."""
    cdef int width, j, start, teammate
    cdef uint8_t empty[16]
    cdef const uint8_t* last_move
    memset(empty, 0, MOVE_BYTES)
    last_move = rival_of(history, n_plies, empty)
    encode_cards(hand, xna)
    encode_cards(other, xna + 54)
    if a == LANDLORD:
        width = LANDLORD_X
        encode_cards(last_move, xna + 108)
        encode_cards(played + UP * MOVE_BYTES, xna + 162)
        encode_cards(played + DOWN * MOVE_BYTES, xna + 216)
        one_hot(left[UP], 17, xna + 270)
        one_hot(left[DOWN], 17, xna + 287)
        bomb_one_hot(n_bombs, xna + 304)
    else:
        width = FARMER_X
        teammate = DOWN if a == UP else UP
        encode_cards(played + LANDLORD * MOVE_BYTES, xna + 108)
        encode_cards(played + teammate * MOVE_BYTES, xna + 162)
        encode_cards(last_move, xna + 216)
        encode_cards(last + LANDLORD * MOVE_BYTES, xna + 270)
        encode_cards(last + teammate * MOVE_BYTES, xna + 324)
        one_hot(left[LANDLORD], 20, xna + 378)
        one_hot(left[teammate], 17, xna + 398)
        bomb_one_hot(n_bombs, xna + 415)
    start = n_plies - HISTORY
    for j in range(HISTORY):
        if start + j >= 0:
            encode_cards(history + (start + j) * MOVE_BYTES, z + j * CARD_BITS)
        else:
            memset(z + j * CARD_BITS, 0, CARD_BITS)
    return width


cdef int table_features(Table* t, int8_t* xna, int8_t* z) noexcept nogil:
    """``get_obs``'s ``x_no_action`` and ``z`` for the position to act (see
    ``encode_features``); returns the width of ``x_no_action``."""
    cdef int a = t.to_act, j, r
    cdef int left[3]
    cdef uint8_t other[16]
    for r in range(RANKS):
        other[r] = 0
        for j in range(3):
            if j != a:
                other[r] += t.hands[j][r]
    for j in range(3):
        left[j] = t.hands[j][TOTAL]
    return encode_features(a, t.hands[a], other, left, &t.played[0][0], &t.last[0][0],
                           t.n_bombs, &t.history[0][0], t.n_plies, xna, z)


cdef void table_rows(Table* t, const int8_t* xna, int width, const int8_t* z,
                     float* xb, float* zb) noexcept nogil:
    """``x_batch`` and ``z_batch`` from the position's features: one row per legal move,
    ``width + 54`` floats (the features, then the move) and 810 floats (``z``); no
    ``z_batch`` when ``zb`` is NULL."""
    cdef int k, j, stride = width + CARD_BITS
    cdef float* row
    for k in range(t.legal.n):
        row = xb + <Py_ssize_t>k * stride
        if k == 0:
            for j in range(width):
                row[j] = xna[j]
            if zb != NULL:
                for j in range(Z_VALUES):
                    zb[j] = z[j]
        else:
            memcpy(row, xb, width * sizeof(float))
            if zb != NULL:
                memcpy(zb + <Py_ssize_t>k * Z_VALUES, zb, Z_VALUES * sizeof(float))
        encode_cards_float(t.legal.moves + k * MOVE_BYTES, row + width)


cdef void table_action_rows(Table* t, int8_t* out) noexcept nogil:
    """The last 54 columns of each ``x_batch`` row (the legal move's cards, as
    ``encode_cards`` writes them), one int8 row per legal move."""
    cdef int k
    for k in range(t.legal.n):
        encode_cards(t.legal.moves + k * MOVE_BYTES, out + <Py_ssize_t>k * CARD_BITS)


cdef inline double table_reward(Table* t, int objective) noexcept nogil:
    """DouZero's reward of a finished game, the landlord's sign."""
    cdef double sign = 1.0 if t.winner_at == LANDLORD else -1.0
    if objective == ADP:
        return sign * <double>(1 << t.n_bombs)
    if objective == LOGADP:
        return sign * (t.n_bombs + 1.0)
    return sign


cdef list move_lists(const MoveList* ml):
    """The moves as DouZero lists them: fresh lists of card values."""
    cdef int k, r, c, i
    cdef const uint8_t* m
    cdef list out = PyList_New(ml.n)
    cdef list cards
    cdef object value
    for k in range(ml.n):
        m = ml.moves + k * MOVE_BYTES
        cards = PyList_New(m[TOTAL])
        i = 0
        for r in range(RANKS):
            if m[r]:
                value = CARD_OBJECTS[r]
                for c in range(m[r]):
                    Py_INCREF(value)
                    PyList_SET_ITEM(cards, i, value)
                    i += 1
        Py_INCREF(cards)
        PyList_SET_ITEM(out, k, cards)
    return out


cdef object private_copy(object array, object dtype, int ndim, str what):
    """A C-ordered copy of ``array``, which must have ``dtype`` and ``ndim`` dimensions
    already: the core checks and reads the copy, never the caller's array again."""
    out = np.array(array, order="C", copy=True)
    if out.dtype != dtype or out.ndim != ndim:
        raise TypeError("%s must be a %d-dimensional %s array"
                        % (what, ndim, np.dtype(dtype).name))
    return out


cdef int check_hands(const uint8_t[:, ::1] hands) except -1:
    """What keeps a table in bounds and its encodings whole: three rows of 15 counts, no
    more of a card than the deck has, 1 to 20 cards a hand (ddz.compat.douzero checks the
    deal itself)."""
    cdef int p, r, total
    if hands.shape[0] != 3 or hands.shape[1] != RANKS:
        raise ValueError("three rows of 15 counts")
    for r in range(RANKS):
        if hands[0, r] + hands[1, r] + hands[2, r] > (4 if r < 13 else 1):
            raise ValueError("the hands hold more of a card than the deck has")
    for p in range(3):
        total = 0
        for r in range(RANKS):
            total += hands[p, r]
        if not 1 <= total <= 20:
            raise ValueError("a hand holds 1 to 20 cards")
    return 0


cdef class DouzeroCore:
    """The card-play state of one DouZero game and its legal moves in DouZero's order."""

    cdef Table t

    def __cinit__(self):
        if table_init(&self.t) < 0:
            raise MemoryError()

    def __dealloc__(self):
        table_free(&self.t)

    def __reduce__(self):
        # pickled as the deal and the moves played, replayed by _restore_core: the legal
        # moves, bombs and last moves follow from them, and a tampered pickle can only
        # give a ValueError (the replay checks every move), never a core out of bounds
        cdef int p, r
        if self.t.hands[0][TOTAL] + self.t.hands[1][TOTAL] + self.t.hands[2][TOTAL] == 0:
            return (DouzeroCore, ())    # not dealt: a dealt game keeps cards in two hands
        start = np.empty((3, RANKS), dtype=np.uint8)
        cdef uint8_t[:, ::1] view = start
        for p in range(3):
            for r in range(RANKS):
                view[p, r] = self.t.hands[p][r] + self.t.played[p][r]
        return (_restore_core, (start, self.history_counts()))

    def deal(self, const uint8_t[:, ::1] hands not None):
        """Start the card play from three hands (count rows, landlord first). Only what keeps
        the core in bounds is checked here; ddz.compat.douzero checks the deal."""
        check_hands(hands)
        if table_deal(&self.t, &hands[0, 0], NULL) < 0:
            raise MemoryError()

    @property
    def acting(self):
        return self.t.to_act

    @property
    def position(self):
        return POSITIONS[self.t.to_act]

    @property
    def bomb_num(self):
        return self.t.n_bombs

    @property
    def winner(self):
        return self.t.winner_at

    @property
    def plies(self):
        return self.t.n_plies

    def cards_left(self, int position):
        """The number of cards in the hand of ``position`` (0, 1 or 2)."""
        if not 0 <= position < 3:
            raise IndexError("no position %d" % position)
        return self.t.hands[position][TOTAL]

    def hand_counts(self):
        """The three hands as a (3, 15) uint8 array of counts."""
        out = np.empty((3, RANKS), dtype=np.uint8)
        cdef uint8_t[:, ::1] view = out
        cdef int p, r
        for p in range(3):
            for r in range(RANKS):
                view[p, r] = self.t.hands[p][r]
        return out

    def history_counts(self):
        """The moves played so far as a (plies, 15) uint8 array of counts."""
        out = np.empty((self.t.n_plies, RANKS), dtype=np.uint8)
        cdef uint8_t[:, ::1] view = out
        cdef int k, r
        for k in range(self.t.n_plies):
            for r in range(RANKS):
                view[k, r] = self.t.history[k][r]
        return out

    def legal_count(self):
        return self.t.legal.n

    def legal_actions(self):
        """The legal moves as DouZero lists them: fresh lists of card values."""
        return move_lists(&self.t.legal)

    def find(self, const uint8_t[::1] counts not None):
        """The index of the legal move with these 15 counts, or -1."""
        cdef uint8_t m[16]
        cdef int k, r, total = 0
        if counts.shape[0] != RANKS:
            raise ValueError("15 counts")
        for r in range(RANKS):
            m[r] = counts[r]
            total += counts[r]
        m[TOTAL] = total
        for k in range(self.t.legal.n):
            if memcmp(self.t.legal.moves + k * MOVE_BYTES, m, MOVE_BYTES) == 0:
                return k
        return -1

    def index_of(self, action):
        """The index of the legal move ``action``, a list of card values low to high as
        ``legal_actions`` lists them; -1 when it is no legal move (or not such a list)."""
        cdef uint8_t m[16]
        cdef int r, k, previous = -1
        cdef long value
        cdef Py_ssize_t i, n
        if not isinstance(action, (list, tuple)):
            return -1
        n = len(action)
        if n > 20:
            return -1
        memset(m, 0, MOVE_BYTES)
        for i in range(n):
            try:
                value = action[i]
            except (TypeError, OverflowError):
                return -1
            if not 0 <= value <= 30 or RANK_OF[value] < 0 or RANK_OF[value] < previous:
                return -1
            previous = RANK_OF[value]
            m[previous] += 1
        m[TOTAL] = n
        for k in range(self.t.legal.n):
            if memcmp(self.t.legal.moves + k * MOVE_BYTES, m, MOVE_BYTES) == 0:
                return k
        return -1

    def play(self, int index):
        """Play legal move ``index`` (checked); returns True when the game is over."""
        if self.t.winner_at >= 0 or not 0 <= index < self.t.legal.n:
            raise IndexError("no legal move %d" % index)
        if self.t.n_plies >= MAX_PLIES:
            raise RuntimeError("the game is longer than any DouZero game can be")
        cdef int over = table_play(&self.t, index)
        if over < 0:
            raise MemoryError()
        return over == 1

    def observation(self, bint with_z_batch=True):
        """``douzero.env.env.get_obs`` for the position to act; ``z_batch`` None when not
        ``with_z_batch`` (the rows repeat ``z``: a caller running the LSTM once per
        decision does not read them)."""
        cdef int n = self.t.legal.n, width
        cdef int8_t xna[FARMER_X]
        cdef int8_t zflat[Z_VALUES]
        width = table_features(&self.t, xna, zflat)
        x_no_action = np.empty(width, dtype=np.int8)
        z = np.empty((5, 162), dtype=np.int8)
        x_batch = np.empty((n, width + CARD_BITS), dtype=np.float32)
        z_batch = np.empty((n if with_z_batch else 0, 5, 162), dtype=np.float32)
        cdef int8_t[::1] xna_view = x_no_action
        cdef int8_t[:, ::1] z_view = z
        cdef float[:, ::1] xb = x_batch
        cdef float[:, :, ::1] zb = z_batch
        cdef float* zb_start = NULL
        if with_z_batch and n:
            zb_start = &zb[0, 0, 0]
        with nogil:
            memcpy(&xna_view[0], xna, width)
            memcpy(&z_view[0, 0], zflat, Z_VALUES)
            if n:
                table_rows(&self.t, xna, width, zflat, &xb[0, 0], zb_start)
        return {
            "position": POSITIONS[self.t.to_act],
            "x_batch": x_batch,
            "z_batch": z_batch if with_z_batch else None,
            "legal_actions": move_lists(&self.t.legal),
            "x_no_action": x_no_action,
            "z": z,
        }


cdef inline uint64_t deal_seed(uint64_t seed, uint64_t table, uint64_t episode) noexcept nogil:
    """The seed of deal ``episode`` (0, 1, ...) of table ``table`` of a DouzeroTables."""
    cdef uint64_t state = (seed ^ (table * 0xD1B54A32D192ED03ULL)
                           ^ (episode * 0x8CB92BA72F3D8DD7ULL))
    return splitmix64(&state)


cdef void seeded_deal(uint64_t seed, uint8_t* hands, uint8_t* kitty) noexcept nogil:
    """DouZero's deal drawn from a splitmix64 stream: its deck list (3 to 2 four times
    each, then the jokers) shuffled by Fisher-Yates, the first 20 cards the landlord's
    (the last 3 of them its extra cards), the next 17 landlord_up's, the last 17
    landlord_down's, as ``douzero.env.env.Env.reset`` cuts its shuffled deck. Counts: 3 rows
    of 15 into ``hands``, 15 into ``kitty``."""
    cdef int deck[54]
    cdef int i, j, swap
    cdef uint64_t state = seed
    for i in range(52):
        deck[i] = i // 4
    deck[52] = 13
    deck[53] = 14
    for i in range(53, 0, -1):
        j = below(&state, i + 1)
        swap = deck[i]
        deck[i] = deck[j]
        deck[j] = swap
    memset(hands, 0, 3 * RANKS)
    memset(kitty, 0, RANKS)
    for i in range(54):
        hands[(LANDLORD if i < 20 else (UP if i < 37 else DOWN)) * RANKS + deck[i]] += 1
    for i in range(17, 20):
        kitty[deck[i]] += 1


cdef enum:
    MAX_TABLES = 1 << 16


cdef void* data_of(object array) except NULL:
    """The data of a C-contiguous numpy array this module made (and keeps alive)."""
    return <void*><size_t>array.ctypes.data


cdef class DouzeroTables:
    """``n`` DouZero card-play games in lockstep: one call writes every table's observation
    of its position to act, one call plays one legal move at every table.

    The observation is grouped by position (0 landlord, 1 landlord_up, 2 landlord_down),
    each group in arrays of its own width that this object keeps and reuses: see
    ``observe``. A table has no game until it is dealt (``deal`` or ``deal_seeded``) and
    none once its game is over, until it is dealt again (``step`` can do that itself).

    Every method that reads or writes the tables marks the object busy while it runs (it
    may release the GIL): a call from a second thread meanwhile raises RuntimeError rather
    than reading a table half stepped. The arrays a method is given are copied before they
    are checked, and only the copies are read with the GIL released.
    ``ddz.compat.douzero.VectorEnv`` serialises its callers with a lock.
    """

    cdef Table* tables
    cdef uint64_t* episodes
    cdef int64_t* scratch        # step's actions, copied out of the caller's array
    cdef int64_t* starts         # observe's row starts and group slots, kept out of the
    cdef int64_t* slots          # arrays it hands out (a caller may write those meanwhile)
    cdef bint busy
    cdef readonly Py_ssize_t n
    cdef readonly uint64_t seed
    cdef readonly int objective
    cdef object position_out     # int8 (n,): the position to act at each table
    cdef object count_out        # int32 (n,): its number of legal actions
    cdef object start_out        # int64 (n,): its first row in its group's row arrays
    cdef list rows_out           # per position: x_batch rows, float32 (capacity, width + 54)
    cdef list zrows_out          # per position: z_batch rows, float32 (capacity, 5, 162)
    cdef list slots_out          # per position: each row's table's index in the group, int64
    cdef list xna_out            # per position: x_no_action, int8 (n, width)
    cdef list z_out              # per position: z, int8 (n, 5, 162)
    cdef list tables_out         # per position: the tables in the group, int64 (n,)
    cdef list offsets_out        # per position: row offsets of those tables, int64 (n + 1,)
    cdef list actions_out        # per position (compact form): the action columns, int8
    cdef list cslots_out         # per position (compact form): row_slot, int64
    # the data of the arrays above, taken when they are made: observe reads no memoryview
    # (acquiring one costs about as much as writing a table's features)
    cdef int8_t* position_ptr
    cdef int32_t* count_ptr
    cdef int64_t* start_ptr
    cdef float* rows_ptr[3]
    cdef float* zrows_ptr[3]
    cdef int64_t* slots_ptr[3]
    cdef int8_t* xna_ptr[3]
    cdef int8_t* z_ptr[3]
    cdef int64_t* tables_ptr[3]
    cdef int64_t* offsets_ptr[3]
    cdef int8_t* actions_ptr[3]
    cdef int64_t* cslots_ptr[3]

    def __cinit__(self, Py_ssize_t n, uint64_t seed=0, int objective=ADP):
        cdef Py_ssize_t i
        cdef int p
        if not 1 <= n <= MAX_TABLES:
            raise ValueError("1 to %d tables, not %d" % (MAX_TABLES, n))
        if not ADP <= objective <= WP:
            raise ValueError("objective 0 (adp), 1 (logadp) or 2 (wp)")
        self.tables = <Table*>calloc(n, sizeof(Table))
        self.episodes = <uint64_t*>calloc(n, sizeof(uint64_t))
        self.scratch = <int64_t*>calloc(n, sizeof(int64_t))
        self.starts = <int64_t*>calloc(n, sizeof(int64_t))
        self.slots = <int64_t*>calloc(n, sizeof(int64_t))
        if (self.tables == NULL or self.episodes == NULL or self.scratch == NULL
                or self.starts == NULL or self.slots == NULL):
            raise MemoryError()
        self.n = n
        for i in range(n):
            if table_init(&self.tables[i]) < 0:
                raise MemoryError()
            self.tables[i].winner_at = -2        # no game until dealt
        self.seed = seed
        self.objective = objective
        self.position_out = np.zeros(n, dtype=np.int8)
        self.count_out = np.zeros(n, dtype=np.int32)
        self.start_out = np.zeros(n, dtype=np.int64)
        self.rows_out = []
        self.zrows_out = []
        self.slots_out = []
        self.xna_out = []
        self.z_out = []
        self.tables_out = []
        self.offsets_out = []
        self.actions_out = []
        self.cslots_out = []
        self.position_ptr = <int8_t*>data_of(self.position_out)
        self.count_ptr = <int32_t*>data_of(self.count_out)
        self.start_ptr = <int64_t*>data_of(self.start_out)
        for p, width in enumerate((LANDLORD_X, FARMER_X, FARMER_X)):
            self.rows_out.append(None)
            self.zrows_out.append(None)
            self.slots_out.append(None)
            self.actions_out.append(None)
            self.cslots_out.append(None)
            self._grow_full(p, 1, True)
            self._grow_compact(p, 1)
            self.xna_out.append(np.empty((n, width), dtype=np.int8))
            self.z_out.append(np.empty((n, 5, 162), dtype=np.int8))
            self.tables_out.append(np.empty(n, dtype=np.int64))
            self.offsets_out.append(np.empty(n + 1, dtype=np.int64))
            self.xna_ptr[p] = <int8_t*>data_of(self.xna_out[p])
            self.z_ptr[p] = <int8_t*>data_of(self.z_out[p])
            self.tables_ptr[p] = <int64_t*>data_of(self.tables_out[p])
            self.offsets_ptr[p] = <int64_t*>data_of(self.offsets_out[p])

    cdef int _grow_full(self, int p, Py_ssize_t rows, bint with_z_batch) except -1:
        """Room for ``rows`` rows of position ``p``'s full form (``z_batch`` only when it
        is written: observe(False) never makes it)."""
        cdef Py_ssize_t total
        if self.rows_out[p] is None or rows > self.rows_out[p].shape[0]:
            total = rows if self.rows_out[p] is None else max(rows, 2 * self.rows_out[p].shape[0])
            width = (LANDLORD_X if p == 0 else FARMER_X) + CARD_BITS
            self.rows_out[p] = np.empty((total, width), dtype=np.float32)
            self.slots_out[p] = np.empty(total, dtype=np.int64)
            self.rows_ptr[p] = <float*>data_of(self.rows_out[p])
            self.slots_ptr[p] = <int64_t*>data_of(self.slots_out[p])
        if with_z_batch and (self.zrows_out[p] is None
                             or rows > self.zrows_out[p].shape[0]):
            total = self.rows_out[p].shape[0]
            self.zrows_out[p] = np.empty((total, 5, 162), dtype=np.float32)
            self.zrows_ptr[p] = <float*>data_of(self.zrows_out[p])
        return 0

    cdef int _grow_compact(self, int p, Py_ssize_t rows) except -1:
        """Room for ``rows`` rows of position ``p``'s compact form."""
        cdef Py_ssize_t total
        if self.actions_out[p] is None or rows > self.actions_out[p].shape[0]:
            total = (rows if self.actions_out[p] is None
                     else max(rows, 2 * self.actions_out[p].shape[0]))
            self.actions_out[p] = np.empty((total, CARD_BITS), dtype=np.int8)
            self.cslots_out[p] = np.empty(total, dtype=np.int64)
            self.actions_ptr[p] = <int8_t*>data_of(self.actions_out[p])
            self.cslots_ptr[p] = <int64_t*>data_of(self.cslots_out[p])
        return 0

    def __dealloc__(self):
        cdef Py_ssize_t i
        if self.tables != NULL:
            for i in range(self.n):
                table_free(&self.tables[i])
            free(self.tables)
        free(self.episodes)
        free(self.scratch)
        free(self.starts)
        free(self.slots)

    cdef int enter(self) except -1:
        if self.busy:
            raise RuntimeError("this DouzeroTables is in use by another thread "
                               "(ddz.compat.douzero.VectorEnv serialises its callers)")
        self.busy = True
        return 0

    cdef int _check_table(self, Py_ssize_t table) except -1:
        if not 0 <= table < self.n:
            raise IndexError("no table %d (there are %d)" % (table, self.n))
        return 0

    def deal_seeded(self, which):
        """Deal the tables ``which`` (int64) from the seed: table i's k-th seeded deal is
        drawn from its own stream (the seed, i and k), whatever the other tables do."""
        cdef Py_ssize_t k, i
        cdef uint8_t hands[3 * RANKS]
        cdef uint8_t kitty[RANKS]
        cdef bint failed = False
        cdef const int64_t[::1] chosen = private_copy(which, np.int64, 1, "which")
        self.enter()
        try:
            for k in range(chosen.shape[0]):
                self._check_table(chosen[k])
            with nogil:
                for k in range(chosen.shape[0]):
                    i = chosen[k]
                    seeded_deal(deal_seed(self.seed, i, self.episodes[i]), hands, kitty)
                    self.episodes[i] += 1
                    if table_deal(&self.tables[i], hands, kitty) < 0:
                        failed = True
        finally:
            self.busy = False
        if failed:
            raise MemoryError()

    def deal(self, which, hands, kitty):
        """Deal table ``which[k]`` (int64) the three hands ``hands[k]`` (uint8 count rows,
        landlord first) and the landlord's extra cards ``kitty[k]`` (15 uint8 counts). Only
        what keeps the core in bounds is checked here; ddz.compat.douzero checks the
        deal."""
        cdef Py_ssize_t k, r
        cdef const int64_t[::1] chosen = private_copy(which, np.int64, 1, "which")
        cdef const uint8_t[:, :, ::1] dealt = private_copy(hands, np.uint8, 3, "hands")
        cdef const uint8_t[:, ::1] extra = private_copy(kitty, np.uint8, 2, "kitty")
        if dealt.shape[0] != chosen.shape[0] or extra.shape[0] != chosen.shape[0]:
            raise ValueError("one deal (hands and kitty) per table")
        if extra.shape[1] != RANKS:
            raise ValueError("kitty rows of 15 counts")
        self.enter()
        try:
            for k in range(chosen.shape[0]):
                self._check_table(chosen[k])
                check_hands(dealt[k])
                for r in range(RANKS):
                    if extra[k, r] > dealt[k, 0, r]:
                        raise ValueError("the kitty holds cards the landlord does not")
            for k in range(chosen.shape[0]):
                if table_deal(&self.tables[chosen[k]], &dealt[k, 0, 0], &extra[k, 0]) < 0:
                    raise MemoryError()
        finally:
            self.busy = False

    cdef int _check_playing(self) except -1:
        cdef Py_ssize_t i
        for i in range(self.n):
            if self.tables[i].winner_at != -1:
                raise ValueError("table %d has no game in progress: deal it first" % i)
        return 0

    def observe(self, bint with_z_batch=True):
        """Every table's ``get_obs`` for its position to act, written in one pass.

        Returns ``(position, count, start, groups)``: per table the position to act, its
        number of legal actions and its first row in its group; ``groups[p]`` for position
        ``p`` is ``(tables, offsets, x_batch, z_batch, x_no_action, z, row_slot)``, the
        tables where ``p`` is to act (ascending), their rows ``offsets[j]:offsets[j + 1]``
        of ``x_batch``/``z_batch``, one ``x_no_action``/``z`` row each, and for each row
        the index ``j`` of its table. Without ``with_z_batch`` no ``z_batch`` is written
        (it is ``z[row_slot]``) and None is given for it. The arrays are this object's,
        overwritten by the next call (of this or ``observe_compact``)."""
        self.enter()
        try:
            return self._observe(with_z_batch)
        finally:
            self.busy = False

    def observe_compact(self):
        """``observe``'s content without its repeats, written in one pass.

        Returns ``(position, count, start, groups)`` as ``observe`` does, with
        ``groups[p] = (tables, offsets, x_no_action, z, actions, row_slot)``: ``actions``
        holds one int8 row of 54 per legal action, the last 54 columns of its ``x_batch``
        row, whose other columns are its table's ``x_no_action`` (so ``x_batch`` is
        ``hstack((x_no_action[row_slot], actions))`` as float32). The arrays are this
        object's, overwritten by the next call (of this or ``observe``)."""
        self.enter()
        try:
            return self._observe_compact()
        finally:
            self.busy = False

    cdef int _layout(self, Py_ssize_t* rows, Py_ssize_t* ntab) except -1:
        """Each table's position to act, legal count, first row and slot in its group
        (``position_out``, ``count_out``, ``starts``, ``slots``), and each group's rows
        and tables."""
        cdef Py_ssize_t i
        cdef int p
        cdef Table* t
        self._check_playing()
        for p in range(3):
            rows[p] = 0
            ntab[p] = 0
        with nogil:
            for i in range(self.n):
                t = &self.tables[i]
                p = t.to_act
                self.position_ptr[i] = p
                self.count_ptr[i] = t.legal.n
                self.starts[i] = rows[p]
                self.slots[i] = ntab[p]
                rows[p] += t.legal.n
                ntab[p] += 1
        return 0

    cdef object _observe(self, bint with_z_batch):
        cdef Py_ssize_t i, s, k, start
        cdef Py_ssize_t rows[3]
        cdef Py_ssize_t ntab[3]
        cdef int widths[3]
        cdef int p, width
        cdef Table* t
        self._layout(rows, ntab)
        widths[0] = LANDLORD_X
        widths[1] = FARMER_X
        widths[2] = FARMER_X
        for p in range(3):
            self._grow_full(p, rows[p], with_z_batch)
            self.offsets_ptr[p][0] = 0
        with nogil:
            for i in range(self.n):
                t = &self.tables[i]
                p = t.to_act
                s = self.slots[i]
                start = self.starts[i]
                width = table_features(t, self.xna_ptr[p] + s * widths[p],
                                       self.z_ptr[p] + s * Z_VALUES)
                table_rows(t, self.xna_ptr[p] + s * widths[p], width,
                           self.z_ptr[p] + s * Z_VALUES,
                           self.rows_ptr[p] + start * (widths[p] + CARD_BITS),
                           self.zrows_ptr[p] + start * Z_VALUES if with_z_batch else NULL)
                for k in range(start, start + t.legal.n):
                    self.slots_ptr[p][k] = s
                self.tables_ptr[p][s] = i
                self.offsets_ptr[p][s + 1] = start + t.legal.n
            memcpy(self.start_ptr, self.starts, self.n * sizeof(int64_t))
        groups = (
            self._full_group(0, rows[0], ntab[0], with_z_batch),
            self._full_group(1, rows[1], ntab[1], with_z_batch),
            self._full_group(2, rows[2], ntab[2], with_z_batch),
        )
        return self.position_out, self.count_out, self.start_out, groups

    cdef tuple _full_group(self, int p, Py_ssize_t rows, Py_ssize_t ntab, bint with_z_batch):
        return (self.tables_out[p][:ntab], self.offsets_out[p][:ntab + 1],
                self.rows_out[p][:rows],
                self.zrows_out[p][:rows] if with_z_batch else None,
                self.xna_out[p][:ntab], self.z_out[p][:ntab], self.slots_out[p][:rows])

    cdef object _observe_compact(self):
        cdef Py_ssize_t i, s, k, start
        cdef Py_ssize_t rows[3]
        cdef Py_ssize_t ntab[3]
        cdef int widths[3]
        cdef int p
        cdef Table* t
        self._layout(rows, ntab)
        widths[0] = LANDLORD_X
        widths[1] = FARMER_X
        widths[2] = FARMER_X
        for p in range(3):
            self._grow_compact(p, rows[p])
            self.offsets_ptr[p][0] = 0
        with nogil:
            for i in range(self.n):
                t = &self.tables[i]
                p = t.to_act
                s = self.slots[i]
                start = self.starts[i]
                table_features(t, self.xna_ptr[p] + s * widths[p], self.z_ptr[p] + s * Z_VALUES)
                table_action_rows(t, self.actions_ptr[p] + start * CARD_BITS)
                for k in range(start, start + t.legal.n):
                    self.cslots_ptr[p][k] = s
                self.tables_ptr[p][s] = i
                self.offsets_ptr[p][s + 1] = start + t.legal.n
            memcpy(self.start_ptr, self.starts, self.n * sizeof(int64_t))
        groups = (
            self._compact_group(0, rows[0], ntab[0]),
            self._compact_group(1, rows[1], ntab[1]),
            self._compact_group(2, rows[2], ntab[2]),
        )
        return self.position_out, self.count_out, self.start_out, groups

    cdef tuple _compact_group(self, int p, Py_ssize_t rows, Py_ssize_t ntab):
        return (self.tables_out[p][:ntab], self.offsets_out[p][:ntab + 1],
                self.xna_out[p][:ntab], self.z_out[p][:ntab],
                self.actions_out[p][:rows], self.cslots_out[p][:rows])

    def step(self, const int64_t[::1] actions not None, bint redeal):
        """Play legal action ``actions[i]`` (an index into table i's legal actions) at every
        table, all checked before any is played. Returns ``(rewards, dones)``: float64 and
        bool arrays, the reward DouZero's Env gives (the landlord's sign) where a game
        ended. With ``redeal`` a finished table is dealt its next seeded deal at once;
        without, it waits for ``deal``."""
        self.enter()
        try:
            return self._step(actions, redeal)
        finally:
            self.busy = False

    cdef object _step(self, const int64_t[::1] actions, bint redeal):
        cdef Py_ssize_t i
        cdef Table* t
        cdef int over
        cdef uint8_t hands[3 * RANKS]
        cdef uint8_t kitty[RANKS]
        cdef bint failed = False
        cdef int64_t* chosen = self.scratch
        if actions.shape[0] != self.n:
            raise ValueError("one action per table: %d, not %d" % (self.n, actions.shape[0]))
        self._check_playing()
        for i in range(self.n):
            chosen[i] = actions[i]      # read once: the checks and the play use the copy
        for i in range(self.n):
            t = &self.tables[i]
            if not 0 <= chosen[i] < t.legal.n:
                raise IndexError("table %d has no legal action %d (it has %d)"
                                 % (i, chosen[i], t.legal.n))
            if t.n_plies >= MAX_PLIES:
                raise RuntimeError("the game is longer than any DouZero game can be")
        rewards = np.zeros(self.n, dtype=np.float64)
        dones = np.zeros(self.n, dtype=np.bool_)
        cdef double[::1] reward = rewards
        cdef uint8_t[::1] done = dones.view(np.uint8)
        with nogil:
            for i in range(self.n):
                t = &self.tables[i]
                over = table_play(t, <int>chosen[i])
                if over < 0:
                    failed = True
                elif over == 1:
                    done[i] = 1
                    reward[i] = table_reward(t, self.objective)
                    if redeal:
                        seeded_deal(deal_seed(self.seed, i, self.episodes[i]), hands, kitty)
                        self.episodes[i] += 1
                        if table_deal(t, hands, kitty) < 0:
                            failed = True
        if failed:
            raise MemoryError()
        return rewards, dones

    def legal_actions(self, Py_ssize_t table):
        """Table ``table``'s legal actions as DouZero lists them (row k of its rows is
        action k)."""
        self.enter()
        try:
            return self._legal_actions(table)
        finally:
            self.busy = False

    cdef object _legal_actions(self, Py_ssize_t table):
        self._check_table(table)
        if self.tables[table].winner_at != -1:
            raise ValueError("table %d has no game in progress" % table)
        return move_lists(&self.tables[table].legal)

    def deal_counts(self, Py_ssize_t table):
        """Table ``table``'s current deal: the hands as dealt, (3, 15) counts, and the
        landlord's extra cards, 15 counts."""
        self.enter()
        try:
            return self._deal_counts(table)
        finally:
            self.busy = False

    cdef object _deal_counts(self, Py_ssize_t table):
        cdef int p, r
        self._check_table(table)
        cdef Table* t = &self.tables[table]
        if t.winner_at == -2:
            raise ValueError("table %d was never dealt" % table)
        hands = np.empty((3, RANKS), dtype=np.uint8)
        kitty = np.empty(RANKS, dtype=np.uint8)
        cdef uint8_t[:, ::1] h = hands
        cdef uint8_t[::1] k = kitty
        for p in range(3):
            for r in range(RANKS):
                h[p, r] = t.hands[p][r] + t.played[p][r]
        for r in range(RANKS):
            k[r] = t.kitty[r]
        return hands, kitty

    def history_counts(self, Py_ssize_t table):
        """Table ``table``'s moves so far as a (plies, 15) uint8 array of counts."""
        self.enter()
        try:
            return self._history_counts(table)
        finally:
            self.busy = False

    cdef object _history_counts(self, Py_ssize_t table):
        cdef int j, r
        self._check_table(table)
        cdef Table* t = &self.tables[table]
        out = np.empty((t.n_plies, RANKS), dtype=np.uint8)
        cdef uint8_t[:, ::1] view = out
        for j in range(t.n_plies):
            for r in range(RANKS):
                view[j, r] = t.history[j][r]
        return out


# --- a seat's view: DouZero's features without DouZero's game -----------------------------
#
# DouZero's features of a position read its hand, the other two hands as one set, each
# position's count, cards played and last move, the bombs and the moves: never how the
# unseen cards are split. So they follow from what one seat of a ddz game sees, with the
# moves checked as DouZero's game would check them, and nothing replayed.

cdef enum:                   # DouzeroSeats.observe's status of a seat
    SEAT_OK = 0
    SEAT_ILLEGAL = 1         # a move of the history DouZero's rules do not allow there
    SEAT_NOT_DEAL = 2        # not a view of DouZero's deal (54 cards, 20/17/17)
    SEAT_NOT_TURN = 3        # the moves do not lead to this position's turn
    SEAT_ONE = 4             # observe_games: one legal action (no features written)

cdef str PLAY = "play"      # the phase of a record of the card play

cdef int DECK_OF[15]
for _rank in range(15):
    DECK_OF[_rank] = 4 if _rank < 13 else 1
cdef int DEALT[3]
DEALT[0] = 20
DEALT[1] = 17
DEALT[2] = 17
cdef int PLAY_ORDER[3]       # ply k is played by position PLAY_ORDER[k % 3]
PLAY_ORDER[0] = LANDLORD
PLAY_ORDER[1] = DOWN
PLAY_ORDER[2] = UP

cdef enum:
    CARD_DIGITS = 45         # a ddz card mask's 15 rank digits (3 bits each); above them
                             # Skip and Reverse, which DouZero does not have


cdef struct Seat:
    # what one position knows, as encode_features reads it, and its legal moves
    uint8_t hand[16]
    uint8_t other[16]
    uint8_t played[3][16]
    uint8_t last[3][16]
    uint8_t history[MAX_PLIES][16]
    int left[3]
    int n_plies
    int to_act
    int n_bombs
    MoveList legal
    uint64_t* codes          # observe_games: the game's action of each legal move (see there)
    Py_ssize_t codes_cap


cdef inline bint digits_of(uint64_t mask, uint8_t* m) noexcept nogil:
    """A ddz card mask as 15 counts and their total (into ``m``); False when it holds Skip
    or Reverse cards or more of a rank than the deck has."""
    cdef int r, total = 0
    if mask >> CARD_DIGITS:
        return False
    for r in range(RANKS):
        m[r] = (mask >> (3 * r)) & 7
        if m[r] > DECK_OF[r]:
            return False
        total += m[r]
    m[TOTAL] = total
    return True


cdef inline uint64_t mask_of(const uint8_t* m) noexcept nogil:
    """15 counts as a ddz card mask (a count in the rank's octal digit)."""
    cdef int r
    cdef uint64_t mask = 0
    for r in range(RANKS):
        mask |= (<uint64_t>m[r]) << (3 * r)
    return mask


cdef int douzero_allows(const uint8_t* m, const uint8_t* rival, MoveList* scratch) noexcept nogil:
    """Whether DouZero's game lets a hand holding the move ``m`` play it against ``rival``:
    1, 0, or -1 when the moves could not be stored. DouZero generates a hand's moves of a
    kind from the cards the kind uses (chains from the ranks held, kickers from the other
    cards, bombs from the fours), so a hand holding ``m`` may play it exactly when ``m``
    itself, as a hand, may: the moves of ``m`` alone are generated and searched."""
    cdef int k
    if m[TOTAL] == 0:
        return rival[TOTAL] != 0       # a pass answers a move, never leads
    scratch.failed = 0
    legal_moves(m, rival, scratch)
    if scratch.failed:
        return -1
    for k in range(scratch.n):
        if memcmp(scratch.moves + k * MOVE_BYTES, m, MOVE_BYTES) == 0:
            return 1
    return 0


cdef enum:
    VERDICTS = 4096          # DouzeroSeats' memo of douzero_allows (a power of two)


cdef struct Verdict:
    uint64_t move            # the move and the move it answers, as ddz card masks
    uint64_t rival
    int allowed              # 0: an empty slot; 1: DouZero allows it; 2: it does not


cdef int allowed_memo(Verdict* memo, uint64_t move, uint64_t rival, const uint8_t* m,
                      const uint8_t* rival_counts, MoveList* scratch) noexcept nogil:
    """``douzero_allows`` remembered: a seat's history is checked at each of its decisions,
    and the same moves against the same rivals come back (the key is compared whole, so a
    slot shared by two keys only costs a recomputation)."""
    cdef uint64_t h = (move * 0x9E3779B97F4A7C15ULL) ^ (rival * 0xC2B2AE3D27D4EB4FULL)
    cdef Verdict* slot = &memo[(h >> 40) & (VERDICTS - 1)]
    cdef int allowed
    if slot.allowed and slot.move == move and slot.rival == rival:
        return slot.allowed == 1
    allowed = douzero_allows(m, rival_counts, scratch)
    if allowed >= 0:
        slot.move = move
        slot.rival = rival
        slot.allowed = 1 if allowed else 2
    return allowed


cdef int seat_build(Seat* s, int a, uint64_t hand, const uint64_t* played, const int32_t* left,
                    const uint64_t* codes, Py_ssize_t n, MoveList* scratch,
                    Verdict* memo) noexcept nogil:
    """Position ``a``'s view in ``s`` (its features' inputs and its legal moves) from its
    hand, each position's played cards and count (ddz masks and counts, by position), and
    the moves so far (``n`` ddz card masks, the landlord's first). Returns a SEAT_ status,
    or -1 when the moves could not be stored. Every input is checked: whatever is given,
    the counts stay within the deck's and the encodings' bounds."""
    cdef int k, r, p, allowed, total
    cdef uint64_t rival
    cdef uint8_t empty[16]
    cdef uint8_t* m
    cdef uint8_t given[16]
    memset(empty, 0, MOVE_BYTES)
    memset(s.played, 0, sizeof(s.played))
    memset(s.last, 0, sizeof(s.last))
    s.n_bombs = 0
    s.to_act = a
    s.legal.n = 0
    if n > MAX_PLIES or not digits_of(hand, s.hand):
        return SEAT_NOT_DEAL
    for k in range(n):
        m = s.history[k]
        if not digits_of(codes[k], m):
            return SEAT_NOT_DEAL
        p = PLAY_ORDER[k % 3]
        # the move it answers: the last, or the one before when the last was a pass
        rival = codes[k - 1] if k >= 1 else 0
        if rival == 0 and k >= 2:
            rival = codes[k - 2]
        allowed = allowed_memo(memo, codes[k], rival, m, rival_of(&s.history[0][0], k, empty),
                               scratch)
        if allowed < 0:
            return -1
        if not allowed:
            return SEAT_ILLEGAL
        if (m[TOTAL] == 4 and detect_bomb(m)) or (m[TOTAL] == 2 and m[13] and m[14]):
            s.n_bombs += 1
        memcpy(s.last[p], m, MOVE_BYTES)
        for r in range(RANKS + 1):
            s.played[p][r] += m[r]
        for r in range(RANKS):
            if s.played[0][r] + s.played[1][r] + s.played[2][r] > DECK_OF[r]:
                return SEAT_NOT_DEAL
    s.n_plies = <int>n
    for p in range(3):
        # the moves are each position's played cards, and the counts DouZero's deal's
        if not digits_of(played[p], given) or memcmp(given, s.played[p], MOVE_BYTES) != 0:
            return SEAT_NOT_DEAL
        if left[p] != DEALT[p] - s.played[p][TOTAL]:
            return SEAT_NOT_DEAL
        s.left[p] = left[p]
    if s.left[a] != s.hand[TOTAL]:
        return SEAT_NOT_DEAL
    # the others' cards as one set: the rest of the deck (with the counts checked above,
    # as many cards as the other two positions hold)
    total = 0
    for r in range(RANKS):
        k = DECK_OF[r] - s.hand[r] - s.played[0][r] - s.played[1][r] - s.played[2][r]
        if k < 0:
            return SEAT_NOT_DEAL
        s.other[r] = k
        total += k
    s.other[TOTAL] = total
    for p in range(3):
        if s.left[p] == 0:
            return SEAT_NOT_TURN           # the game is over
    if PLAY_ORDER[n % 3] != a:
        return SEAT_NOT_TURN
    s.legal.failed = 0
    legal_moves(s.hand, rival_of(&s.history[0][0], s.n_plies, empty), &s.legal)
    return -1 if s.legal.failed else SEAT_OK


cdef struct CodeKey:
    uint64_t cards           # a game's legal action's cards (a ddz card mask)
    Py_ssize_t index         # its index among the game's legal actions


cdef int compare_keys(const void* a, const void* b) noexcept nogil:
    cdef const CodeKey* x = <const CodeKey*>a
    cdef const CodeKey* y = <const CodeKey*>b
    if x.cards != y.cards:
        return -1 if x.cards < y.cards else 1
    return -1 if x.index < y.index else (1 if x.index > y.index else 0)


cdef enum:
    NO_CODE = 0              # stand-ins for a code in observe_games' codes (offset from the
    SEVERAL_CODES = 1        # top: no action code reaches there, its type field is 31)

cdef uint64_t CODE_NONE = 0xFFFFFFFFFFFFFFFFULL - NO_CODE
cdef uint64_t CODE_SEVERAL = 0xFFFFFFFFFFFFFFFFULL - SEVERAL_CODES


cdef void match_codes(Seat* s, const uint64_t* legal, Py_ssize_t n_legal,
                      CodeKey* keys) noexcept nogil:
    """The game's action playing each of ``s``'s legal moves (``legal``: the game's legal
    action codes, in its order) into ``s.codes``: the one whose cards are the move's, the
    first of them for the pass; CODE_NONE when none is, CODE_SEVERAL when several readings
    of the cards are (the caller chooses among them). ``keys`` has room for ``n_legal``."""
    cdef Py_ssize_t i, lo, hi, mid
    cdef int k
    cdef uint64_t cards
    for i in range(n_legal):
        keys[i].cards = legal[i] & DDZ_CARDS_MASK
        keys[i].index = i
    # sorted by cards, then index: each move's cards found by bisection, the first first
    qsort(keys, n_legal, sizeof(CodeKey), compare_keys)
    for k in range(s.legal.n):
        cards = mask_of(s.legal.moves + k * MOVE_BYTES)
        lo = 0
        hi = n_legal
        while lo < hi:
            mid = (lo + hi) // 2
            if keys[mid].cards < cards:
                lo = mid + 1
            else:
                hi = mid
        if lo == n_legal or keys[lo].cards != cards:
            s.codes[k] = CODE_NONE
        elif cards and lo + 1 < n_legal and keys[lo + 1].cards == cards:
            s.codes[k] = CODE_SEVERAL
        else:
            s.codes[k] = legal[keys[lo].index]


cdef enum:
    # a seat's observation vector (ddz.doudizhu.observation.observation_layout): the offsets
    # of the fields observe_games reads, each a count per card symbol (17) or one-hot by
    # seat relative to the observer (3)
    V_HAND = 0
    V_PLAYED = 17            # 3 x 17: the observer, the next seat, the one after
    V_COUNTS = 68
    V_LANDLORD = 71
    V_PHASE = 128            # bidding, play, over
    V_CURRENT = 136
    V_DIRECTION = 139
    V_HISTORY = 141          # the moves of play, newest first: 17 counts, then the seat
    V_ENTRY = 20
    VIEW_HISTORY = MAX_PLIES + 1     # one more than seat_build takes: a longer one is refused


cdef inline uint64_t view_mask(const int8_t* counts) noexcept nogil:
    """17 counts of an observation vector as a ddz card mask (a count past 7 is cut to its
    digit; digits_of refuses what no deck holds)."""
    cdef int r
    cdef uint64_t mask = 0
    for r in range(17):
        mask |= (<uint64_t>(<uint8_t>counts[r] & 7)) << (3 * r)
    return mask


cdef class DouzeroSeats:
    """DouZero's features of many seats' views in one call (``observe``): no DouZero game is
    dealt or replayed, the features are written from the views themselves.

    ``observe`` writes them grouped by position in the compact form of
    ``DouzeroTables.observe_compact``, into arrays this object keeps and reuses: the arrays
    of one call are overwritten by the next."""

    cdef Seat* seats
    cdef Py_ssize_t capacity     # seats allocated (each with its legal-move list)
    cdef bint busy               # observe is running
    cdef MoveList scratch        # the moves douzero_allows generates
    cdef Verdict* memo           # douzero_allows' verdicts (VERDICTS slots)
    cdef uint64_t* codes         # the moves of the view being read
    cdef Py_ssize_t codes_capacity
    cdef object legal_out        # observe_games: the game being read's legal action codes
    cdef uint64_t* legal_ptr
    cdef Py_ssize_t legal_capacity
    cdef CodeKey* keys           # match_codes' sorting room (legal_capacity entries)
    cdef object single_out       # observe_games, per view: the code of its one legal action
    cdef uint64_t* single_ptr
    cdef object view_out         # observe_games: the observation vector being read
    cdef int8_t* view_ptr
    cdef object position_out     # per view: int8 position
    cdef object status_out       # per view: int8 status, int32 legal count, int64 first row
    cdef object count_out
    cdef object start_out
    cdef list xna_out            # per position, as DouzeroTables' compact form
    cdef list z_out
    cdef list tables_out
    cdef list offsets_out
    cdef list actions_out
    cdef list slots_out
    cdef list moves_out          # per position: each row's move as a ddz card mask, uint64
    cdef list game_codes_out     # observe_games, per position: each row's action code, uint64
    # the data of the arrays above, taken when they are made (data_of costs microseconds)
    cdef int8_t* position_ptr
    cdef int8_t* status_ptr
    cdef int32_t* count_ptr
    cdef int64_t* start_ptr
    cdef int8_t* xna_ptr[3]
    cdef int8_t* z_ptr[3]
    cdef int64_t* tables_ptr[3]
    cdef int64_t* offsets_ptr[3]
    cdef int8_t* actions_ptr[3]
    cdef int64_t* slots_ptr[3]
    cdef uint64_t* moves_ptr[3]
    cdef uint64_t* game_codes_ptr[3]

    def __cinit__(self):
        self.scratch.cap = 256
        self.scratch.moves = <uint8_t*>malloc(self.scratch.cap * MOVE_BYTES)
        self.memo = <Verdict*>calloc(VERDICTS, sizeof(Verdict))
        if self.scratch.moves == NULL or self.memo == NULL:
            raise MemoryError()
        self.xna_out = [None, None, None]
        self.z_out = [None, None, None]
        self.tables_out = [None, None, None]
        self.offsets_out = [None, None, None]
        self.actions_out = [None, None, None]
        self.slots_out = [None, None, None]
        self.moves_out = [None, None, None]
        self.game_codes_out = [None, None, None]
        self.view_out = np.zeros(V_HISTORY + V_ENTRY * VIEW_HISTORY, dtype=np.int8)
        self.view_ptr = <int8_t*>data_of(self.view_out)

    def __dealloc__(self):
        cdef Py_ssize_t i
        if self.seats != NULL:
            for i in range(self.capacity):
                free(self.seats[i].legal.moves)
                free(self.seats[i].codes)
            free(self.seats)
        free(self.scratch.moves)
        free(self.memo)
        free(self.codes)
        free(self.keys)

    cdef int _grow_seats(self, Py_ssize_t n) except -1:
        cdef Py_ssize_t i, total
        cdef Seat* grown
        cdef int p, width
        if n <= self.capacity and self.status_out is not None:
            return 0
        total = max(n, 2 * self.capacity, 1)
        grown = <Seat*>realloc(self.seats, total * sizeof(Seat))
        if grown == NULL:
            raise MemoryError()
        self.seats = grown
        for i in range(self.capacity, total):
            memset(&self.seats[i], 0, sizeof(Seat))
        for i in range(self.capacity, total):
            self.seats[i].legal.cap = 64
            self.seats[i].legal.moves = <uint8_t*>malloc(64 * MOVE_BYTES)
            self.capacity = i + 1
            if self.seats[i].legal.moves == NULL:
                raise MemoryError()
        self.position_out = np.empty(total, dtype=np.int8)
        self.single_out = np.empty(total, dtype=np.uint64)
        self.single_ptr = <uint64_t*>data_of(self.single_out)
        self.status_out = np.empty(total, dtype=np.int8)
        self.count_out = np.empty(total, dtype=np.int32)
        self.start_out = np.empty(total, dtype=np.int64)
        self.position_ptr = <int8_t*>data_of(self.position_out)
        self.status_ptr = <int8_t*>data_of(self.status_out)
        self.count_ptr = <int32_t*>data_of(self.count_out)
        self.start_ptr = <int64_t*>data_of(self.start_out)
        for p in range(3):
            width = LANDLORD_X if p == LANDLORD else FARMER_X
            self.xna_out[p] = np.empty((total, width), dtype=np.int8)
            self.z_out[p] = np.empty((total, 5, 162), dtype=np.int8)
            self.tables_out[p] = np.empty(total, dtype=np.int64)
            self.offsets_out[p] = np.empty(total + 1, dtype=np.int64)
            self.xna_ptr[p] = <int8_t*>data_of(self.xna_out[p])
            self.z_ptr[p] = <int8_t*>data_of(self.z_out[p])
            self.tables_ptr[p] = <int64_t*>data_of(self.tables_out[p])
            self.offsets_ptr[p] = <int64_t*>data_of(self.offsets_out[p])
        return 0

    cdef int _grow_rows(self, int p, Py_ssize_t rows) except -1:
        cdef Py_ssize_t total
        if self.actions_out[p] is not None and rows <= self.actions_out[p].shape[0]:
            return 0
        total = rows if self.actions_out[p] is None else max(rows, 2 * self.actions_out[p].shape[0])
        self.actions_out[p] = np.empty((total, CARD_BITS), dtype=np.int8)
        self.slots_out[p] = np.empty(total, dtype=np.int64)
        self.moves_out[p] = np.empty(total, dtype=np.uint64)
        self.game_codes_out[p] = np.empty(total, dtype=np.uint64)
        self.actions_ptr[p] = <int8_t*>data_of(self.actions_out[p])
        self.slots_ptr[p] = <int64_t*>data_of(self.slots_out[p])
        self.moves_ptr[p] = <uint64_t*>data_of(self.moves_out[p])
        self.game_codes_ptr[p] = <uint64_t*>data_of(self.game_codes_out[p])
        return 0

    cdef int _grow_legal(self, Py_ssize_t n) except -1:
        cdef CodeKey* grown
        if n <= self.legal_capacity and self.legal_out is not None:
            return 0
        n = max(n, 2 * self.legal_capacity, 256)
        grown = <CodeKey*>realloc(self.keys, n * sizeof(CodeKey))
        if grown == NULL:
            raise MemoryError()
        self.keys = grown
        self.legal_out = np.empty(n, dtype=np.uint64)
        self.legal_ptr = <uint64_t*>data_of(self.legal_out)
        self.legal_capacity = n
        return 0

    cdef tuple _group(self, int p, Py_ssize_t ntab, Py_ssize_t rows, bint games):
        if games:
            return (self.tables_out[p][:ntab], self.offsets_out[p][:ntab + 1],
                    self.xna_out[p][:ntab], self.z_out[p][:ntab], self.actions_out[p][:rows],
                    self.slots_out[p][:rows], self.moves_out[p][:rows],
                    self.game_codes_out[p][:rows])
        return (self.tables_out[p][:ntab], self.offsets_out[p][:ntab + 1],
                self.xna_out[p][:ntab], self.z_out[p][:ntab], self.actions_out[p][:rows],
                self.slots_out[p][:rows], self.moves_out[p][:rows])

    cdef int enter(self) except -1:
        # the GIL is held throughout a call (the views are Python objects, and a call takes
        # a few microseconds a view), but reading a view may run Python code that lets
        # another thread in: busy refuses it rather than have it grow or rewrite the seats
        if self.busy:
            raise RuntimeError("this DouzeroSeats is in use by another thread "
                               "(ddz.compat.douzero.SeatEncoder serialises its callers)")
        self.busy = True
        return 0

    def observe(self, views):
        """DouZero's features of each view of ``views``: each a ddz seat's observation
        (``ddz.Observation``: read by its attributes ``phase``, ``landlord``, ``player``,
        ``current_player``, ``direction``, ``card_counts``, ``hand.mask``, ``played[seat]
        .mask`` and ``history``, whose records give ``phase`` and ``action.code``), or None
        for one that is not.

        Returns ``(position, status, count, start, groups)``: per view its DouZero position
        (0 landlord, 1 landlord_up, 2 landlord_down; 0 where not written), its status (0:
        written; 1: a move DouZero's rules do not allow where it was played; 2: not a view
        of DouZero's deal, with its history; 3: not its turn in the card play), its number
        of legal moves and its first row in its position's group (0 and 0 where not
        written); ``groups[p] = (tables, offsets, x_no_action, z, actions, row_slot,
        moves)`` as ``DouzeroTables.observe_compact``'s, ``tables`` the views of position
        ``p`` written (ascending), and ``moves`` each row's move as a ddz card mask. The
        arrays are this object's, overwritten by the next call."""
        cdef Py_ssize_t n = len(views), i
        cdef int status
        self.enter()
        try:
            self._grow_seats(n)
            for i in range(n):
                status = self._read(i, views[i])
                self.status_ptr[i] = status
            return self._write(n, False)
        finally:
            self.busy = False

    def observe_games(self, cores):
        """``observe`` for games (``ddz._core.game.GameCore``s) at the turn of the seat to
        act, read from what that seat may know: its observation vector
        (``GameCore.observation_into``, ``Game.observation_vector``: its hand, each seat's
        number of cards and played cards, the landlord, the direction and the moves of the
        card play) and its legal action codes; no observation object is built.

        Returns ``(position, status, count, start, groups, single)`` as ``observe``'s, with
        a fifth status, 4: one legal action (no features are written: ``single[i]`` is its
        code); status 3 also stands for a game not in its card play. Each group has an
        eighth array, ``codes``: row ``r``'s game action code, the legal action playing the
        row's cards, the first for the pass; 2**64 - 1 where no legal action plays them,
        2**64 - 2 where several readings of them do (the caller chooses)."""
        cdef Py_ssize_t n = len(cores), i
        cdef int status
        self.enter()
        try:
            self._grow_seats(n)
            self._grow_legal(256)
            for i in range(n):
                status = self._read_core(i, cores[i])
                self.status_ptr[i] = status
            return self._write(n, True) + (self.single_out[:n],)
        finally:
            self.busy = False

    cdef int _read_core(self, Py_ssize_t i, object core) except -1:
        """Seat ``i`` built from the view of the seat to act in the game ``core`` (its
        observation vector, ``GameCore.observation_into``: what that seat may know); its
        SEAT_ status (and position, and where it is SEAT_OK, each legal move's code)."""
        cdef uint64_t hand
        cdef uint64_t played[3]
        cdef int32_t left[3]
        cdef int landlord = -1, player, a, p, rel, status
        cdef Py_ssize_t k, n = 0, n_legal
        cdef object phase
        cdef const int8_t* v = self.view_ptr
        cdef const int8_t* entry
        cdef uint64_t* grown
        cdef Seat* s = &self.seats[i]
        self.position_ptr[i] = 0
        self.single_ptr[i] = 0
        if type(core) is not GameCore:
            raise TypeError(f"a game's core (ddz._core.game.GameCore), not {type(core).__name__}")
        phase = core.phase
        if not (phase is PLAY or phase == PLAY):
            return SEAT_NOT_TURN
        n_legal = core.legal_codes_into(self.legal_out)
        while n_legal > self.legal_capacity:
            self._grow_legal(n_legal)
            n_legal = core.legal_codes_into(self.legal_out)
        if n_legal == 1:
            self.single_ptr[i] = self.legal_ptr[0]
            return SEAT_ONE
        player = core.current
        if not 0 <= player < 3:
            return SEAT_NOT_DEAL
        core.observation_into(player, VIEW_HISTORY, self.view_out)
        # its fields relative to the seat: index 0 is the seat, 1 the next, 2 the one after
        if v[V_DIRECTION] != 1 or v[V_PHASE + 1] != 1 or v[V_CURRENT] != 1:
            return SEAT_NOT_DEAL
        for rel in range(3):
            if v[V_LANDLORD + rel]:
                landlord = rel
        if landlord < 0:
            return SEAT_NOT_TURN
        hand = view_mask(v + V_HAND)
        for p in range(3):
            # landlord_up sits before the landlord, landlord_down after it
            rel = (landlord + (0 if p == LANDLORD else (2 if p == UP else 1))) % 3
            played[p] = view_mask(v + V_PLAYED + 17 * rel)
            left[p] = v[V_COUNTS + rel]
        a = PLAY_ORDER[(3 - landlord) % 3]
        # the moves of the card play, newest first; the slots past the first move are empty
        # (not even a seat), and there is room for one more than a seat_build takes
        while n < VIEW_HISTORY:
            entry = v + V_HISTORY + V_ENTRY * n
            if not (entry[17] or entry[18] or entry[19]):
                break
            n += 1
        if n > self.codes_capacity:
            grown = <uint64_t*>realloc(self.codes, n * sizeof(uint64_t))
            if grown == NULL:
                raise MemoryError()
            self.codes = grown
            self.codes_capacity = n
        for k in range(n):
            self.codes[n - 1 - k] = view_mask(v + V_HISTORY + V_ENTRY * k)
        status = seat_build(s, a, hand, played, left, self.codes, n, &self.scratch, self.memo)
        if status < 0:
            raise MemoryError()
        if status != SEAT_OK:
            return status
        if s.legal.n > s.codes_cap:
            grown = <uint64_t*>realloc(s.codes, s.legal.cap * sizeof(uint64_t))
            if grown == NULL:
                raise MemoryError()
            s.codes = grown
            s.codes_cap = s.legal.cap
        match_codes(s, self.legal_ptr, n_legal, self.keys)
        self.position_ptr[i] = a
        return SEAT_OK

    cdef int _read(self, Py_ssize_t i, object seen) except -1:
        """Seat ``i`` built from the view ``seen``; its SEAT_ status (and position)."""
        cdef uint64_t hand
        cdef uint64_t played[3]
        cdef int32_t left[3]
        cdef int landlord, player, a, p, seat, status
        cdef Py_ssize_t k = 0, records
        cdef object counts, cards, history, record, phase
        cdef uint64_t* grown
        self.position_ptr[i] = 0
        if seen is None:
            return SEAT_NOT_DEAL
        counts = seen.card_counts
        if len(counts) != 3 or seen.direction != 1:
            return SEAT_NOT_DEAL
        if seen.phase != PLAY or seen.landlord is None or seen.current_player != seen.player:
            return SEAT_NOT_TURN
        landlord = seen.landlord
        player = seen.player
        if not (0 <= landlord < 3 and 0 <= player < 3):
            return SEAT_NOT_DEAL
        cards = seen.played
        if len(cards) != 3:
            return SEAT_NOT_DEAL
        for p in range(3):
            # the seats of the landlord, landlord_up (before it) and landlord_down (after)
            seat = (landlord + (0 if p == LANDLORD else (2 if p == UP else 1))) % 3
            played[p] = cards[seat].mask
            left[p] = counts[seat]
        # the landlord leads, then landlord_down, then landlord_up
        a = PLAY_ORDER[(player - landlord + 3) % 3]
        hand = seen.hand.mask
        history = seen.history
        records = len(history)
        if records > self.codes_capacity:
            grown = <uint64_t*>realloc(self.codes, records * sizeof(uint64_t))
            if grown == NULL:
                raise MemoryError()
            self.codes = grown
            self.codes_capacity = records
        for record in history:
            phase = record.phase
            if phase is PLAY or phase == PLAY:
                if k == records:
                    raise ValueError("the history changed while it was read")
                self.codes[k] = (<uint64_t>record.action.code) & DDZ_CARDS_MASK
                k += 1
        status = seat_build(&self.seats[i], a, hand, played, left, self.codes, k,
                            &self.scratch, self.memo)
        if status < 0:
            raise MemoryError()
        if status == SEAT_OK:
            self.position_ptr[i] = a
        return status

    cdef object _write(self, Py_ssize_t n, bint games):
        """Each written seat's features and legal moves (with ``games``, their codes too)
        into its position's group."""
        cdef Py_ssize_t i, k, s, start
        cdef Py_ssize_t rows[3]
        cdef Py_ssize_t ntab[3]
        cdef int p, width
        cdef Seat* seat
        cdef int8_t* actions
        for p in range(3):
            rows[p] = 0
            ntab[p] = 0
        for i in range(n):
            if self.status_ptr[i] != SEAT_OK:
                self.count_ptr[i] = 0
                self.start_ptr[i] = 0
                continue
            p = self.position_ptr[i]
            self.count_ptr[i] = self.seats[i].legal.n
            self.start_ptr[i] = rows[p]
            rows[p] += self.seats[i].legal.n
        for p in range(3):
            self._grow_rows(p, rows[p])
            self.offsets_ptr[p][0] = 0
        for i in range(n):
            if self.status_ptr[i] != SEAT_OK:
                continue
            seat = &self.seats[i]
            p = self.position_ptr[i]
            width = LANDLORD_X if p == LANDLORD else FARMER_X
            s = ntab[p]
            ntab[p] += 1
            start = self.start_ptr[i]
            encode_features(p, seat.hand, seat.other, seat.left, &seat.played[0][0],
                            &seat.last[0][0], seat.n_bombs, &seat.history[0][0], seat.n_plies,
                            self.xna_ptr[p] + s * width, self.z_ptr[p] + s * Z_VALUES)
            actions = self.actions_ptr[p] + start * CARD_BITS
            for k in range(seat.legal.n):
                encode_cards(seat.legal.moves + k * MOVE_BYTES, actions + k * CARD_BITS)
                self.slots_ptr[p][start + k] = s
                self.moves_ptr[p][start + k] = mask_of(seat.legal.moves + k * MOVE_BYTES)
            if games and seat.legal.n:
                memcpy(self.game_codes_ptr[p] + start, seat.codes, seat.legal.n * sizeof(uint64_t))
            self.tables_ptr[p][s] = i
            self.offsets_ptr[p][s + 1] = start + seat.legal.n
        groups = (self._group(0, ntab[0], rows[0], games),
                  self._group(1, ntab[1], rows[1], games),
                  self._group(2, ntab[2], rows[2], games))
        return (self.position_out[:n], self.status_out[:n], self.count_out[:n],
                self.start_out[:n], groups)


def _restore_core(hands, history):
    """The DouzeroCore pickled by __reduce__: the deal, then each move replayed (checked to
    be legal there)."""
    cdef DouzeroCore core = DouzeroCore()
    cdef Py_ssize_t k
    cdef int index
    deal = np.ascontiguousarray(hands, dtype=np.uint8)
    moves = np.ascontiguousarray(history, dtype=np.uint8)
    if deal.ndim != 2 or moves.ndim != 2 or moves.shape[1] != RANKS:
        raise ValueError("not a pickled DouzeroCore")
    if moves.shape[0] > MAX_PLIES:
        raise ValueError("not a pickled DouzeroCore: more moves than a game can have")
    core.deal(deal)
    for k in range(moves.shape[0]):
        index = -1 if core.t.winner_at >= 0 else core.find(moves[k])
        if index < 0:
            raise ValueError(f"not a pickled DouzeroCore: move {k} is not legal there")
        core.play(index)
    return core


def python_set_order(const uint8_t[::1] counts not None):
    """The ranks with a card in ``counts`` in the order ``set_order`` predicts (for tests)."""
    cdef uint8_t h[16]
    cdef int order[15]
    cdef int r, n
    if counts.shape[0] != RANKS:
        raise ValueError("15 counts")
    for r in range(RANKS):
        h[r] = counts[r]
    n = set_order(h, order)
    return [order[r] for r in range(n)]
