// librsvg: SVG icons drawn into a Cairo context, for sprites made from a folder of SVGs.
// Its Cairo types are opaque pointers in Swift, so a context from CCairo passes straight in.
#include <librsvg/rsvg.h>
