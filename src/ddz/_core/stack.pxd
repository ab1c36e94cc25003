# The undo stack both one-game cores keep (game.pyx's GameCore, uno.pyx's UnoCore), as inline
# C: the state before each action and the action's code, oldest first, in two arrays that
# double when full. A snapshot is the whole state struct, so undo restores it bit for bit and
# copy is two memcpys. The element sizes are given once, at stack_init: the stack holds bytes
# and each core casts snapshot_at / action_at to its own types.

from libc.stdlib cimport realloc, free
from libc.string cimport memcpy

ctypedef struct Snapshots:
    char* states            # capacity slots of state_size bytes; the first depth are in use
    char* actions           # the action taken from each, action_size bytes each
    Py_ssize_t depth
    Py_ssize_t capacity
    size_t state_size
    size_t action_size


cdef inline int stack_grow(Snapshots* st, Py_ssize_t capacity) except -1:
    """Room for capacity snapshots (the first depth kept). MemoryError leaves the stack as it
    was, apart from a larger states array."""
    cdef char* states = <char*>realloc(st.states, capacity * st.state_size)
    if states == NULL:
        raise MemoryError()
    st.states = states
    cdef char* actions = <char*>realloc(st.actions, capacity * st.action_size)
    if actions == NULL:
        raise MemoryError()
    st.actions = actions
    st.capacity = capacity
    return 0


cdef inline int stack_init(Snapshots* st, Py_ssize_t capacity, size_t state_size,
                           size_t action_size) except -1:
    """An empty stack with room for capacity snapshots (st's memory need not be initialised;
    stack_free releases it even after a MemoryError here)."""
    st.states = NULL
    st.actions = NULL
    st.depth = 0
    st.capacity = 0
    st.state_size = state_size
    st.action_size = action_size
    return stack_grow(st, capacity)


cdef inline void stack_free(Snapshots* st) noexcept nogil:
    free(st.states)
    free(st.actions)
    st.states = NULL
    st.actions = NULL
    st.depth = 0
    st.capacity = 0


cdef inline int stack_reserve(Snapshots* st, Py_ssize_t n) except -1:
    """Room for n snapshots at least (grown to exactly n when it had less)."""
    if st.capacity < n:
        stack_grow(st, n)
    return 0


cdef inline void* snapshot_at(const Snapshots* st, Py_ssize_t i) noexcept nogil:
    """The i-th snapshot from the bottom (0 <= i < depth)."""
    return st.states + i * st.state_size


cdef inline void* action_at(const Snapshots* st, Py_ssize_t i) noexcept nogil:
    """The action taken from the i-th snapshot."""
    return st.actions + i * st.action_size


cdef inline int stack_push(Snapshots* st, const void* state, const void* action) except -1:
    """Save state and the action about to be taken from it (doubling the room when full)."""
    if st.depth == st.capacity:
        stack_grow(st, 2 * st.capacity)
    memcpy(st.states + st.depth * st.state_size, state, st.state_size)
    memcpy(st.actions + st.depth * st.action_size, action, st.action_size)
    st.depth += 1
    return 0


cdef inline void stack_pop(Snapshots* st, void* state, void* action) noexcept nogil:
    """Restore the last snapshot into state and its action into action (depth > 0: the
    caller checks)."""
    st.depth -= 1
    memcpy(state, st.states + st.depth * st.state_size, st.state_size)
    memcpy(action, st.actions + st.depth * st.action_size, st.action_size)


cdef inline int stack_copy(Snapshots* dst, const Snapshots* src) except -1:
    """Make dst (a stack of the same element sizes) hold src's snapshots and actions; grown
    to src's capacity when it is too small for them."""
    if dst.capacity < src.depth:
        stack_grow(dst, src.capacity)
    memcpy(dst.states, src.states, src.depth * src.state_size)
    memcpy(dst.actions, src.actions, src.depth * src.action_size)
    dst.depth = src.depth
    return 0

