# The move engine's Python-facing types, for other core modules to cimport. The C-level
# engine itself is in ruleset.pxd, readings.pxd and generator.pxd.

from libc.stdint cimport uint64_t


cdef class Move:
    cdef readonly uint64_t code

cdef Move new_move(uint64_t code)
