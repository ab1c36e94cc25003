# cython: cdivision=True
# The exact solver's transposition table (solver.pyx): a bounded table of 64-byte buckets of
# four 16-byte entries, written locklessly (an entry stores key ^ data, so that a torn write
# from another thread reads as a miss), each keeping a proven value or bound and the best
# move's index. Its memory, its entries, probe and store.

from libc.stdint cimport uint64_t

# The table's memory: zeroed pages from the system. On Linux it is mapped directly and the
# kernel is asked for transparent huge pages: a probe lands in a random bucket, and with 4 KB
# pages nearly every probe of a big table also misses the TLB (measured: most of the search's
# time was spent waiting on the probe's load).
cdef extern from *:
    """
    #include <stdlib.h>
    #if defined(__linux__)
    #include <sys/mman.h>
    static void* ddz_table_alloc(size_t bytes) {
        void* p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) return NULL;
    #ifdef MADV_HUGEPAGE
        madvise(p, bytes, MADV_HUGEPAGE);
    #endif
        return p;
    }
    static void ddz_table_free(void* p, size_t bytes) { if (p) munmap(p, bytes); }
    #else
    static void* ddz_table_alloc(size_t bytes) { return calloc(bytes, 1); }
    static void ddz_table_free(void* p, size_t bytes) { (void)bytes; free(p); }
    #endif
    /* a hint to fetch a table bucket ahead of its probe */
    #if defined(__GNUC__) || defined(__clang__)
    #define ddz_prefetch(p) __builtin_prefetch(p)
    #elif defined(_MSC_VER) && (defined(_M_X64) || defined(_M_IX86))
    #include <xmmintrin.h>
    #define ddz_prefetch(p) _mm_prefetch((const char*)(p), _MM_HINT_T0)
    #else
    #define ddz_prefetch(p) ((void)(p))
    #endif
    """
    void* table_alloc "ddz_table_alloc"(size_t bytes) nogil
    void table_free "ddz_table_free"(void* p, size_t bytes) nogil
    void prefetch "ddz_prefetch"(const void* p) nogil

cdef enum:
    BUCKET = 4              # entries a bucket
    NO_MOVE = 0xFFFF
    LOWER = 1               # bound kinds of a table entry
    UPPER = 2
    EXACT = 3

ctypedef struct Entry:
    uint64_t lock           # key ^ data
    uint64_t data           # bits 0-15 best move index, 16-17 bound, 24-31 value + 128,
                            # 32-39 effort (bit length of the nodes searched below),
                            # 40-55 the table's age when stored

ctypedef struct Table:
    Entry* entries
    uint64_t bucket_mask    # buckets - 1 (a power of two)
    uint64_t active_mask    # the buckets in use: the table grows with the search, so that a
                            # small search touches (and page-faults in) little memory
    uint64_t stores         # stores since the last growth
    uint64_t age            # bumped by clear(): entries of another age are free slots


cdef inline int probe(const Table* tt, uint64_t key, uint64_t* data) noexcept nogil:
    cdef Entry* bucket = tt.entries + BUCKET * (key & tt.active_mask)
    cdef int i
    cdef uint64_t d
    for i in range(BUCKET):
        d = bucket[i].data
        if (bucket[i].lock ^ d) == key and d != 0 and ((d >> 40) & 0xFFFF) == tt.age:
            data[0] = d
            return 1
    return 0


cdef inline void store(Table* tt, uint64_t key, int value, int bound, int index,
                       uint64_t effort_nodes) noexcept nogil:
    cdef Entry* bucket
    tt.stores += 1
    if tt.stores > 2 * BUCKET * (tt.active_mask + 1) and tt.active_mask < tt.bucket_mask:
        tt.active_mask = 2 * tt.active_mask + 1      # entries stored before still count:
        tt.stores = 0                                # half of them stay where probes look
    bucket = tt.entries + BUCKET * (key & tt.active_mask)
    cdef int i, victim = 0, effort = 0, lowest = 1 << 30, e
    cdef uint64_t d
    while effort_nodes:
        effort += 1
        effort_nodes >>= 1
    d = (<uint64_t>(index & 0xFFFF) | (<uint64_t>bound << 16) | (<uint64_t>(value + 128) << 24)
         | (<uint64_t>effort << 32) | (tt.age << 40))
    for i in range(BUCKET):
        if (bucket[i].lock ^ bucket[i].data) == key or bucket[i].data == 0 \
                or ((bucket[i].data >> 40) & 0xFFFF) != tt.age:
            victim = i
            break
        e = <int>((bucket[i].data >> 32) & 255)
        if e < lowest:
            lowest = e
            victim = i
    bucket[victim].data = d
    bucket[victim].lock = key ^ d
