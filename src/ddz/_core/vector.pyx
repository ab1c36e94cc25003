# cython: language_level=3, cdivision=True
"""Many games at once, in C: whole games of the built-in agents (random, greedy) across
threads, and a vector of games stepped together (numpy in, numpy out).

Game i of a run starts as ddz.Game(rules, seed=game_seed(seed, i)) does (state.pxd's
seeded_start), so any single game can be replayed in Python. The loops hold no Python
objects and run without the GIL.
"""

from libc.stdint cimport uint64_t, int64_t, int8_t
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy, memset

from ddz._core.layout cimport *
from ddz._core.ruleset cimport *
from ddz._core.readings cimport *
from ddz._core.generator cimport *
from ddz._core.rng cimport below_fast, splitmix64
from ddz._core.state cimport *
from ddz._core.greedy cimport greedy_action as greedy_choice
from ddz._core.actions cimport ActionIndex, IndexTable, index_of, legal_codes
from ddz._core.observe cimport *

cdef enum:
    CODES = 4096            # legal moves a turn holds on the stack (more: the heap)

cdef enum:
    AGENT_RANDOM = 0        # agent ids of simulate_games (simulation.py's _AGENT_IDS)
    AGENT_GREEDY = 1


cdef inline uint64_t mix(uint64_t seed, uint64_t index, uint64_t salt) noexcept nogil:
    """A seed for one game (salt 0) or one game's agents (salt 1), from the run's seed."""
    cdef uint64_t state = seed ^ (index * 0xD1B54A32D192ED03ULL) ^ (salt * 0x8CB92BA72F3D8DD7ULL)
    return splitmix64(&state)


def game_seed(uint64_t seed, uint64_t index):
    """The deal seed of game `index` of a run seeded with `seed`: ddz.Game(rules,
    seed=game_seed(seed, index)) starts as that game did."""
    return mix(seed, index, 0)


cdef uint64_t random_action(const GameState* s, const GameConfig* cfg, uint64_t* rng,
                            uint64_t* codes) noexcept nogil:
    """A uniformly random legal action (codes: scratch room for CODES codes)."""
    cdef int n = legal_codes(s, cfg, codes, CODES)
    cdef uint64_t* heap
    cdef uint64_t chosen
    if n <= CODES:
        return codes[below_fast(rng, n)]
    heap = <uint64_t*>malloc(n * sizeof(uint64_t))   # a hand richer than CODES moves
    if heap == NULL:
        return codes[below_fast(rng, CODES)]
    legal_codes(s, cfg, heap, n)
    chosen = heap[below_fast(rng, n)]
    free(heap)
    return chosen


cdef void play_games(const GameConfig* cfg, const int8_t* agents, uint64_t seed,
                     Py_ssize_t first, Py_ssize_t start, Py_ssize_t stop, int64_t* payoffs,
                     int8_t* winners, int8_t* landlords, int64_t* lengths) noexcept nogil:
    """Rows start..stop-1 of the results: games first + start .. first + stop - 1 of the run,
    agents[seat] (AGENT_*) playing each seat. Random agents all draw from the game's one
    generator, in turn order."""
    cdef GameState s
    cdef uint64_t codes[CODES]
    cdef uint64_t rng, action
    cdef long long out[3]
    cdef Py_ssize_t game
    cdef int seat
    for game in range(start, stop):
        seeded_start(&s, cfg, mix(seed, first + game, 0))
        rng = mix(seed, first + game, 1)
        while s.phase != OVER:
            if agents[s.current] == AGENT_GREEDY:
                action = greedy_choice(&s, cfg, codes, CODES)
            else:
                action = random_action(&s, cfg, &rng, codes)
            apply_action(&s, cfg, action)
        payoffs_of(&s, cfg, out)
        for seat in range(3):
            payoffs[3 * game + seat] = out[seat] if seat < cfg.players else 0
        winners[game] = s.winner
        landlords[game] = s.landlord
        lengths[game] = s.ply


def simulate_games(object rules, int8_t[::1] agents, uint64_t seed, Py_ssize_t first,
                   Py_ssize_t start, Py_ssize_t stop, int64_t[:, ::1] payoffs,
                   int8_t[::1] winners, int8_t[::1] landlords, int64_t[::1] lengths):
    """Play rows start..stop-1 (games first + row of a run), agents[seat] playing each seat
    (0 random, 1 greedy; one entry a seat), entirely in C without the GIL, writing each
    game's row of the result arrays (callers run slices of the rows on several threads)."""
    cdef GameConfig cfg = config_of(rules)
    cdef int seat
    if agents.shape[0] != cfg.players:
        raise ValueError("one agent a seat")
    for seat in range(cfg.players):
        if agents[seat] != AGENT_RANDOM and agents[seat] != AGENT_GREEDY:
            raise ValueError(f"no agent id {agents[seat]}")
    if first < 0 or not (0 <= start <= stop <= payoffs.shape[0] and payoffs.shape[1] == 3
            and winners.shape[0] == landlords.shape[0] == lengths.shape[0] == payoffs.shape[0]):
        raise ValueError("result arrays of the wrong shape for this slice")
    with nogil:
        if stop > start:
            play_games(&cfg, &agents[0], seed, first, start, stop, &payoffs[0, 0], &winners[0],
                       &landlords[0], &lengths[0])


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
    if s.players != cfg.players or not 0 <= s.phase <= OVER or (s.phase != OVER and not (
            0 <= s.current < s.players and (s.phase == BIDDING or 0 <= s.landlord < s.players)
            and hand_fits_deck(s.hands[s.current], &cfg.rs))):
        raise ValueError("the state does not belong to these rules")
    with nogil:
        action = greedy_choice(&s, &cfg, codes, CODES)
    return action


# --- a vector of games ---------------------------------------------------------------------

cdef class VectorGame:
    """n games stepped together; see ddz.VectorGame for the contract."""

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
    cdef readonly object rules

    def __cinit__(self, object rules, Py_ssize_t n, uint64_t seed, ActionIndex index,
                  int history):
        cdef Py_ssize_t i
        if not 0 < n <= (1 << 32):
            raise ValueError("a VectorGame holds 1 .. 2**32 games")
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
        self.ring_codes = <uint64_t*>malloc(max(n * history, 1) * sizeof(uint64_t))
        self.ring_seats = <int8_t*>malloc(max(n * history, 1) * sizeof(int8_t))
        self.ring_count = <int64_t*>malloc(n * sizeof(int64_t))
        if (self.states == NULL or self.episodes == NULL or self.ring_codes == NULL
                or self.ring_seats == NULL or self.ring_count == NULL):
            raise MemoryError()
        for i in range(n):
            self.episodes[i] = 0
            self.ring_count[i] = 0
            seeded_start(&self.states[i], &self.cfg, self.episode_seed(i))

    def __dealloc__(self):
        free(self.states)
        free(self.episodes)
        free(self.ring_codes)
        free(self.ring_seats)
        free(self.ring_count)

    cdef inline uint64_t episode_seed(self, Py_ssize_t game) noexcept nogil:
        return mix(self.seed, <uint64_t>game + (<uint64_t>self.n) * self.episodes[game], 0)

    def deal_seed(self, Py_ssize_t game):
        """The seed of game `game`'s current deal: ddz.Game(rules, seed=...) starts there."""
        if not 0 <= game < self.n:
            raise IndexError(game)
        return self.episode_seed(game)

    @property
    def history(self):
        """How many past moves of play each game remembers for its observations."""
        return self.remembered

    def legal_action_mask(self, unsigned char[:, ::1] mask):
        """Fill mask (n x actions, bool / uint8) with each game's legal actions."""
        cdef uint64_t codes[CODES]
        cdef Py_ssize_t game
        cdef int count, i, index
        if mask.shape[0] != self.n or mask.shape[1] != self.size:
            raise ValueError("the mask needs one row a game and one column an action")
        with nogil:
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
        with nogil:
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
        with nogil:
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
        cdef int64_t action
        if mask.shape[0] != self.n or mask.shape[1] != self.size:
            raise ValueError("the mask needs one row a game and one column an action")
        if offsets.shape[0] != self.n + 1:
            raise ValueError("offsets takes one entry a game and one more")
        for game in range(self.n):
            if not 0 <= offsets[game] <= offsets[game + 1] <= indices.shape[0]:
                raise ValueError("offsets do not describe runs of indices")
        with nogil:
            for game in range(self.n):
                for j in range(offsets[game], offsets[game + 1]):
                    action = indices[j]
                    if 0 <= action < self.size:
                        mask[game, action] = value

    def step(self, int64_t[::1] actions, int64_t[:, ::1] rewards, unsigned char[::1] done):
        """Apply one action index per game; games that end write their payoffs to rewards,
        set done, and start their next deal. All actions are checked first: if one is not
        legal, ValueError names the game and nothing changes."""
        cdef Py_ssize_t game, bad = -1, slot
        cdef int seat
        cdef long long out[3]
        cdef uint64_t code
        if actions.shape[0] != self.n or rewards.shape[0] != self.n or done.shape[0] != self.n:
            raise ValueError("one action, one reward row and one done flag a game")
        if rewards.shape[1] != 3:
            raise ValueError("rewards take three columns")
        with nogil:
            for game in range(self.n):
                if not 0 <= actions[game] < self.size or check_action(
                        &self.states[game], &self.cfg, self.table.codes[actions[game]]) != 0:
                    bad = game
                    break
            if bad < 0:
                for game in range(self.n):
                    code = self.table.codes[actions[game]]
                    if self.states[game].phase == PLAY:
                        if self.remembered > 0:
                            slot = (game * self.remembered
                                    + self.ring_count[game] % self.remembered)
                            self.ring_codes[slot] = code
                            self.ring_seats[slot] = <int8_t>self.states[game].current
                        self.ring_count[game] += 1
                    apply_action(&self.states[game], &self.cfg, code)
                    done[game] = self.states[game].phase == OVER
                    payoffs_of(&self.states[game], &self.cfg, out)
                    for seat in range(3):
                        rewards[game, seat] = out[seat] if seat < self.cfg.players else 0
                    if done[game]:
                        self.episodes[game] += 1
                        self.ring_count[game] = 0
                        seeded_start(&self.states[game], &self.cfg, self.episode_seed(game))
        if bad >= 0:
            raise ValueError(f"game {bad}: action {actions[bad]} is not legal there")

    def sample_legal(self, int64_t[::1] out):
        """One uniformly random legal action index a game, drawn in C (seeded by the
        VectorGame's seed): random play without building a mask."""
        cdef uint64_t codes[CODES]
        cdef Py_ssize_t game
        if out.shape[0] != self.n:
            raise ValueError("one action a game")
        with nogil:
            for game in range(self.n):
                out[game] = index_of(&self.table, random_action(&self.states[game], &self.cfg,
                                                                 &self.rng, codes))

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
        with nogil:
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
                    slot = game * self.remembered + (count - 1 - k) % self.remembered
                    encode_entry(row + HISTORY_ENTRY * k, self.ring_codes[slot],
                                 self.ring_seats[slot], player, self.states[game].players)

    def keys(self, uint64_t[::1] out):
        """Fill out (n) with each game's 64-bit state key (state_key in state.pxd)."""
        cdef Py_ssize_t game
        if out.shape[0] != self.n:
            raise ValueError("one key a game")
        for game in range(self.n):
            out[game] = self.states[game].key

    def current_players(self, int8_t[::1] out):
        cdef Py_ssize_t game
        if out.shape[0] != self.n:
            raise ValueError("one entry a game")
        for game in range(self.n):
            out[game] = self.states[game].current
