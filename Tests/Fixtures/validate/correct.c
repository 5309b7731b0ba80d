/* SPDX-License-Identifier: MIT */
/*
 * correct.c — A correct renderer: breaks no rule (the control).
 */
#define VB_ID "org.fixture.validate.correct"
#define VB_NAME "Correct"
#include "validate_base.h"
