/* SPDX-License-Identifier: MIT */
/*
 * breakout_attempts.c — no metadata section, so it is scanned in the
 * sandbox. Its init() tries what a hostile plugin would do through calls
 * whose paths or targets live in their arguments, each only when its
 * HUD_BREAKOUT_* variable is set:
 *
 *   HUD_BREAKOUT_TARGET=FILE   change FILE's mode (setuid, world-writable),
 *                              owner and times; also its directory's mode
 *   HUD_BREAKOUT_SOCKET=PATH   send a datagram to the Unix socket at PATH,
 *                              then the result channel's descriptor with it
 *   HUD_BREAKOUT_SIGNALS=1     make the kernel SIGKILL the parent when the
 *                              parent drains the child's stdout (F_SETOWN,
 *                              F_SETSIG, O_ASYNC on a full pipe)
 *   HUD_BREAKOUT_AFFINITY=1    change the parent's CPU affinity
 *   HUD_BREAKOUT_PDEATHSIG=1   turn off its own parent-death signal
 *   HUD_BREAKOUT_SECRET=NAME   read the caller's variable NAME
 *   HUD_BREAKOUT_CALLER=FILE   find FILE, the caller's stderr, among its
 *                              own standard descriptors (and set
 *                              O_NONBLOCK on them, as a terminal would feel)
 *
 * init() succeeds only when every attempt made was refused, so a scan that
 * lists the renderer proves the sandbox held; the test also checks the
 * effects (modes and times, a datagram received, hudhost alive).
 */
#define _GNU_SOURCE
#include "fixture_common.h"
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

static int attributes(const char *target) {
    int escapes = 0;
    if (chmod(target, 04777) == 0) escapes |= 1;
    const struct timespec epoch[2] = {{0, 0}, {0, 0}};
    if (utimensat(AT_FDCWD, target, epoch, 0) == 0) escapes |= 2;
    if (chown(target, getuid(), getgid()) == 0) escapes |= 4;
    char directory[4096];
    strncpy(directory, target, sizeof directory - 1);
    directory[sizeof directory - 1] = 0;
    char *slash = strrchr(directory, '/');
    if (slash && slash != directory) {
        *slash = 0;
        if (chmod(directory, 0777) == 0) escapes |= 8;
    }
    return escapes;
}

static int datagram(const char *path) {
    int escapes = 0;
    int s = socket(AF_UNIX, SOCK_DGRAM, 0);
    if (s < 0) return 0;
    struct sockaddr_un to = {.sun_family = AF_UNIX};
    strncpy(to.sun_path, path, sizeof to.sun_path - 1);
    if (sendto(s, "escaped", 7, 0, (struct sockaddr *)&to, sizeof to) >= 0) escapes |= 16;
    /* The descriptor of the channel to the host, passed to whoever listens. */
    int channel = 3;
    char control[CMSG_SPACE(sizeof(int))];
    memset(control, 0, sizeof control);
    struct iovec data = {.iov_base = "fd", .iov_len = 2};
    struct msghdr message = {.msg_name = &to, .msg_namelen = sizeof to, .msg_iov = &data, .msg_iovlen = 1,
                             .msg_control = control, .msg_controllen = sizeof control};
    struct cmsghdr *header = CMSG_FIRSTHDR(&message);
    header->cmsg_level = SOL_SOCKET;
    header->cmsg_type = SCM_RIGHTS;
    header->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(header), &channel, sizeof channel);
    if (sendmsg(s, &message, 0) >= 0) escapes |= 32;
    close(s);
    return escapes;
}

static int signals(void) {
    int escapes = 0;
    pid_t parent = getppid();
    if (fcntl(1, F_SETOWN, parent) == 0) escapes |= 64;
    if (fcntl(1, F_SETSIG, SIGKILL) == 0) escapes |= 64;
    int flags = fcntl(1, F_GETFL);
    if (flags >= 0 && fcntl(1, F_SETFL, flags | O_ASYNC | O_NONBLOCK) == 0 && (fcntl(1, F_GETFL) & O_ASYNC)) escapes |= 64;
    if (fcntl(3, F_SETOWN, parent) == 0) escapes |= 64;
    /* Fill the pipe: when the parent drains it, the kernel signals the owner. */
    static const char block[4096];
    for (int i = 0; i < 64; i++) {
        if (write(1, block, sizeof block) < 0) break;
    }
    return escapes;
}

/* Whether descriptor fd is the file at path (the same device and inode). */
static int is_file(int fd, const char *path) {
    struct stat mine, theirs;
    return fstat(fd, &mine) == 0 && stat(path, &theirs) == 0 && mine.st_dev == theirs.st_dev && mine.st_ino == theirs.st_ino;
}

static int breakouts(void) {
    int escapes = 0;
    const char *target = getenv("HUD_BREAKOUT_TARGET");
    if (target) escapes |= attributes(target);
    const char *socket_path = getenv("HUD_BREAKOUT_SOCKET");
    if (socket_path) escapes |= datagram(socket_path);
    if (getenv("HUD_BREAKOUT_SIGNALS")) escapes |= signals();
    if (getenv("HUD_BREAKOUT_AFFINITY")) {
        cpu_set_t all;
        CPU_ZERO(&all);
        CPU_SET(0, &all);
        if (sched_setaffinity(getppid(), sizeof all, &all) == 0) escapes |= 128;
    }
    if (getenv("HUD_BREAKOUT_PDEATHSIG")) {
        if (prctl(PR_SET_PDEATHSIG, 0, 0, 0, 0) == 0) escapes |= 256;
    }
    const char *secret = getenv("HUD_BREAKOUT_SECRET");
    if (secret && getenv(secret)) escapes |= 512;
    const char *caller = getenv("HUD_BREAKOUT_CALLER");
    if (caller) {
        for (int fd = 0; fd <= 2; fd++) {
            if (is_file(fd, caller)) escapes |= 1024;
            int flags = fcntl(fd, F_GETFL);
            if (flags >= 0) (void)fcntl(fd, F_SETFL, flags | O_NONBLOCK);
        }
    }
    return escapes;
}

static const hud_renderer_descriptor_t breakout_descriptors[] = {
    FIXTURE_DESCRIPTOR("org.fixture.breakout-attempts", "Breakout attempts", fixture_empty_layout),
};

FIXTURE_ENTRY_CUSTOM(breakout_descriptors, HUD_ABI_VERSION, sizeof(hud_entry_t),
                     breakouts() == 0 ? HUD_STATUS_OK : HUD_STATUS_INTERNAL_ERROR)
