/* SPDX-License-Identifier: MIT */
/*
 * forge_verdict.h — for the fixtures that forge one verdict: when init()
 * runs inside a `validate` child, write one result frame on descriptor 3
 * claiming that check FORGED_CHECK passed for renderer VB_ID, then go on
 * as usual (the child's own result for that check comes later and is
 * dropped by the parent, which keeps the first result of each unit). The
 * parent then judges the check itself, from raw calls into a buffer in its
 * renderer host's shared region (ParentJudgment.swift), and must find what
 * the forged frame hides.
 *
 * Define VB_ID and FORGED_CHECK (and FORGED_PLUGIN, or its other
 * spelling FORGED_PLUGIN_CHECK, for a check about the whole plugin,
 * reported without a renderer) before including this, and call
 * forge_verdict() from VB_INIT_BODY.
 */
#ifndef FORGE_VERDICT_H
#define FORGE_VERDICT_H

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* True when this process is a `hudsandbox <request>` child. */
static int forge_in_child(const char *request) {
    char command[4096] = {0};
    int fd = open("/proc/self/cmdline", O_RDONLY);
    if (fd < 0) return 0;
    ssize_t n = read(fd, command, sizeof command - 1);
    close(fd);
    /* argv[1], after argv[0]'s NUL, is the child's request. */
    size_t first = strlen(command); /* the buffer is zeroed past what was read */
    return (ssize_t)(first + 1 + strlen(request)) <= n && strcmp(command + first + 1, request) == 0;
}

/* Writes `payload` as one frame on descriptor 3 (one write, so the frame
 * cannot interleave with the child's own). */
static void forge_frame(const char *payload, int n) {
    if (n <= 0 || n >= 512) return;
    unsigned char frame[4 + 512];
    frame[0] = (unsigned char)n;
    frame[1] = (unsigned char)(n >> 8);
    frame[2] = (unsigned char)(n >> 16);
    frame[3] = (unsigned char)(n >> 24);
    memcpy(frame + 4, payload, (size_t)n);
    if (write(3, frame, 4 + (size_t)n) < 0) return;
}

static void forge_verdict(void) {
    if (!forge_in_child("validate")) return;
    char payload[512];
#if defined(FORGED_PLUGIN) || defined(FORGED_PLUGIN_CHECK)
    /* A plugin-level check: a result without a renderer. */
    int n = snprintf(payload, sizeof payload,
                     "{\"event\":\"result\",\"result\":{\"check\":\"%s\",\"status\":\"passed\",\"message\":\"all good\",\"milliseconds\":1}}",
                     FORGED_CHECK);
#else
    int n = snprintf(payload, sizeof payload,
                     "{\"event\":\"result\",\"result\":{\"check\":\"%s\",\"renderer\":\"%s\",\"status\":\"passed\",\"message\":\"all good\",\"milliseconds\":1}}",
                     FORGED_CHECK, VB_ID);
#endif
    if (n > 0 && (size_t)n < sizeof payload) forge_frame(payload, n);
}

#endif
