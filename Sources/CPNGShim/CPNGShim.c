// PNG reading through libpng, its errors (a longjmp out of the failing call) turned into return
// codes: each reading function sets its own jump target before it calls into libpng, and touches no
// local variable after the jump that it changed after setting the target. PNG writing is done here:
// rows filtered as libpng's adaptive heuristic filters them (in bands at once when the caller runs
// them so), deflated by libdeflate (about twice zlib's speed at the same level, and smaller) or, at
// level 1, by ISA-L's igzip in the same bands, chunks written with their CRCs.
#include "CPNGShim.h"

#include <isa-l/igzip_lib.h>
#include <libdeflate.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

// A huge page: buffers of at least this many bytes are mapped whole huge pages at a time.
enum { MW_HUGE_PAGE = 2 << 20 };

// The length of the mapping that holds `length` bytes: whole huge pages.
static size_t mw_large_mapping_length(size_t length) {
    return (length + MW_HUGE_PAGE - 1) / MW_HUGE_PAGE * MW_HUGE_PAGE;
}

void *mw_large_buffer_alloc(size_t length, int zeroed) {
    if (length < MW_HUGE_PAGE) return zeroed ? calloc(1, length > 0 ? length : 1) : malloc(length > 0 ? length : 1);
    if (length > SIZE_MAX / 2) return NULL;
    size_t kept = mw_large_mapping_length(length), mapped = kept + MW_HUGE_PAGE;
    uint8_t *base = mmap(NULL, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base == MAP_FAILED) return NULL;
    // The huge-page-aligned run inside the mapping; the pages before and after it are given back.
    uintptr_t address = (uintptr_t)base, start = (address + MW_HUGE_PAGE - 1) / MW_HUGE_PAGE * MW_HUGE_PAGE;
    size_t lead = start - address, tail = mapped - lead - kept;
    if (lead > 0) munmap(base, lead);
    if (tail > 0) munmap((uint8_t *)start + kept, tail);
    madvise((void *)start, kept, MADV_HUGEPAGE);
    return (void *)start;
}

void mw_large_buffer_free(void *bytes, size_t length) {
    if (bytes == NULL) return;
    if (length < MW_HUGE_PAGE) free(bytes); else munmap(bytes, mw_large_mapping_length(length));
}

// The byte shuffles below read ARGB32 pixels as memory holds them on a little-endian CPU.
_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "ARGB32 pixels are read as B, G, R, A bytes");

// Sixteen bytes on a vector unit.
typedef uint8_t mw_bytes16 __attribute__((vector_size(16)));

// Loops compiled twice, for AVX2 and for any x86-64, the one chosen at load.
#define MW_VECTOR __attribute__((target_clones("avx2", "default")))

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

// One encoding's work, shared by its bands: each band filters its own rows of `filtered` (reading
// the source row above its first) and, at level 1, deflates them into its own piece.
typedef struct mw_png_job {
    const uint8_t *rows;
    size_t row_bytes, channels, stride, line;
    // Whether the rows are premultiplied ARGB32 (native endian), unpremultiplied as they are packed.
    int premultiplied;
    uint32_t width, height, rows_per_band;
    size_t band_count;
    int adaptive, level;
    uint8_t *filtered;
    uint8_t **pieces;
    size_t *piece_lengths;
    // At level 1, each band's Adler-32 of its filtered rows, combined in order into the stream's.
    uint32_t *adlers;
    int *failures;
} mw_png_job;

// Straight-alpha samples of one row of premultiplied ARGB32 pixels (native endian): `channels` 4
// gives RGBA, 3 gives RGB (the pixels opaque). A transparent pixel is all zero, an opaque one its
// channels, any other each channel × 255 / alpha rounded, at most 255.
// One premultiplied ARGB32 pixel as `channels` straight-alpha samples.
static inline void mw_unpremultiply_pixel(uint32_t argb, size_t channels, uint8_t *pixel) {
    uint32_t alpha = argb >> 24;
    if (alpha == 255) {
        pixel[0] = (uint8_t)(argb >> 16);
        pixel[1] = (uint8_t)(argb >> 8);
        pixel[2] = (uint8_t)argb;
    } else if (alpha == 0) {
        pixel[0] = pixel[1] = pixel[2] = 0;
    } else {
        for (int channel = 0; channel < 3; channel++) {
            uint32_t premultiplied = (argb >> (16 - 8 * channel)) & 0xFF;
            uint32_t value = (premultiplied * 255 + alpha / 2) / alpha;
            pixel[channel] = (uint8_t)(value < 255 ? value : 255);
        }
    }
    if (channels == 4) pixel[3] = (uint8_t)alpha;
}

// Straight-alpha samples of one row of premultiplied ARGB32 pixels (native endian): `channels` 4
// gives RGBA, 3 gives RGB (the pixels opaque). A transparent pixel is all zero, an opaque one its
// channels, any other each channel × 255 / alpha rounded, at most 255.
MW_VECTOR
static void mw_unpremultiply_argb32_row(const uint32_t *pixels, size_t width, size_t channels, uint8_t *out) {
    enum { block = 16 };
    size_t x = 0;
    // Blocks of opaque pixels (most of a map) are a byte shuffle on vector units.
    for (; x + block <= width; x += block) {
        uint32_t all = 0xFFFFFFFFu;
        for (size_t i = 0; i < block; i++) all &= pixels[x + i];
        if ((all >> 24) == 255) {
            // Four pixels at a time, one byte shuffle: memory holds B, G, R, A (ARGB32 on a
            // little-endian CPU) and the PNG wants R, G, B (and A, here 255).
            for (size_t i = 0; i < block; i += 4) {
                mw_bytes16 argb;
                memcpy(&argb, pixels + x + i, 16);
                if (channels == 4) {
                    mw_bytes16 rgba = __builtin_shufflevector(argb, argb, 2, 1, 0, 3, 6, 5, 4, 7, 10, 9, 8, 11, 14, 13, 12, 15);
                    memcpy(out + (x + i) * 4, &rgba, 16);
                } else {
                    mw_bytes16 rgb = __builtin_shufflevector(argb, argb, 2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, 3, 7, 11, 15);
                    memcpy(out + (x + i) * 3, &rgb, 12);
                }
            }
        } else {
            for (size_t i = 0; i < block; i++) mw_unpremultiply_pixel(pixels[x + i], channels, out + (x + i) * channels);
        }
    }
    for (; x < width; x++) mw_unpremultiply_pixel(pixels[x], channels, out + x * channels);
}

void mw_unpremultiply_argb32(const uint8_t *source, long source_stride, uint8_t *rgba, long width, long height) {
    for (long row = 0; row < height; row++) {
        mw_unpremultiply_argb32_row((const uint32_t *)(source + row * source_stride), (size_t)width, 4, rgba + row * width * 4);
    }
}

// Row `y` of the source as `channels` samples a pixel (a stride of 4 with 3 channels drops RGBA's
// alpha; premultiplied ARGB32 rows are unpremultiplied on the way).
static void mw_pack_row(const mw_png_job *job, uint32_t y, uint8_t *out) {
    const uint8_t *source = job->rows + (size_t)y * job->row_bytes;
    if (job->premultiplied) {
        mw_unpremultiply_argb32_row((const uint32_t *)source, job->width, job->channels, out);
        return;
    }
    if (job->stride == job->channels) {
        memcpy(out, source, job->line);
        return;
    }
    for (size_t x = 0; x < job->width; x++) {
        out[x * 3] = source[x * 4];
        out[x * 3 + 1] = source[x * 4 + 1];
        out[x * 3 + 2] = source[x * 4 + 2];
    }
}

// The bytes of a piece that go through ISA-L on their own first (see mw_isal_piece): no more than
// its level-1 body leaves to its finishing pass (MIN_INBUF_PADDING in igzip_icf_body_h1_gr_bt.asm).
enum { MW_ISAL_HEAD_BYTES = 16 };

// Raw-deflates `length` bytes with ISA-L at level 1 as one piece of a longer stream: the last piece
// ends the stream; any other ends with a full flush (byte-aligned, no history carried over), so
// pieces deflated apart join into one stream. Returns the bytes written, 0 on failure.
//
// ISA-L's level-1 body (isal_deflate_icf_body_hash_hist_*, 2.30 and upstream alike) mishandles the
// first byte of a stream: its `.write_first_byte` path hashes register rcx, which holds the
// isal_zstream's address rather than the input, so the third input byte is filed in a hash slot
// chosen by bits 16-47 of that address. The stream stays valid, but its matches (and bytes) then
// depend on where the stream struct lies: about one 512-pixel tile in several thousand came out
// different from run to run, or from thread to thread. Its finishing pass handles the first byte
// correctly, so the first MW_ISAL_HEAD_BYTES go through it alone, ended by a sync flush (an empty
// stored block, history kept); the body then starts with history and never takes that path (a
// piece of at most MW_ISAL_HEAD_BYTES is the finishing pass's alone). This costs about a dozen
// bytes a piece. The struct (about 80 KB) is on the heap rather than the stack, zeroed so that no
// byte ISA-L reads is left over from earlier work.
static size_t mw_isal_piece(const uint8_t *input, size_t length, int last, uint8_t **output) {
    size_t capacity = length + length / 16 + 1024;
    uint8_t *bytes = malloc(capacity);
    uint8_t *level_buffer = malloc(ISAL_DEF_LVL1_DEFAULT);
    struct isal_zstream *stream = malloc(sizeof(struct isal_zstream));
    size_t written = 0;
    if (bytes != NULL && level_buffer != NULL && stream != NULL) {
        memset(stream, 0, sizeof(*stream));
        isal_deflate_init(stream);
        stream->level = 1;
        stream->level_buf = level_buffer;
        stream->level_buf_size = ISAL_DEF_LVL1_DEFAULT;
        stream->next_out = bytes;
        stream->avail_out = (uint32_t)capacity;
        size_t head = length > MW_ISAL_HEAD_BYTES ? MW_ISAL_HEAD_BYTES : 0;
        int ok = 1;
        if (head > 0) {
            stream->next_in = (uint8_t *)input;
            stream->avail_in = (uint32_t)head;
            stream->end_of_stream = 0;
            stream->flush = SYNC_FLUSH;
            ok = isal_deflate(stream) == COMP_OK && stream->avail_in == 0;
        }
        stream->next_in = (uint8_t *)input + head;
        stream->avail_in = (uint32_t)(length - head);
        stream->end_of_stream = last ? 1 : 0;
        stream->flush = last ? NO_FLUSH : FULL_FLUSH;
        ok = ok && isal_deflate(stream) == COMP_OK && stream->avail_in == 0
            && (!last || stream->internal_state.state == ZSTATE_END) && stream->avail_out > 0;
        if (ok) written = capacity - stream->avail_out;
    }
    free(stream);
    free(level_buffer);
    if (written == 0) {
        free(bytes);
        bytes = NULL;
    }
    *output = bytes;
    return written;
}

// The rows of band `band` of `height` rows in bands of `rows_per_band`: `*first..<*end`.
static void mw_band_rows(size_t band, uint32_t rows_per_band, uint32_t height, uint32_t *first, uint32_t *end) {
    *first = (uint32_t)(band * rows_per_band);
    *end = *first + rows_per_band < height ? *first + rows_per_band : height;
}

// The rows per band of `height` rows encoded in `parallel`'s bands (all of them in one without it).
static uint32_t mw_rows_per_band(const mw_png_parallel *parallel, uint32_t height) {
    size_t bands = parallel != NULL && parallel->run != NULL && parallel->bands > 1 ? parallel->bands : 1;
    if (bands > height) bands = height;
    return (uint32_t)((height + bands - 1) / bands);
}

// The Adler-32 of two byte strings one after the other, from each one's and the second's length
// (RFC 1950's sums: A = 1 + the bytes, B = the sum of each step's A, both modulo 65521).
static uint32_t mw_adler32_combine(uint32_t first, uint32_t second, size_t second_length) {
    const uint64_t base = 65521;
    uint64_t length = second_length % base;
    uint64_t a1 = first & 0xffff, b1 = first >> 16, a2 = second & 0xffff, b2 = second >> 16;
    // A: both strings' bytes and one 1; B: the first's B, the second's, and the first's bytes
    // (A1 - 1) counted once for each byte of the second.
    uint64_t a = (a1 + a2 + base - 1) % base;
    uint64_t b = (b1 + b2 + length * a1 + base - length) % base;
    return (uint32_t)(a | (b << 16));
}

static void mw_png_band(void *context, size_t band) {
    mw_png_job *job = context;
    uint32_t first, end;
    mw_band_rows(band, job->rows_per_band, job->height, &first, &end);
    if (!job->adaptive) {
        // Filter type 0 (none) on every row: each is packed in place.
        for (uint32_t y = first; y < end; y++) {
            uint8_t *out = job->filtered + (size_t)y * (job->line + 1);
            out[0] = 0;
            mw_pack_row(job, y, out + 1);
        }
    } else {
        uint8_t *packed = malloc(job->line * 2);  // this row and the one above, without a pixel's filler
        if (packed == NULL) {
            job->failures[band] = 1;
            return;
        }
        uint8_t *current = packed, *above = packed + job->line;
        if (first == 0) memset(above, 0, job->line); else mw_pack_row(job, first - 1, above);
        for (uint32_t y = first; y < end; y++) {
            mw_pack_row(job, y, current);
            mw_filter_adaptive(current, above, job->line, job->channels, job->filtered + (size_t)y * (job->line + 1));
            uint8_t *swap = current;
            current = above;
            above = swap;
        }
        free(packed);
    }
    if (job->level == 1) {
        const uint8_t *input = job->filtered + (size_t)first * (job->line + 1);
        size_t length = (size_t)(end - first) * (job->line + 1);
        job->piece_lengths[band] = mw_isal_piece(input, length, band == job->band_count - 1, &job->pieces[band]);
        if (job->piece_lengths[band] == 0) job->failures[band] = 1;
        job->adlers[band] = isal_adler32(1, input, length);
    }
}

// Encodes `height` rows of `width` pixels, `channels` 8-bit samples each, as `color_type`, with an
// optional palette of `palette_count` RGBA entries (PLTE, and tRNS up to the last entry that is not
// opaque). Rows are read `row_bytes` apart with `stride` bytes per pixel (a stride of 4 with 3
// channels drops RGBA's alpha). With `adaptive`, each row takes the filter whose output has the
// smallest sum of signed bytes (libpng's heuristic), else none. The filtered rows are deflated at
// `compression_level`: 1 by ISA-L's igzip at its level 1 (several times faster than libdeflate,
// files a few percent larger), in `parallel`'s bands at once when it has more than one; 0 (stored)
// and 2-9 by libdeflate at that level, rows still filtered in bands. The bytes depend only on the
// pixels, the level and the number of bands. No time or text chunk is written.
static int mw_png_write(const uint8_t *rows, size_t row_bytes, int premultiplied, uint32_t width, uint32_t height, int color_type,
                        size_t channels, size_t stride, const uint8_t *palette_rgba, int palette_count,
                        int compression_level, int adaptive, const mw_png_parallel *parallel, mw_png_buffer *output,
                        char *message) {
    memset(output, 0, sizeof(*output));
    message[0] = '\0';
    if (width == 0 || height == 0 || width > 0x7fffffff || height > 0x7fffffff) {
        snprintf(message, MW_PNG_MESSAGE_CAPACITY, "Invalid image width or height");
        return -1;
    }
    mw_png_job job = {0};
    job.rows = rows;
    job.row_bytes = row_bytes;
    job.premultiplied = premultiplied;
    job.channels = channels;
    job.stride = stride;
    job.line = (size_t)width * channels;
    job.width = width;
    job.height = height;
    job.adaptive = adaptive;
    job.level = compression_level;
    job.rows_per_band = mw_rows_per_band(parallel, height);
    job.band_count = (height + job.rows_per_band - 1) / job.rows_per_band;
    size_t filtered_length = (job.line + 1) * height;
    job.filtered = mw_large_buffer_alloc(filtered_length, 0);  // every byte is written
    job.pieces = calloc(job.band_count, sizeof(uint8_t *));
    job.piece_lengths = calloc(job.band_count, sizeof(size_t));
    job.adlers = calloc(job.band_count, sizeof(uint32_t));
    job.failures = calloc(job.band_count, sizeof(int));
    struct libdeflate_compressor *compressor = NULL;
    uint8_t *deflated = NULL;
    size_t deflated_length = 0;
    int status = -1;
    if (job.filtered == NULL || job.pieces == NULL || job.piece_lengths == NULL || job.adlers == NULL || job.failures == NULL) goto memory;
    if (job.band_count > 1) {
        parallel->run(parallel->runner, job.band_count, &job, mw_png_band);
    } else {
        mw_png_band(&job, 0);
    }
    for (size_t band = 0; band < job.band_count; band++) {
        if (job.failures[band]) goto memory;
    }
    if (compression_level == 1) {
        // A zlib stream: its header (deflate, 32 KiB window, fastest), the pieces, the Adler-32.
        size_t total = 6;
        for (size_t band = 0; band < job.band_count; band++) total += job.piece_lengths[band];
        deflated = malloc(total);
        if (deflated == NULL) goto memory;
        deflated[0] = 0x78;
        deflated[1] = 0x01;
        deflated_length = 2;
        for (size_t band = 0; band < job.band_count; band++) {
            memcpy(deflated + deflated_length, job.pieces[band], job.piece_lengths[band]);
            deflated_length += job.piece_lengths[band];
        }
        uint32_t adler = job.adlers[0];
        for (size_t band = 1; band < job.band_count; band++) {
            uint32_t first, end;
            mw_band_rows(band, job.rows_per_band, height, &first, &end);
            adler = mw_adler32_combine(adler, job.adlers[band], (size_t)(end - first) * (job.line + 1));
        }
        mw_put32(deflated + deflated_length, adler);
        deflated_length += 4;
    } else {
        compressor = libdeflate_alloc_compressor(compression_level);
        size_t bound = compressor != NULL ? libdeflate_zlib_compress_bound(compressor, filtered_length) : 0;
        deflated = compressor != NULL ? malloc(bound) : NULL;
        if (deflated == NULL) goto memory;
        deflated_length = libdeflate_zlib_compress(compressor, job.filtered, filtered_length, deflated, bound);
        if (deflated_length == 0) {
            snprintf(message, MW_PNG_MESSAGE_CAPACITY, "deflate failed");
            goto done;
        }
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
    if (job.pieces != NULL) {
        for (size_t band = 0; band < job.band_count; band++) free(job.pieces[band]);
    }
    free(job.pieces);
    free(job.piece_lengths);
    free(job.adlers);
    free(job.failures);
    mw_large_buffer_free(job.filtered, filtered_length);
    free(deflated);
    if (compressor != NULL) libdeflate_free_compressor(compressor);
    return status;
}

// Whether every RGBA8 pixel's alpha is 255, row by row on vector units.
MW_VECTOR
static int mw_rgba_opaque(const uint8_t *pixels, uint32_t width, uint32_t height) {
    for (uint32_t y = 0; y < height; y++) {
        const uint8_t *row = pixels + (size_t)y * width * 4;
        uint8_t all = 255;
        for (uint32_t x = 0; x < width; x++) all &= row[x * 4 + 3];
        if (all != 255) return 0;
    }
    return 1;
}

int mw_png_write_rgba(const uint8_t *pixels, uint32_t width, uint32_t height, int compression_level,
                      int adaptive_filtering, const mw_png_parallel *parallel, mw_png_buffer *output, char *message) {
    int opaque = mw_rgba_opaque(pixels, width, height);
    return mw_png_write(pixels, (size_t)width * 4, 0, width, height, opaque ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_RGB_ALPHA,
                        opaque ? 3 : 4, 4, NULL, 0, compression_level, adaptive_filtering, parallel, output, message);
}

// Whether every premultiplied ARGB32 pixel of rows `first..<end` has alpha 255, on vector units.
MW_VECTOR
static int mw_argb32_opaque(const uint8_t *rows, size_t row_bytes, uint32_t width, uint32_t first, uint32_t end) {
    for (uint32_t y = first; y < end; y++) {
        const uint32_t *pixels = (const uint32_t *)(rows + (size_t)y * row_bytes);
        uint32_t all = 0xFF000000u;
        for (uint32_t x = 0; x < width; x++) all &= pixels[x];
        if ((all >> 24) != 255) return 0;
    }
    return 1;
}

// The opacity check of one band of rows, on one core.
typedef struct mw_opaque_job {
    const uint8_t *rows;
    size_t row_bytes;
    uint32_t width, height, rows_per_band;
    int *opaque;
} mw_opaque_job;

static void mw_opaque_band(void *context, size_t band) {
    mw_opaque_job *job = context;
    uint32_t first, end;
    mw_band_rows(band, job->rows_per_band, job->height, &first, &end);
    job->opaque[band] = mw_argb32_opaque(job->rows, job->row_bytes, job->width, first, end);
}

int mw_png_write_premultiplied_argb32(const uint8_t *rows, size_t row_bytes, uint32_t width, uint32_t height,
                                      int compression_level, int adaptive_filtering, const mw_png_parallel *parallel,
                                      mw_png_buffer *output, char *message) {
    // Whether every pixel is opaque (then RGB is written): in the encoder's bands, on its cores
    // (on this one when there is one band, or no memory for the bands' answers).
    mw_opaque_job scan = {rows, row_bytes, width, height, height == 0 ? 1 : mw_rows_per_band(parallel, height), NULL};
    size_t band_count = (height + scan.rows_per_band - 1) / scan.rows_per_band;
    scan.opaque = band_count > 1 ? calloc(band_count, sizeof(int)) : NULL;
    int opaque = 1;
    if (scan.opaque == NULL) {
        opaque = mw_argb32_opaque(rows, row_bytes, width, 0, height);
    } else {
        parallel->run(parallel->runner, band_count, &scan, mw_opaque_band);
        for (size_t band = 0; band < band_count; band++) opaque = opaque && scan.opaque[band];
        free(scan.opaque);
    }
    return mw_png_write(rows, row_bytes, 1, width, height, opaque ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_RGB_ALPHA,
                        opaque ? 3 : 4, 4, NULL, 0, compression_level, adaptive_filtering, parallel, output, message);
}

int mw_png_write_rgba_samples(const uint8_t *pixels, uint32_t width, uint32_t height, int compression_level,
                              int adaptive_filtering, mw_png_buffer *output, char *message) {
    return mw_png_write(pixels, (size_t)width * 4, 0, width, height, PNG_COLOR_TYPE_RGB_ALPHA, 4, 4, NULL, 0,
                        compression_level, adaptive_filtering, NULL, output, message);
}

int mw_png_write_palette(const uint8_t *indices, uint32_t width, uint32_t height, const uint8_t *palette_rgba,
                         int palette_count, int compression_level, mw_png_buffer *output, char *message) {
    if (palette_count < 1 || palette_count > PNG_MAX_PALETTE_LENGTH) {
        memset(output, 0, sizeof(*output));
        snprintf(message, MW_PNG_MESSAGE_CAPACITY, "a palette needs 1 to 256 entries, not %d", palette_count);
        return -1;
    }
    return mw_png_write(indices, width, 0, width, height, PNG_COLOR_TYPE_PALETTE, 1, 1, palette_rgba, palette_count,
                        compression_level, 0, NULL, output, message);
}

void mw_png_buffer_free(mw_png_buffer *buffer) {
    free(buffer->bytes);
    memset(buffer, 0, sizeof(*buffer));
}
