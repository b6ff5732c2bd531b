// FreeType (glyphs drawn for SDF glyph ranges) and fontconfig (the installed faces, by file),
// for FontGlyphs. Fontconfig's header includes FreeType's through fcfreetype.h only, which is
// left out: the two are used apart.
#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_OUTLINE_H
#include <fontconfig/fontconfig.h>
