/* SPDX-License-Identifier: MIT */
// libffi for Swift. The globals libffi exports (ffi_type_void, ...) are
// mutable C globals that Swift 6 rejects as not concurrency-safe; they are
// reached through these accessors instead. libffi never writes them after
// load, so reading them from any thread is safe.
#ifndef HUD_CFFI_SHIM_H
#define HUD_CFFI_SHIM_H
#include <ffi.h>

static inline ffi_type *hud_cffi_type_void(void) { return &ffi_type_void; }

#endif
