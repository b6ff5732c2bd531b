// libheif: HEIF/HEIC files (what iPhones save): the primary image, its thumbnails and its Exif block.
#include <libheif/heif.h>
