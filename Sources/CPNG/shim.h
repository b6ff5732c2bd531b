// libpng 1.6: reading and writing PNG files.
#include <png.h>
