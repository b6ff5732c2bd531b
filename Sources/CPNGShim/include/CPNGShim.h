// Mapwright's PNG codec in C: reading through libpng, writing with libdeflate.
//
// libpng reports errors by longjmp-ing out of the failing call, which Swift cannot survive. Every
// reading function here sets the jump target itself and turns a libpng error into a return code of
// -1 and a message, so Swift only ever sees ordinary C calls that return. The writers filter rows
// themselves and deflate with libdeflate, which is about twice as fast as zlib at the same level.
#ifndef MAPWRIGHT_CPNGSHIM_H
#define MAPWRIGHT_CPNGSHIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Room for a libpng error message, including the terminating NUL.
#define MW_PNG_MESSAGE_CAPACITY 200

/// A PNG being decoded from memory into RGBA8 (straight alpha, rows without padding).
typedef struct mw_png_reader mw_png_reader;

/// Starts decoding `length` bytes at `data`, which must outlive the reader. NULL when out of memory.
mw_png_reader *mw_png_reader_create(const uint8_t *data, size_t length);

/// Reads the signature and the header chunks. Returns 0, or -1 with a message.
int mw_png_reader_read_header(mw_png_reader *reader, uint32_t *width, uint32_t *height);

/// Decodes every row into `pixels` (width * height * 4 bytes), expanding palettes, tRNS, gray and
/// low bit depths, scaling 16-bit samples to 8 and undoing Adam7 interlacing.
/// Returns 0, or -1 with a message.
int mw_png_reader_read_rgba(mw_png_reader *reader, uint8_t *pixels);

/// The last error's message; empty when there was none.
const char *mw_png_reader_message(const mw_png_reader *reader);

/// Frees the reader and libpng's state.
void mw_png_reader_destroy(mw_png_reader *reader);

/// Bytes produced by the encoder, allocated with malloc; free them with mw_png_buffer_free.
typedef struct mw_png_buffer {
    uint8_t *bytes;
    size_t length;
    size_t capacity;
} mw_png_buffer;

/// Encodes RGBA8 pixels (straight alpha, rows without padding) as an 8-bit PNG, not interlaced: RGBA
/// (colour type 6), or RGB (colour type 2) when every pixel is opaque. Deflated by libdeflate at
/// `compression_level` (0-9, as zlib's levels; 0 stores); each row's filter chosen by libpng's
/// adaptive heuristic (the smallest sum of signed filtered bytes) when `adaptive_filtering` is
/// non-zero, none otherwise. Returns 0 and fills `output`, or -1 and writes a
/// NUL-terminated message of at most MW_PNG_MESSAGE_CAPACITY bytes into `message`.
// Runs `body(context, band)` for every band below `count`, at once on several threads or one after
// another, and returns when all have run.
typedef void (*mw_png_band_body)(void *context, size_t band);
typedef struct mw_png_parallel {
    void (*run)(void *runner, size_t count, void *context, mw_png_band_body body);
    void *runner;
    // At most this many bands (1: none).
    size_t bands;
} mw_png_parallel;

int mw_png_write_rgba(const uint8_t *pixels, uint32_t width, uint32_t height, int compression_level,
                      int adaptive_filtering, const mw_png_parallel *parallel, mw_png_buffer *output, char *message);

/// Encodes premultiplied-alpha ARGB32 pixels (Cairo's image format: one native-endian 32-bit word
/// a pixel, alpha in the top byte; rows `row_bytes` apart) as mw_png_write_rgba encodes the same
/// pixels converted to straight-alpha RGBA8 (see mw_unpremultiply_argb32), converting each row as
/// it is filtered instead of the whole image first.
int mw_png_write_premultiplied_argb32(const uint8_t *rows, size_t row_bytes, uint32_t width, uint32_t height,
                                      int compression_level, int adaptive_filtering, const mw_png_parallel *parallel,
                                      mw_png_buffer *output, char *message);

/// Converts `height` rows of `width` premultiplied ARGB32 pixels (rows `source_stride` bytes
/// apart) to straight-alpha RGBA8 rows packed `width` × 4 bytes apart: a transparent pixel is all
/// zero, an opaque one its channels, any other each channel × 255 / alpha rounded, at most 255.
void mw_unpremultiply_argb32(const uint8_t *source, long source_stride, uint8_t *rgba, long width, long height);

/// Encodes RGBA8 pixels as mw_png_write_rgba does, but always as RGBA (colour type 6), even when every
/// pixel is opaque: the frames of an animated PNG share one IHDR, so each must have the same colour type.
int mw_png_write_rgba_samples(const uint8_t *pixels, uint32_t width, uint32_t height, int compression_level,
                              int adaptive_filtering, mw_png_buffer *output, char *message);

/// Encodes one palette index per pixel (rows without padding) as an 8-bit palette PNG (colour type
/// 3), not interlaced, deflated at `compression_level` (0-9), rows not filtered. `palette_rgba` holds
/// `palette_count` (1-256) entries of four bytes, red, green, blue and straight alpha; they become the
/// PLTE chunk, and their alphas a tRNS chunk running to the last entry whose alpha is not 255 (none
/// when every entry is opaque). Every index must be below `palette_count`.
/// Returns 0 and fills `output`, or -1 and writes a message, as mw_png_write_rgba does.
int mw_png_write_palette(const uint8_t *indices, uint32_t width, uint32_t height, const uint8_t *palette_rgba,
                         int palette_count, int compression_level, mw_png_buffer *output, char *message);

/// Frees the bytes of `buffer` and empties it.
void mw_png_buffer_free(mw_png_buffer *buffer);

/// `length` bytes of memory for a large image buffer: from 2 MiB on, an anonymous mapping aligned
/// to 2 MiB and advised for transparent huge pages (MADV_HUGEPAGE; the kernel decides), so that a
/// 15 MB image is not ~3,700 page faults the first time it is written, zeroed as every fresh
/// mapping is; below, calloc's when `zeroed` is non-zero, else malloc's (for a buffer the caller
/// writes whole, such as a tile's filtered rows). NULL when out of memory. Free it with
/// mw_large_buffer_free and the same length.
void *mw_large_buffer_alloc(size_t length, int zeroed);

/// Frees memory from mw_large_buffer_alloc(length); NULL is ignored.
void mw_large_buffer_free(void *bytes, size_t length);

#ifdef __cplusplus
}
#endif

#endif
