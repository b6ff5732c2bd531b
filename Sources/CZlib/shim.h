// zlib (https://zlib.net/manual.html): gzip streams and CRC-32 for MapUtilities' Gzip. deflateInit2 and
// inflateInit2 are macros, which Swift does not import; these inline functions call them.
#include <zlib.h>

/// Starts a gzip stream (a gzip header, modification time 0) at `level` (0-9, or -1 for zlib's default, 6).
static inline int czlib_deflate_init_gzip(z_streamp stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
}

/// Starts inflating a gzip or zlib stream, whichever header it has.
static inline int czlib_inflate_init_gzip_or_zlib(z_streamp stream) {
    return inflateInit2(stream, 15 + 32);
}
