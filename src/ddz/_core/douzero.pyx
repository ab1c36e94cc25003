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
from libc.stdint cimport uint8_t, int8_t
from libc.stdlib cimport malloc, realloc, free
from libc.string cimport memcpy, memset, memcmp

import numpy as np

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
    cdef int r, c
    memset(out, 0, CARD_BITS)
    for r in range(13):
        for c in range(m[r]):
            out[4 * r + c] = 1
    out[52] = m[13] > 0
    out[53] = m[14] > 0


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


cdef class DouzeroCore:
    """The card-play state of one DouZero game and its legal moves in DouZero's order."""

    cdef uint8_t hands[3][16]
    cdef uint8_t played[3][16]
    cdef uint8_t last[3][16]
    cdef uint8_t history[MAX_PLIES][16]
    cdef int n_plies
    cdef int to_act
    cdef int n_bombs
    cdef int winner_at           # -1 while playing, else the position that emptied its hand
    cdef MoveList legal

    def __cinit__(self):
        self.legal.cap = 256
        self.legal.n = 0
        self.legal.failed = 0
        self.legal.moves = <uint8_t*>malloc(self.legal.cap * MOVE_BYTES)
        if self.legal.moves == NULL:
            raise MemoryError()
        self.winner_at = -1

    def __dealloc__(self):
        free(self.legal.moves)

    def __reduce__(self):
        # pickled as the deal and the moves played, replayed by _restore_core: the legal
        # moves, bombs and last moves follow from them, and a tampered pickle can only
        # give a ValueError (the replay checks every move), never a core out of bounds
        cdef int p, r
        if self.hands[0][TOTAL] + self.hands[1][TOTAL] + self.hands[2][TOTAL] == 0:
            return (DouzeroCore, ())    # not dealt: a dealt game keeps cards in two hands
        start = np.empty((3, RANKS), dtype=np.uint8)
        cdef uint8_t[:, ::1] view = start
        for p in range(3):
            for r in range(RANKS):
                view[p, r] = self.hands[p][r] + self.played[p][r]
        return (_restore_core, (start, self.history_counts()))

    def deal(self, const uint8_t[:, ::1] hands not None):
        """Start the card play from three hands (count rows, landlord first). Only what keeps
        the core in bounds is checked here; ddz.compat.douzero checks the deal."""
        cdef int p, r, total
        if hands.shape[0] != 3 or hands.shape[1] != RANKS:
            raise ValueError("three rows of 15 counts")
        for p in range(3):
            total = 0
            for r in range(RANKS):
                if hands[p, r] > (4 if r < 13 else 1):
                    raise ValueError("more of a card than the deck has")
                total += hands[p, r]
            if not 1 <= total <= 20:
                raise ValueError("a hand holds 1 to 20 cards")
        memset(self.hands, 0, sizeof(self.hands))
        memset(self.played, 0, sizeof(self.played))
        memset(self.last, 0, sizeof(self.last))
        for p in range(3):
            total = 0
            for r in range(RANKS):
                self.hands[p][r] = hands[p, r]
                total += hands[p, r]
            self.hands[p][TOTAL] = total
        self.n_plies = 0
        self.to_act = LANDLORD
        self.n_bombs = 0
        self.winner_at = -1
        self._generate()

    cdef int _generate(self) except -1:
        cdef uint8_t empty[16]
        cdef const uint8_t* rival = empty
        memset(empty, 0, MOVE_BYTES)
        if self.n_plies:
            rival = self.history[self.n_plies - 1]
            if rival[TOTAL] == 0 and self.n_plies >= 2:
                rival = self.history[self.n_plies - 2]
        self.legal.failed = 0
        legal_moves(self.hands[self.to_act], rival, &self.legal)
        if self.legal.failed:
            raise MemoryError()
        return 0

    @property
    def acting(self):
        return self.to_act

    @property
    def position(self):
        return POSITIONS[self.to_act]

    @property
    def bomb_num(self):
        return self.n_bombs

    @property
    def winner(self):
        return self.winner_at

    @property
    def plies(self):
        return self.n_plies

    def cards_left(self, int position):
        """The number of cards in the hand of ``position`` (0, 1 or 2)."""
        if not 0 <= position < 3:
            raise IndexError("no position %d" % position)
        return self.hands[position][TOTAL]

    def hand_counts(self):
        """The three hands as a (3, 15) uint8 array of counts."""
        out = np.empty((3, RANKS), dtype=np.uint8)
        cdef uint8_t[:, ::1] view = out
        cdef int p, r
        for p in range(3):
            for r in range(RANKS):
                view[p, r] = self.hands[p][r]
        return out

    def history_counts(self):
        """The moves played so far as a (plies, 15) uint8 array of counts."""
        out = np.empty((self.n_plies, RANKS), dtype=np.uint8)
        cdef uint8_t[:, ::1] view = out
        cdef int k, r
        for k in range(self.n_plies):
            for r in range(RANKS):
                view[k, r] = self.history[k][r]
        return out

    def legal_count(self):
        return self.legal.n

    def legal_actions(self):
        """The legal moves as DouZero lists them: fresh lists of card values."""
        cdef int k, r, c, i
        cdef const uint8_t* m
        cdef list out = PyList_New(self.legal.n)
        cdef list cards
        cdef object value
        for k in range(self.legal.n):
            m = self.legal.moves + k * MOVE_BYTES
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
        for k in range(self.legal.n):
            if memcmp(self.legal.moves + k * MOVE_BYTES, m, MOVE_BYTES) == 0:
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
        for k in range(self.legal.n):
            if memcmp(self.legal.moves + k * MOVE_BYTES, m, MOVE_BYTES) == 0:
                return k
        return -1

    def play(self, int index):
        """Play legal move ``index`` (checked); returns True when the game is over."""
        if self.winner_at >= 0 or not 0 <= index < self.legal.n:
            raise IndexError("no legal move %d" % index)
        if self.n_plies >= MAX_PLIES:
            raise RuntimeError("the game is longer than any DouZero game can be")
        cdef const uint8_t* m = self.legal.moves + index * MOVE_BYTES
        cdef int a = self.to_act, r
        if (m[TOTAL] == 4 and detect_bomb(m)) or (m[TOTAL] == 2 and m[13] and m[14]):
            self.n_bombs += 1
        memcpy(self.last[a], m, MOVE_BYTES)
        memcpy(self.history[self.n_plies], m, MOVE_BYTES)
        self.n_plies += 1
        for r in range(RANKS + 1):
            self.hands[a][r] -= m[r]
            self.played[a][r] += m[r]
        if self.hands[a][TOTAL] == 0:
            self.winner_at = a
            self.legal.n = 0
            return True
        self.to_act = DOWN if a == LANDLORD else (UP if a == DOWN else LANDLORD)
        self._generate()
        return False

    def observation(self):
        """``douzero.env.env.get_obs`` for the position to act."""
        cdef int n = self.legal.n, a = self.to_act, width, k, j, r, start
        cdef int teammate
        cdef int8_t xna[FARMER_X]
        cdef int8_t bits[CARD_BITS]
        cdef uint8_t other[16]
        cdef uint8_t empty[16]
        cdef const uint8_t* last_move = empty
        memset(empty, 0, MOVE_BYTES)
        if self.n_plies:
            last_move = self.history[self.n_plies - 1]
            if last_move[TOTAL] == 0 and self.n_plies >= 2:
                last_move = self.history[self.n_plies - 2]
        for r in range(RANKS):
            other[r] = 0
            for j in range(3):
                if j != a:
                    other[r] += self.hands[j][r]
        encode_cards(self.hands[a], xna)
        encode_cards(other, xna + 54)
        if a == LANDLORD:
            width = LANDLORD_X
            encode_cards(last_move, xna + 108)
            encode_cards(self.played[UP], xna + 162)
            encode_cards(self.played[DOWN], xna + 216)
            one_hot(self.hands[UP][TOTAL], 17, xna + 270)
            one_hot(self.hands[DOWN][TOTAL], 17, xna + 287)
            bomb_one_hot(self.n_bombs, xna + 304)
        else:
            width = FARMER_X
            teammate = DOWN if a == UP else UP
            encode_cards(self.played[LANDLORD], xna + 108)
            encode_cards(self.played[teammate], xna + 162)
            encode_cards(last_move, xna + 216)
            encode_cards(self.last[LANDLORD], xna + 270)
            encode_cards(self.last[teammate], xna + 324)
            one_hot(self.hands[LANDLORD][TOTAL], 20, xna + 378)
            one_hot(self.hands[teammate][TOTAL], 17, xna + 398)
            bomb_one_hot(self.n_bombs, xna + 415)

        x_no_action = np.empty(width, dtype=np.int8)
        z = np.zeros((5, 162), dtype=np.int8)
        x_batch = np.empty((n, width + CARD_BITS), dtype=np.float32)
        z_batch = np.empty((n, 5, 162), dtype=np.float32)
        cdef int8_t[::1] xna_view = x_no_action
        cdef int8_t[:, ::1] z_view = z
        cdef float[:, ::1] xb = x_batch
        cdef float[:, :, ::1] zb = z_batch
        cdef int8_t* zflat = &z_view[0, 0]
        cdef float zrow[810]
        with nogil:
            memcpy(&xna_view[0], xna, width)
            start = self.n_plies - HISTORY
            for j in range(HISTORY):
                if start + j >= 0:
                    encode_cards(self.history[start + j], zflat + j * CARD_BITS)
            for j in range(810):
                zrow[j] = zflat[j]
            for k in range(n):
                if k == 0:
                    for j in range(width):
                        xb[0, j] = xna[j]
                else:
                    memcpy(&xb[k, 0], &xb[0, 0], width * sizeof(float))
                encode_cards(self.legal.moves + k * MOVE_BYTES, bits)
                for j in range(CARD_BITS):
                    xb[k, width + j] = bits[j]
                memcpy(&zb[k, 0, 0], zrow, 810 * sizeof(float))
        return {
            "position": POSITIONS[a],
            "x_batch": x_batch,
            "z_batch": z_batch,
            "legal_actions": self.legal_actions(),
            "x_no_action": x_no_action,
            "z": z,
        }


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
        index = -1 if core.winner_at >= 0 else core.find(moves[k])
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
