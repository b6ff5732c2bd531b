// Trampolines for the librsvg functions Mapwright calls: each finds the real one in librsvg on
// its first call (see CLibraryLoader).
#include "CRsvg.h"

#include "CLibraryLoader.h"

static mw_library mw_rsvg = {"librsvg", {"librsvg-2.so.2", "librsvg-2.so", NULL}, PTHREAD_ONCE_INIT, NULL};

RsvgHandle *rsvg_handle_new_from_data(const uint8_t *data, size_t data_len, void **error) {
    MW_LAZY_FUNCTION(mw_rsvg, rsvg_handle_new_from_data)
    return fn(data, data_len, error);
}

int rsvg_handle_get_intrinsic_size_in_pixels(RsvgHandle *handle, double *out_width, double *out_height) {
    MW_LAZY_FUNCTION(mw_rsvg, rsvg_handle_get_intrinsic_size_in_pixels)
    return fn(handle, out_width, out_height);
}

int rsvg_handle_render_document(RsvgHandle *handle, void *cr, const RsvgRectangle *viewport, void **error) {
    MW_LAZY_FUNCTION(mw_rsvg, rsvg_handle_render_document)
    return fn(handle, cr, viewport, error);
}
