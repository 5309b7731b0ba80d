// Small Linux shims the Glibc module does not expose to Swift.
// Every symbol carries the hud_system_ prefix.
#ifndef HUD_SYSTEM_SHIM_H
#define HUD_SYSTEM_SHIM_H
#include <stdio.h>
#include <stdlib.h>
#include <sys/auxv.h>
#include <malloc.h>

// secure_getenv(3) semantics without _GNU_SOURCE: NULL when the process runs
// with elevated privileges (setuid, setgid, file capabilities: AT_SECURE).
static inline const char *hud_system_secure_getenv(const char *name) {
    return getauxval(AT_SECURE) ? NULL : getenv(name);
}

// True when the kernel marked this process as running elevated.
static inline int hud_system_is_elevated(void) { return getauxval(AT_SECURE) != 0; }

// The standard streams. Swift 6 rejects the glibc globals `stdout`/`stderr`
// as shared mutable state; these accessors only read the pointers, which
// never change after start-up.
static inline FILE *hud_system_stdout(void) { return stdout; }
static inline FILE *hud_system_stderr(void) { return stderr; }

// Bytes the process currently holds from malloc (arenas plus mmapped
// chunks), for the conformance suite's leak check (mallinfo2 is not
// exposed by the Glibc module).
static inline size_t hud_system_heap_in_use(void) {
    struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;
}

#endif
