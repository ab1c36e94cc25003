# cython: language_level=3, cdivision=True
"""Greedy playouts, in C: the evaluation behind ddz.play.agents.PIMCAgent.

``greedy_playouts`` takes one game state (the decision point, as GameCore.state_bytes()),
n sampled worlds (every seat's hand, and the kitty while bidding) and m candidate actions
of the player to act. For each world and each action it puts the world's cards into the
state, takes the action, lets every seat play the greedy agent (greedy.pxd, the same choice
as ddz.play.agents.GreedyAgent) to the end of the game and records one seat's payoff. n x m
whole games without the GIL and without a Python object: a 20-card classic endgame plays out
in a few microseconds.

``epsilon`` (per mille) makes a playout's players take a uniformly random legal action
instead of the greedy one that often, from a generator seeded by ``seed`` and the world's
index, so results never depend on anything but the arguments.

A ``Stop`` passed as ``stop`` ends a long call early: ``request_stop()`` from another thread
(ddz.base.fanout.run_interruptible, on Ctrl-C) is seen after the playout running, a few
microseconds; the worlds finished by then are the ones reported played.

Every input is checked before the loop (shapes, the state, each world's cards against the
rules' deck, each action's legality in each world): nothing given here can crash the core.
"""

from libc.stdint cimport uint64_t, int64_t
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy

from ddz._core.layout cimport *
from ddz._core.ruleset cimport *
from ddz._core.readings cimport *
from ddz._core.generator cimport *
from ddz._core.rng cimport below, splitmix64
from ddz._core.state cimport *
from ddz._core.greedy cimport greedy_action
from ddz._core.actions cimport random_legal

cdef extern from *:
    """
    static inline int ddz_playouts_flag(const int* flag) { return *(const volatile int*)flag; }
    """
    int ddz_playouts_flag(const int* flag) noexcept nogil

cdef enum:
    CODES = 4096            # legal moves a turn holds on the stack (more: the heap)

MAX_WORLDS = 1 << 16
MAX_CANDIDATES = 1 << 16


cdef int play_out(GameState* s, const GameConfig* cfg, uint64_t* codes, int epsilon,
                  uint64_t* rng, uint64_t* work) noexcept nogil:
    """Play s to the end, every seat greedy (or random, epsilon per mille of the time);
    -1 if it did not end within MAX_PLIES (a guard: the rules never allow it)."""
    cdef uint64_t action
    cdef int plies = 0
    while s.phase != OVER:
        if plies >= MAX_PLIES:
            return -1
        if epsilon > 0 and <int>below(rng, 1000) < epsilon:
            action = random_legal(s, cfg, rng, codes, CODES)
            work[0] += 1
        else:
            action = greedy_action(s, cfg, codes, CODES, work)
        apply_action(s, cfg, action)
        plies += 1
    return 0


cdef class Stop:
    """The stop flag of greedy_playouts calls: ``request_stop()`` (any thread) ends the call
    that was given it after its running playout; each call clears it as it starts."""

    cdef int flag

    def request_stop(self):
        self.flag = 1

    def reset_stop(self):
        self.flag = 0

    @property
    def requested(self):
        return self.flag != 0


def greedy_playouts(object rules, bytes state, const uint64_t[:, ::1] hands,
                    const uint64_t[::1] kitty, const uint64_t[::1] actions, int seat,
                    int64_t[:, ::1] out, uint64_t seed=0, int epsilon=0, uint64_t max_work=0,
                    Stop stop=None):
    """out[i, j] = seat's payoff when, in world i (hands[i]; kitty[i] too while bidding),
    the player to act takes actions[j] and every seat then plays greedy to the end.

    state: GameCore.state_bytes() of a game under rules, not over; hands: n x players card
    integers; kitty: n card integers (read in bidding only); out: n x m. ValueError for
    anything inconsistent (a world the rules' deck cannot hold, an illegal action).

    Returns (worlds played, work): the worlds are played in order, every action of a world
    before the next world, and max_work (0: none) stops after the first world at which the
    work, the number of legal moves the playouts' players scored, reached it; the rows of
    the worlds not played are left as they were. Deterministic: work depends on nothing but
    the arguments. ``stop`` (a Stop, or None) ends the call early when asked: the worlds
    played are then the ones finished before."""
    cdef GameConfig cfg = config_of(rules)
    cdef GameState s, world, one
    cdef Py_ssize_t n = hands.shape[0], m = actions.shape[0], i, j
    cdef int players = cfg.players, p, fault = 0
    cdef long long pay[3]
    cdef uint64_t rng, work = 0
    cdef Py_ssize_t played = 0
    cdef uint64_t* codes
    cdef const int* flag = NULL
    cdef bint stopped = False
    cdef const char* raw = state
    if len(state) != sizeof(GameState):
        raise ValueError(f"a game state is {sizeof(GameState)} bytes, not {len(state)}")
    memcpy(&s, raw, sizeof(GameState))
    if state_fault(&s, &cfg) or s.phase == OVER:
        raise ValueError("the state is not a game in progress under these rules")
    if not 0 <= seat < players:
        raise ValueError(f"seat must be 0..{players - 1}, not {seat}")
    if not 0 <= epsilon <= 1000:
        raise ValueError(f"epsilon is per mille: 0..1000, not {epsilon}")
    if n > MAX_WORLDS or m > MAX_CANDIDATES:
        raise ValueError(f"at most {MAX_WORLDS} worlds and {MAX_CANDIDATES} actions")
    if hands.shape[1] != players or kitty.shape[0] != n or out.shape[0] != n \
            or out.shape[1] != m:
        raise ValueError("hands must be n x players, kitty n, out n x len(actions)")
    # every world, every action checked before the loop: the loop itself cannot fail
    for i in range(n):
        world = s
        for p in range(players):
            world.hands[p] = hands[i, p]
        if s.phase == BIDDING:
            world.kitty = kitty[i]
        world.hands_key = hands_key_of(&world)
        if state_fault(&world, &cfg):
            raise ValueError(f"world {i} does not fit the rules' deck with the cards played")
        for j in range(m):
            if check_action(&world, &cfg, actions[j]) != ILLEGAL_OK:
                raise ValueError(f"action {j} ({actions[j]:#x}) is not legal in world {i}")
    codes = <uint64_t*>malloc(CODES * sizeof(uint64_t))
    if codes == NULL:
        raise MemoryError()
    if stop is not None:
        stop.flag = 0
        flag = &stop.flag
    try:
        with nogil:
            for i in range(n):
                if max_work and work >= max_work:
                    break
                world = s
                for p in range(players):
                    world.hands[p] = hands[i, p]
                if s.phase == BIDDING:
                    world.kitty = kitty[i]
                world.hands_key = hands_key_of(&world)
                for j in range(m):
                    if flag != NULL and ddz_playouts_flag(flag):
                        stopped = True
                        break
                    one = world
                    rng = seed ^ (<uint64_t>i * 0x9E3779B97F4A7C15ULL) \
                        ^ (<uint64_t>j * 0xD1B54A32D192ED03ULL)
                    splitmix64(&rng)
                    apply_action(&one, &cfg, actions[j])
                    if play_out(&one, &cfg, codes, epsilon, &rng, &work) < 0:
                        fault = 1
                    payoffs_of(&one, &cfg, pay)
                    out[i, j] = pay[seat]
                if stopped:
                    break
                played = i + 1
    finally:
        free(codes)
    if fault:
        raise RuntimeError("a playout did not end within the longest game the rules allow")
    return played, work


def greedy_disagreements(object rules, bytes state, const uint64_t[:, ::1] hands,
                         const uint64_t[::1] actions, int64_t[:, ::1] out):
    """out[i, p] = how many of seat p's actions (in ``actions``, the game from ``state`` on)
    differ from the greedy agent's choice when every hand is world i's (hands[i], the hands
    at ``state``): the reading of the play behind PIMCAgent's inference (ddz.play.inference).

    state: GameCore.state_bytes() of a game under rules in play; hands: n x players card
    integers; actions: the codes taken from ``state`` on, in order; out: n x players. A world
    in which the actions are not a legal sequence (it cannot have been the deal) gets -1 in
    every column. ValueError for shapes or a state that do not fit. Deterministic, no GIL."""
    cdef GameConfig cfg = config_of(rules)
    cdef GameState s, world
    cdef Py_ssize_t n = hands.shape[0], m = actions.shape[0], i, k
    cdef int players = cfg.players, p, seat
    cdef uint64_t work = 0, choice
    cdef uint64_t* codes
    cdef const char* raw = state
    if len(state) != sizeof(GameState):
        raise ValueError(f"a game state is {sizeof(GameState)} bytes, not {len(state)}")
    memcpy(&s, raw, sizeof(GameState))
    if state_fault(&s, &cfg) or s.phase != PLAY:
        raise ValueError("the state is not a game in play under these rules")
    if n > MAX_WORLDS or m > MAX_PLIES:
        raise ValueError(f"at most {MAX_WORLDS} worlds and {MAX_PLIES} actions")
    if hands.shape[1] != players or out.shape[0] != n or out.shape[1] != players:
        raise ValueError("hands must be n x players, out n x players")
    for i in range(n):
        world = s
        for p in range(players):
            world.hands[p] = hands[i, p]
        world.hands_key = hands_key_of(&world)
        if state_fault(&world, &cfg):
            raise ValueError(f"world {i} does not fit the rules' deck with the cards played")
    codes = <uint64_t*>malloc(CODES * sizeof(uint64_t))
    if codes == NULL:
        raise MemoryError()
    try:
        with nogil:
            for i in range(n):
                world = s
                for p in range(players):
                    world.hands[p] = hands[i, p]
                    out[i, p] = 0
                world.hands_key = hands_key_of(&world)
                for k in range(m):
                    if world.phase != PLAY or check_action(&world, &cfg, actions[k]) != ILLEGAL_OK:
                        for p in range(players):
                            out[i, p] = -1
                        break
                    seat = world.current
                    choice = greedy_action(&world, &cfg, codes, CODES, &work)
                    if choice != actions[k]:
                        out[i, seat] += 1
                    apply_action(&world, &cfg, actions[k])
    finally:
        free(codes)
