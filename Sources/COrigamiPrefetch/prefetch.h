// Headers only: cache prefetch hints, which Swift cannot ask for. For Origami's and OrigamiRender's hot loops; not API.
#ifndef ORIGAMI_PREFETCH_H
#define ORIGAMI_PREFETCH_H

/// Asks the CPU to start loading the cache line at `address` for a read soon (no effect on any result; an invalid
/// address does not fault). For loops that know the next record's address well before they read it.
static inline void origami_prefetch(const void *address) { __builtin_prefetch(address, 0, 3); }

/// `origami_prefetch` for every cache line of the `count` bytes at `address` (a record or a run of corners that may
/// straddle lines).
static inline void origami_prefetch_bytes(const void *address, unsigned long count) {
    unsigned long first = (unsigned long)address & ~63UL, end = (unsigned long)address + count;
    for (unsigned long line = first; line < end; line += 64) __builtin_prefetch((const void *)line, 0, 3);
}
/// `origami_prefetch_bytes` for lines about to be written (each asked for ownership, so the stores that follow do not
/// wait on it): for rows written far apart, where the CPU's own prefetch does not guess the next.
static inline void origami_prefetch_write_bytes(void *address, unsigned long count) {
    unsigned long first = (unsigned long)address & ~63UL, end = (unsigned long)address + count;
    for (unsigned long line = first; line < end; line += 64) __builtin_prefetch((void *)line, 1, 3);
}
#endif
