#pragma once
#include <espeak-ng/speak_lib.h>
#include "../CSyscalls/lazy_library.h"

// libespeak-ng is opened the first time `synth` speaks with it (see lazy_library.h): the other
// commands never load it, and a machine without it runs them all. When it cannot be opened the
// functions fail as espeak-ng reports an internal error, and soundpack_espeak_load_error() says why.

static inline void *soundpack_espeak_library(void) {
    static void *handle;
#if defined(__APPLE__)
    static const char *const names[] = {
        "/opt/homebrew/lib/libespeak-ng.1.dylib",  // Homebrew on Apple silicon
        "libespeak-ng.1.dylib",                    // DYLD_LIBRARY_PATH, /usr/local/lib (Homebrew on Intel), /usr/lib
        NULL,
    };
    return soundpack_open_first_library(&handle, names);
#else
    return soundpack_open_library(&handle, "libespeak-ng.so.1");
#endif
}

/// NULL when libespeak-ng is loaded (or loads now), else the loader's message.
static inline const char *soundpack_espeak_load_error(void) {
    return soundpack_espeak_library() ? NULL : dlerror();
}

#define SOUNDPACK_ESPEAK_SYMBOL(type, name) SOUNDPACK_LAZY_SYMBOL(soundpack_espeak_library, type, name)

static inline int soundpack_espeak_Initialize(espeak_AUDIO_OUTPUT output, int buffer_ms, const char *path, int options) {
    SOUNDPACK_ESPEAK_SYMBOL(int (*)(espeak_AUDIO_OUTPUT, int, const char *, int), "espeak_Initialize")
    return function ? function(output, buffer_ms, path, options) : -1;
}
static inline void soundpack_espeak_SetSynthCallback(t_espeak_callback *callback) {
    SOUNDPACK_ESPEAK_SYMBOL(void (*)(t_espeak_callback *), "espeak_SetSynthCallback")
    if (function) function(callback);
}
static inline espeak_ERROR soundpack_espeak_SetVoiceByName(const char *name) {
    SOUNDPACK_ESPEAK_SYMBOL(espeak_ERROR (*)(const char *), "espeak_SetVoiceByName")
    return function ? function(name) : EE_INTERNAL_ERROR;
}
static inline espeak_ERROR soundpack_espeak_SetParameter(espeak_PARAMETER parameter, int value, int relative) {
    SOUNDPACK_ESPEAK_SYMBOL(espeak_ERROR (*)(espeak_PARAMETER, int, int), "espeak_SetParameter")
    return function ? function(parameter, value, relative) : EE_INTERNAL_ERROR;
}
static inline espeak_ERROR soundpack_espeak_Synth(const void *text, size_t size, unsigned int flags, void *user_data) {
    SOUNDPACK_ESPEAK_SYMBOL(espeak_ERROR (*)(const void *, size_t, unsigned int, espeak_POSITION_TYPE, unsigned int,
                                             unsigned int, unsigned int *, void *), "espeak_Synth")
    return function ? function(text, size, 0, POS_CHARACTER, 0, flags, NULL, user_data) : EE_INTERNAL_ERROR;
}
static inline espeak_ERROR soundpack_espeak_Synchronize(void) {
    SOUNDPACK_ESPEAK_SYMBOL(espeak_ERROR (*)(void), "espeak_Synchronize")
    return function ? function() : EE_INTERNAL_ERROR;
}
static inline const char *soundpack_espeak_Info(void) {
    SOUNDPACK_ESPEAK_SYMBOL(const char *(*)(const char **), "espeak_Info")
    return function ? function(NULL) : NULL;
}
