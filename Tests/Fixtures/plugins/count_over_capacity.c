/* SPDX-License-Identifier: MIT */
/*
 * count_over_capacity.c — broken at layout time: returns HUD_STATUS_OK with
 * count = capacity + 5 (it writes nothing, so never past the buffer). OK
 * with a count above capacity is a contradiction the host must reject, not
 * read past its buffer for. Expected: RegistryError.invalidLayout on the
 * field "count".
 */
#include "fixture_common.h"

static hud_status_t over_layout(const hud_renderer_descriptor_t *self,
                                const hud_complications_t *complications,
                                const hud_environment_t *environment,
                                const hud_interaction_t *interaction,
                                hud_layout_t *layout) {
    (void)self;
    (void)complications;
    (void)environment;
    (void)interaction;
    layout->count = layout->capacity + 5;
    return HUD_STATUS_OK;
}

static const hud_renderer_descriptor_t over_descriptors[] = {
    FIXTURE_DESCRIPTOR("org.fixture.count-over-capacity", "Count over capacity", over_layout),
};

FIXTURE_ENTRY(over_descriptors)
