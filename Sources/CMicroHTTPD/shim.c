/* SPDX-License-Identifier: MIT */
// The lazy libmicrohttpd loader and the hud_mhd_ calls (shim.h). The only
// dlopen/dlsym/dlerror of libmicrohttpd in the project. The handle is never
// closed: the daemon's threads run its code until the process exits.
#define _GNU_SOURCE  // pipe2, POLLRDHUP
#include "shim.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
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
    const union MHD_ConnectionInfo *(*get_connection_info)(struct MHD_Connection *, enum MHD_ConnectionInfoType, ...);
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
    HUD_MHD_RESOLVE(get_connection_info, "MHD_get_connection_info");
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

// ---- The connection guard (shim.h, "hud_mhd_server") ----------------------

// One open connection, from MHD's "started" notice to its "closed" notice.
// Every field is read and written with the server's `lock` held.
struct hud_mhd_watch {
    struct MHD_Connection *connection;  // NULL: the slot is free
    int fd;                             // the connection's socket (MHD's)
    uint64_t since_ns;                  // when it began waiting for its current request
    unsigned char receiving;            // waiting for (the rest of) a request
    unsigned char admitted;             // a request on it was admitted (the token)
    unsigned char cut;                  // shut down by the guard; MHD closes it next
};

struct hud_mhd_server {
    struct MHD_Daemon *daemon;
    pthread_mutex_t lock;
    unsigned capacity;                  // slots: MHD's connection limit (twice connection_limit)
    unsigned connection_limit;          // open connections the guard has not cut
    unsigned unadmitted_limit;
    uint64_t request_deadline_ns;
    struct hud_mhd_watch *watches;      // `capacity` slots
    int stop_pipe[2];                   // the watchdog stops when [1] is closed
    pthread_t watchdog;
    MHD_RequestCompletedCallback completed;
    void *completed_cls;
};

static uint64_t hud_mhd_now_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}

// Called with `lock` held. The socket stays open (MHD closes it after its
// "closed" notice, which takes `lock` first), so `fd` is still this
// connection's: shutdown wakes its thread, which sees the end and closes.
static void hud_mhd_cut(struct hud_mhd_watch *watch) {
    if (watch->cut) return;
    watch->cut = 1;
    shutdown(watch->fd, SHUT_RDWR);
}

static struct hud_mhd_watch *hud_mhd_find(struct hud_mhd_server *server, struct MHD_Connection *connection) {
    for (unsigned i = 0; i < server->capacity; i++) {
        if (server->watches[i].connection == connection) return &server->watches[i];
    }
    return NULL;
}

// MHD_OPTION_NOTIFY_CONNECTION: "started" on the accepting thread (before
// the connection's thread exists), "closed" before MHD closes the socket.
static void hud_mhd_notify(void *cls, struct MHD_Connection *connection, void **socket_context,
                           enum MHD_ConnectionNotificationCode code) {
    struct hud_mhd_server *server = cls;
    pthread_mutex_lock(&server->lock);
    if (code == MHD_CONNECTION_NOTIFY_STARTED) {
        *socket_context = server;  // for hud_mhd_request_answering
        const union MHD_ConnectionInfo *info = hud_mhd.get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
        struct hud_mhd_watch *slot = hud_mhd_find(server, NULL);
        if (slot != NULL && info != NULL) {
            *slot = (struct hud_mhd_watch){.connection = connection, .fd = info->connect_fd, .since_ns = hud_mhd_now_ns(), .receiving = 1};
        }
        // Too many connections nobody admitted: the oldest of them goes, so
        // a newcomer (perhaps the token holder) always gets in.
        unsigned waiting = 0, open = 0;
        struct hud_mhd_watch *oldest = NULL;
        for (unsigned i = 0; i < server->capacity; i++) {
            struct hud_mhd_watch *watch = &server->watches[i];
            if (watch->connection == NULL || watch->cut) continue;
            open++;
            if (watch->admitted) continue;
            waiting++;
            if (watch != slot && (oldest == NULL || watch->since_ns < oldest->since_ns)) oldest = watch;
        }
        if (waiting > server->unadmitted_limit && oldest != NULL) {
            hud_mhd_cut(oldest);
            open--;
        }
        // Past the limit with every other connection admitted: the newcomer
        // is the one refused (the token's holder keeps what it has).
        if (open > server->connection_limit && slot != NULL && slot->connection == connection) hud_mhd_cut(slot);
    } else if (code == MHD_CONNECTION_NOTIFY_CLOSED) {
        struct hud_mhd_watch *watch = hud_mhd_find(server, connection);
        if (watch != NULL) memset(watch, 0, sizeof *watch);
    }
    pthread_mutex_unlock(&server->lock);
}

// MHD_OPTION_NOTIFY_COMPLETED: the connection waits for its next request
// from now on; then the caller's callback.
static void hud_mhd_completed(void *cls, struct MHD_Connection *connection, void **con_cls,
                              enum MHD_RequestTerminationCode code) {
    struct hud_mhd_server *server = cls;
    pthread_mutex_lock(&server->lock);
    struct hud_mhd_watch *watch = hud_mhd_find(server, connection);
    if (watch != NULL) {
        watch->receiving = 1;
        watch->since_ns = hud_mhd_now_ns();
    }
    pthread_mutex_unlock(&server->lock);
    server->completed(server->completed_cls, connection, con_cls, code);
}

// Cuts every connection that has waited longer than the deadline for a
// whole request, four times a second, until `stop_pipe[1]` is closed.
static void *hud_mhd_watchdog(void *cls) {
    struct hud_mhd_server *server = cls;
    for (;;) {
        struct pollfd stop = {.fd = server->stop_pipe[0], .events = POLLIN};
        int ready = poll(&stop, 1, 250);
        if (ready > 0) break;
        if (ready < 0 && errno != EINTR) break;
        uint64_t now = hud_mhd_now_ns();
        pthread_mutex_lock(&server->lock);
        for (unsigned i = 0; i < server->capacity; i++) {
            struct hud_mhd_watch *watch = &server->watches[i];
            if (watch->connection != NULL && watch->receiving && now - watch->since_ns > server->request_deadline_ns) hud_mhd_cut(watch);
        }
        pthread_mutex_unlock(&server->lock);
    }
    return NULL;
}

static void hud_mhd_free_server(struct hud_mhd_server *server) {
    pthread_mutex_destroy(&server->lock);
    free(server->watches);
    free(server);
}

struct hud_mhd_server *hud_mhd_start_loopback(uint16_t port, unsigned int connection_limit, unsigned int unadmitted_limit,
                                              double request_deadline_seconds, unsigned int idle_timeout_seconds,
                                              MHD_AccessHandlerCallback handler, void *handler_cls,
                                              MHD_RequestCompletedCallback completed, void *completed_cls) {
    struct hud_mhd_server *server = calloc(1, sizeof *server);
    if (server == NULL) return NULL;
    // MHD's own limit is twice the guard's: a connection the guard cut
    // holds MHD's slot until its thread has ended, and MHD closes every
    // connection it accepts past its limit at once (the token's holder
    // too), so the cut ones being torn down must not fill it.
    unsigned int slots = connection_limit * 2;
    server->watches = calloc(slots, sizeof *server->watches);
    if (server->watches == NULL || pthread_mutex_init(&server->lock, NULL) != 0) {
        free(server->watches);
        free(server);
        return NULL;
    }
    server->capacity = slots;
    server->connection_limit = connection_limit;
    server->unadmitted_limit = unadmitted_limit;
    server->request_deadline_ns = (uint64_t)(request_deadline_seconds * 1e9);
    server->completed = completed;
    server->completed_cls = completed_cls;
    if (pipe2(server->stop_pipe, O_CLOEXEC) != 0) {
        hud_mhd_free_server(server);
        return NULL;
    }
    struct sockaddr_in address;
    memset(&address, 0, sizeof address);
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    // MHD copies the address while starting; it need not outlive this call.
    server->daemon = hud_mhd.start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION | MHD_USE_POLL,
                                          port, NULL, NULL, handler, handler_cls,
                                          MHD_OPTION_SOCK_ADDR, (const struct sockaddr *)&address,
                                          MHD_OPTION_CONNECTION_LIMIT, slots,
                                          MHD_OPTION_CONNECTION_TIMEOUT, idle_timeout_seconds,
                                          MHD_OPTION_NOTIFY_COMPLETED, hud_mhd_completed, server,
                                          MHD_OPTION_NOTIFY_CONNECTION, hud_mhd_notify, server,
                                          MHD_OPTION_END);
    int failure = errno;
    if (server->daemon == NULL || pthread_create(&server->watchdog, NULL, hud_mhd_watchdog, server) != 0) {
        if (server->daemon != NULL) hud_mhd.stop_daemon(server->daemon);
        close(server->stop_pipe[0]);
        close(server->stop_pipe[1]);
        hud_mhd_free_server(server);
        errno = failure;
        return NULL;
    }
    return server;
}

uint16_t hud_mhd_bound_port(struct hud_mhd_server *server) {
    const union MHD_DaemonInfo *info = hud_mhd.get_daemon_info(server->daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

void hud_mhd_stop(struct hud_mhd_server *server) {
    // The daemon first: its "closed" notices still take the lock.
    hud_mhd.stop_daemon(server->daemon);
    close(server->stop_pipe[1]);
    pthread_join(server->watchdog, NULL);
    close(server->stop_pipe[0]);
    hud_mhd_free_server(server);
}

void hud_mhd_request_answering(struct MHD_Connection *connection, int admitted) {
    const union MHD_ConnectionInfo *info = hud_mhd.get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    struct hud_mhd_server *server = info != NULL ? info->socket_context : NULL;
    if (server == NULL) return;
    pthread_mutex_lock(&server->lock);
    struct hud_mhd_watch *watch = hud_mhd_find(server, connection);
    if (watch != NULL) {
        watch->receiving = 0;
        if (admitted) watch->admitted = 1;
    }
    pthread_mutex_unlock(&server->lock);
}

int hud_mhd_wait_for_wake(int wake_fd, struct MHD_Connection *connection, int timeout_milliseconds) {
    const union MHD_ConnectionInfo *info = hud_mhd.get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    struct pollfd entries[2] = {
        {.fd = wake_fd, .events = POLLIN},
        // POLLRDHUP: the client closed its side (a request it pipelines
        // behind the stream is POLLIN, which is not asked for).
        {.fd = info != NULL ? info->connect_fd : -1, .events = POLLRDHUP},
    };
    int ready;
    do {
        ready = poll(entries, 2, timeout_milliseconds);
    } while (ready < 0 && errno == EINTR);
    if (ready < 0) return -1;
    if (entries[1].revents != 0) return 2;
    return entries[0].revents != 0 ? 1 : 0;
}

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
