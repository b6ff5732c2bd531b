// libjpeg-turbo's TurboJPEG API: JPEG decoding at a reduced scale (1/8 to 2) straight to RGBA.
#include <stddef.h>
#include <turbojpeg.h>
