// Intel's ISA-L (https://github.com/intel/isa-l): igzip, a DEFLATE several times faster than
// libdeflate at its fastest level, streaming with full flushes so pieces deflated apart join into
// one stream; CPNGShim deflates PNG image data at level 1 with it.
#include <isa-l/igzip_lib.h>
