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

from libc.stdint cimport uint64_t, int64_t, int32_t, int8_t
from libc.stdlib cimport malloc, calloc, free
from libc.string cimport memcpy, memset

cimport cython

import numpy

cdef object _INT64 = numpy.dtype(numpy.int64)   # the native int64 dtype (numpy keeps one)

from ddz._core.layout cimport *
from ddz._core.ruleset cimport *
from ddz._core.readings cimport *
from ddz._core.generator cimport *
from ddz._core.rng cimport splitmix64
from ddz._core.state cimport *
from ddz._core.greedy cimport greedy_action as greedy_choice
from ddz._core.actions cimport ActionIndex, IndexTable, index_of, legal_codes, random_legal
from ddz._core.observe cimport *

cdef enum:
    CODES = 4096            # legal moves a turn holds on the stack (more: the heap)

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
                action = greedy_choice(&s, cfg, codes, CODES, NULL)
            else:
                action = random_legal(&s, cfg, &rng, codes, CODES)
            if s.ply >= MAX_PLIES:
                break
            apply_unkeyed(&s, cfg, action)   # the state is never keyed: no key upkeep
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
    """The greedy agent's action code (ddz.play.agents.GreedyAgent in C) for the player to act in
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
        action = greedy_choice(&s, &cfg, codes, CODES, NULL)
    return action


# --- a vector of games ---------------------------------------------------------------------

cdef class VectorGame:
    """n games stepped together; see ddz.VectorGame for the contract.

    VectorGame(rules, n, seed, index, history): index is the action space's ActionIndex
    (actions.pyx: code <-> index), history how many moves of play each game remembers for
    its observations. Every method holds the object's lock, so threads sharing a VectorGame
    are serialised."""

    cdef GameState* states
    cdef uint64_t* episodes
    cdef GameConfig cfg
    cdef Py_ssize_t n, size
    cdef uint64_t seed
    cdef uint64_t rng             # for sample_legal
    cdef ActionIndex index        # the action space: code <-> index (kept alive here)
    cdef IndexTable table
    cdef int remembered           # moves of play each game remembers (its ring)
    cdef uint64_t* ring_codes     # n x remembered: the last moves' codes ...
    cdef int8_t* ring_seats       # ... and who made them
    cdef int64_t* ring_count      # moves of play so far in each game's current deal
    cdef int32_t* ring_head       # where each game's next move goes: ring_count % remembered,
                                  # kept so that a step divides nothing
    cdef readonly Py_ssize_t steps   # successful step() calls so far
    cdef cython.pymutex lock
    cdef readonly object rules

    def __cinit__(self, object rules, Py_ssize_t n, uint64_t seed, ActionIndex index,
                  int history):
        cdef Py_ssize_t i
        if not 1 <= n <= MAX_GAMES:
            raise ValueError(f"a VectorGame holds 1 .. {MAX_GAMES} games, not {n}")
        if index is None or not 1 <= index.table.size <= MAX_ACTIONS:
            raise ValueError(f"an action space of 1 .. {MAX_ACTIONS} actions")
        if not 0 <= history <= MAX_HISTORY:
            raise ValueError(f"history is 0 .. {MAX_HISTORY} moves, not {history}")
        self.cfg = config_of(rules)
        self.rules = rules
        self.n = n
        self.seed = seed
        self.rng = mix(seed, 0, 2)
        self.index = index
        self.table = index.table
        self.size = index.table.size
        self.remembered = history
        self.states = <GameState*>malloc(n * sizeof(GameState))
        self.episodes = <uint64_t*>malloc(n * sizeof(uint64_t))
        # zeroed: a slot not yet written still reads as a move of seat 0 (copies check it)
        self.ring_codes = <uint64_t*>calloc(max(n * history, 1), sizeof(uint64_t))
        self.ring_seats = <int8_t*>calloc(max(n * history, 1), sizeof(int8_t))
        self.ring_count = <int64_t*>malloc(n * sizeof(int64_t))
        self.ring_head = <int32_t*>malloc(n * sizeof(int32_t))
        if (self.states == NULL or self.episodes == NULL or self.ring_codes == NULL
                or self.ring_seats == NULL or self.ring_count == NULL or self.ring_head == NULL):
            raise MemoryError()
        for i in range(n):
            self.episodes[i] = 0
            self.ring_count[i] = 0
            self.ring_head[i] = 0
            seeded_start(&self.states[i], &self.cfg, self.episode_seed(i))

    def __dealloc__(self):
        free(self.states)
        free(self.episodes)
        free(self.ring_codes)
        free(self.ring_seats)
        free(self.ring_count)
        free(self.ring_head)

    cdef inline uint64_t episode_seed(self, Py_ssize_t game) noexcept nogil:
        return mix(self.seed, <uint64_t>game + (<uint64_t>self.n) * self.episodes[game], 0)

    @property
    def n_games(self):
        return self.n

    @property
    def history(self):
        """How many past moves of play each game remembers for its observations."""
        return self.remembered

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
                    index = index_of(&self.table, codes[i])
                    if index >= 0:
                        mask[game, index] = 1

    def packed_mask(self, unsigned char[:, ::1] bits):
        """Fill bits (n x ceil(actions / 8), uint8) with each game's legal actions, eight to a
        byte, action i in bit i % 8 of byte i // 8 (numpy's bitorder="little")."""
        cdef uint64_t codes[CODES]
        cdef Py_ssize_t game
        cdef int count, i, index
        if bits.shape[0] != self.n or bits.shape[1] != (self.size + 7) // 8:
            raise ValueError("the packed mask needs one row a game, one bit an action")
        with self.lock, nogil:
            for game in range(self.n):
                memset(&bits[game, 0], 0, bits.shape[1])
                count = legal_codes(&self.states[game], &self.cfg, codes, CODES)
                for i in range(min(count, CODES)):
                    index = index_of(&self.table, codes[i])
                    if index >= 0:
                        bits[game, index >> 3] |= <unsigned char>(1 << (index & 7))

    def legal_indices(self, int64_t[::1] out, int64_t[::1] offsets):
        """Write every game's legal action indices, game after game, into out, and where each
        game's run starts into offsets (n + 1 entries: game i's are
        out[offsets[i]:offsets[i + 1]]); returns the total. A total above len(out): only
        what fits was written, call again with that much room."""
        cdef uint64_t codes[CODES]
        cdef Py_ssize_t game, total = 0, room = out.shape[0]
        cdef int count, i
        if offsets.shape[0] != self.n + 1:
            raise ValueError("offsets takes one entry a game and one more")
        with self.lock, nogil:
            for game in range(self.n):
                offsets[game] = total
                count = min(legal_codes(&self.states[game], &self.cfg, codes, CODES), CODES)
                for i in range(count):
                    if total + i < room:
                        out[total + i] = index_of(&self.table, codes[i])
                total += count
            offsets[self.n] = total
        return total

    def mark(self, unsigned char[:, ::1] mask, const int64_t[::1] indices,
             const int64_t[::1] offsets, unsigned char value):
        """Set mask[i, a] = value for every index a of game i's run of indices (as
        legal_indices writes them): a dense mask built, or cleared, touching only the legal
        entries."""
        cdef Py_ssize_t game, j
        cdef int64_t action, low, high
        if mask.shape[0] != self.n or mask.shape[1] != self.size:
            raise ValueError("the mask needs one row a game and one column an action")
        if offsets.shape[0] != self.n + 1:
            raise ValueError("offsets takes one entry a game and one more")
        for game in range(self.n):
            if not 0 <= offsets[game] <= offsets[game + 1] <= indices.shape[0]:
                raise ValueError("offsets do not describe runs of indices")
        with nogil:
            # the caller's arrays may change once the GIL is gone: each offset and index is
            # read once into a local and checked there (a run that no longer fits is skipped)
            for game in range(self.n):
                low = offsets[game]
                high = offsets[game + 1]
                if not 0 <= low <= high <= indices.shape[0]:
                    continue
                for j in range(low, high):
                    action = indices[j]
                    if 0 <= action < self.size:
                        mask[game, action] = value

    def step(self, actions, int64_t[:, ::1] rewards, unsigned char[::1] done):
        """Apply one action index a game (actions: any one-dimensional integer array of n
        entries; copied once into C memory and checked there, so the caller's array may
        change meanwhile without effect). Every game's row of rewards and flag of done is
        written (callers need not clear them): games that end write their payoffs and set
        done, and start their next deal; the others write zeros. All actions are checked first: if one is not
        legal, ValueError names the game and nothing changes. Returns the number of this
        step (steps taken before it), for callers that share the object between threads."""
        cdef const int64_t[::1] given = _int64_vector(actions)
        cdef int64_t* chosen
        cdef Py_ssize_t game, bad = -1, number = -1, slot
        cdef int seat
        cdef long long out[3]
        cdef int64_t bad_action = 0
        cdef uint64_t code
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
                            &self.states[game], &self.cfg, self.table.codes[chosen[game]]) != 0:
                        bad = game
                        bad_action = chosen[game]
                        break
                if bad < 0:
                    for game in range(self.n):
                        code = self.table.codes[chosen[game]]
                        if self.states[game].phase == PLAY:
                            if self.remembered > 0:   # the ring of the last moves of play
                                slot = game * self.remembered + self.ring_head[game]
                                self.ring_codes[slot] = code
                                self.ring_seats[slot] = <int8_t>self.states[game].current
                                self.ring_head[game] += 1
                                if self.ring_head[game] == self.remembered:
                                    self.ring_head[game] = 0
                            self.ring_count[game] += 1
                        apply_action(&self.states[game], &self.cfg, code)
                        done[game] = self.states[game].phase == OVER
                        if not done[game]:   # payoffs are zero until the game is over
                            for seat in range(3):
                                rewards[game, seat] = 0
                        else:
                            payoffs_of(&self.states[game], &self.cfg, out)
                            for seat in range(3):
                                rewards[game, seat] = out[seat] if seat < self.cfg.players else 0
                            self.episodes[game] += 1
                            self.ring_count[game] = 0
                            self.ring_head[game] = 0
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
                out[game] = index_of(&self.table, random_legal(&self.states[game], &self.cfg,
                                                                &self.rng, codes, CODES))

    def observations(self, int8_t[:, ::1] out, int history):
        """Fill out (n x observation_size(history)) with each game's observation of its
        player to act, with its last `history` moves of play (at most the vector's own)."""
        cdef Py_ssize_t game, slot
        cdef int player, k, taken
        cdef int64_t count
        cdef int8_t* row
        if not 0 <= history <= self.remembered:
            raise ValueError(
                f"this VectorGame remembers 0 .. {self.remembered} moves, not {history}")
        if out.shape[0] != self.n or out.shape[1] != observation_size(history):
            raise ValueError(f"one row a game, {observation_size(history)} columns")
        with self.lock, nogil:
            for game in range(self.n):
                player = self.states[game].current
                row = &out[game, 0]
                encode_base(&self.states[game], &self.cfg, player, row)
                row[OBS_BASE] = <int8_t>self.states[game].bombs
                row += OBS_BASE + OBS_BOMBS
                memset(row, 0, HISTORY_ENTRY * history)
                count = self.ring_count[game]
                taken = <int>min(<int64_t>history, count)
                for k in range(taken):   # newest first
                    slot = self.ring_head[game] - 1 - k   # k < remembered: one wrap at most
                    if slot < 0:
                        slot += self.remembered
                    slot += game * self.remembered
                    encode_entry(row + HISTORY_ENTRY * k, self.ring_codes[slot],
                                 self.ring_seats[slot], player, self.states[game].players)

    def keys(self, uint64_t[::1] out):
        """Fill out (n) with each game's 64-bit state key (state_key in state.pxd)."""
        cdef Py_ssize_t game
        if out.shape[0] != self.n:
            raise ValueError("one key a game")
        with self.lock:
            for game in range(self.n):
                out[game] = key_of(&self.states[game], &self.cfg)

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
        """An independent copy: every game's state, deal counter, remembered moves and the
        sampler's state."""
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
        cdef Py_ssize_t ring = self.n * self.remembered
        return (self.rules, self.n, self.seed, self.rng, self.steps,
                (<char*>self.table.codes)[:self.size * sizeof(uint64_t)],
                (<char*>self.states)[:self.n * sizeof(GameState)],
                (<char*>self.episodes)[:self.n * sizeof(uint64_t)],
                self.remembered,
                (<char*>self.ring_codes)[:ring * sizeof(uint64_t)],
                (<char*>self.ring_seats)[:ring * sizeof(int8_t)],
                (<char*>self.ring_count)[:self.n * sizeof(int64_t)])

    def state_bytes(self):
        """Every game's state struct, as bytes: equal bytes, equal games."""
        with self.lock:
            return (<char*>self.states)[:self.n * sizeof(GameState)]

cdef const int64_t[::1] _int64_vector(object actions) except *:
    """A one-dimensional int64 view of the caller's action indices (a copy if the array is
    of another integer type or not contiguous); TypeError for anything but integers."""
    if (type(actions) is numpy.ndarray and actions.dtype is _INT64 and actions.ndim == 1
            and actions.flags.c_contiguous):
        return actions   # what a training loop passes: taken as it is, no conversion
    array = numpy.asarray(actions)
    if array.dtype.kind not in "iu" or array.ndim != 1:
        raise TypeError(f"actions: a one-dimensional integer array, not {array.dtype} of "
                        f"{array.ndim} dimensions")
    if array.dtype.kind == "u" and array.size and array.max() > 0x7FFFFFFFFFFFFFFF:
        raise ValueError("an action index lies in 0 .. the action space's size")
    return numpy.ascontiguousarray(array, dtype=numpy.int64)


def restore_vector(object rules, Py_ssize_t n, uint64_t seed, uint64_t rng, Py_ssize_t steps,
                   bytes codes, bytes states, bytes episodes, int history=0,
                   bytes ring_codes=b"", bytes ring_seats=b"", bytes ring_count=None):
    """A VectorGame from its pickled parts (VectorGame.__reduce__), every state checked
    against the rules (state.pxd's state_fault)."""
    import numpy
    cdef VectorGame game
    cdef Py_ssize_t i
    cdef const char* raw = states
    cdef GameState one
    cdef const char* seats_raw
    cdef const int64_t* counts_raw
    code_array = numpy.frombuffer(codes, dtype=numpy.uint64)
    game = VectorGame(rules, n, seed, ActionIndex(numpy.ascontiguousarray(code_array)), history)
    if ring_count is None:
        ring_count = bytes(n * sizeof(int64_t))
    if len(states) != n * sizeof(GameState) or len(episodes) != n * sizeof(uint64_t) \
            or steps < 0 or len(ring_codes) != n * history * sizeof(uint64_t) \
            or len(ring_seats) != n * history or len(ring_count) != n * sizeof(int64_t):
        raise ValueError("the pickled VectorGame's parts have the wrong sizes for this build")
    seats_raw = ring_seats
    counts_raw = <const int64_t*><const char*>ring_count
    for i in range(n * history):
        if not 0 <= seats_raw[i] < game.cfg.players:
            raise ValueError("the pickled VectorGame remembers a move of a seat it has not")
    for i in range(n):
        if counts_raw[i] < 0:
            raise ValueError("the pickled VectorGame's move counts are negative")
    for i in range(n):
        memcpy(&one, raw + i * sizeof(GameState), sizeof(GameState))
        if (state_fault(&one, &game.cfg) or one.phase == OVER
                or one.hands_key != hands_key_of(&one)):
            raise ValueError(f"the pickled VectorGame's game {i} is in a state these rules "
                             f"cannot reach")
    memcpy(game.states, raw, n * sizeof(GameState))
    memcpy(game.episodes, <const char*>episodes, n * sizeof(uint64_t))
    if n * history:
        memcpy(game.ring_codes, <const char*>ring_codes, n * history * sizeof(uint64_t))
        memcpy(game.ring_seats, seats_raw, n * history)
    memcpy(game.ring_count, counts_raw, n * sizeof(int64_t))
    for i in range(n):
        game.ring_head[i] = <int32_t>(counts_raw[i] % history) if history else 0
    game.rng = rng
    game.steps = steps
    return game
