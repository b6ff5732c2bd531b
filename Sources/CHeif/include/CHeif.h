// libheif: HEIF/HEIC files (what iPhones save): the primary image, its thumbnails and its Exif
// block. Loaded on first use (see CLibraryLoader): the functions Mapwright calls are trampolines
// in CHeif.c, so its codecs (x265, libde265, dav1d, aom) load only for a HEIC photo.
#include <libheif/heif.h>
