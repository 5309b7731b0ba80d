/* SPDX-License-Identifier: MIT */
/*
 * entry_elsewhere_dep.c — a whole renderer, entry included, built as the
 * library forges_entry_elsewhere.c names (DT_NEEDED): the plugin file
 * itself defines no entry, so dlsym on it finds this one.
 */
#define VB_ID "org.fixture.validate.entry-elsewhere"
#define VB_NAME "Entry in a dependency"
#include "validate_base.h"
