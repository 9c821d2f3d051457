#pragma once
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../CSyscalls/lazy_library.h"

// libpocketsphinx (the speech recogniser audio.wrong-word asks, for English packs) is opened the
// first time a pack's words are checked (see lazy_library.h): no header is needed to build, and a
// machine without it runs every command, its report saying the words were not checked. The
// declarations below are those of pocketsphinx 5prealpha (Debian's libpocketsphinx3), which
// soundpack passes only opaque pointers, C strings and 16-bit samples.

typedef struct soundpack_ps_decoder soundpack_ps_decoder;
typedef struct soundpack_ps_config soundpack_ps_config;

static inline void *soundpack_pocketsphinx_library(void) {
    static void *handle;
#if defined(__APPLE__)
    static const char *const names[] = {
        "/opt/homebrew/lib/libpocketsphinx.3.dylib",
        "libpocketsphinx.3.dylib",
        NULL,
    };
    return soundpack_open_first_library(&handle, names);
#else
    return soundpack_open_library(&handle, "libpocketsphinx.so.3");
#endif
}

/// NULL when libpocketsphinx is loaded (or loads now), else the loader's message.
static inline const char *soundpack_pocketsphinx_load_error(void) {
    return soundpack_pocketsphinx_library() ? NULL : dlerror();
}

#define SOUNDPACK_PS_SYMBOL(type, name) SOUNDPACK_LAZY_SYMBOL(soundpack_pocketsphinx_library, type, name)

/// A decoder configured by `argv` (`-hmm DIR -dict FILE ...`), logging nowhere; NULL when the
/// library, a symbol or the configuration fails.
static inline soundpack_ps_decoder *soundpack_ps_init(int argc, char **argv) {
    const void *(*args)(void);
    {
        SOUNDPACK_PS_SYMBOL(const void *(*)(void), "ps_args")
        args = function;
    }
    soundpack_ps_config *(*parse)(soundpack_ps_config *, const void *, int32_t, char **, int32_t);
    {
        SOUNDPACK_PS_SYMBOL(soundpack_ps_config *(*)(soundpack_ps_config *, const void *, int32_t, char **, int32_t), "cmd_ln_parse_r")
        parse = function;
    }
    soundpack_ps_decoder *(*init)(soundpack_ps_config *);
    {
        SOUNDPACK_PS_SYMBOL(soundpack_ps_decoder *(*)(soundpack_ps_config *), "ps_init")
        init = function;
    }
    void (*quiet)(FILE *);
    {
        SOUNDPACK_PS_SYMBOL(void (*)(FILE *), "err_set_logfp")
        quiet = function;
    }
    int (*release)(soundpack_ps_config *);
    {
        SOUNDPACK_PS_SYMBOL(int (*)(soundpack_ps_config *), "cmd_ln_free_r")
        release = function;
    }
    if (!args || !parse || !init || !quiet || !release) return NULL;
    quiet(NULL);
    soundpack_ps_config *config = parse(NULL, args(), argc, argv, 1);
    if (!config) return NULL;
    soundpack_ps_decoder *decoder = init(config);
    release(config);  // the decoder holds its own reference
    return decoder;
}

static inline void soundpack_ps_free(soundpack_ps_decoder *decoder) {
    SOUNDPACK_PS_SYMBOL(int (*)(soundpack_ps_decoder *), "ps_free")
    if (function) function(decoder);
}

/// The dictionary's pronunciation of `word`, NULL when it has none (the string is the library's).
static inline int soundpack_ps_knows(soundpack_ps_decoder *decoder, const char *word) {
    SOUNDPACK_PS_SYMBOL(char *(*)(soundpack_ps_decoder *, const char *), "ps_lookup_word")
    if (!function) return 0;
    char *pronunciation = function(decoder, word);
    free(pronunciation);
    return pronunciation != NULL;
}

/// Adds the JSGF grammar `text` as the search `name`; negative on failure.
static inline int soundpack_ps_set_grammar(soundpack_ps_decoder *decoder, const char *name, const char *text) {
    SOUNDPACK_PS_SYMBOL(int (*)(soundpack_ps_decoder *, const char *, const char *), "ps_set_jsgf_string")
    return function ? function(decoder, name, text) : -1;
}

/// Removes the search `name` and frees it; negative when there is none.
static inline int soundpack_ps_unset_search(soundpack_ps_decoder *decoder, const char *name) {
    SOUNDPACK_PS_SYMBOL(int (*)(soundpack_ps_decoder *, const char *), "ps_unset_search")
    return function ? function(decoder, name) : -1;
}

/// Decodes `count` 16 kHz samples with the search `name`: the words heard (copied into `heard`,
/// at most `capacity` bytes with its NUL), their score, and the frames; negative when nothing was heard.
static inline int soundpack_ps_decode(soundpack_ps_decoder *decoder, const char *name, const int16_t *samples, size_t count,
                                      char *heard, size_t capacity, int32_t *score, int32_t *frames) {
    int (*set)(soundpack_ps_decoder *, const char *);
    { SOUNDPACK_PS_SYMBOL(int (*)(soundpack_ps_decoder *, const char *), "ps_set_search") set = function; }
    int (*start)(soundpack_ps_decoder *);
    { SOUNDPACK_PS_SYMBOL(int (*)(soundpack_ps_decoder *), "ps_start_utt") start = function; }
    int (*process)(soundpack_ps_decoder *, const int16_t *, size_t, int, int);
    { SOUNDPACK_PS_SYMBOL(int (*)(soundpack_ps_decoder *, const int16_t *, size_t, int, int), "ps_process_raw") process = function; }
    int (*end)(soundpack_ps_decoder *);
    { SOUNDPACK_PS_SYMBOL(int (*)(soundpack_ps_decoder *), "ps_end_utt") end = function; }
    const char *(*hypothesis)(soundpack_ps_decoder *, int32_t *);
    { SOUNDPACK_PS_SYMBOL(const char *(*)(soundpack_ps_decoder *, int32_t *), "ps_get_hyp") hypothesis = function; }
    int (*count_frames)(soundpack_ps_decoder *);
    { SOUNDPACK_PS_SYMBOL(int (*)(soundpack_ps_decoder *), "ps_get_n_frames") count_frames = function; }
    if (!set || !start || !process || !end || !hypothesis || !count_frames || capacity == 0) return -1;
    if (set(decoder, name) < 0 || start(decoder) < 0) return -1;
    if (process(decoder, samples, count, 0, 1) < 0) { end(decoder); return -1; }
    if (end(decoder) < 0) return -1;
    const char *words = hypothesis(decoder, score);
    *frames = count_frames(decoder);
    if (!words || !*words) return -1;
    size_t length = strlen(words);
    if (length >= capacity) length = capacity - 1;
    memcpy(heard, words, length);
    heard[length] = 0;
    return 0;
}
