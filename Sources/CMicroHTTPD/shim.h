/* SPDX-License-Identifier: MIT */
// libmicrohttpd for Swift (hudhost preview). MHD_start_daemon is variadic,
// which Swift cannot call, so the one daemon configuration hudhost uses is
// built here. Every symbol carries the hud_mhd_ prefix. Callers:
// Sources/HudHTTPServer/HTTPDaemon.swift only.
#ifndef HUD_CMICROHTTPD_SHIM_H
#define HUD_CMICROHTTPD_SHIM_H
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <microhttpd.h>

// A daemon on 127.0.0.1:`port` (0: the kernel picks a free port) and no
// other address: one internal polling thread accepts, and every connection
// gets its own thread, so a response callback may block (server-sent
// events wait for the next frame). At most `connection_limit` connections
// at once; an idle one is closed after `timeout_seconds`. `handler` runs for
// every request on its connection's thread with `handler_cls`; `completed`
// runs once per request when MHD is done with it (also on errors), on the
// same thread, with `completed_cls` and the request's context pointer.
// MHD prints nothing (no MHD_USE_ERROR_LOG). Returns NULL on failure, with
// errno from the failed socket call where MHD keeps it.
static inline struct MHD_Daemon *hud_mhd_start_loopback(uint16_t port, unsigned int connection_limit, unsigned int timeout_seconds,
                                                        MHD_AccessHandlerCallback handler, void *handler_cls,
                                                        MHD_RequestCompletedCallback completed, void *completed_cls) {
    struct sockaddr_in address;
    memset(&address, 0, sizeof address);
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    // MHD copies the address while starting; it need not outlive this call.
    return MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION | MHD_USE_POLL,
                            port, NULL, NULL, handler, handler_cls,
                            MHD_OPTION_SOCK_ADDR, (const struct sockaddr *)&address,
                            MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                            MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, completed_cls,
                            MHD_OPTION_END);
}

// The port `daemon` listens on (after starting on port 0), or 0.
static inline uint16_t hud_mhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

// MHD_CONTENT_READER_END_OF_STREAM as a plain value (the macro is a cast).
static inline ssize_t hud_mhd_end_of_stream(void) { return MHD_CONTENT_READER_END_OF_STREAM; }

// MHD_SIZE_UNKNOWN as a plain value.
static inline uint64_t hud_mhd_size_unknown(void) { return MHD_SIZE_UNKNOWN; }
#endif /* HUD_CMICROHTTPD_SHIM_H */
