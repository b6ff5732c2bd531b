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

/// mw_line_span_solid for a dashed line (GL's `line_sdf` shader): where the coverage is
/// positive it is also multiplied by smoothstep(edge0, edge1, the dash field at the pixel), the
/// field sampled as `LineDashField.value(along:side:)` samples it (bilinear over `row_count` rows
/// of 256 texels, 0...255, row-major in `field`; the along position repeating, the side
/// `ny` choosing between rows), `along` stepping by `along_dx` from one pixel to the next.
void mw_line_span_dashed(float *mask, long count, double nx, double ny, double nx_dx, double ny_dx,
                         double along, double along_dx, double outset, double inset_minus_blur, double blur,
                         float alpha_scale, const float *field, long row_count, double edge0, double edge1);

/// Converts `count` coverage values (0...1) to A8 bytes: 0 where the value is not positive, else
/// the value × 255 rounded half away from zero, at most 255.
void mw_coverage_to_a8(const float *coverage, uint8_t *bytes, long count);

/// Dilates a coverage mask by a disc: each of the `height` rows of `width` output bytes (rows
/// `out_stride` apart) is the most, over the taps, of coverage × weight (weights out of 256,
/// coverage 0...255) at the tap's offset from the pixel's place in `coverage` (a pixel (x, y)
/// reads `coverage[y * coverage_stride + x + tap_offsets[i]]`), rounded (+ 128, >> 8) and at
/// most 255. `scratch` holds `width` × `height` 16-bit values.
void mw_dilate_max(const uint8_t *coverage, long coverage_stride, const long *tap_offsets, const uint16_t *tap_weights,
                   long tap_count, uint8_t *out, long out_stride, long width, long height, uint16_t *scratch);

/// Composites an opaque colour (`source`, ARGB32 with alpha 255) through a line's coverage onto
/// `count` premultiplied ARGB32 pixels, as Cairo's OVER of that colour through the A8 mask
/// mw_coverage_to_a8 makes of `coverage` composites (pixman's arithmetic and rounding): byte for
/// byte the same pixels without the mask's bytes or the compositor's passes.
void mw_composite_coverage_over(const float *coverage, uint32_t *pixels, long count, uint32_t source);

#endif
