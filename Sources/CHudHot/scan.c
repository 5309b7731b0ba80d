/* SPDX-License-Identifier: MIT */
#include "hud_hot.h"

#include <string.h>

#include <emmintrin.h>

size_t hud_hot_plain_run(const uint8_t *bytes, size_t count, size_t from) {
    const __m128i quote = _mm_set1_epi8('"');
    const __m128i backslash = _mm_set1_epi8('\\');
    const __m128i control = _mm_set1_epi8(0x1F);
    size_t i = from;
    while (count - i >= 16) { /* from <= count, so i <= count throughout */
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(bytes + i));
        /* v <= 0x1F (unsigned) exactly when min(v, 0x1F) == v. */
        __m128i stop = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)),
                                    _mm_cmpeq_epi8(_mm_min_epu8(v, control), v));
        unsigned stops = (unsigned)_mm_movemask_epi8(stop);
        if (stops != 0) return i + (unsigned)__builtin_ctz(stops);
        i += 16;
    }
    for (; i < count; i++) {
        uint8_t b = bytes[i];
        if (b == '"' || b == '\\' || b < 0x20) break;
    }
    return i;
}

int hud_hot_decimal(const uint8_t *bytes, size_t count, size_t from, uint64_t *value, size_t *end) {
    uint64_t v = 0;
    size_t i = from;
    while (i < count && (unsigned)(bytes[i] - '0') < 10u) {
        if (__builtin_mul_overflow(v, 10u, &v) || __builtin_add_overflow(v, (uint64_t)(bytes[i] - '0'), &v)) return 1;
        i++;
    }
    *value = v;
    *end = i;
    return 0;
}

size_t hud_hot_occurrences(const uint8_t *bytes, size_t count, const uint8_t *token, size_t token_count) {
    /* memchr for the first byte, then one memcmp: memchr is vectorised,
       and memmem's general search costs several instructions a byte. */
    size_t found = 0;
    size_t offset = 0;
    while (token_count <= count - offset) {
        const uint8_t *at = memchr(bytes + offset, token[0], count - offset - token_count + 1);
        if (at == NULL) break;
        size_t index = (size_t)(at - bytes);
        if (memcmp(at, token, token_count) == 0) {
            found++;
            offset = index + token_count;
        } else {
            offset = index + 1;
        }
    }
    return found;
}
