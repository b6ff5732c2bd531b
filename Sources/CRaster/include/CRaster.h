#ifndef MW_CRASTER_H
#define MW_CRASTER_H

#include <stddef.h>
#include <stdint.h>

/// The renderer's per-pixel loops, in C so that they run on vector units (AVX2 where the CPU has
/// it, chosen at load): each gives exactly the bytes of the scalar arithmetic it replaces (the same
/// IEEE operations in the same order, no fused multiply-add), so renders stay byte-identical on
/// every machine.

/// Accumulates a solid line's coverage along one row span of `count` pixels, as GL's line
/// fragment shader shades it: the normal (nx, ny) starts at the span's first pixel centre and
/// steps by (nx_dx, ny_dx) per pixel, added one pixel after the other; a pixel's distance is
/// |normal| × outset, its alpha min(1, min(distance − inset_minus_blur, outset − distance) / blur),
/// and where positive, its coverage (alpha × alpha_scale, in float) is blended into `mask`:
/// old + coverage × (1 − old).
void mw_line_span_solid(float *mask, long count, double nx, double ny, double nx_dx, double ny_dx,
                        double outset, double inset_minus_blur, double blur, float alpha_scale);

/// Converts `count` coverage values (0...1) to A8 bytes: 0 where the value is not positive, else
/// the value × 255 rounded half away from zero, at most 255.
void mw_coverage_to_a8(const float *coverage, uint8_t *bytes, long count);

/// Converts `height` rows of `width` premultiplied ARGB32 pixels (Cairo's image format, native
/// endian; rows `source_stride` bytes apart) to straight-alpha RGBA8 rows packed `width` × 4
/// bytes apart: a transparent pixel is all zero, an opaque one its channels, any other each
/// channel × 255 / alpha rounded, at most 255.
void mw_unpremultiply_argb32(const uint8_t *source, long source_stride, uint8_t *rgba, long width, long height);

#endif
