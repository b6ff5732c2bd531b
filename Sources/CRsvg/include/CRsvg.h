// librsvg: SVG icons drawn into a Cairo context, for sprites made from a folder of SVGs. Loaded on
// first use (see CLibraryLoader): the three functions Mapwright calls are declared here as librsvg
// 2.52+ declares them (GLib's and Cairo's types by their C equivalents, so that this module needs
// neither's headers) and are trampolines in CRsvg.c.
#include <stddef.h>
#include <stdint.h>

typedef struct _RsvgHandle RsvgHandle;

/// The rectangle librsvg renders a document into, in the context's user units.
typedef struct {
    double x, y, width, height;
} RsvgRectangle;

/// A handle for the SVG document in `data` (`data_len` bytes), or NULL; a GObject, released with
/// `g_object_unref`. `error` is a `GError **`, or NULL.
RsvgHandle *rsvg_handle_new_from_data(const uint8_t *data, size_t data_len, void **error);

/// The document's width and height in pixels when it states them in absolute units; non-zero on
/// success (a `gboolean`).
int rsvg_handle_get_intrinsic_size_in_pixels(RsvgHandle *handle, double *out_width, double *out_height);

/// Draws the whole document into `viewport` of the `cairo_t` `cr`; non-zero on success.
int rsvg_handle_render_document(RsvgHandle *handle, void *cr, const RsvgRectangle *viewport, void **error);
