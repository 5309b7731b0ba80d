/* SPDX-License-Identifier: MIT */
/*
 * calls_action_in_layout.c — loads fine, but layout() calls the center
 * slot's action, which the ABI forbids. Expected from layout:
 * RegistryError.actionCalledDuringLayout, and the action does not run.
 */
#include "fixture_common.h"

static hud_status_t meddling_layout(const hud_renderer_descriptor_t *self,
                                    const hud_complications_t *complications,
                                    const hud_environment_t *environment,
                                    const hud_interaction_t *interaction,
                                    hud_layout_t *layout) {
    (void)self;
    (void)environment;
    (void)interaction;
    const hud_slot_t *center = complications->slots[HUD_POSITION_CENTER];
    if (center != NULL && center->action != NULL) center->action();
    layout->count = 0;
    return HUD_STATUS_OK;
}

static const hud_renderer_descriptor_t calls_action_descriptors[] = {
    FIXTURE_DESCRIPTOR("org.fixture.calls-action", "Calls an action in layout", meddling_layout),
};

FIXTURE_ENTRY(calls_action_descriptors)
