/* SPDX-License-Identifier: MIT */
/*
 * many_tasks.c — no metadata section; init() starts threads (64 KiB stacks,
 * each blocked on a pipe) until the kernel refuses one or 2,000 run, then
 * releases and joins them. init() succeeds only if the sandbox's task limit
 * (SandboxLayers.taskLimit, 256; RLIMIT_NPROC, which the kernel applies to
 * every user but root) stopped it first. Scripts/unprivileged-sandbox.sh
 * scans it as an unprivileged user.
 */
#define _GNU_SOURCE
#include "fixture_common.h"
#include <pthread.h>
#include <unistd.h>

static int release[2];

static void *wait_for_release(void *unused) {
    (void)unused;
    char byte;
    ssize_t got = read(release[0], &byte, 1);
    (void)got;
    return NULL;
}

static hud_status_t many_tasks_init(void) {
    static pthread_t threads[2000];
    if (pipe(release) != 0) return HUD_STATUS_INTERNAL_ERROR;
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setstacksize(&attributes, 64 << 10);
    int started = 0;
    while (started < 2000 && pthread_create(&threads[started], &attributes, wait_for_release, NULL) == 0) started++;
    close(release[1]);
    for (int i = 0; i < started; i++) pthread_join(threads[i], NULL);
    close(release[0]);
    return started < 300 ? HUD_STATUS_OK : HUD_STATUS_INTERNAL_ERROR;
}

static const hud_renderer_descriptor_t many_tasks_descriptors[] = {
    FIXTURE_DESCRIPTOR("org.fixture.many-tasks", "Many tasks", fixture_empty_layout),
};

FIXTURE_ENTRY_CUSTOM(many_tasks_descriptors, HUD_ABI_VERSION, sizeof(hud_entry_t), many_tasks_init())
