// The PROJ C API (coordinate operations) and its geodesic routines (Karney's algorithms), loaded
// on first use (see CLibraryLoader): the functions Mapwright calls are trampolines in CProj.c.
#include <proj.h>
#include <geodesic.h>
