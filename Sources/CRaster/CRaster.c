#include "CRaster.h"

#include <math.h>
#include <string.h>

// The scalar arithmetic these loops replace rounds every operation: no contraction into fused
// multiply-adds, which would round once.
#pragma clang fp contract(off)

#define MW_VECTOR __attribute__((target_clones("avx2", "default")))

// Pixels whose normals are stepped (serially, as the scalar loop adds them) before the
// independent per-pixel arithmetic runs over them on vector units.
enum { MW_SPAN_CHUNK = 64 };

MW_VECTOR
void mw_line_span_solid(float *mask, long count, double nx, double ny, double nx_dx, double ny_dx,
                        double outset, double inset_minus_blur, double blur, float alpha_scale) {
    double xs[MW_SPAN_CHUNK], ys[MW_SPAN_CHUNK];
    for (long start = 0; start < count; start += MW_SPAN_CHUNK) {
        long n = count - start < MW_SPAN_CHUNK ? count - start : MW_SPAN_CHUNK;
        for (long i = 0; i < n; i++) {
            xs[i] = nx;
            ys[i] = ny;
            nx += nx_dx;
            ny += ny_dx;
        }
        float *out = mask + start;
        for (long i = 0; i < n; i++) {
            double distance = sqrt(xs[i] * xs[i] + ys[i] * ys[i]) * outset;
            double inner = distance - inset_minus_blur, outer = outset - distance;
            // Swift's min(a, b) is b < a ? b : a.
            double nearest = outer < inner ? outer : inner;
            double ramp = nearest / blur;
            double alpha = ramp < 1.0 ? ramp : 1.0;
            float coverage = (float)alpha * alpha_scale;
            float old = out[i];
            float blended = old + coverage * (1.0f - old);
            out[i] = alpha > 0.0 ? blended : old;
        }
    }
}

// The dash field at `along` periods and `side` (LineDashField.value(along:side:), step by step).
static inline double mw_dash_field(const float *field, long row_count, double along, double side) {
    double texel = along * 256.0 - 0.5;
    double floor_texel = floor(texel);
    double fraction = texel - floor_texel;
    long x0 = (long)floor_texel % 256;
    if (x0 < 0) x0 += 256;
    long x1 = x0 + 1 == 256 ? 0 : x0 + 1;
    double value;
    if (row_count == 1) {
        value = (double)field[x0] + ((double)field[x1] - (double)field[x0]) * fraction;
    } else {
        double n = (double)(row_count / 2);
        // Swift's max(0, v) is v >= 0 ? v : 0, and min(r, w) is w < r ? w : r.
        double unclamped = n - side * n;
        double low = unclamped >= 0 ? unclamped : 0;
        double top = (double)(row_count - 1);
        double position = low < top ? low : top;
        long lower = (long)floor(position);
        long upper = lower + 1 < row_count - 1 ? lower + 1 : row_count - 1;
        double row_fraction = position - (double)lower;
        const float *a_row = field + lower * 256, *b_row = field + upper * 256;
        double a = (double)a_row[x0] + ((double)a_row[x1] - (double)a_row[x0]) * fraction;
        double b = (double)b_row[x0] + ((double)b_row[x1] - (double)b_row[x0]) * fraction;
        value = a + (b - a) * row_fraction;
    }
    return value / 255;
}

MW_VECTOR
void mw_line_span_dashed(float *mask, long count, double nx, double ny, double nx_dx, double ny_dx,
                         double along, double along_dx, double outset, double inset_minus_blur, double blur,
                         float alpha_scale, const float *field, long row_count, double edge0, double edge1) {
    double xs[MW_SPAN_CHUNK], ys[MW_SPAN_CHUNK], alongs[MW_SPAN_CHUNK], alphas[MW_SPAN_CHUNK], fields[MW_SPAN_CHUNK];
    for (long start = 0; start < count; start += MW_SPAN_CHUNK) {
        long n = count - start < MW_SPAN_CHUNK ? count - start : MW_SPAN_CHUNK;
        for (long i = 0; i < n; i++) {
            xs[i] = nx;
            ys[i] = ny;
            alongs[i] = along;
            nx += nx_dx;
            ny += ny_dx;
            along += along_dx;
        }
        for (long i = 0; i < n; i++) {
            double distance = sqrt(xs[i] * xs[i] + ys[i] * ys[i]) * outset;
            double inner = distance - inset_minus_blur, outer = outset - distance;
            double nearest = outer < inner ? outer : inner;
            double ramp = nearest / blur;
            alphas[i] = ramp < 1.0 ? ramp : 1.0;
        }
        // The field only where the line covers the pixel (it is read from a table).
        for (long i = 0; i < n; i++) fields[i] = alphas[i] > 0 ? mw_dash_field(field, row_count, alongs[i], ys[i]) : 0;
        float *out = mask + start;
        for (long i = 0; i < n; i++) {
            // GLSL's smoothstep, as LineRasteriser.smoothstep has it, where the line covers.
            double raw = (fields[i] - edge0) / (edge1 - edge0);
            double low = raw >= 0 ? raw : 0;
            double t = low < 1 ? low : 1;
            double alpha = alphas[i] > 0 ? alphas[i] * (t * t * (3 - 2 * t)) : alphas[i];
            float coverage = (float)alpha * alpha_scale;
            float old = out[i];
            float blended = old + coverage * (1.0f - old);
            out[i] = alpha > 0.0 ? blended : old;
        }
    }
}

MW_VECTOR
void mw_coverage_to_a8(const float *coverage, uint8_t *bytes, long count) {
    for (long i = 0; i < count; i++) {
        float value = coverage[i];
        // Half away from zero for a positive value: truncated after adding the largest float
        // below one half (exact, unlike adding one half, for values just below a half).
        float rounded = truncf(value * 255.0f + 0.49999997f);
        float clamped = rounded < 255.0f ? rounded : 255.0f;
        bytes[i] = value <= 0.0f ? 0 : (uint8_t)clamped;
    }
}

MW_VECTOR
void mw_dilate_max(const uint8_t *coverage, long coverage_stride, const long *tap_offsets, const uint16_t *tap_weights,
                   long tap_count, uint8_t *out, long out_stride, long width, long height, uint16_t *scratch) {
    memset(scratch, 0, (size_t)(width * height) * sizeof(uint16_t));
    // Tap by tap over whole rows: the same maxima as tap by tap per pixel (a maximum does not
    // depend on the order it is taken in), on vector units.
    for (long tap = 0; tap < tap_count; tap++) {
        uint16_t weight = tap_weights[tap];
        for (long y = 0; y < height; y++) {
            const uint8_t *source = coverage + y * coverage_stride + tap_offsets[tap];
            uint16_t *most = scratch + y * width;
            for (long x = 0; x < width; x++) {
                uint16_t value = (uint16_t)(source[x] * weight);
                most[x] = value > most[x] ? value : most[x];
            }
        }
    }
    for (long y = 0; y < height; y++) {
        const uint16_t *most = scratch + y * width;
        uint8_t *row = out + y * out_stride;
        for (long x = 0; x < width; x++) {
            uint32_t rounded = ((uint32_t)most[x] + 128) >> 8;
            row[x] = (uint8_t)(rounded < 255 ? rounded : 255);
        }
    }
}

// x × a / 255 in both 8-bit lanes of each 16-bit half of `x` (x & 0x00FF00FF), rounded as pixman
// rounds (t = x × a + 128; (t + t / 256) / 256).
static inline uint32_t mw_mul_lanes(uint32_t lanes, uint32_t a) {
    uint32_t t = lanes * a + 0x00800080u;
    return ((t + ((t >> 8) & 0x00FF00FFu)) >> 8) & 0x00FF00FFu;
}

MW_VECTOR
void mw_composite_coverage_over(const float *coverage, uint32_t *pixels, long count, uint32_t source) {
    enum { block = 16 };
    uint32_t source_rb = source & 0x00FF00FFu, source_ag = (source >> 8) & 0x00FF00FFu;
    for (long start = 0; start < count; start += block) {
        long n = count - start < block ? count - start : block;
        const float *values = coverage + start;
        uint32_t *out = pixels + start;
        // Most of a line's blocks are empty round the line: left as they are.
        int any = 0;
        for (long i = 0; i < n; i++) any |= values[i] > 0.0f;
        if (!any) continue;
        for (long i = 0; i < n; i++) {
            float value = values[i];
            // The A8 value mw_coverage_to_a8 gives.
            float rounded = truncf(value * 255.0f + 0.49999997f);
            float clamped = rounded < 255.0f ? rounded : 255.0f;
            uint32_t mask = value <= 0.0f ? 0 : (uint32_t)clamped;
            // pixman's OVER of an opaque colour through an A8 mask: the colour IN the mask, plus
            // the pixel × (255 − mask); no sum passes 255 for premultiplied pixels, and a mask
            // of 0 leaves the pixel as it is.
            uint32_t pixel = out[i], keep = 255 - mask;
            uint32_t rb = mw_mul_lanes(pixel & 0x00FF00FFu, keep) + mw_mul_lanes(source_rb, mask);
            uint32_t ag = mw_mul_lanes((pixel >> 8) & 0x00FF00FFu, keep) + mw_mul_lanes(source_ag, mask);
            out[i] = rb | (ag << 8);
        }
    }
}
