// PNG reading through libpng, its errors (a longjmp out of the failing call) turned into return
// codes: each reading function sets its own jump target before it calls into libpng, and touches no
// local variable after the jump that it changed after setting the target. PNG writing is done here:
// rows filtered as libpng's adaptive heuristic filters them, deflated by libdeflate (about twice
// zlib's speed at the same level, and smaller), chunks written with their CRCs.
#include "CPNGShim.h"

#include <libdeflate.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct mw_png_reader {
    png_structp png;
    png_infop info;
    const uint8_t *data;
    size_t length;
    size_t offset;
    char message[MW_PNG_MESSAGE_CAPACITY];
};

// Keeps libpng's message in the buffer given at creation, then jumps back to the wrapper.
static void mw_png_error(png_structp png, png_const_charp message) {
    char *buffer = png_get_error_ptr(png);
    snprintf(buffer, MW_PNG_MESSAGE_CAPACITY, "%s", message ? message : "unknown libpng error");
    png_longjmp(png, 1);
}

// Warnings (an unknown ancillary chunk, a bad ancillary CRC) do not stop decoding; they are dropped.
static void mw_png_warning(png_structp png, png_const_charp message) {
    (void)png;
    (void)message;
}

static void mw_png_read_data(png_structp png, png_bytep destination, size_t count) {
    mw_png_reader *reader = png_get_io_ptr(png);
    if (count > reader->length - reader->offset) {
        png_error(png, "unexpected end of file (truncated)");
    }
    memcpy(destination, reader->data + reader->offset, count);
    reader->offset += count;
}

mw_png_reader *mw_png_reader_create(const uint8_t *data, size_t length) {
    mw_png_reader *reader = calloc(1, sizeof(mw_png_reader));
    if (reader == NULL) return NULL;
    reader->data = data;
    reader->length = length;
    reader->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, reader->message, mw_png_error, mw_png_warning);
    if (reader->png != NULL) reader->info = png_create_info_struct(reader->png);
    if (reader->png == NULL || reader->info == NULL) {
        mw_png_reader_destroy(reader);
        return NULL;
    }
    png_set_read_fn(reader->png, reader, mw_png_read_data);
    return reader;
}

int mw_png_reader_read_header(mw_png_reader *reader, uint32_t *width, uint32_t *height) {
    if (setjmp(png_jmpbuf(reader->png))) return -1;
    png_read_info(reader->png, reader->info);
    *width = png_get_image_width(reader->png, reader->info);
    *height = png_get_image_height(reader->png, reader->info);
    return 0;
}

int mw_png_reader_read_rgba(mw_png_reader *reader, uint8_t *pixels) {
    png_structp png = reader->png;
    png_infop info = reader->info;
    if (setjmp(png_jmpbuf(png))) return -1;

    png_uint_32 width = png_get_image_width(png, info);
    png_uint_32 height = png_get_image_height(png, info);
    int color_type = png_get_color_type(png, info);
    int bit_depth = png_get_bit_depth(png, info);
    int has_transparency = png_get_valid(png, info, PNG_INFO_tRNS) != 0;

    // No gamma transform: samples are compared as stored, as pngjs (pixelmatch) and Pillow do.
    if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (color_type == PNG_COLOR_TYPE_GRAY && bit_depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (has_transparency) png_set_tRNS_to_alpha(png);
    if (bit_depth == 16) png_set_scale_16(png);
    if ((color_type & PNG_COLOR_MASK_COLOR) == 0) png_set_gray_to_rgb(png);
    if ((color_type & PNG_COLOR_MASK_ALPHA) == 0 && !has_transparency) {
        png_set_add_alpha(png, 0xFF, PNG_FILLER_AFTER);
    }
    int passes = png_set_interlace_handling(png);
    png_read_update_info(png, info);
    if (png_get_rowbytes(png, info) != (size_t)width * 4) png_error(png, "unsupported pixel layout");

    // Each pass adds its pixels to rows already holding the previous passes' pixels.
    for (int pass = 0; pass < passes; pass++) {
        for (png_uint_32 y = 0; y < height; y++) {
            png_read_row(png, pixels + (size_t)y * width * 4, NULL);
        }
    }
    png_read_end(png, NULL);
    return 0;
}

const char *mw_png_reader_message(const mw_png_reader *reader) {
    return reader->message;
}

void mw_png_reader_destroy(mw_png_reader *reader) {
    if (reader == NULL) return;
    if (reader->png != NULL) png_destroy_read_struct(&reader->png, &reader->info, NULL);
    free(reader);
}

// MARK: - Writing: rows filtered here, deflated by libdeflate

// A growing output buffer; returns 0, or -1 when memory runs out.
static int mw_buffer_reserve(mw_png_buffer *buffer, size_t extra) {
    if (extra <= buffer->capacity - buffer->length) return 0;
    size_t capacity = buffer->capacity < 4096 ? 4096 : buffer->capacity;
    while (capacity - buffer->length < extra) capacity *= 2;
    uint8_t *bytes = realloc(buffer->bytes, capacity);
    if (bytes == NULL) return -1;
    buffer->bytes = bytes;
    buffer->capacity = capacity;
    return 0;
}

static void mw_put32(uint8_t *bytes, uint32_t value) {
    bytes[0] = (uint8_t)(value >> 24);
    bytes[1] = (uint8_t)(value >> 16);
    bytes[2] = (uint8_t)(value >> 8);
    bytes[3] = (uint8_t)value;
}

// Appends a chunk of `type` with `length` bytes of `data` and its CRC.
static int mw_put_chunk(mw_png_buffer *buffer, const char type[4], const uint8_t *data, size_t length) {
    if (length > 0x7fffffff || mw_buffer_reserve(buffer, length + 12) != 0) return -1;
    uint8_t *chunk = buffer->bytes + buffer->length;
    mw_put32(chunk, (uint32_t)length);
    memcpy(chunk + 4, type, 4);
    if (length > 0) memcpy(chunk + 8, data, length);
    mw_put32(chunk + 8 + length, (uint32_t)libdeflate_crc32(0, chunk + 4, length + 4));
    buffer->length += length + 12;
    return 0;
}

static inline uint8_t mw_paeth(int a, int b, int c) {
    int p = a + b - c;
    int pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);
    if (pa <= pb && pa <= pc) return (uint8_t)a;
    return pb <= pc ? (uint8_t)b : (uint8_t)c;
}

static inline uint32_t mw_signed(uint8_t value) {
    return value < 128 ? value : 256u - value;
}

// The filtered byte `i` of `row` under filter `type` (`previous` is the row above, or zeros).
static inline uint8_t mw_filtered(int type, const uint8_t *row, const uint8_t *previous, size_t i, size_t bpp) {
    uint8_t left = i >= bpp ? row[i - bpp] : 0;
    uint8_t corner = i >= bpp ? previous[i - bpp] : 0;
    switch (type) {
    case 0: return row[i];
    case 1: return (uint8_t)(row[i] - left);
    case 2: return (uint8_t)(row[i] - previous[i]);
    case 3: return (uint8_t)(row[i] - ((left + previous[i]) >> 1));
    default: return (uint8_t)(row[i] - mw_paeth(left, previous[i], corner));
    }
}

// Chooses `row`'s filter as libpng's adaptive heuristic does (the smallest sum of the filtered
// bytes taken as signed; the lower filter type on a tie) and writes the filter byte and the
// filtered row to `out`. The five sums are gathered in one pass over the row.
static void mw_filter_adaptive(const uint8_t *row, const uint8_t *previous, size_t count, size_t bpp, uint8_t *out) {
    uint64_t sums[5] = {0, 0, 0, 0, 0};
    for (size_t i = 0; i < bpp && i < count; i++) {  // the first pixel: nothing to its left
        uint8_t value = row[i], up = previous[i];
        sums[0] += mw_signed(value);
        sums[1] += mw_signed(value);
        sums[2] += mw_signed((uint8_t)(value - up));
        sums[3] += mw_signed((uint8_t)(value - (up >> 1)));
        sums[4] += mw_signed((uint8_t)(value - up));
    }
    uint32_t none = 0, sub = 0, upward = 0, average = 0, paeth = 0;
    for (size_t i = bpp; i < count; i++) {
        uint8_t value = row[i], up = previous[i], left = row[i - bpp], corner = previous[i - bpp];
        none += mw_signed(value);
        sub += mw_signed((uint8_t)(value - left));
        upward += mw_signed((uint8_t)(value - up));
        average += mw_signed((uint8_t)(value - ((left + up) >> 1)));
        paeth += mw_signed((uint8_t)(value - mw_paeth(left, up, corner)));
    }
    sums[0] += none;
    sums[1] += sub;
    sums[2] += upward;
    sums[3] += average;
    sums[4] += paeth;
    int best = 0;
    for (int type = 1; type < 5; type++) {
        if (sums[type] < sums[best]) best = type;
    }
    out[0] = (uint8_t)best;
    for (size_t i = 0; i < count; i++) out[1 + i] = mw_filtered(best, row, previous, i, bpp);
}

// Encodes `height` rows of `width` pixels, `channels` 8-bit samples each, as `color_type`, with an
// optional palette of `palette_count` RGBA entries (PLTE, and tRNS up to the last entry that is not
// opaque). Rows are read `row_bytes` apart with `stride` bytes per pixel (a stride of 4 with 3
// channels drops RGBA's alpha). With `adaptive`, each row takes the filter whose output has the
// smallest sum of signed bytes (libpng's heuristic), else none. The filtered rows are deflated by
// libdeflate at `compression_level` (0-9; 0 stores). No time or text chunk is written, so identical
// inputs give identical bytes.
static int mw_png_write(const uint8_t *rows, size_t row_bytes, uint32_t width, uint32_t height, int color_type,
                        size_t channels, size_t stride, const uint8_t *palette_rgba, int palette_count,
                        int compression_level, int adaptive, mw_png_buffer *output, char *message) {
    memset(output, 0, sizeof(*output));
    message[0] = '\0';
    if (width == 0 || height == 0 || width > 0x7fffffff || height > 0x7fffffff) {
        snprintf(message, MW_PNG_MESSAGE_CAPACITY, "Invalid image width or height");
        return -1;
    }
    size_t line = (size_t)width * channels;
    size_t filtered_length = (line + 1) * height;
    uint8_t *filtered = malloc(filtered_length);
    uint8_t *packed = malloc(line * 2);  // this row and the one above, without a pixel's filler
    struct libdeflate_compressor *compressor = libdeflate_alloc_compressor(compression_level);
    size_t bound = compressor != NULL ? libdeflate_zlib_compress_bound(compressor, filtered_length) : 0;
    uint8_t *deflated = compressor != NULL ? malloc(bound) : NULL;
    int status = -1;
    if (filtered == NULL || packed == NULL || compressor == NULL || deflated == NULL) {
        snprintf(message, MW_PNG_MESSAGE_CAPACITY, "out of memory");
        goto done;
    }
    uint8_t *current = packed, *above = packed + line;
    memset(above, 0, line);
    for (uint32_t y = 0; y < height; y++) {
        const uint8_t *source = rows + (size_t)y * row_bytes;
        if (stride == channels) {
            memcpy(current, source, line);
        } else {  // RGBA rows written as RGB
            for (size_t x = 0; x < width; x++) {
                current[x * 3] = source[x * 4];
                current[x * 3 + 1] = source[x * 4 + 1];
                current[x * 3 + 2] = source[x * 4 + 2];
            }
        }
        uint8_t *out = filtered + (size_t)y * (line + 1);
        if (!adaptive) {
            out[0] = 0;
            memcpy(out + 1, current, line);
        } else {
            mw_filter_adaptive(current, above, line, channels, out);
        }
        uint8_t *swap = current;
        current = above;
        above = swap;
    }
    size_t deflated_length = libdeflate_zlib_compress(compressor, filtered, filtered_length, deflated, bound);
    if (deflated_length == 0) {
        snprintf(message, MW_PNG_MESSAGE_CAPACITY, "deflate failed");
        goto done;
    }

    static const uint8_t signature[8] = {137, 80, 78, 71, 13, 10, 26, 10};
    uint8_t header[13];
    mw_put32(header, width);
    mw_put32(header + 4, height);
    header[8] = 8;
    header[9] = (uint8_t)color_type;
    header[10] = header[11] = header[12] = 0;
    if (mw_buffer_reserve(output, deflated_length + 1024) != 0) goto memory;
    memcpy(output->bytes, signature, 8);
    output->length = 8;
    if (mw_put_chunk(output, "IHDR", header, 13) != 0) goto memory;
    if (color_type == 3) {
        uint8_t colors[256 * 3], alphas[256];
        int alpha_count = 0;
        for (int index = 0; index < palette_count; index++) {
            memcpy(colors + index * 3, palette_rgba + index * 4, 3);
            alphas[index] = palette_rgba[index * 4 + 3];
            if (alphas[index] != 255) alpha_count = index + 1;
        }
        if (mw_put_chunk(output, "PLTE", colors, (size_t)palette_count * 3) != 0) goto memory;
        if (alpha_count > 0 && mw_put_chunk(output, "tRNS", alphas, (size_t)alpha_count) != 0) goto memory;
    }
    // IDAT chunks of at most 8 KiB, as libpng cuts them (12 bytes a chunk: 0.15%).
    for (size_t offset = 0; offset < deflated_length; offset += 8192) {
        size_t length = deflated_length - offset < 8192 ? deflated_length - offset : 8192;
        if (mw_put_chunk(output, "IDAT", deflated + offset, length) != 0) goto memory;
    }
    if (mw_put_chunk(output, "IEND", NULL, 0) != 0) goto memory;
    status = 0;
    goto done;
memory:
    snprintf(message, MW_PNG_MESSAGE_CAPACITY, "out of memory");
    mw_png_buffer_free(output);
done:
    free(filtered);
    free(packed);
    free(deflated);
    if (compressor != NULL) libdeflate_free_compressor(compressor);
    return status;
}

int mw_png_write_rgba(const uint8_t *pixels, uint32_t width, uint32_t height, int compression_level,
                      int adaptive_filtering, mw_png_buffer *output, char *message) {
    size_t count = (size_t)width * height;
    int opaque = 1;
    for (size_t index = 0; index < count && opaque; index++) opaque = pixels[index * 4 + 3] == 255;
    return mw_png_write(pixels, (size_t)width * 4, width, height, opaque ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_RGB_ALPHA,
                        opaque ? 3 : 4, 4, NULL, 0, compression_level, adaptive_filtering, output, message);
}

int mw_png_write_rgba_samples(const uint8_t *pixels, uint32_t width, uint32_t height, int compression_level,
                              int adaptive_filtering, mw_png_buffer *output, char *message) {
    return mw_png_write(pixels, (size_t)width * 4, width, height, PNG_COLOR_TYPE_RGB_ALPHA, 4, 4, NULL, 0,
                        compression_level, adaptive_filtering, output, message);
}

int mw_png_write_palette(const uint8_t *indices, uint32_t width, uint32_t height, const uint8_t *palette_rgba,
                         int palette_count, int compression_level, mw_png_buffer *output, char *message) {
    if (palette_count < 1 || palette_count > PNG_MAX_PALETTE_LENGTH) {
        memset(output, 0, sizeof(*output));
        snprintf(message, MW_PNG_MESSAGE_CAPACITY, "a palette needs 1 to 256 entries, not %d", palette_count);
        return -1;
    }
    return mw_png_write(indices, width, width, height, PNG_COLOR_TYPE_PALETTE, 1, 1, palette_rgba, palette_count,
                        compression_level, 0, output, message);
}

void mw_png_buffer_free(mw_png_buffer *buffer) {
    free(buffer->bytes);
    memset(buffer, 0, sizeof(*buffer));
}
