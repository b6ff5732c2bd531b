// Cairo (image, PDF and SVG surfaces) and Pango text through pangocairo, in one module:
// pangocairo's headers include cairo's, and two modules owning the same C types would clash.
// Fontconfig and Pango's fontconfig font map come in too, so the renderer configures its own
// fonts (FcConfig, pango_fc_font_map_set_config) instead of the process's.
#include <cairo.h>
#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <fontconfig/fontconfig.h>
#include <pango/pangocairo.h>
#include <pango/pangofc-fontmap.h>
#include <stdlib.h>
