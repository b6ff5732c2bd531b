// libdeflate (https://github.com/ebiggers/libdeflate): whole-buffer DEFLATE, zlib and CRC-32, about
// twice zlib's speed at the same level; CPNGShim deflates PNG image data with it.
#include <libdeflate.h>
