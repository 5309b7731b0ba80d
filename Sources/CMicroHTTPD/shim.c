/* SPDX-License-Identifier: MIT */
// The lazy libmicrohttpd loader and the hud_mhd_ calls (shim.h). The only
// dlopen/dlsym/dlerror of libmicrohttpd in the project. The handle is never
// closed: the daemon's threads run its code until the process exits.
#include "shim.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

// The MHD functions hudhost calls, resolved by hud_mhd_load_once. Written
// once inside pthread_once, read only after it (pthread_once orders them).
static struct {
    struct MHD_Daemon *(*start_daemon)(unsigned int, uint16_t, MHD_AcceptPolicyCallback, void *, MHD_AccessHandlerCallback, void *,
                                       ...);
    void (*stop_daemon)(struct MHD_Daemon *);
    const union MHD_DaemonInfo *(*get_daemon_info)(struct MHD_Daemon *, enum MHD_DaemonInfoType, ...);
    int (*get_connection_values)(struct MHD_Connection *, enum MHD_ValueKind, MHD_KeyValueIterator, void *);
    struct MHD_Response *(*create_response_from_buffer)(size_t, void *, enum MHD_ResponseMemoryMode);
    struct MHD_Response *(*create_response_from_callback)(uint64_t, size_t, MHD_ContentReaderCallback, void *,
                                                          MHD_ContentReaderFreeCallback);
    enum MHD_Result (*add_response_header)(struct MHD_Response *, const char *, const char *);
    enum MHD_Result (*queue_response)(struct MHD_Connection *, unsigned int, struct MHD_Response *);
    void (*destroy_response)(struct MHD_Response *);
} hud_mhd;

static pthread_once_t hud_mhd_once = PTHREAD_ONCE_INIT;
static int hud_mhd_loaded;              // 1 after a successful load
static char hud_mhd_error[512];         // dlerror() text of a failed load, NUL-terminated

static void hud_mhd_fail(void) {
    const char *reason = dlerror();
    snprintf(hud_mhd_error, sizeof hud_mhd_error, "%s", reason != NULL ? reason : "unknown dlopen failure");
}

// dlsym into a function pointer through the POSIX-sanctioned cast
// (`*(void **)&pointer = dlsym(...)`); 0 and the error kept if absent.
#define HUD_MHD_RESOLVE(field, symbol)                 \
    do {                                               \
        dlerror();                                     \
        *(void **)(&hud_mhd.field) = dlsym(handle, symbol); \
        if (hud_mhd.field == NULL) {                   \
            hud_mhd_fail();                            \
            return;                                    \
        }                                              \
    } while (0)

static void hud_mhd_load_once(void) {
    void *handle = dlopen(HUD_MHD_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        hud_mhd_fail();
        return;
    }
    HUD_MHD_RESOLVE(start_daemon, "MHD_start_daemon");
    HUD_MHD_RESOLVE(stop_daemon, "MHD_stop_daemon");
    HUD_MHD_RESOLVE(get_daemon_info, "MHD_get_daemon_info");
    HUD_MHD_RESOLVE(get_connection_values, "MHD_get_connection_values");
    HUD_MHD_RESOLVE(create_response_from_buffer, "MHD_create_response_from_buffer");
    HUD_MHD_RESOLVE(create_response_from_callback, "MHD_create_response_from_callback");
    HUD_MHD_RESOLVE(add_response_header, "MHD_add_response_header");
    HUD_MHD_RESOLVE(queue_response, "MHD_queue_response");
    HUD_MHD_RESOLVE(destroy_response, "MHD_destroy_response");
    hud_mhd_loaded = 1;
}

int hud_mhd_load(void) {
    if (pthread_once(&hud_mhd_once, hud_mhd_load_once) != 0) {
        return 0;
    }
    return hud_mhd_loaded;
}

const char *hud_mhd_load_error(void) { return hud_mhd_error; }

struct MHD_Daemon *hud_mhd_start_loopback(uint16_t port, unsigned int connection_limit, unsigned int timeout_seconds,
                                          MHD_AccessHandlerCallback handler, void *handler_cls,
                                          MHD_RequestCompletedCallback completed, void *completed_cls) {
    struct sockaddr_in address;
    memset(&address, 0, sizeof address);
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    // MHD copies the address while starting; it need not outlive this call.
    return hud_mhd.start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION | MHD_USE_POLL,
                                port, NULL, NULL, handler, handler_cls,
                                MHD_OPTION_SOCK_ADDR, (const struct sockaddr *)&address,
                                MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                                MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
                                MHD_OPTION_NOTIFY_COMPLETED, completed, completed_cls,
                                MHD_OPTION_END);
}

uint16_t hud_mhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = hud_mhd.get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

void hud_mhd_stop_daemon(struct MHD_Daemon *daemon) { hud_mhd.stop_daemon(daemon); }

int hud_mhd_get_connection_values(struct MHD_Connection *connection, enum MHD_ValueKind kind, MHD_KeyValueIterator iterator,
                                  void *iterator_cls) {
    return hud_mhd.get_connection_values(connection, kind, iterator, iterator_cls);
}

struct MHD_Response *hud_mhd_create_copied_response(size_t size, const void *buffer) {
    // MUST_COPY: MHD never writes through the pointer, only copies from it.
    return hud_mhd.create_response_from_buffer(size, (void *)(uintptr_t)buffer, MHD_RESPMEM_MUST_COPY);
}

struct MHD_Response *hud_mhd_create_streamed_response(size_t block_size, MHD_ContentReaderCallback reader, void *reader_cls,
                                                      MHD_ContentReaderFreeCallback finished) {
    return hud_mhd.create_response_from_callback(MHD_SIZE_UNKNOWN, block_size, reader, reader_cls, finished);
}

enum MHD_Result hud_mhd_add_response_header(struct MHD_Response *response, const char *name, const char *value) {
    return hud_mhd.add_response_header(response, name, value);
}

enum MHD_Result hud_mhd_queue_response(struct MHD_Connection *connection, unsigned int status_code, struct MHD_Response *response) {
    return hud_mhd.queue_response(connection, status_code, response);
}

void hud_mhd_destroy_response(struct MHD_Response *response) { hud_mhd.destroy_response(response); }

ssize_t hud_mhd_end_of_stream(void) { return MHD_CONTENT_READER_END_OF_STREAM; }
