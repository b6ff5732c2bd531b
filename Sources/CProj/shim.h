// The PROJ C API (coordinate operations) and its geodesic routines (Karney's algorithms).
#include <proj.h>
#include <geodesic.h>
