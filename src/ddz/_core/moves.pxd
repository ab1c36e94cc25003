# The move engine's Python-facing types, for other core modules to cimport. The C-level
# engine itself is in ruleset.pxd, readings.pxd and generator.pxd.

from libc.stdint cimport uint64_t

from ddz._core.ruleset cimport RuleSet


cdef class Move:
    cdef readonly uint64_t code

cdef Move new_move(uint64_t code)
cdef RuleSet rules_of(object rules) except *
cdef list codes_to_moves(const uint64_t* codes, Py_ssize_t n)
cdef list run_to_moves(uint64_t cards, uint64_t table, const RuleSet* rs, bint classifying)
