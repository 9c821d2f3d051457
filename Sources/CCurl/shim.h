#pragma once
#include <curl/curl.h>

#include "../CSyscalls/lazy_library.h"

// libcurl is opened the first time an s3:// store is used (see lazy_library.h). When it cannot
// be opened the functions fail as libcurl itself would (NULL handle, CURLE_FAILED_INIT), and
// soundpack_curl_load_error() says why.

static inline void *soundpack_curl_library(void) {
    static void *handle;
#if defined(__APPLE__)
    // Homebrew's curl is keg-only; macOS's own libcurl is the last resort.
    static const char *const names[] = {
        "/opt/homebrew/opt/curl/lib/libcurl.4.dylib",  // Homebrew on Apple silicon
        "/usr/local/opt/curl/lib/libcurl.4.dylib",     // Homebrew on Intel
        "libcurl.4.dylib",                             // DYLD_LIBRARY_PATH, /usr/local/lib, /usr/lib
        "/usr/lib/libcurl.4.dylib",                    // macOS's, when DYLD_FALLBACK_LIBRARY_PATH drops /usr/lib
        NULL,
    };
    return soundpack_open_first_library(&handle, names);
#else
    return soundpack_open_library(&handle, "libcurl.so.4");
#endif
}

/// NULL when libcurl is loaded (or loads now), else the loader's message.
static inline const char *soundpack_curl_load_error(void) {
    return soundpack_curl_library() ? NULL : dlerror();
}

#define SOUNDPACK_CURL_SYMBOL(type, name) SOUNDPACK_LAZY_SYMBOL(soundpack_curl_library, type, name)

static inline CURLcode soundpack_curl_global_init(long flags) {
    SOUNDPACK_CURL_SYMBOL(CURLcode (*)(long), "curl_global_init")
    return function ? function(flags) : CURLE_FAILED_INIT;
}
static inline CURL *soundpack_curl_easy_init(void) {
    SOUNDPACK_CURL_SYMBOL(CURL *(*)(void), "curl_easy_init")
    return function ? function() : NULL;
}
static inline void soundpack_curl_easy_cleanup(CURL *handle) {
    SOUNDPACK_CURL_SYMBOL(void (*)(CURL *), "curl_easy_cleanup")
    if (function) function(handle);
}
static inline void soundpack_curl_easy_reset(CURL *handle) {
    SOUNDPACK_CURL_SYMBOL(void (*)(CURL *), "curl_easy_reset")
    if (function) function(handle);
}
static inline CURLcode soundpack_curl_easy_perform(CURL *handle) {
    SOUNDPACK_CURL_SYMBOL(CURLcode (*)(CURL *), "curl_easy_perform")
    return function ? function(handle) : CURLE_FAILED_INIT;
}
static inline const char *soundpack_curl_easy_strerror(CURLcode code) {
    SOUNDPACK_CURL_SYMBOL(const char *(*)(CURLcode), "curl_easy_strerror")
    return function ? function(code) : "libcurl is not loaded";
}
static inline struct curl_slist *soundpack_curl_slist_append(struct curl_slist *list, const char *text) {
    SOUNDPACK_CURL_SYMBOL(struct curl_slist *(*)(struct curl_slist *, const char *), "curl_slist_append")
    return function ? function(list, text) : NULL;
}
static inline void soundpack_curl_slist_free_all(struct curl_slist *list) {
    SOUNDPACK_CURL_SYMBOL(void (*)(struct curl_slist *), "curl_slist_free_all")
    if (function) function(list);
}

// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: one typed
// wrapper per argument kind, each calling the variadic function with its one argument.
#define SOUNDPACK_CURL_SETOPT(handle, option, value)                                       \
    SOUNDPACK_CURL_SYMBOL(CURLcode (*)(CURL *, CURLoption, ...), "curl_easy_setopt")       \
    return function ? function(handle, option, value) : CURLE_FAILED_INIT;

static inline CURLcode soundpack_curl_setopt_long(CURL *handle, CURLoption option, long value) {
    SOUNDPACK_CURL_SETOPT(handle, option, value)
}
static inline CURLcode soundpack_curl_setopt_off(CURL *handle, CURLoption option, curl_off_t value) {
    SOUNDPACK_CURL_SETOPT(handle, option, value)
}
static inline CURLcode soundpack_curl_setopt_pointer(CURL *handle, CURLoption option, const void *value) {
    SOUNDPACK_CURL_SETOPT(handle, option, value)
}
static inline CURLcode soundpack_curl_setopt_write(CURL *handle, CURLoption option,
                                                   size_t (*callback)(char *, size_t, size_t, void *)) {
    SOUNDPACK_CURL_SETOPT(handle, option, callback)
}
static inline CURLcode soundpack_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    SOUNDPACK_CURL_SYMBOL(CURLcode (*)(CURL *, CURLINFO, ...), "curl_easy_getinfo")
    return function ? function(handle, info, value) : CURLE_FAILED_INIT;
}
