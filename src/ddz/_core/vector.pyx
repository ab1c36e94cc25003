# cython: language_level=3, cdivision=True
"""Many games at once, in C: whole games of the built-in agents (random, greedy) across
threads, and a vector of games stepped together (numpy in, numpy out).

Game i of a run starts as ddz.Game(rules, seed=game_seed(seed, i)) does (state.pxd's
seeded_start), so any single game can be replayed in Python. The loops hold no Python
objects and run without the GIL.

Every def checks what it is given before it allocates or releases the GIL (sizes, array
shapes, agent ids, action indices), so no input can crash it (docs/safety.md). A VectorGame
holds a lock: calls from several threads are serialised, never interleaved.
"""

from libc.stdint cimport uint64_t, int64_t, int8_t
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy, memset

cimport cython

from ddz._core.layout cimport *
from ddz._core.ruleset cimport *
from ddz._core.readings cimport *
from ddz._core.generator cimport *
from ddz._core.rng cimport below_fast, splitmix64
from ddz._core.state cimport *
from ddz._core.greedy cimport greedy_action as greedy_choice

cdef enum:
    CODES = 4096            # legal moves a turn holds on the stack (more: the heap)
    OBS_SIZE = 140          # ddz.OBSERVATION_SIZE: the layout is game.py's OBSERVATION_LAYOUT

cdef enum:
    AGENT_RANDOM = 0        # agent ids of simulate_games (simulation.py's _AGENT_IDS)
    AGENT_GREEDY = 1

MAX_GAMES = 1 << 24         # the most games a VectorGame holds (about 3 GB of states)
MAX_ACTIONS = 1 << 20       # the largest action space a VectorGame takes (CLASSIC: 12,660)
MAX_FIRST_GAME = 1 << 62    # first game + games of a simulate run stay below this


cdef inline uint64_t mix(uint64_t seed, uint64_t index, uint64_t salt) noexcept nogil:
    """A seed for one game (salt 0) or one game's agents (salt 1), from the run's seed."""
    cdef uint64_t state = seed ^ (index * 0xD1B54A32D192ED03ULL) ^ (salt * 0x8CB92BA72F3D8DD7ULL)
    return splitmix64(&state)


def game_seed(uint64_t seed, uint64_t index):
    """The deal seed of game `index` of a run seeded with `seed`: ddz.Game(rules,
    seed=game_seed(seed, index)) starts as that game did."""
    return mix(seed, index, 0)


cdef int legal_codes(const GameState* s, const GameConfig* cfg, uint64_t* codes,
                     Py_ssize_t cap) noexcept nogil:
    """The legal action codes of the player to act; how many (may exceed cap: only cap
    written)."""
    cdef Sink sink
    if s.phase == BIDDING:
        return bidding_actions(s, cfg, codes)
    if s.phase == OVER:
        return 0
    sink.out = codes
    sink.cap = cap
    sink.n = 0
    generate(s.hands[s.current], s.table, &cfg.rs, &sink)
    return <int>sink.n


cdef uint64_t random_action(const GameState* s, const GameConfig* cfg, uint64_t* rng,
                            uint64_t* codes) noexcept nogil:
    """A uniformly random legal action (codes: scratch room for CODES codes)."""
    cdef int n = legal_codes(s, cfg, codes, CODES)
    cdef uint64_t* heap
    cdef uint64_t chosen
    if n == 0:
        return 0            # no legal action: only in a stuck state, which play_games ends
    if n <= CODES:
        return codes[below_fast(rng, n)]
    heap = <uint64_t*>malloc(n * sizeof(uint64_t))   # a hand richer than CODES moves
    if heap == NULL:
        return codes[below_fast(rng, CODES)]
    legal_codes(s, cfg, heap, n)
    chosen = heap[below_fast(rng, n)]
    free(heap)
    return chosen


cdef Py_ssize_t play_games(const GameConfig* cfg, const int8_t* agents, uint64_t seed,
                           Py_ssize_t first, Py_ssize_t start, Py_ssize_t stop,
                           int64_t* payoffs, int8_t* winners, int8_t* landlords,
                           int64_t* lengths) noexcept nogil:
    """Rows start..stop-1 of the results: games first + start .. first + stop - 1 of the run,
    agents[seat] (AGENT_*) playing each seat. Random agents all draw from the game's one
    generator, in turn order. Returns how many games did not finish: a game whose player has
    no legal action, or that runs past MAX_PLIES, is cut off (its row says -1 for winner and
    landlord) so that no rules can make this loop run forever without the GIL."""
    cdef GameState s
    cdef uint64_t codes[CODES]
    cdef uint64_t rng, action
    cdef long long out[3]
    cdef Py_ssize_t game, stuck = 0
    cdef int seat
    for game in range(start, stop):
        seeded_start(&s, cfg, mix(seed, first + game, 0))
        rng = mix(seed, first + game, 1)
        while s.phase != OVER:
            if agents[s.current] == AGENT_GREEDY:
                action = greedy_choice(&s, cfg, codes, CODES)
            else:
                action = random_action(&s, cfg, &rng, codes)
            if s.ply >= MAX_PLIES:
                break
            apply_action(&s, cfg, action)
        if s.phase != OVER:
            stuck += 1
            s.winner = -1
            s.landlord = -1
        payoffs_of(&s, cfg, out)
        for seat in range(3):
            payoffs[3 * game + seat] = out[seat] if seat < cfg.players and s.phase == OVER else 0
        winners[game] = s.winner
        landlords[game] = s.landlord
        lengths[game] = s.ply
    return stuck


def simulate_games(object rules, int8_t[::1] agents, uint64_t seed, Py_ssize_t first,
                   Py_ssize_t start, Py_ssize_t stop, int64_t[:, ::1] payoffs,
                   int8_t[::1] winners, int8_t[::1] landlords, int64_t[::1] lengths):
    """Play rows start..stop-1 (games first + row of a run), agents[seat] playing each seat
    (0 random, 1 greedy; one entry a seat), entirely in C without the GIL, writing each
    game's row of the result arrays (callers run slices of the rows on several threads).
    RuntimeError if a game could not be finished (a guard: no rules Rules accepts does it)."""
    cdef GameConfig cfg = config_of(rules)
    cdef int seat
    cdef Py_ssize_t stuck = 0
    if agents.shape[0] != cfg.players:
        raise ValueError("one agent a seat")
    for seat in range(cfg.players):
        if agents[seat] != AGENT_RANDOM and agents[seat] != AGENT_GREEDY:
            raise ValueError(f"no agent id {agents[seat]}")
    if not (0 <= first <= MAX_FIRST_GAME and 0 <= start <= stop <= payoffs.shape[0]
            and payoffs.shape[0] <= MAX_FIRST_GAME and payoffs.shape[1] == 3
            and winners.shape[0] == landlords.shape[0] == lengths.shape[0] == payoffs.shape[0]):
        raise ValueError("result arrays of the wrong shape for this slice")
    with nogil:
        if stop > start:
            stuck = play_games(&cfg, &agents[0], seed, first, start, stop, &payoffs[0, 0],
                               &winners[0], &landlords[0], &lengths[0])
    if stuck:
        raise RuntimeError(f"{stuck} games could not be played to the end under these rules")


def greedy_action(object rules, bytes state):
    """The greedy agent's action code (ddz.agents.GreedyAgent in C) for the player to act in
    a game state: state is GameCore.state_bytes() of a game under rules (0 once it is over)."""
    cdef GameConfig cfg = config_of(rules)
    cdef GameState s
    cdef uint64_t codes[CODES]
    cdef const char* raw = state
    cdef uint64_t action
    if len(state) != sizeof(GameState):
        raise ValueError(f"a game state is {sizeof(GameState)} bytes, not {len(state)}")
    memcpy(&s, raw, sizeof(GameState))
    if state_fault(&s, &cfg):
        raise ValueError("the state does not belong to these rules")
    with nogil:
        action = greedy_choice(&s, &cfg, codes, CODES)
    return action


# --- a vector of games ---------------------------------------------------------------------

cdef inline int find_code(const uint64_t* sorted_codes, const int64_t* order, Py_ssize_t size,
                          uint64_t code) noexcept nogil:
    """The action index of a code (binary search), or -1."""
    cdef Py_ssize_t low = 0, high = size, middle
    while low < high:
        middle = (low + high) // 2
        if sorted_codes[middle] < code:
            low = middle + 1
        else:
            high = middle
    if low < size and sorted_codes[low] == code:
        return <int>order[low]
    return -1


cdef inline int log2_floor(long long value) noexcept nogil:
    cdef int bits = 0
    while value > 1:
        value >>= 1
        bits += 1
    return bits


cdef void encode(const GameState* s, const GameConfig* cfg, int player,
                 int8_t* out) noexcept nogil:
    """Observation.encode() of `player`, in C (game.py's OBSERVATION_LAYOUT)."""
    cdef int i, k, seat, seats = s.players, offset = 0
    cdef uint64_t table_cards
    for i in range(OBS_SIZE):
        out[i] = 0
    if player < 0:
        return
    for i in range(17):
        out[i] = <int8_t>count_of(s.hands[player], i)
    offset = 17
    for k in range(seats):
        seat = (player + k) % seats
        for i in range(17):
            out[offset + 17 * k + i] = <int8_t>count_of(s.played[seat], i)
    offset += 51
    for k in range(seats):
        out[offset + k] = <int8_t>card_total(s.hands[(player + k) % seats])
    offset += 3
    if s.landlord >= 0:
        out[offset + (s.landlord - player + seats) % seats] = 1
        for i in range(17):
            out[offset + 3 + i] = <int8_t>count_of(s.kitty, i)
    offset += 3 + 17
    if s.table:
        table_cards = code_cards(s.table)
        for i in range(17):
            out[offset + i] = <int8_t>count_of(table_cards, i)
        out[offset + 17 + (s.table_player - player + seats) % seats] = 1
        out[offset + 20 + code_kind(s.table)] = 1
    offset += 17 + 3 + 17
    out[offset + s.phase] = 1
    offset += 3
    out[offset + s.bid] = 1
    offset += 4
    out[offset] = <int8_t>log2_floor(score(s, cfg)) if score(s, cfg) > 0 else 0
    offset += 1
    if s.current >= 0:
        out[offset + (s.current - player + seats) % seats] = 1
    offset += 3
    out[offset] = <int8_t>s.direction


cdef class VectorGame:
    """n games stepped together; see ddz.VectorGame for the contract.

    VectorGame(rules, n, seed, codes, sorted_codes, order): codes[i] is the code of action i,
    sorted_codes the codes in increasing order and order[k] the index of sorted_codes[k]
    (checked: a permutation that sorts codes). Every method holds the object's lock, so
    threads sharing a VectorGame are serialised."""

    cdef GameState* states
    cdef uint64_t* episodes
    cdef GameConfig cfg
    cdef Py_ssize_t n, size
    cdef uint64_t seed
    cdef uint64_t rng             # for sample_legal
    cdef uint64_t* codes          # the action space: code of each index
    cdef uint64_t* sorted_codes   # the same, sorted, for the binary search
    cdef int64_t* order           # index of each sorted code
    cdef readonly Py_ssize_t steps   # successful step() calls so far
    cdef cython.pymutex lock
    cdef readonly object rules

    def __cinit__(self, object rules, Py_ssize_t n, uint64_t seed, const uint64_t[::1] codes,
                  const uint64_t[::1] sorted_codes, const int64_t[::1] order):
        cdef Py_ssize_t i, size = codes.shape[0]
        if not 1 <= n <= MAX_GAMES:
            raise ValueError(f"a VectorGame holds 1 .. {MAX_GAMES} games, not {n}")
        if not (1 <= size <= MAX_ACTIONS and sorted_codes.shape[0] == size
                and order.shape[0] == size):
            raise ValueError("codes, sorted_codes and order: one entry an action, equal lengths")
        for i in range(size):
            if not (0 <= order[i] < size and codes[order[i]] == sorted_codes[i]
                    and (i == 0 or sorted_codes[i - 1] < sorted_codes[i])):
                raise ValueError("sorted_codes must be codes[order], strictly increasing")
        self.cfg = config_of(rules)
        self.rules = rules
        self.n = n
        self.seed = seed
        self.rng = mix(seed, 0, 2)
        self.size = size
        self.states = <GameState*>malloc(n * sizeof(GameState))
        self.episodes = <uint64_t*>malloc(n * sizeof(uint64_t))
        self.codes = <uint64_t*>malloc(size * sizeof(uint64_t))
        self.sorted_codes = <uint64_t*>malloc(size * sizeof(uint64_t))
        self.order = <int64_t*>malloc(size * sizeof(int64_t))
        if (self.states == NULL or self.episodes == NULL or self.codes == NULL
                or self.sorted_codes == NULL or self.order == NULL):
            raise MemoryError()
        for i in range(size):
            self.codes[i] = codes[i]
            self.sorted_codes[i] = sorted_codes[i]
            self.order[i] = order[i]
        for i in range(n):
            self.episodes[i] = 0
            seeded_start(&self.states[i], &self.cfg, self.episode_seed(i))

    def __dealloc__(self):
        free(self.states)
        free(self.episodes)
        free(self.codes)
        free(self.sorted_codes)
        free(self.order)

    cdef inline uint64_t episode_seed(self, Py_ssize_t game) noexcept nogil:
        return mix(self.seed, <uint64_t>game + (<uint64_t>self.n) * self.episodes[game], 0)

    @property
    def n_games(self):
        return self.n

    def deal_seed(self, Py_ssize_t game):
        """The seed of game `game`'s current deal: ddz.Game(rules, seed=...) starts there."""
        if not 0 <= game < self.n:
            raise IndexError(f"game {game} is outside 0..{self.n - 1}")
        with self.lock:
            return self.episode_seed(game)

    def legal_action_mask(self, unsigned char[:, ::1] mask):
        """Fill mask (n x actions, bool / uint8) with each game's legal actions."""
        cdef uint64_t codes[CODES]
        cdef Py_ssize_t game
        cdef int count, i, index
        if mask.shape[0] != self.n or mask.shape[1] != self.size:
            raise ValueError("the mask needs one row a game and one column an action")
        with self.lock, nogil:
            for game in range(self.n):
                memset(&mask[game, 0], 0, self.size)
                count = legal_codes(&self.states[game], &self.cfg, codes, CODES)
                for i in range(min(count, CODES)):
                    index = find_code(self.sorted_codes, self.order, self.size, codes[i])
                    if index >= 0:
                        mask[game, index] = 1

    def step(self, actions, int64_t[:, ::1] rewards, unsigned char[::1] done):
        """Apply one action index a game (actions: any one-dimensional integer array of n
        entries; copied once into C memory and checked there, so the caller's array may
        change meanwhile without effect). Games that end write their payoffs to rewards,
        set done, and start their next deal. All actions are checked first: if one is not
        legal, ValueError names the game and nothing changes. Returns the number of this
        step (steps taken before it), for callers that share the object between threads."""
        cdef const int64_t[::1] given = _int64_vector(actions)
        cdef int64_t* chosen
        cdef Py_ssize_t game, bad = -1, number = -1
        cdef int seat
        cdef long long out[3]
        cdef int64_t bad_action = 0
        if given.shape[0] != self.n or rewards.shape[0] != self.n or done.shape[0] != self.n \
                or rewards.shape[1] != 3:
            raise ValueError("one action, one reward row (3 columns) and one done flag a game")
        chosen = <int64_t*>malloc(self.n * sizeof(int64_t))
        if chosen == NULL:
            raise MemoryError()
        try:
            memcpy(chosen, &given[0], self.n * sizeof(int64_t))
            del given
            with self.lock, nogil:
                for game in range(self.n):
                    if not 0 <= chosen[game] < self.size or check_action(
                            &self.states[game], &self.cfg, self.codes[chosen[game]]) != 0:
                        bad = game
                        bad_action = chosen[game]
                        break
                if bad < 0:
                    for game in range(self.n):
                        apply_action(&self.states[game], &self.cfg, self.codes[chosen[game]])
                        done[game] = self.states[game].phase == OVER
                        payoffs_of(&self.states[game], &self.cfg, out)
                        for seat in range(3):
                            rewards[game, seat] = out[seat] if seat < self.cfg.players else 0
                        if done[game]:
                            self.episodes[game] += 1
                            seeded_start(&self.states[game], &self.cfg, self.episode_seed(game))
                    number = self.steps
                    self.steps += 1
        finally:
            free(chosen)
        if bad >= 0:
            raise ValueError(f"game {bad}: action {bad_action} is not legal there")
        return number

    def sample_legal(self, int64_t[::1] out):
        """One uniformly random legal action index a game, drawn in C (seeded by the
        VectorGame's seed): random play without building a mask."""
        cdef uint64_t codes[CODES]
        cdef Py_ssize_t game
        if out.shape[0] != self.n:
            raise ValueError("one action a game")
        with self.lock, nogil:
            for game in range(self.n):
                out[game] = find_code(self.sorted_codes, self.order, self.size,
                                      random_action(&self.states[game], &self.cfg, &self.rng,
                                                    codes))

    def observations(self, int8_t[:, ::1] out):
        """Fill out (n x OBSERVATION_SIZE) with each game's observation of its player to act."""
        cdef Py_ssize_t game
        if out.shape[0] != self.n or out.shape[1] != OBS_SIZE:
            raise ValueError("one row a game, OBSERVATION_SIZE columns")
        with self.lock, nogil:
            for game in range(self.n):
                encode(&self.states[game], &self.cfg, self.states[game].current,
                       &out[game, 0])

    def keys(self, uint64_t[::1] out):
        """Fill out (n) with each game's 64-bit state key (state_key in state.pxd)."""
        cdef Py_ssize_t game
        if out.shape[0] != self.n:
            raise ValueError("one key a game")
        with self.lock:
            for game in range(self.n):
                out[game] = self.states[game].key

    def current_players(self, int8_t[::1] out):
        """Fill out (n int8) with the player to act in each game."""
        cdef Py_ssize_t game
        if out.shape[0] != self.n:
            raise ValueError("one entry a game")
        with self.lock:
            for game in range(self.n):
                out[game] = self.states[game].current

    # --- copying and pickling -------------------------------------------------------------

    def copy(self):
        """An independent copy: every game's state, deal counter and the sampler's state."""
        cdef VectorGame other
        with self.lock:
            state = self._state()
        other = restore_vector(*state)
        return other

    def __copy__(self):
        return self.copy()

    def __deepcopy__(self, memo):
        return self.copy()

    def __reduce__(self):
        with self.lock:
            return (restore_vector, self._state())

    cdef tuple _state(self):
        return (self.rules, self.n, self.seed, self.rng, self.steps,
                (<char*>self.codes)[:self.size * sizeof(uint64_t)],
                (<char*>self.states)[:self.n * sizeof(GameState)],
                (<char*>self.episodes)[:self.n * sizeof(uint64_t)])

    def state_bytes(self):
        """Every game's state struct, as bytes: equal bytes, equal games."""
        with self.lock:
            return (<char*>self.states)[:self.n * sizeof(GameState)]


cdef const int64_t[::1] _int64_vector(object actions) except *:
    """A one-dimensional int64 view of the caller's action indices (a copy if the array is
    of another integer type or not contiguous); TypeError for anything but integers."""
    import numpy
    array = numpy.asarray(actions)
    if array.dtype.kind not in "iu" or array.ndim != 1:
        raise TypeError(f"actions: a one-dimensional integer array, not {array.dtype} of "
                        f"{array.ndim} dimensions")
    if array.dtype.kind == "u" and array.size and array.max() > 0x7FFFFFFFFFFFFFFF:
        raise ValueError("an action index lies in 0 .. the action space's size")
    return numpy.ascontiguousarray(array, dtype=numpy.int64)


def restore_vector(object rules, Py_ssize_t n, uint64_t seed, uint64_t rng, Py_ssize_t steps,
                   bytes codes, bytes states, bytes episodes):
    """A VectorGame from its pickled parts (VectorGame.__reduce__), every state checked
    against the rules (state.pxd's state_fault)."""
    import numpy
    cdef VectorGame game
    cdef Py_ssize_t i
    cdef const char* raw = states
    cdef GameState one
    code_array = numpy.frombuffer(codes, dtype=numpy.uint64)
    order = numpy.argsort(code_array, kind="stable").astype(numpy.int64)
    game = VectorGame(rules, n, seed, code_array, numpy.ascontiguousarray(code_array[order]),
                      order)
    if len(states) != n * sizeof(GameState) or len(episodes) != n * sizeof(uint64_t) \
            or steps < 0:
        raise ValueError("the pickled VectorGame's parts have the wrong sizes for this build")
    for i in range(n):
        memcpy(&one, raw + i * sizeof(GameState), sizeof(GameState))
        if state_fault(&one, &game.cfg) or one.phase == OVER or one.key != state_key(&one,
                                                                                  &game.cfg):
            raise ValueError(f"the pickled VectorGame's game {i} is in a state these rules "
                             f"cannot reach")
    memcpy(game.states, raw, n * sizeof(GameState))
    memcpy(game.episodes, <const char*>episodes, n * sizeof(uint64_t))
    game.rng = rng
    game.steps = steps
    return game
