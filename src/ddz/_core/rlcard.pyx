# cython: language_level=3, cdivision=True
"""RLCard 1.2.0's Dou Dizhu in C: ddz's game under ddz.RLCARD, with RLCard's action ids,
its order of legal actions and its state encoding.

``ddz.compat.rlcard`` is a drop-in for ``rlcard.make("doudizhu")``. The game is ddz's own
(state.pxd: seat 0 the landlord, as RLCard always has it); ``ddz.RLCARD``'s move set is RLCard's
27,471 moves, so the legal codes the generator gives map one to one onto RLCard's action ids
(``ddz.doudizhu.actions.rlcard_action_ids``). RLCard lists the answers to a move as its
``get_gt_cards`` walks its tables: the pass, the moves of the same type with a higher weight,
then the rocket, then the bombs (after a bomb: the higher bombs, then the rocket); ``rank``
holds each id's place in that walk. Leads come out in id order (RLCard's come out of a Python
set of strings, in an order that changes from process to process).

``encode`` writes RLCard's ``obs`` vector (``DoudizhuEnv._extract_state``), 790 entries for
the landlord and 901 for a farmer, including RLCard's own readings: the "last" landlord and
teammate actions it encodes are their *first* moves of the game (it keeps the last match of a
loop that walks the trace backwards), and a seat with no cards left has its one-hot count in
the last entry (index -1).
"""

from libc.stdint cimport uint64_t, int64_t, int32_t, int8_t, uint8_t
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy, memset

from ddz._core.layout cimport *
from ddz._core.ruleset cimport *
from ddz._core.readings cimport *
from ddz._core.generator cimport *
from ddz._core.state cimport *

import numpy as np

cdef enum:
    ACTIONS = 27472           # RLCard's ids: 27,471 moves, then the pass
    PASS_ID = 27471
    TRACE_PLIES = 256           # at most 3 plies per card played
    LEGAL_CAP = 4096
    HISTORY = 9
    CARD_BITS = 54
    LANDLORD_OBS = 790
    FARMER_OBS = 901


# a count's 4 thermometer entries (count c: the first c are 1)
cdef int8_t THERMO[5][4]
for _count in range(5):
    for _c in range(4):
        THERMO[_count][_c] = 1 if _c < _count else 0


cdef inline void encode_cards(uint64_t cards, int8_t* out) noexcept nogil:
    """RLCard's ``_cards2array``: 4 entries per rank 3..2 (the count as a thermometer), then
    one entry per joker."""
    cdef int r, c
    for r in range(13):
        # one 4-byte copy a rank (a count is at most 4 in a deal of one deck)
        c = count_of(cards, r)
        memcpy(out + 4 * r, THERMO[c if c <= 4 else 4], 4)
    out[52] = count_of(cards, SMALL_JOKER) > 0
    out[53] = count_of(cards, BIG_JOKER) > 0


cdef inline void one_hot(int count, int size, int8_t* out) noexcept nogil:
    memset(out, 0, size)
    out[count - 1 if count > 0 else size - 1] = 1


cdef class RlcardCore:
    """One RLCard Dou Dizhu game: ddz's state, the trace, and the states before each ply."""

    cdef GameConfig cfg
    cdef GameState s
    cdef GameState* before      # the state before each ply, for step_back
    cdef int* trace_ids         # the RLCard id of each ply
    cdef int plies
    cdef uint64_t* code_of      # RLCard id -> ddz move code
    cdef uint64_t* sorted_codes # ddz codes sorted, and the id of each
    cdef int32_t* sorted_ids
    cdef int32_t* rank          # RLCard id -> place in RLCard's answer walk
    cdef int n_codes
    cdef int legal[LEGAL_CAP]
    cdef int n_legal

    def __cinit__(self, object rules, const uint64_t[::1] codes not None,
                  const int64_t[::1] ids not None, const int64_t[::1] sorted_positions not None,
                  const int32_t[::1] answer_order not None):
        cdef int i, j, n = 0
        cdef int64_t k
        cdef uint64_t code
        cdef int32_t rlcard_id
        self.cfg = config_of(rules)
        self.before = <GameState*>malloc(TRACE_PLIES * sizeof(GameState))
        self.trace_ids = <int*>malloc(TRACE_PLIES * sizeof(int))
        self.code_of = <uint64_t*>malloc(ACTIONS * sizeof(uint64_t))
        self.sorted_codes = <uint64_t*>malloc(ACTIONS * sizeof(uint64_t))
        self.sorted_ids = <int32_t*>malloc(ACTIONS * sizeof(int32_t))
        self.rank = <int32_t*>malloc(ACTIONS * sizeof(int32_t))
        if (self.before == NULL or self.trace_ids == NULL or self.code_of == NULL
                or self.sorted_codes == NULL or self.sorted_ids == NULL or self.rank == NULL):
            raise MemoryError()
        if (codes.shape[0] != ids.shape[0] or sorted_positions.shape[0] != codes.shape[0]
                or answer_order.shape[0] != ACTIONS - 1):
            raise ValueError("the action tables do not match RLCard's")
        for i in range(ACTIONS):
            self.code_of[i] = <uint64_t>-1
            self.rank[i] = -1
        for i in range(codes.shape[0]):
            if ids[i] < 0:
                continue
            if ids[i] >= ACTIONS or self.code_of[ids[i]] != <uint64_t>-1:
                raise ValueError("the action tables do not match RLCard's")
            self.code_of[ids[i]] = codes[i]
            n += 1
        if n == ACTIONS:
            # the codes sorted, for the binary search (sorted once, when the tables load)
            j = 0
            for i in range(sorted_positions.shape[0]):
                k = sorted_positions[i]
                if not 0 <= k < codes.shape[0]:
                    raise ValueError("sorted_positions is not an order of the codes")
                if ids[k] < 0:
                    continue
                if j and codes[k] <= self.sorted_codes[j - 1]:
                    raise ValueError("sorted_positions does not sort the codes")
                self.sorted_codes[j] = codes[k]
                self.sorted_ids[j] = <int32_t>ids[k]
                j += 1
        if n != ACTIONS:
            raise ValueError("the action tables do not match RLCard's")
        self.n_codes = n
        for i in range(ACTIONS - 1):
            rlcard_id = answer_order[i]
            if not 0 <= rlcard_id < PASS_ID or self.rank[rlcard_id] != -1:
                raise ValueError("the answer order is not a permutation of RLCard's moves")
            self.rank[rlcard_id] = i
        self.rank[PASS_ID] = -1
        memset(&self.s, 0, sizeof(GameState))
        self.s.phase = OVER
        self.s.current = -1
        self.plies = 0
        self.n_legal = 0

    def __dealloc__(self):
        free(self.before)
        free(self.trace_ids)
        free(self.code_of)
        free(self.sorted_codes)
        free(self.sorted_ids)
        free(self.rank)

    cdef int id_of(self, uint64_t code) noexcept nogil:
        cdef int low = 0, high = self.n_codes, middle
        while low < high:
            middle = (low + high) // 2
            if self.sorted_codes[middle] < code:
                low = middle + 1
            else:
                high = middle
        if low < self.n_codes and self.sorted_codes[low] == code:
            return self.sorted_ids[low]
        return -1

    cdef int generate_for(self, int seat, int* out) noexcept nogil:
        """RLCard's legal ids for ``seat`` (its ``available_actions``): a lead when the last
        move played is its own or there is none, else the pass and the answers, in RLCard's
        order; -1 if a code has no id."""
        cdef uint64_t codes[LEGAL_CAP]
        cdef Sink sink
        cdef uint64_t table = self.s.table
        cdef int n, i, j, key, value, table_kind
        cdef int keys[LEGAL_CAP]
        if self.s.phase != PLAY:
            return 0
        if seat != self.s.current:
            # RLCard answers the last move played (its "greater player"'s), even when the
            # trick is over and the player to act leads
            table = 0
            for i in range(self.plies - 1, -1, -1):
                if self.trace_ids[i] != PASS_ID:
                    if i % 3 != seat:
                        table = self.code_of[self.trace_ids[i]]
                    break
        elif self.s.table_player == seat:
            table = 0
        sink.out = codes
        sink.cap = LEGAL_CAP
        sink.n = 0
        generate(self.s.hands[seat], table, &self.cfg.rs, &sink)
        n = <int>sink.n
        if n > LEGAL_CAP:
            return -1
        for i in range(n):
            out[i] = self.id_of(codes[i])
            if out[i] < 0:
                return -1
        if table == 0:
            # leads: id order (an insertion sort: the ids come nearly sorted)
            for i in range(1, n):
                value = out[i]
                j = i
                while j > 0 and out[j - 1] > value:
                    out[j] = out[j - 1]
                    j -= 1
                out[j] = value
            return n
        table_kind = code_kind(table)
        for i in range(n):
            if out[i] == PASS_ID:
                keys[i] = -1
                continue
            key = self.rank[out[i]]
            if code_kind(self.code_of[out[i]]) == ROCKET:
                key += 1 << 20 if table_kind != BOMB else 1 << 21
            elif code_kind(self.code_of[out[i]]) == BOMB and table_kind != BOMB:
                key += 1 << 21
            keys[i] = key
        for i in range(1, n):
            value = out[i]
            key = keys[i]
            j = i
            while j > 0 and keys[j - 1] > key:
                out[j] = out[j - 1]
                keys[j] = keys[j - 1]
                j -= 1
            out[j] = value
            keys[j] = key
        return n

    cdef int refresh(self) except -1:
        if self.s.phase != PLAY:
            self.n_legal = 0
            return 0
        self.n_legal = self.generate_for(self.s.current, self.legal)
        if self.n_legal < 0:
            self.n_legal = 0
            raise RuntimeError("a legal move has no RLCard id: the rules are not ddz.RLCARD")
        return 0

    def deal(self, uint64_t hand0, uint64_t hand1, uint64_t hand2, uint64_t kitty):
        """Start a game: seat 0 takes the kitty and leads. The hands must be a deal of the
        rules' deck (ddz.compat.rlcard deals them)."""
        cdef uint64_t hands[3]
        hands[0] = hand0
        hands[1] = hand1
        hands[2] = hand2
        cdef int r, total
        for r in range(NUM_DIGITS):
            total = (count_of(hand0, r) + count_of(hand1, r) + count_of(hand2, r)
                     + count_of(kitty, r))
            if total != (4 if r < 13 else (1 if r < 15 else 0)):
                raise ValueError("not a deal of the 54-card deck")
        if ((hand0 | hand1 | hand2 | kitty) & ~DDZ_CARDS_MASK or card_total(hand0) != 17
                or card_total(hand1) != 17 or card_total(hand2) != 17):
            raise ValueError("not a deal of the 54-card deck: 17 cards each and 3 in the kitty")
        init_state(&self.s, &self.cfg, hands, kitty, 0)
        self.plies = 0
        self.refresh()

    @property
    def current(self):
        return self.s.current

    @property
    def over(self):
        return self.s.phase == OVER

    @property
    def winner(self):
        return self.s.winner

    @property
    def plies(self):
        return self.plies

    def hands(self):
        return (self.s.hands[0], self.s.hands[1], self.s.hands[2])

    def played(self):
        return (self.s.played[0], self.s.played[1], self.s.played[2])

    def trace(self):
        """The RLCard ids played so far, in order."""
        return [self.trace_ids[i] for i in range(self.plies)]

    def legal_ids(self):
        return [self.legal[i] for i in range(self.n_legal)]

    def legal_ids_for(self, int seat):
        """The ids RLCard would offer ``seat`` now (its ``available_actions``)."""
        cdef int out[LEGAL_CAP]
        cdef int n
        if not 0 <= seat < 3:
            raise IndexError("no seat %d" % seat)
        n = self.generate_for(seat, out)
        if n < 0:
            raise RuntimeError("a legal move has no RLCard id: the rules are not ddz.RLCARD")
        return [out[i] for i in range(n)]

    def view(self, int seat):
        """(the text of ``seat``'s hand, the other hands' text, the cards left per seat)."""
        cdef uint64_t others = 0
        cdef int i
        if not 0 <= seat < 3:
            raise IndexError("no seat %d" % seat)
        for i in range(3):
            if i != seat:
                others += self.s.hands[i]
        return (
            cards_text(self.s.hands[seat]),
            cards_text(others),
            [card_total(self.s.hands[0]), card_total(self.s.hands[1]),
             card_total(self.s.hands[2])],
        )

    def legal_parts(self, int seat, list features, tuple texts, object make_feature):
        """RLCard's ``legal_actions`` (id -> ``features[id]``, made by ``make_feature(id)``
        when it is None) for the player to act, and the list of ``texts`` RLCard offers
        ``seat`` (its ``raw_obs["actions"]``), built in one pass."""
        cdef int out[LEGAL_CAP]
        cdef int n, i, rlcard_id
        cdef dict legal = {}
        cdef list offered
        cdef object feature
        if not 0 <= seat < 3:
            raise IndexError("no seat %d" % seat)
        if len(features) != ACTIONS or len(texts) != ACTIONS:
            raise ValueError("one feature and one text per RLCard action")
        for i in range(self.n_legal):
            rlcard_id = self.legal[i]
            feature = features[rlcard_id]
            if feature is None:
                feature = make_feature(rlcard_id)
                if len(features) != ACTIONS:  # the callback must not resize the list
                    raise ValueError("one feature per RLCard action")
            legal[rlcard_id] = feature
        if seat == self.s.current or self.s.phase != PLAY:
            offered = [texts[self.legal[i]] for i in range(self.n_legal)]
        else:
            n = self.generate_for(seat, out)
            if n < 0:
                raise RuntimeError("a legal move has no RLCard id: the rules are not ddz.RLCARD")
            offered = [texts[out[i]] for i in range(n)]
        return legal, offered

    def is_legal(self, int rlcard_id):
        cdef int i
        for i in range(self.n_legal):
            if self.legal[i] == rlcard_id:
                return True
        return False

    def step(self, int rlcard_id):
        """Play a legal id (checked: False, and nothing changes, if it is not legal)."""
        return self.play(rlcard_id)

    cdef bint playable(self, int64_t rlcard_id) noexcept nogil:
        cdef int i
        if self.plies >= TRACE_PLIES:
            return False
        for i in range(self.n_legal):
            if self.legal[i] == rlcard_id:
                return True
        return False

    cdef bint play(self, int64_t rlcard_id) except -1:
        if not self.playable(rlcard_id):
            return False
        memcpy(&self.before[self.plies], &self.s, sizeof(GameState))
        self.trace_ids[self.plies] = rlcard_id
        self.plies += 1
        apply_action(&self.s, &self.cfg, 0 if rlcard_id == PASS_ID else self.code_of[rlcard_id])
        self.refresh()
        return True

    def step_back(self):
        """Undo the last ply; False at the start."""
        if self.plies == 0:
            return False
        self.plies -= 1
        memcpy(&self.s, &self.before[self.plies], sizeof(GameState))
        self.refresh()
        return True

    def encode(self, int seat, int8_t[::1] out not None):
        """RLCard's obs vector for ``seat`` into ``out`` (790 entries for seat 0, else 901)."""
        cdef int size = LANDLORD_OBS if seat == 0 else FARMER_OBS
        if not 0 <= seat < 3:
            raise IndexError("no seat %d" % seat)
        if out.shape[0] != size:
            raise ValueError("the obs of seat %d has %d entries" % (seat, size))
        with nogil:
            self.encode_into(seat, &out[0])

    cdef void encode_into(self, int seat, int8_t* o) noexcept nogil:
        """``encode``'s writing: ``seat``'s obs into ``o`` (790 or 901 entries)."""
        cdef int i, p, teammate, start, last
        cdef uint64_t others, last_cards
        others = 0
        for p in range(3):
            if p != seat:
                others += self.s.hands[p]
        encode_cards(self.s.hands[seat], o)
        encode_cards(others, o + 54)
        last_cards = 0
        if self.plies:
            last = self.trace_ids[self.plies - 1]
            if last == PASS_ID and self.plies >= 2:
                last = self.trace_ids[self.plies - 2]
            if last != PASS_ID:
                last_cards = code_cards(self.code_of[last])
        encode_cards(last_cards, o + 108)
        start = self.plies - HISTORY
        for i in range(HISTORY):
            if start + i >= 0 and self.trace_ids[start + i] != PASS_ID:
                encode_cards(code_cards(self.code_of[self.trace_ids[start + i]]),
                             o + 162 + i * CARD_BITS)
            else:
                memset(o + 162 + i * CARD_BITS, 0, CARD_BITS)
        if seat == 0:
            encode_cards(self.s.played[2], o + 648)
            encode_cards(self.s.played[1], o + 702)
            one_hot(card_total(self.s.hands[2]), 17, o + 756)
            one_hot(card_total(self.s.hands[1]), 17, o + 773)
        else:
            teammate = 3 - seat
            encode_cards(self.s.played[0], o + 648)
            encode_cards(self.s.played[teammate], o + 702)
            encode_cards(self.first_move_of(0), o + 756)
            encode_cards(self.first_move_of(teammate), o + 810)
            one_hot(card_total(self.s.hands[0]), 20, o + 864)
            one_hot(card_total(self.s.hands[teammate]), 17, o + 884)

    cdef uint64_t first_move_of(self, int seat) noexcept nogil:
        """The cards of ``seat``'s first ply (0 for a pass or none): what RLCard encodes as
        its "last" action."""
        cdef int i
        for i in range(self.plies):
            if i % 3 == seat:
                if self.trace_ids[i] == PASS_ID:
                    return 0
                return code_cards(self.code_of[self.trace_ids[i]])
        return 0

    def action_features(self, int8_t[:, ::1] out not None):
        """Row k: RLCard's ``_cards2array`` of legal action k (zeros for the pass)."""
        if out.shape[0] != self.n_legal or out.shape[1] != CARD_BITS:
            raise ValueError("one row of 54 a legal action")
        if self.n_legal:
            with nogil:
                self.features_into(&out[0, 0])

    cdef void features_into(self, int8_t* out) noexcept nogil:
        """``action_features``' writing: one row of 54 a legal action into ``out``."""
        cdef int k
        for k in range(self.n_legal):
            if self.legal[k] == PASS_ID:
                memset(out + k * CARD_BITS, 0, CARD_BITS)
            else:
                encode_cards(code_cards(self.code_of[self.legal[k]]), out + k * CARD_BITS)


cdef void* data_of(object array) except NULL:
    """The data of a C-contiguous numpy array this module made (and keeps alive)."""
    return <void*><size_t>array.ctypes.data


cdef class RlcardTables:
    """``n`` RlcardCore games observed with one call and stepped with one call.

    ``observe`` writes, grouped by the seat to act (0 the landlord, 1, 2), each table's
    ``obs`` (``encode``: 790 entries for the landlord, 901 for a farmer), and per legal
    action its RLCard id and its 54 card features (``action_features``), in the order
    ``legal_ids`` gives; ``step`` plays one RLCard id at every table. The arrays are this
    object's, reused by the next ``observe``. Like DouzeroTables, a call from a second
    thread while one runs raises RuntimeError.
    """

    cdef list cores
    cdef bint busy
    cdef readonly Py_ssize_t n
    cdef object player_out       # int8 (n,): the seat to act at each table
    cdef object count_out        # int32 (n,): its number of legal actions
    cdef object start_out        # int64 (n,): its first row in its group's row arrays
    cdef list tables_out         # per seat: the tables in the group, int64 (n,)
    cdef list offsets_out        # per seat: row offsets of those tables, int64 (n + 1,)
    cdef list obs_out            # per seat: obs, int8 (n, 790 or 901)
    cdef list ids_out            # per seat: each row's RLCard id, int64 (capacity,)
    cdef list features_out       # per seat: each row's card features, int8 (capacity, 54)
    cdef list slots_out          # per seat: each row's table's index in the group, int64
    # the data of the arrays above, taken when they are made: observe acquires no
    # memoryview (twenty a call cost about as much as encoding the tables' obs)
    cdef int8_t* player_ptr
    cdef int32_t* count_ptr
    cdef int64_t* start_ptr
    cdef int64_t* tables_ptr[3]
    cdef int64_t* offsets_ptr[3]
    cdef int8_t* obs_ptr[3]
    cdef int64_t* ids_ptr[3]
    cdef int8_t* features_ptr[3]
    cdef int64_t* slots_ptr[3]

    def __cinit__(self, list cores not None):
        cdef Py_ssize_t n = len(cores)
        cdef int p
        if n < 1:
            raise ValueError("at least one table")
        for core in cores:
            if not isinstance(core, RlcardCore):
                raise TypeError("RlcardTables holds RlcardCore games")
        self.cores = list(cores)
        self.n = n
        self.player_out = np.zeros(n, dtype=np.int8)
        self.count_out = np.zeros(n, dtype=np.int32)
        self.start_out = np.zeros(n, dtype=np.int64)
        self.tables_out = []
        self.offsets_out = []
        self.obs_out = []
        self.ids_out = []
        self.features_out = []
        self.slots_out = []
        self.player_ptr = <int8_t*>data_of(self.player_out)
        self.count_ptr = <int32_t*>data_of(self.count_out)
        self.start_ptr = <int64_t*>data_of(self.start_out)
        for p, width in enumerate((LANDLORD_OBS, FARMER_OBS, FARMER_OBS)):
            self.tables_out.append(np.empty(n, dtype=np.int64))
            self.offsets_out.append(np.empty(n + 1, dtype=np.int64))
            self.obs_out.append(np.empty((n, width), dtype=np.int8))
            self.tables_ptr[p] = <int64_t*>data_of(self.tables_out[p])
            self.offsets_ptr[p] = <int64_t*>data_of(self.offsets_out[p])
            self.obs_ptr[p] = <int8_t*>data_of(self.obs_out[p])
            self.ids_out.append(None)
            self.features_out.append(None)
            self.slots_out.append(None)
            self._grow(p, 1)

    cdef int _grow(self, int p, Py_ssize_t rows) except -1:
        """Room for ``rows`` legal actions of seat ``p``."""
        cdef Py_ssize_t total
        if self.ids_out[p] is None or rows > self.ids_out[p].shape[0]:
            total = rows if self.ids_out[p] is None else max(rows, 2 * self.ids_out[p].shape[0])
            self.ids_out[p] = np.empty(total, dtype=np.int64)
            self.features_out[p] = np.empty((total, CARD_BITS), dtype=np.int8)
            self.slots_out[p] = np.empty(total, dtype=np.int64)
            self.ids_ptr[p] = <int64_t*>data_of(self.ids_out[p])
            self.features_ptr[p] = <int8_t*>data_of(self.features_out[p])
            self.slots_ptr[p] = <int64_t*>data_of(self.slots_out[p])
        return 0

    def core(self, Py_ssize_t table):
        """Table ``table``'s RlcardCore (to deal it, or read it)."""
        if not 0 <= table < self.n:
            raise IndexError("no table %d (there are %d)" % (table, self.n))
        return self.cores[table]

    cdef int enter(self) except -1:
        if self.busy:
            raise RuntimeError("this RlcardTables is in use by another thread "
                               "(ddz.compat.rlcard.VectorEnv serialises its callers)")
        self.busy = True
        return 0

    def observe(self):
        """Every table's obs and legal actions for its seat to act, in one pass.

        Returns ``(player, count, start, groups)``: per table the seat to act, its number
        of legal actions and its first row in its group; ``groups[p]`` for seat ``p`` is
        ``(tables, offsets, obs, action_ids, action_features, row_slot)``. The arrays are
        this object's, overwritten by the next call."""
        self.enter()
        try:
            return self._observe()
        finally:
            self.busy = False

    cdef object _observe(self):
        cdef Py_ssize_t i, s, k, start
        cdef Py_ssize_t rows[3]
        cdef Py_ssize_t ntab[3]
        cdef int widths[3]
        cdef int p
        cdef RlcardCore c
        widths[0] = LANDLORD_OBS
        widths[1] = FARMER_OBS
        widths[2] = FARMER_OBS
        for p in range(3):
            rows[p] = 0
            ntab[p] = 0
        for i in range(self.n):
            c = <RlcardCore>self.cores[i]
            if c.s.phase != PLAY:
                raise ValueError("table %d has no game in progress: deal it first" % i)
            p = c.s.current
            self.player_ptr[i] = p
            self.count_ptr[i] = c.n_legal
            self.start_ptr[i] = rows[p]
            rows[p] += c.n_legal
        for p in range(3):
            self._grow(p, rows[p])
            self.offsets_ptr[p][0] = 0
        for i in range(self.n):
            # the cores are Python objects: the loop keeps the GIL, and touches nothing of
            # Python's but the list item
            c = <RlcardCore>self.cores[i]
            p = self.player_ptr[i]
            s = ntab[p]
            ntab[p] += 1
            start = self.start_ptr[i]
            c.encode_into(p, self.obs_ptr[p] + s * widths[p])
            c.features_into(self.features_ptr[p] + start * CARD_BITS)
            for k in range(c.n_legal):
                self.ids_ptr[p][start + k] = c.legal[k]
                self.slots_ptr[p][start + k] = s
            self.tables_ptr[p][s] = i
            self.offsets_ptr[p][s + 1] = start + c.n_legal
        return self.player_out, self.count_out, self.start_out, (
            self._group(0, rows[0], ntab[0]),
            self._group(1, rows[1], ntab[1]),
            self._group(2, rows[2], ntab[2]),
        )

    cdef tuple _group(self, int p, Py_ssize_t rows, Py_ssize_t ntab):
        return (self.tables_out[p][:ntab], self.offsets_out[p][:ntab + 1],
                self.obs_out[p][:ntab], self.ids_out[p][:rows],
                self.features_out[p][:rows], self.slots_out[p][:rows])

    def step(self, actions):
        """Play RLCard id ``actions[i]`` at every table ``i`` (int64, one per table).

        Every id is checked before any is played: one that is not legal at its table
        raises ValueError naming the table, and nothing changes. Returns the tables whose
        game is over now (bool, one per table)."""
        cdef const int64_t* chosen
        cdef uint8_t* done
        cdef Py_ssize_t i
        cdef RlcardCore c
        self.enter()
        try:
            copied = np.array(actions, dtype=np.int64, copy=True, order="C")
            if copied.shape != (self.n,):
                raise ValueError("one action per table: (%d,), not %s" % (self.n, copied.shape))
            chosen = <const int64_t*>data_of(copied)
            for i in range(self.n):
                c = <RlcardCore>self.cores[i]
                if c.s.phase != PLAY:
                    raise ValueError("table %d has no game in progress: deal it first" % i)
                if not c.playable(chosen[i]):
                    raise ValueError("%d is not a legal action at table %d" % (chosen[i], i))
            dones = np.zeros(self.n, dtype=np.bool_)
            done = <uint8_t*>data_of(dones)
            for i in range(self.n):
                c = <RlcardCore>self.cores[i]
                c.play(chosen[i])
                done[i] = c.s.phase == OVER
            return dones
        finally:
            self.busy = False


cdef const char* RANK_CHARS = b"3456789TJQKA2BR"


def cards_text(uint64_t cards):
    """RLCard's text of a card integer: rank characters low to high, B and R the jokers."""
    cdef char text[64]
    cdef int r, c, n = 0
    for r in range(NUM_RANKS):
        for c in range(count_of(cards, r)):
            if n < 63:
                text[n] = RANK_CHARS[r]
                n += 1
    return text[:n].decode("ascii")
