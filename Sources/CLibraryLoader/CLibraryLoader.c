#include "CLibraryLoader.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

// The library being opened by pthread_once, which passes no argument.
static __thread mw_library *mw_opening;

static void mw_open(void) {
    for (int index = 0; index < 3 && mw_opening->names[index] != NULL && mw_opening->handle == NULL; index++) {
        mw_opening->handle = dlopen(mw_opening->names[index], RTLD_NOW | RTLD_LOCAL);
    }
}

void *mw_library_symbol(mw_library *library, const char *name) {
    mw_opening = library;
    pthread_once(&library->once, mw_open);
    void *symbol = library->handle != NULL ? dlsym(library->handle, name) : NULL;
    if (symbol == NULL) {
        fprintf(stderr, "mapwright: %s (%s) cannot be loaded: %s\n", library->label, library->names[0], dlerror());
        exit(70);
    }
    return symbol;
}
