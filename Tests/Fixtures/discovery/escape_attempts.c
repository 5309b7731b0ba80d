/* SPDX-License-Identifier: MIT */
/*
 * escape_attempts.c — no metadata section, so it is scanned in the sandbox.
 * Its init() uses its private scratch directory ($TMPDIR, which must work
 * and stay private) and tries what a hostile plugin would: write a file, read a file
 * outside the system libraries, connect to a TCP port, execute a program,
 * start a process, signal and read the memory of its parent, raise its
 * limits, open an internet socket. init() succeeds only when
 * every attempt was refused, so a scan that lists the renderer proves the
 * sandbox held; any success makes init() fail with its own status (the
 * scan then reports init-failed). Paths and the port come from HUD_ESCAPE_*;
 * the exec attempt runs only with HUD_ESCAPE_EXEC set (in-process it would
 * replace the host), the fork attempt only with HUD_ESCAPE_FORK (sanitizer
 * builds allow processes: LeakSanitizer clones a task).
 */
#define _GNU_SOURCE
#include "fixture_common.h"
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

static int escaped(void) {
    int escapes = 0;
    const char *file = getenv("HUD_ESCAPE_FILE");
    if (file) {
        int fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd >= 0) { escapes |= 1; close(fd); }
    }
    /* The one place it may write: its private scratch directory ($TMPDIR).
     * A file it cannot make there counts as a failure too. */
    const char *scratch_name = getenv("HUD_ESCAPE_SCRATCH");
    const char *tmpdir = getenv("TMPDIR");
    if (scratch_name) {
        char scratch[4096];
        snprintf(scratch, sizeof scratch, "%s/%s", tmpdir ? tmpdir : "/tmp", scratch_name);
        int fd = open(scratch, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fd < 0 || write(fd, "x", 1) != 1 || unlink(scratch) != 0) escapes |= 256;
        if (fd >= 0) close(fd);
        /* Left behind on purpose: it must not appear in the host's directory. */
        fd = open(scratch, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fd >= 0) close(fd);
    }
    const char *secret = getenv("HUD_ESCAPE_READ");
    if (secret) {
        int fd = open(secret, O_RDONLY);
        if (fd >= 0) { escapes |= 128; close(fd); }
    }
    if (getenv("HUD_ESCAPE_FORK")) {
        pid_t child = fork();
        if (child == 0) _exit(0);
        if (child > 0) {
            escapes |= 64;
            waitpid(child, NULL, 0);
        }
    }
    const char *port = getenv("HUD_ESCAPE_PORT");
    if (port) {
        int s = socket(AF_INET, SOCK_STREAM, 0);
        if (s >= 0) {
            escapes |= 2;  /* an internet socket at all */
            struct sockaddr_in to = {.sin_family = AF_INET, .sin_port = htons((uint16_t)atoi(port))};
            to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
            if (connect(s, (struct sockaddr *)&to, sizeof to) == 0) escapes |= 4;
            close(s);
        }
    }
    if (getenv("HUD_ESCAPE_EXEC")) {
        char *const argv[] = {"true", NULL};
        execv("/bin/true", argv);  /* returns only if refused */
        escapes |= 0;              /* (a successful exec never comes back) */
    }
    pid_t parent = getppid();
    if (kill(parent, 0) == 0) escapes |= 8;
    char mem[64];
    snprintf(mem, sizeof mem, "/proc/%d/mem", (int)parent);
    int fd = open(mem, O_RDONLY);
    if (fd >= 0) { escapes |= 16; close(fd); }
    struct rlimit limit;
    if (getrlimit(RLIMIT_NOFILE, &limit) == 0) {
        limit.rlim_max += 1;
        if (setrlimit(RLIMIT_NOFILE, &limit) == 0) escapes |= 32;
    }
    return escapes;
}

static const hud_renderer_descriptor_t escape_descriptors[] = {
    FIXTURE_DESCRIPTOR("org.fixture.escape-attempts", "Escape attempts", fixture_empty_layout),
};

FIXTURE_ENTRY_CUSTOM(escape_descriptors, HUD_ABI_VERSION, sizeof(hud_entry_t),
                     escaped() == 0 ? HUD_STATUS_OK : HUD_STATUS_INTERNAL_ERROR)
