// libexif: reading the EXIF APP1 segment of a JPEG (IFD0, the Exif IFD and the GPS IFD).
#include <libexif/exif-data.h>
#include <libexif/exif-entry.h>
#include <libexif/exif-content.h>
#include <libexif/exif-utils.h>
#include <libexif/exif-format.h>
#include <libexif/exif-tag.h>
#include <libexif/exif-ifd.h>
