/* SPDX-License-Identifier: MIT */
/*
 * reads_file.c — a renderer that tries to open, for reading, the file named
 * by the center slot's label, and says in its one node's label whether it
 * could ("readable") or not ("refused"). In a renderer host the sandbox must
 * refuse any file outside the system libraries, the plugin file and the
 * libraries it links through $ORIGIN;
 * in-process the same file is readable (the control).
 */
#include <fcntl.h>
#include <unistd.h>

#include "fixture_common.h"

FIXTURE_LAYOUT_FUNCTION(reads_layout) {
    (void)self;
    (void)interaction;
    const hud_slot_t *center = complications->slots[HUD_POSITION_CENTER];
    int readable = 0;
    if (center && center->label) {
        int fd = open(center->label, O_RDONLY);
        if (fd >= 0) {
            readable = 1;
            close(fd);
        }
    }
    hud_node_t node = fixture_blank_node(HUD_NODE_KIND_CONTAINER);
    node.frame = (hud_rect_t){0, environment->navigation_bar.y, 100, 20};
    node.label = readable ? "readable" : "refused";
    node.font_size = 13;
    hud_layout_push_node(layout, &node);
    return hud_layout_finish(layout);
}

static const hud_renderer_descriptor_t reads_descriptors[] = {
    FIXTURE_DESCRIPTOR("org.fixture.reads-file", "Reads a file", reads_layout),
};

FIXTURE_ENTRY(reads_descriptors)
