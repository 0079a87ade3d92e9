#ifndef PENCILD_ALLOCATION_COUNTER_H
#define PENCILD_ALLOCATION_COUNTER_H
/* Counts heap allocations of the whole process, for the benchmark only: this target
 * defines malloc and friends, so it must be linked into pencil-bench and nothing else. */
unsigned long pencild_allocation_count(void);
#endif
