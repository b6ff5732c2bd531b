// libpng calls wrapped so that its errors (a longjmp out of the failing call) become return codes.
// Each exported function sets its own jump target before it calls into libpng, and touches no local
// variable after the jump that it changed after setting the target.
#include "CPNGShim.h"

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

static void mw_png_write_data(png_structp png, png_bytep data, size_t length) {
    mw_png_buffer *buffer = png_get_io_ptr(png);
    if (length > buffer->capacity - buffer->length) {
        size_t capacity = buffer->capacity < 4096 ? 4096 : buffer->capacity;
        while (capacity - buffer->length < length) capacity *= 2;
        uint8_t *bytes = realloc(buffer->bytes, capacity);
        if (bytes == NULL) png_error(png, "out of memory");
        buffer->bytes = bytes;
        buffer->capacity = capacity;
    }
    memcpy(buffer->bytes + buffer->length, data, length);
    buffer->length += length;
}

static void mw_png_flush(png_structp png) {
    (void)png;
}

// Encodes `height` rows of `row_bytes` bytes each, as 8-bit samples of `color_type`, with an optional
// palette of `palette_count` RGBA entries (PLTE, and tRNS up to the last entry that is not opaque).
// Writes no time or text chunk, so identical inputs give identical bytes.
// `filters` is a libpng filter mask (PNG_ALL_FILTERS for its adaptive choice, PNG_FILTER_NONE).
// With `strip_filler`, rows hold four bytes per pixel and the fourth is dropped (RGBA rows written as RGB).
static int mw_png_write(const uint8_t *rows, size_t row_bytes, uint32_t width, uint32_t height, int color_type,
                        const uint8_t *palette_rgba, int palette_count, int compression_level, int filters,
                        int strip_filler, mw_png_buffer *output, char *message) {
    memset(output, 0, sizeof(*output));
    message[0] = '\0';
    png_color colors[PNG_MAX_PALETTE_LENGTH];
    png_byte alphas[PNG_MAX_PALETTE_LENGTH];
    int alpha_count = 0;
    for (int index = 0; index < palette_count; index++) {
        colors[index].red = palette_rgba[index * 4];
        colors[index].green = palette_rgba[index * 4 + 1];
        colors[index].blue = palette_rgba[index * 4 + 2];
        alphas[index] = palette_rgba[index * 4 + 3];
        if (alphas[index] != 255) alpha_count = index + 1;
    }

    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, message, mw_png_error, mw_png_warning);
    png_infop info = png != NULL ? png_create_info_struct(png) : NULL;
    if (png == NULL || info == NULL) {
        png_destroy_write_struct(&png, &info);
        snprintf(message, MW_PNG_MESSAGE_CAPACITY, "out of memory");
        return -1;
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        mw_png_buffer_free(output);
        return -1;
    }
    png_set_write_fn(png, output, mw_png_write_data, mw_png_flush);
    png_set_compression_level(png, compression_level);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, filters);
    png_set_IHDR(png, info, width, height, 8, color_type, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    if (color_type == PNG_COLOR_TYPE_PALETTE) {
        png_set_PLTE(png, info, colors, palette_count);
        if (alpha_count > 0) png_set_tRNS(png, info, alphas, alpha_count, NULL);
    }
    png_write_info(png, info);
    if (strip_filler) png_set_filler(png, 0, PNG_FILLER_AFTER);
    for (png_uint_32 y = 0; y < height; y++) {
        png_write_row(png, rows + (size_t)y * row_bytes);
    }
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    return 0;
}

int mw_png_write_rgba(const uint8_t *pixels, uint32_t width, uint32_t height, int compression_level,
                      int adaptive_filtering, mw_png_buffer *output, char *message) {
    size_t count = (size_t)width * height;
    int opaque = 1;
    for (size_t index = 0; index < count && opaque; index++) opaque = pixels[index * 4 + 3] == 255;
    return mw_png_write(pixels, (size_t)width * 4, width, height, opaque ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_RGB_ALPHA,
                        NULL, 0, compression_level, adaptive_filtering ? PNG_ALL_FILTERS : PNG_FILTER_NONE, opaque,
                        output, message);
}

int mw_png_write_rgba_samples(const uint8_t *pixels, uint32_t width, uint32_t height, int compression_level,
                              int adaptive_filtering, mw_png_buffer *output, char *message) {
    return mw_png_write(pixels, (size_t)width * 4, width, height, PNG_COLOR_TYPE_RGB_ALPHA, NULL, 0,
                        compression_level, adaptive_filtering ? PNG_ALL_FILTERS : PNG_FILTER_NONE, 0, output, message);
}

int mw_png_write_palette(const uint8_t *indices, uint32_t width, uint32_t height, const uint8_t *palette_rgba,
                         int palette_count, int compression_level, mw_png_buffer *output, char *message) {
    if (palette_count < 1 || palette_count > PNG_MAX_PALETTE_LENGTH) {
        memset(output, 0, sizeof(*output));
        snprintf(message, MW_PNG_MESSAGE_CAPACITY, "a palette needs 1 to 256 entries, not %d", palette_count);
        return -1;
    }
    return mw_png_write(indices, width, width, height, PNG_COLOR_TYPE_PALETTE, palette_rgba, palette_count,
                        compression_level, PNG_FILTER_NONE, 0, output, message);
}

void mw_png_buffer_free(mw_png_buffer *buffer) {
    free(buffer->bytes);
    memset(buffer, 0, sizeof(*buffer));
}
