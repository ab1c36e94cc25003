# cython: language_level=3, cdivision=True
"""Many rounds of UNO at once, stepped in C: ddz.uno.VectorGame's UnoVector and
ddz.uno.simulate_rounds' simulate_rounds_. ddz._core.uno re-exports every name here.

The vector steps the *turn* player of each round only: its actions are the turn actions of
the player to act (plays, draw, keep, the starting colour), indexed as ddz.uno.ActionSpace
indexes them. Out-of-turn actions (jump-ins, UNO calls, catches) and the pass are left out,
and rounds still play to their end.
"""

from libc.stdint cimport uint8_t, int8_t, int64_t, uint64_t
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy, memset
from ddz._core.rng cimport below
from ddz._core.uno_layout cimport *
from ddz._core.uno_state cimport *
from ddz._core.uno_rules cimport *
from ddz._core.uno_observe cimport *

MAX_ROUNDS_ = 1 << 22              # the most rounds one UnoVector holds (about 3.7 GB)
OBS_SIZE_, NUM_INDICES_ = OBS_SIZE, NUM_INDICES


def round_seed_(uint64_t seed, uint64_t index):
    """The deal seed of round `index` of a run seeded with `seed`."""
    return mix_seed(seed, index, 0)


def simulate_rounds_(int flags, int players, int dealer, uint64_t seed, Py_ssize_t first,
                     Py_ssize_t start, Py_ssize_t stop, bint eager, int8_t[::1] winners,
                     uint8_t[::1] blocked, int64_t[::1] lengths, int64_t[:, ::1] points):
    """Play rows start..stop-1 (rounds first + row of a run) with random turn actions,
    entirely in C without the GIL, writing each round's row of the result arrays (callers run
    slices of the rows on several threads)."""
    cdef UnoState s
    cdef uint64_t rng
    cdef Py_ssize_t row
    cdef int seat
    check_flags(flags)
    if not 2 <= players <= MAX_PLAYERS or not 0 <= dealer < players:
        raise ValueError("2..10 players and a dealer among them")
    if first < 0 or not (0 <= start <= stop <= points.shape[0] and points.shape[1] == players
            and winners.shape[0] == blocked.shape[0] == lengths.shape[0] == points.shape[0]):
        raise ValueError("result arrays of the wrong shape for this slice")
    with nogil:
        for row in range(start, stop):
            seeded_round(&s, flags, players, dealer, mix_seed(seed, first + row, 0))
            rng = mix_seed(seed, first + row, 1)
            lengths[row] = turn_playout(&s, flags, &rng, eager)
            winners[row] = s.winner
            blocked[row] = s.over == BLOCKED
            for seat in range(players):
                points[row, seat] = hand_points(&s, seat)


cdef class UnoVector:
    """n rounds stepped together; see ddz.uno.VectorGame for the contract.

    Every method that reads or writes the rounds marks the vector busy while it runs (it may
    release the GIL): a call from a second thread meanwhile raises RuntimeError rather than
    reading a round half stepped. ``ddz.uno.VectorGame`` serialises its callers with a lock,
    so they never see that error.
    """

    cdef UnoState* states
    cdef uint64_t* episodes
    cdef int* codes               # step's actions, copied once out of the caller's array
    cdef bint busy
    cdef Py_ssize_t n
    cdef uint64_t seed
    cdef uint64_t rng             # for sample_legal
    cdef readonly int flags, players, dealer
    cdef readonly bint points

    def __cinit__(self, int flags, int players, int dealer, Py_ssize_t n, uint64_t seed,
                  bint points):
        cdef Py_ssize_t i
        check_flags(flags)
        if not 1 <= n <= MAX_ROUNDS_:
            raise ValueError(f"a VectorGame holds 1..{MAX_ROUNDS_} rounds, not {n}")
        if not 2 <= players <= MAX_PLAYERS or not 0 <= dealer < players:
            raise ValueError("2..10 players and a dealer among them")
        self.flags = flags
        self.players = players
        self.dealer = dealer
        self.points = points
        self.n = n
        self.seed = seed
        self.rng = mix_seed(seed, 0, 2)
        self.states = <UnoState*>malloc(n * sizeof(UnoState))
        self.episodes = <uint64_t*>malloc(n * sizeof(uint64_t))
        self.codes = <int*>malloc(n * sizeof(int))
        if self.states == NULL or self.episodes == NULL or self.codes == NULL:
            raise MemoryError()
        for i in range(n):
            self.episodes[i] = 0
            seeded_round(&self.states[i], flags, players, dealer, self.episode_seed(i))

    def __dealloc__(self):
        free(self.states)
        free(self.episodes)
        free(self.codes)

    cdef int enter(self) except -1:
        if self.busy:
            raise RuntimeError("this UnoVector is in use by another thread (ddz.uno.VectorGame "
                               "serialises its callers; the raw core does not)")
        self.busy = True
        return 0

    def __reduce__(self):
        self.enter()
        try:
            return (_restore_vector, (self.flags, self.players, self.dealer, self.n, self.seed,
                                      self.points, self.rng,
                                      (<char*>self.states)[:self.n * sizeof(UnoState)],
                                      (<char*>self.episodes)[:self.n * sizeof(uint64_t)]))
        finally:
            self.busy = False

    cdef inline uint64_t episode_seed(self, Py_ssize_t game) noexcept nogil:
        return mix_seed(self.seed, <uint64_t>game + (<uint64_t>self.n) * self.episodes[game], 0)

    def deal_seed(self, Py_ssize_t game):
        """The seed of round `game`'s current deal."""
        if not 0 <= game < self.n:
            raise IndexError(game)
        return self.episode_seed(game)

    def legal_action_mask(self, unsigned char[:, ::1] mask):
        """Fill mask (n x 77, bool / uint8) with each round's legal turn actions."""
        cdef int codes[MAX_ACTIONS]
        cdef Py_ssize_t game
        cdef int count, i
        if mask.shape[0] != self.n or mask.shape[1] != NUM_INDICES:
            raise ValueError("the mask needs one row a round and one column an action")
        self.enter()
        try:
            with nogil:
                for game in range(self.n):
                    memset(&mask[game, 0], 0, NUM_INDICES)
                    count = turn_codes(&self.states[game], self.flags, codes)
                    for i in range(count):
                        mask[game, index_of(codes[i])] = 1
        finally:
            self.busy = False

    def step(self, int64_t[::1] actions, double[:, ::1] rewards, unsigned char[::1] done):
        """Apply one action index a round for its player to act; rounds that end write their
        rewards, set done and start their next deal. All actions are checked first: if one is
        not legal, ValueError names the round and nothing changes. Each action is read from
        the caller's array once, into the vector's own memory, and applied from there: a
        thread writing the array meanwhile cannot get an unchecked action applied."""
        cdef int codes[MAX_ACTIONS]
        cdef Py_ssize_t game, bad = -1
        cdef long long bad_index = 0
        cdef int count, i, code, seat
        cdef UnoState* s
        if (actions.shape[0] != self.n or rewards.shape[0] != self.n
                or rewards.shape[1] != self.players or done.shape[0] != self.n):
            raise ValueError("one action, one reward row and one done flag a round")
        self.enter()
        try:
            with nogil:
                for game in range(self.n):
                    s = &self.states[game]
                    bad_index = actions[game]
                    code = code_of(bad_index, s.current)
                    count = turn_codes(s, self.flags, codes) if code >= 0 else 0
                    for i in range(count):
                        if codes[i] == code:
                            break
                    else:
                        bad = game
                        break
                    self.codes[game] = code
                if bad < 0:
                    for game in range(self.n):
                        s = &self.states[game]
                        apply(s, self.flags, self.codes[game])
                        done[game] = s.over != PLAYING
                        if done[game]:
                            round_rewards(s, self.points, &rewards[game, 0])
                            self.episodes[game] += 1
                            seeded_round(s, self.flags, self.players, self.dealer,
                                         self.episode_seed(game))
                        else:
                            for seat in range(self.players):
                                rewards[game, seat] = 0.0
        finally:
            self.busy = False
        if bad >= 0:
            raise ValueError(f"round {bad}: action {bad_index} is not a legal turn action "
                             f"of player {self.states[bad].current} there")

    def sample_legal(self, int64_t[::1] out):
        """One uniformly random legal action index a round, drawn in C."""
        cdef int codes[MAX_ACTIONS]
        cdef Py_ssize_t game
        cdef int count
        if out.shape[0] != self.n:
            raise ValueError("one action a round")
        self.enter()
        try:
            with nogil:
                for game in range(self.n):
                    count = turn_codes(&self.states[game], self.flags, codes)
                    out[game] = index_of(codes[below(&self.rng, count)])
        finally:
            self.busy = False

    def observations(self, int8_t[:, ::1] out):
        """Fill out (n x 267) with each round's observation of its player to act."""
        cdef Py_ssize_t game
        if out.shape[0] != self.n or out.shape[1] != OBS_SIZE:
            raise ValueError("one row a round, OBSERVATION_SIZE columns")
        self.enter()
        try:
            with nogil:
                for game in range(self.n):
                    encode(&self.states[game], self.states[game].current, &out[game, 0])
        finally:
            self.busy = False

    def keys(self, uint64_t[::1] out):
        """Fill out (n) with each round's state key, computed anew (uno_key)."""
        cdef Py_ssize_t game
        if out.shape[0] != self.n:
            raise ValueError("one key a round")
        self.enter()
        try:
            with nogil:
                for game in range(self.n):
                    out[game] = uno_key(&self.states[game])
        finally:
            self.busy = False

    def current_players(self, int8_t[::1] out):
        cdef Py_ssize_t game
        if out.shape[0] != self.n:
            raise ValueError("one entry a round")
        self.enter()
        for game in range(self.n):
            out[game] = self.states[game].current
        self.busy = False


def _restore_vector(int flags, int players, int dealer, Py_ssize_t n, uint64_t seed,
                    bint points, uint64_t rng, bytes states, bytes episodes):
    """The UnoVector pickled by __reduce__; every round's state is checked with valid_state
    (a tampered pickle gives ValueError, never a vector that indexes outside its arrays)."""
    cdef UnoVector vector = UnoVector(flags, players, dealer, n, seed, points)
    cdef Py_ssize_t i
    if (len(states) != n * sizeof(UnoState)) or len(episodes) != n * sizeof(uint64_t):
        raise ValueError("not a pickled UnoVector")
    memcpy(vector.states, <char*>states, n * sizeof(UnoState))
    memcpy(vector.episodes, <char*>episodes, n * sizeof(uint64_t))
    vector.rng = rng
    for i in range(n):
        if (not valid_state(&vector.states[i]) or vector.states[i].players != players
                or vector.states[i].over != PLAYING):
            raise ValueError(f"not a pickled UnoVector: round {i} is not one the rules reach")
    return vector
