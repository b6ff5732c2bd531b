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
void mw_unpremultiply_argb32(const uint8_t *source, long source_stride, uint8_t *rgba, long width, long height) {
    for (long row = 0; row < height; row++) {
        const uint32_t *pixels = (const uint32_t *)(source + row * source_stride);
        uint8_t *out = rgba + row * width * 4;
        long column = 0;
        while (column < width) {
            // Opaque runs (most of a map) are a byte shuffle the compiler vectorises.
            long run = column;
            while (run < width && (pixels[run] >> 24) == 255) run++;
            for (long i = column; i < run; i++) {
                uint32_t argb = pixels[i];
                out[i * 4] = (uint8_t)(argb >> 16);
                out[i * 4 + 1] = (uint8_t)(argb >> 8);
                out[i * 4 + 2] = (uint8_t)argb;
                out[i * 4 + 3] = 255;
            }
            column = run;
            if (column >= width) break;
            uint32_t argb = pixels[column];
            uint32_t alpha = argb >> 24;
            uint8_t *pixel = out + column * 4;
            if (alpha == 0) {
                memset(pixel, 0, 4);
            } else {
                for (int channel = 0; channel < 3; channel++) {
                    uint32_t premultiplied = (argb >> (16 - 8 * channel)) & 0xFF;
                    uint32_t value = (premultiplied * 255 + alpha / 2) / alpha;
                    pixel[channel] = (uint8_t)(value < 255 ? value : 255);
                }
                pixel[3] = (uint8_t)alpha;
            }
            column++;
        }
    }
}
