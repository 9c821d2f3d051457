#pragma once
// Libraries opened on first use rather than at start-up (included by the CCurl, CPostgreSQL and CEspeakNG
// shims). libcurl and libpq pull in some 25 libraries between them (TLS, Kerberos, LDAP, SSH...):
// linked, every command paid for loading them; opened lazily, only the commands that reach a
// PostgreSQL catalog or an S3 store do.
#include <dlfcn.h>
#include <stddef.h>

/// The handle of `soname`, opened once into `*slot`; NULL when it cannot be opened.
static inline void *soundpack_open_library(void **slot, const char *soname) {
    void *handle = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
    if (!handle) {
        handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
        if (handle) __atomic_store_n(slot, handle, __ATOMIC_RELEASE);
    }
    return handle;
}

#if defined(__APPLE__)
/// The handle of the first of `names` (a NULL-terminated list) that opens, opened once into `*slot`;
/// NULL when none can be, and dlerror() then says why the last one failed. On macOS a library has
/// no single name that dlopen finds wherever it is installed: dyld looks for a bare name in
/// DYLD_LIBRARY_PATH, then $HOME/lib:/usr/local/lib:/usr/lib only, so Homebrew's
/// /opt/homebrew (Apple silicon) and its keg-only formulas must be named by path.
static inline void *soundpack_open_first_library(void **slot, const char *const *names) {
    void *handle = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
    for (const char *const *name = names; !handle && *name; name++) {
        handle = dlopen(*name, RTLD_NOW | RTLD_LOCAL);
    }
    if (handle) {
        (void)dlerror();  // the candidates that failed before it are not an error
        __atomic_store_n(slot, handle, __ATOMIC_RELEASE);
    }
    return handle;
}
#endif

/// Declares `function` of `type`: the symbol `name` of the library `open()` returns, looked up
/// once; NULL when the library or the symbol is missing.
#define SOUNDPACK_LAZY_SYMBOL(open, type, name)                                            \
    static void *cached;                                                                   \
    void *symbol = __atomic_load_n(&cached, __ATOMIC_ACQUIRE);                             \
    if (!symbol) {                                                                         \
        void *library = open();                                                            \
        symbol = library ? dlsym(library, name) : NULL;                                   \
        if (symbol) __atomic_store_n(&cached, symbol, __ATOMIC_RELEASE);                   \
    }                                                                                      \
    __typeof__(type) function = (__typeof__(type))symbol;
