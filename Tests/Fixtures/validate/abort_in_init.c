/* SPDX-License-Identifier: MIT */
/*
 * abort_in_init.c — init() calls abort() (SIGABRT). Caught by: abi-init (crashed).
 */
#include <stdlib.h>
#define VB_ID "org.fixture.validate.abort"
#define VB_NAME "Aborts in init"
#define VB_INIT_BODY abort();
#include "validate_base.h"
