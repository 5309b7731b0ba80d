/* SPDX-License-Identifier: MIT */
/*
 * layout_fails.c — loads fine, but layout() always returns
 * HUD_STATUS_UNSUPPORTED. Expected from layout: RegistryError.layoutFailed
 * with status -2.
 */
#include "fixture_common.h"

static hud_status_t unsupported_layout(const hud_renderer_descriptor_t *self,
                                       const hud_complications_t *complications,
                                       const hud_environment_t *environment,
                                       const hud_interaction_t *interaction,
                                       hud_layout_t *layout) {
    (void)self;
    (void)complications;
    (void)environment;
    (void)interaction;
    (void)layout;
    return HUD_STATUS_UNSUPPORTED;
}

static const hud_renderer_descriptor_t layout_fails_descriptors[] = {
    FIXTURE_DESCRIPTOR("org.fixture.layout-fails", "Layout fails", unsupported_layout),
};

FIXTURE_ENTRY(layout_fails_descriptors)
