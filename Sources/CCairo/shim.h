// Cairo (image, PDF and SVG surfaces) and Pango text through pangocairo, in one module:
// pangocairo's headers include cairo's, and two modules owning the same C types would clash.
#include <cairo.h>
#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <pango/pangocairo.h>
#include <stdlib.h>
