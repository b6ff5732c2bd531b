// Trampolines for the PROJ functions Mapwright calls: each finds the real one in libproj on its
// first call (see CLibraryLoader).
#include "CProj.h"

#include "CLibraryLoader.h"

static mw_library mw_proj = {"PROJ", {"libproj.so.25", "libproj.so", NULL}, PTHREAD_ONCE_INIT, NULL};

PJ_CONTEXT *proj_context_create(void) {
    MW_LAZY_FUNCTION(mw_proj, proj_context_create)
    return fn();
}

PJ_CONTEXT *proj_context_destroy(PJ_CONTEXT *ctx) {
    MW_LAZY_FUNCTION(mw_proj, proj_context_destroy)
    return fn(ctx);
}

int proj_context_errno(PJ_CONTEXT *ctx) {
    MW_LAZY_FUNCTION(mw_proj, proj_context_errno)
    return fn(ctx);
}

const char *proj_context_errno_string(PJ_CONTEXT *ctx, int err) {
    MW_LAZY_FUNCTION(mw_proj, proj_context_errno_string)
    return fn(ctx, err);
}

PJ_COORD proj_coord(double x, double y, double z, double t) {
    MW_LAZY_FUNCTION(mw_proj, proj_coord)
    return fn(x, y, z, t);
}

PJ *proj_create(PJ_CONTEXT *ctx, const char *definition) {
    MW_LAZY_FUNCTION(mw_proj, proj_create)
    return fn(ctx, definition);
}

PJ *proj_create_crs_to_crs(PJ_CONTEXT *ctx, const char *source_crs, const char *target_crs, PJ_AREA *area) {
    MW_LAZY_FUNCTION(mw_proj, proj_create_crs_to_crs)
    return fn(ctx, source_crs, target_crs, area);
}

PJ *proj_destroy(PJ *P) {
    MW_LAZY_FUNCTION(mw_proj, proj_destroy)
    return fn(P);
}

int proj_errno(const PJ *P) {
    MW_LAZY_FUNCTION(mw_proj, proj_errno)
    return fn(P);
}

int proj_errno_reset(const PJ *P) {
    MW_LAZY_FUNCTION(mw_proj, proj_errno_reset)
    return fn(P);
}

PJ_LOG_LEVEL proj_log_level(PJ_CONTEXT *ctx, PJ_LOG_LEVEL log_level) {
    MW_LAZY_FUNCTION(mw_proj, proj_log_level)
    return fn(ctx, log_level);
}

PJ *proj_normalize_for_visualization(PJ_CONTEXT *ctx, const PJ *obj) {
    MW_LAZY_FUNCTION(mw_proj, proj_normalize_for_visualization)
    return fn(ctx, obj);
}

PJ_COORD proj_trans(PJ *P, PJ_DIRECTION direction, PJ_COORD coord) {
    MW_LAZY_FUNCTION(mw_proj, proj_trans)
    return fn(P, direction, coord);
}

size_t proj_trans_generic(PJ *P, PJ_DIRECTION direction, double *x, size_t sx, size_t nx, double *y, size_t sy, size_t ny,
                          double *z, size_t sz, size_t nz, double *t, size_t st, size_t nt) {
    MW_LAZY_FUNCTION(mw_proj, proj_trans_generic)
    return fn(P, direction, x, sx, nx, y, sy, ny, z, sz, nz, t, st, nt);
}

void geod_init(struct geod_geodesic *g, double a, double f) {
    MW_LAZY_FUNCTION(mw_proj, geod_init)
    fn(g, a, f);
}

void geod_inverse(const struct geod_geodesic *g, double lat1, double lon1, double lat2, double lon2, double *ps12,
                  double *pazi1, double *pazi2) {
    MW_LAZY_FUNCTION(mw_proj, geod_inverse)
    fn(g, lat1, lon1, lat2, lon2, ps12, pazi1, pazi2);
}
