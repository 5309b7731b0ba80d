/* SPDX-License-Identifier: MIT */
/*
 * counter.c — a malloc-counting interposer for hudbench.
 *
 * Loaded with LD_PRELOAD into a hudbench child process; replaces the glibc
 * allocation entry points, counts every call, and forwards to glibc's own
 * implementation (__libc_*). Replacing malloc this way is supported by glibc
 * ("Replacing malloc" in its manual): libc's internal allocations come here
 * too. The Swift runtime allocates through malloc, posix_memalign and
 * aligned_alloc, so every heap allocation of a Swift object, array, string
 * or closure context is counted.
 *
 * Why an interposer and not mallinfo2(): mallinfo2 reports bytes in use, so
 * an allocation freed within the measured window (the usual per-frame
 * churn: a temporary array, a bridged string) leaves no trace; a counter
 * sees every call.
 *
 * hudbench reads the totals with dlsym(RTLD_DEFAULT, "hudbench_malloc_counts").
 * Counters are relaxed atomics: exact totals, negligible cost.
 *
 * Build: cc -O2 -shared -fPIC counter.c -o libhudbench-counter.so
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void __libc_free(void *pointer);
extern void *__libc_memalign(size_t alignment, size_t size);

static _Atomic uint64_t counted_allocations; /* malloc-family calls that allocate */
static _Atomic uint64_t counted_frees;       /* free() of a non-NULL pointer */
static _Atomic uint64_t counted_bytes;       /* bytes requested */

static inline void note(size_t size) {
    atomic_fetch_add_explicit(&counted_allocations, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&counted_bytes, size, memory_order_relaxed);
}

__attribute__((visibility("default"))) void *malloc(size_t size) {
    note(size);
    return __libc_malloc(size);
}

__attribute__((visibility("default"))) void *calloc(size_t count, size_t size) {
    note(count * size);
    return __libc_calloc(count, size);
}

/* Every realloc counts as one allocation event (it may move the block). */
__attribute__((visibility("default"))) void *realloc(void *pointer, size_t size) {
    note(size);
    return __libc_realloc(pointer, size);
}

__attribute__((visibility("default"))) void free(void *pointer) {
    if (pointer != NULL) atomic_fetch_add_explicit(&counted_frees, 1, memory_order_relaxed);
    __libc_free(pointer);
}

__attribute__((visibility("default"))) void *memalign(size_t alignment, size_t size) {
    note(size);
    return __libc_memalign(alignment, size);
}

__attribute__((visibility("default"))) void *aligned_alloc(size_t alignment, size_t size) {
    note(size);
    return __libc_memalign(alignment, size);
}

__attribute__((visibility("default"))) int posix_memalign(void **out, size_t alignment, size_t size) {
    note(size);
    if (alignment < sizeof(void *) || (alignment & (alignment - 1)) != 0) return EINVAL;
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL) return ENOMEM;
    *out = pointer;
    return 0;
}

__attribute__((visibility("default"))) void *valloc(size_t size) {
    note(size);
    return __libc_memalign(4096, size);
}

__attribute__((visibility("default"))) void *pvalloc(size_t size) {
    note(size);
    return __libc_memalign(4096, (size + 4095) & ~(size_t)4095);
}

/* The totals so far. Any argument may be NULL. */
__attribute__((visibility("default"))) void hudbench_malloc_counts(uint64_t *allocations, uint64_t *frees,
                                                                   uint64_t *bytes) {
    if (allocations) *allocations = atomic_load_explicit(&counted_allocations, memory_order_relaxed);
    if (frees) *frees = atomic_load_explicit(&counted_frees, memory_order_relaxed);
    if (bytes) *bytes = atomic_load_explicit(&counted_bytes, memory_order_relaxed);
}
