# cython: language_level=3, cdivision=True
"""Greedy and rule-agent playouts, in C: the evaluation behind ddz.play.agents.PIMCAgent.

``greedy_playouts`` takes one game state (the decision point, as GameCore.state_bytes()),
n sampled worlds (every seat's hand, and the kitty while bidding) and m candidate actions
of the player to act. For each world and each action it puts the world's cards into the
state, takes the action, lets every seat play the greedy agent (greedy.pxd, the same choice
as ddz.play.agents.GreedyAgent) to the end of the game and records one seat's payoff. n x m
whole games without the GIL and without a Python object: a 20-card classic endgame plays out
in a few microseconds. ``policy_playouts`` is the same with a policy for each seat: the greedy
agent or RLCard's rule agent (rule.pxd, its order of answers given as a ``RuleOrder``).

``epsilon`` (per mille) makes a playout's players take a uniformly random legal action
instead of the greedy one that often, from a generator seeded by ``seed`` and the world's
index, so results never depend on anything but the arguments.

A ``Stop`` passed as ``stop`` ends a long call early: ``request_stop()`` from another thread
(ddz.base.fanout.run_interruptible, on Ctrl-C) is seen after the playout running, a few
microseconds; the worlds finished by then are the ones reported played.

Every input is checked before the loop (shapes, the state, each world's cards against the
rules' deck, each action's legality in each world): nothing given here can crash the core.
"""

from libc.stdint cimport uint64_t, int64_t, int32_t
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
from ddz._core.rule cimport RuleTable, rule_action

cdef extern from *:
    """
    static inline int ddz_playouts_flag(const int* flag) { return *(const volatile int*)flag; }
    """
    int ddz_playouts_flag(const int* flag) noexcept nogil

cdef enum:
    CODES = 4096            # legal moves a turn holds on the stack (more: the heap)
    GREEDY = 0              # a seat's policy: the greedy agent (greedy.pxd)
    RULE = 1                # RLCard's rule agent (rule.pxd)

MAX_WORLDS = 1 << 16
MAX_CANDIDATES = 1 << 16
POLICIES = {"greedy": GREEDY, "rlcard-rule": RULE}


cdef class RuleOrder:
    """RLCard's order of answers, which the rule agent's choice among kicker moves of equal
    rank follows: ``codes`` (ascending, unique move codes) and each one's ``places`` (its
    index in RLCard's list of answers). Built once by ddz.play.rule_model.rule_order()."""

    cdef readonly object codes
    cdef readonly object places
    cdef const uint64_t[::1] _codes
    cdef const int32_t[::1] _places

    def __init__(self, const uint64_t[::1] codes, const int32_t[::1] places):
        cdef Py_ssize_t i
        if codes.shape[0] != places.shape[0]:
            raise ValueError("codes and places must have the same length")
        for i in range(1, codes.shape[0]):
            if codes[i] <= codes[i - 1]:
                raise ValueError("codes must be ascending and unique")
        self._codes = codes
        self._places = places
        self.codes = codes.base if codes.base is not None else codes
        self.places = places.base if places.base is not None else places

    def __len__(self):
        return self._codes.shape[0]

    cdef RuleTable table(self) noexcept:
        cdef RuleTable t
        t.n = self._codes.shape[0]
        t.codes = &self._codes[0] if t.n else NULL
        t.places = &self._places[0] if t.n else NULL
        return t


cdef RuleTable no_table() noexcept:
    cdef RuleTable t
    t.codes = NULL
    t.places = NULL
    t.n = 0
    return t


cdef inline uint64_t policy_action(const GameState* s, const GameConfig* cfg, int policy,
                                   uint64_t* codes, const RuleTable* table, uint64_t* rng,
                                   uint64_t* work, bint* drew) noexcept nogil:
    """The action of the player to act under its policy (GREEDY or RULE)."""
    if policy == RULE:
        return rule_action(s, cfg, codes, CODES, table, rng, work, drew)
    drew[0] = False
    return greedy_action(s, cfg, codes, CODES, work)


cdef int play_out(GameState* s, const GameConfig* cfg, uint64_t* codes, int epsilon,
                  uint64_t* rng, uint64_t* work, const int* policies,
                  const RuleTable* table) noexcept nogil:
    """Play s to the end, every seat by its policy (or random, epsilon per mille of the
    time); -1 if it did not end within MAX_PLIES (a guard: the rules never allow it)."""
    cdef uint64_t action
    cdef int plies = 0
    cdef bint drew
    while s.phase != OVER:
        if plies >= MAX_PLIES:
            return -1
        if epsilon > 0 and <int>below(rng, 1000) < epsilon:
            action = random_legal(s, cfg, rng, codes, CODES)
            work[0] += 1
        else:
            action = policy_action(s, cfg, policies[s.current], codes, table, rng, work, &drew)
        apply_action(s, cfg, action)
        plies += 1
    return 0


cdef void read_policies(object policies, int players, RuleOrder order, int* out) except *:
    """Each seat's policy from a sequence of names or numbers (None: every seat greedy);
    the rule agent needs three seats and a RuleOrder."""
    cdef int p, value
    for p in range(3):
        out[p] = GREEDY
    if policies is None:
        return
    policies = list(policies)
    if len(policies) != players:
        raise ValueError(f"policies must name one policy a seat ({players}), not {len(policies)}")
    for p in range(players):
        name = policies[p]
        if isinstance(name, str):
            if name not in POLICIES:
                raise ValueError(f"no playout policy {name!r}: {', '.join(POLICIES)}")
            value = POLICIES[name]
        elif isinstance(name, int) and not isinstance(name, bool) and name in (GREEDY, RULE):
            value = name
        else:
            raise ValueError(f"a playout policy is one of {', '.join(POLICIES)}, not {name!r}")
        if value == RULE and players != 3:
            raise ValueError("RLCard's rule agent plays three seats")
        if value == RULE and order is None:
            raise ValueError("the rule agent's playouts need its order of answers (order=)")
        out[p] = value


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
    """policy_playouts with every seat greedy (its docstring)."""
    return policy_playouts(rules, state, hands, kitty, actions, seat, out, None, None, seed,
                           epsilon, max_work, stop)


def policy_playouts(object rules, bytes state, const uint64_t[:, ::1] hands,
                    const uint64_t[::1] kitty, const uint64_t[::1] actions, int seat,
                    int64_t[:, ::1] out, object policies=None, RuleOrder order=None,
                    uint64_t seed=0, int epsilon=0, uint64_t max_work=0, Stop stop=None):
    """out[i, j] = seat's payoff when, in world i (hands[i]; kitty[i] too while bidding),
    the player to act takes actions[j] and every seat then plays by its policy to the end:
    ``policies`` names one a seat, "greedy" or "rlcard-rule" (RLCard's rule agent, three
    seats, ``order`` its RuleOrder); None: every seat greedy.

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
    cdef int seat_policy[3]
    cdef RuleTable table = order.table() if order is not None else no_table()
    read_policies(policies, cfg.players, order, seat_policy)
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
                    if play_out(&one, &cfg, codes, epsilon, &rng, &work, seat_policy,
                                &table) < 0:
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
    """policy_disagreements with every seat greedy (its docstring)."""
    policy_disagreements(rules, state, hands, actions, out, None, None)


def rule_choice(object rules, bytes state, RuleOrder order not None):
    """(code, drew): RLCard's rule agent's action for the player to act in ``state``
    (GameCore.state_bytes() of a three-seat game under rules, in play), and whether it is
    a uniform draw among the legal actions (then the code is one such draw, from a fixed
    generator). ValueError for a state that does not fit."""
    cdef GameConfig cfg = config_of(rules)
    cdef GameState s
    cdef const char* raw = state
    cdef RuleTable table = order.table()
    cdef uint64_t rng = 0, work = 0, code
    cdef uint64_t* codes
    cdef bint drew = False
    if cfg.players != 3:
        raise ValueError("RLCard's rule agent plays three seats")
    if len(state) != sizeof(GameState):
        raise ValueError(f"a game state is {sizeof(GameState)} bytes, not {len(state)}")
    memcpy(&s, raw, sizeof(GameState))
    if state_fault(&s, &cfg) or s.phase == OVER:
        raise ValueError("the state is not a game in progress under these rules")
    codes = <uint64_t*>malloc(CODES * sizeof(uint64_t))
    if codes == NULL:
        raise MemoryError()
    try:
        code = rule_action(&s, &cfg, codes, CODES, &table, &rng, &work, &drew)
    finally:
        free(codes)
    return code, bool(drew)


def policy_disagreements(object rules, bytes state, const uint64_t[:, ::1] hands,
                         const uint64_t[::1] actions, int64_t[:, ::1] out,
                         object policies=None, RuleOrder order=None):
    """out[i, p] = how many of seat p's actions (in ``actions``, the game from ``state`` on)
    differ from the choice of its policy (``policies``, as policy_playouts reads them; None:
    the greedy agent) when every hand is world i's (hands[i], the hands at ``state``): the
    reading of the play behind PIMCAgent's inference (ddz.play.inference). Where the rule
    agent draws at random, any action agrees with it.

    state: GameCore.state_bytes() of a game under rules in play; hands: n x players card
    integers; actions: the codes taken from ``state`` on, in order; out: n x players. A world
    in which the actions are not a legal sequence (it cannot have been the deal) gets -1 in
    every column. ValueError for shapes or a state that do not fit. Deterministic, no GIL."""
    cdef GameConfig cfg = config_of(rules)
    cdef GameState s, world
    cdef Py_ssize_t n = hands.shape[0], m = actions.shape[0], i, k
    cdef int players = cfg.players, p, seat
    cdef uint64_t work = 0, choice, rng = 0
    cdef uint64_t* codes
    cdef const char* raw = state
    cdef int seat_policy[3]
    cdef bint drew
    cdef RuleTable table = order.table() if order is not None else no_table()
    read_policies(policies, cfg.players, order, seat_policy)
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
                    choice = policy_action(&world, &cfg, seat_policy[seat], codes, &table,
                                           &rng, &work, &drew)
                    if choice != actions[k] and not drew:
                        out[i, seat] += 1
                    apply_action(&world, &cfg, actions[k])
    finally:
        free(codes)
