/* SPDX-License-Identifier: MIT */
// libmicrohttpd for Swift (hudhost preview), loaded lazily. hudhost does not
// link libmicrohttpd: the first hud_mhd_load() opens HUD_MHD_LIBRARY with
// dlopen(RTLD_NOW | RTLD_LOCAL) and resolves every MHD function below with
// dlsym (once per process, thread-safe), so only `preview` pays for loading
// it and the TLS libraries it links (Debian's is built with GnuTLS: ten
// libraries, ~9 M instructions of dynamic-loader work at start-up).
// microhttpd.h is used for its types
// only. MHD_start_daemon is variadic, which Swift cannot call, so the one
// daemon configuration hudhost uses is built here. Every symbol carries the
// hud_mhd_ prefix. Callers: Sources/HudHTTPServer/HTTPDaemon.swift only.
//
// Every other hud_mhd_ function may be called only after hud_mhd_load()
// returned 1 (it then calls the resolved MHD function; it is not checked
// again).
#ifndef HUD_CMICROHTTPD_SHIM_H
#define HUD_CMICROHTTPD_SHIM_H
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <microhttpd.h>

// The soname opened (Debian package: HUD_MHD_PACKAGE).
#define HUD_MHD_LIBRARY "libmicrohttpd.so.12"
#define HUD_MHD_PACKAGE "libmicrohttpd12"

// Opens HUD_MHD_LIBRARY and resolves its functions, the first time only;
// every later call returns the first call's answer. 1: loaded; 0: not (the
// reason in hud_mhd_load_error()). Thread-safe (pthread_once).
int hud_mhd_load(void);

// Why hud_mhd_load() failed: dlerror()'s text (which names the library or
// the missing symbol), kept in a static buffer owned by the shim; "" when
// it succeeded or was not called yet. Valid for the process's life.
const char *hud_mhd_load_error(void);

// A running daemon and its connection guard; owned by the caller of
// hud_mhd_start_loopback until hud_mhd_stop, which frees it.
struct hud_mhd_server;

// A daemon on 127.0.0.1:`port` (0: the kernel picks a free port) and no
// other address: one internal polling thread accepts, and every connection
// gets its own thread, so a response callback may block (server-sent
// events wait for the next frame). At most `connection_limit` connections
// at once, not counting those the guard has closed whose threads are
// still ending (up to as many again); an idle one is closed after
// `idle_timeout_seconds`. `handler`
// runs for every request on its connection's thread with `handler_cls`;
// `completed` runs once per request when MHD is done with it (also on
// errors), on the same thread, with `completed_cls` and the request's
// context pointer. MHD prints nothing (no MHD_USE_ERROR_LOG).
//
// The guard, for what MHD's idle timeout does not stop (every byte resets
// it):
// - a connection must deliver each whole request, headers and body, within
//   `request_deadline_seconds` of opening or of its previous answer, or its
//   socket is shut down (checked four times a second by a watchdog thread);
// - at most `unadmitted_limit` connections may be open on which no request
//   was admitted (hud_mhd_request_answering): one more, and the oldest of
//   them is shut down, so the capacity above that stays for those that hold
//   the right to it, and a newcomer always gets in;
// - a newcomer past `connection_limit` when all the others were admitted is
//   shut down itself.
// Returns NULL on failure, with errno from the failed call where MHD keeps it.
struct hud_mhd_server *hud_mhd_start_loopback(uint16_t port, unsigned int connection_limit, unsigned int unadmitted_limit,
                                              double request_deadline_seconds, unsigned int idle_timeout_seconds,
                                              MHD_AccessHandlerCallback handler, void *handler_cls,
                                              MHD_RequestCompletedCallback completed, void *completed_cls);

// The port `server` listens on (after starting on port 0), or 0.
uint16_t hud_mhd_bound_port(struct hud_mhd_server *server);

// Stops the daemon (no callback runs once this returns) and the watchdog,
// and frees `server`.
void hud_mhd_stop(struct hud_mhd_server *server);

// Called by the access handler when a request is complete and about to be
// answered: the connection's deadline stops until the answer is done, and
// with `admitted` != 0 it no longer counts as unadmitted.
void hud_mhd_request_answering(struct MHD_Connection *connection, int admitted);

// For a streamed response's producer, on the connection's thread: waits up
// to `timeout_milliseconds` for `wake_fd` to be readable or for the client
// to close its side. 1: woken; 2: the client has gone; 0: timed out;
// -1: poll failed.
int hud_mhd_wait_for_wake(int wake_fd, struct MHD_Connection *connection, int timeout_milliseconds);

// MHD_get_connection_values: calls `iterator` for each value of `kind`.
int hud_mhd_get_connection_values(struct MHD_Connection *connection, enum MHD_ValueKind kind, MHD_KeyValueIterator iterator,
                                  void *iterator_cls);

// MHD_create_response_from_buffer with MHD_RESPMEM_MUST_COPY: MHD copies
// `size` bytes of `buffer`, which may go away when the call returns.
struct MHD_Response *hud_mhd_create_copied_response(size_t size, const void *buffer);

// MHD_create_response_from_callback with an unknown size.
struct MHD_Response *hud_mhd_create_streamed_response(size_t block_size, MHD_ContentReaderCallback reader, void *reader_cls,
                                                      MHD_ContentReaderFreeCallback finished);

// MHD_add_response_header.
enum MHD_Result hud_mhd_add_response_header(struct MHD_Response *response, const char *name, const char *value);

// MHD_queue_response.
enum MHD_Result hud_mhd_queue_response(struct MHD_Connection *connection, unsigned int status_code, struct MHD_Response *response);

// MHD_destroy_response (the connection keeps its own reference).
void hud_mhd_destroy_response(struct MHD_Response *response);

// MHD_CONTENT_READER_END_OF_STREAM as a plain value (the macro is a cast).
ssize_t hud_mhd_end_of_stream(void);
#endif /* HUD_CMICROHTTPD_SHIM_H */
