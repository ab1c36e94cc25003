# cython: language_level=3
"""The action numbering in C: ActionIndex maps an action code to its index in a rule set's
action space (ddz.ActionSpace) with one or two probes of a hash table. One table serves every
game of a rule set; it never changes after it is built, so threads may share it.
"""

from libc.stdint cimport uint64_t, int32_t
from libc.stdlib cimport malloc, free


cdef class ActionIndex:
    """The code -> index table of an action space: codes[i] is the code of action i."""

    def __cinit__(self, const uint64_t[::1] codes):
        cdef Py_ssize_t size = codes.shape[0], i, slots
        cdef int bits = 4
        cdef uint64_t slot, last
        if not 0 < size < (1 << 30):
            raise ValueError(f"an action space holds 1 .. 2**30 - 1 actions, not {size}")
        while (1 << bits) < 2 * size:   # at most half full: short probe runs
            bits += 1
        slots = 1 << bits
        self.keys = <uint64_t*>malloc(slots * sizeof(uint64_t))
        self.values = <int32_t*>malloc(slots * sizeof(int32_t))
        self.codes = <uint64_t*>malloc(size * sizeof(uint64_t))
        if self.keys == NULL or self.values == NULL or self.codes == NULL:
            raise MemoryError()
        for i in range(slots):
            self.keys[i] = 0xFFFFFFFFFFFFFFFFULL
            self.values[i] = -1
        last = slots - 1
        for i in range(size):
            if codes[i] == 0xFFFFFFFFFFFFFFFFULL:
                raise ValueError("no action code has every bit set")
            self.codes[i] = codes[i]
            slot = (codes[i] * 0x9E3779B97F4A7C15ULL) >> (64 - bits)
            while self.keys[slot] != 0xFFFFFFFFFFFFFFFFULL:
                if self.keys[slot] == codes[i]:
                    raise ValueError(f"action code {codes[i]:#x} appears twice")
                slot = (slot + 1) & last
            self.keys[slot] = codes[i]
            self.values[slot] = <int32_t>i
        self.table.keys = self.keys
        self.table.values = self.values
        self.table.codes = self.codes
        self.table.bits = bits
        self.table.size = size

    def __dealloc__(self):
        free(self.keys)
        free(self.values)
        free(self.codes)

    @property
    def size(self):
        return self.table.size

    def index(self, uint64_t code):
        """The index of an action code, or -1 when it is not in the space."""
        return index_of(&self.table, code)

    def code(self, Py_ssize_t index):
        """The code of an action index (IndexError outside the space)."""
        if not 0 <= index < self.table.size:
            raise IndexError(f"action index {index} is outside 0..{self.table.size - 1}")
        return self.codes[index]
