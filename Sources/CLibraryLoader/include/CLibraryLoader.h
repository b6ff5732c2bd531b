#ifndef MW_CLIBRARYLOADER_H
#define MW_CLIBRARYLOADER_H

#include <pthread.h>

/// A shared library opened on first use instead of at start-up: PROJ, libheif and librsvg (with
/// their codecs, TLS and network libraries) made every `mapwright` command spend about 7 ms of
/// its start loading and relocating libraries that only a GeoJSON `crs`, a HEIC photo or an SVG
/// icon folder needs. Each C target wrapping such a library defines the library's functions it
/// uses as trampolines (MW_LAZY_FUNCTION) that find the real function on their first call.
typedef struct mw_library {
    /// What the library is, for the message when it cannot be loaded ("PROJ").
    const char *label;
    /// Its file names, tried in order (the soname first, then the development link).
    const char *names[3];
    pthread_once_t once;
    void *handle;
} mw_library;

/// The address of `name` in `library`, opening the library on first use. A library that cannot
/// be opened, or lacks the function, ends the process with one line naming both, as the
/// dynamic loader would have at start-up had the library been linked.
void *mw_library_symbol(mw_library *library, const char *name);

/// The body of a trampoline for `name` (declared by the library's header): `fn` holds the real
/// function, found once and kept.
#define MW_LAZY_FUNCTION(library, name)                                                        \
    static __typeof__(&name) mw_real;                                                          \
    __typeof__(&name) fn = __atomic_load_n(&mw_real, __ATOMIC_ACQUIRE);                        \
    if (fn == 0) {                                                                             \
        fn = (__typeof__(&name))mw_library_symbol(&(library), #name);                         \
        __atomic_store_n(&mw_real, fn, __ATOMIC_RELEASE);                                      \
    }

#endif
