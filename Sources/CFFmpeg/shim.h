#pragma once
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/frame.h>
#include <libavutil/dict.h>
#include "../CSyscalls/lazy_library.h"

// FFmpeg's libavutil, libavcodec and libavformat are opened the first time an MP4/M4A clip is
// decoded (`convert`, see lazy_library.h): the other commands never load them, and a machine
// without them runs everything else. The names carry the major versions of the headers built
// against, so the libraries opened are the ones whose structures these headers describe. When one
// cannot be opened the functions fail as FFmpeg reports a failed allocation (NULL, or
// AVERROR(ENOMEM)), and soundpack_ffmpeg_load_error() says which and why.

#define SOUNDPACK_FFMPEG_STRING_(x) #x
#define SOUNDPACK_FFMPEG_STRING(x) SOUNDPACK_FFMPEG_STRING_(x)

#if defined(__APPLE__)
// Homebrew's ffmpeg links its libraries into /opt/homebrew/lib (Apple silicon) or /usr/local/lib (Intel).
#define SOUNDPACK_FFMPEG_OPEN(slot, name, major)                                     \
    static const char *const names[] = {                                            \
        "/opt/homebrew/lib/lib" name "." SOUNDPACK_FFMPEG_STRING(major) ".dylib",   \
        "lib" name "." SOUNDPACK_FFMPEG_STRING(major) ".dylib",                     \
        NULL,                                                                       \
    };                                                                              \
    return soundpack_open_first_library(slot, names);
#else
#define SOUNDPACK_FFMPEG_OPEN(slot, name, major) \
    return soundpack_open_library(slot, "lib" name ".so." SOUNDPACK_FFMPEG_STRING(major));
#endif

static inline void *soundpack_avutil_library(void) {
    static void *handle;
    SOUNDPACK_FFMPEG_OPEN(&handle, "avutil", LIBAVUTIL_VERSION_MAJOR)
}
static inline void *soundpack_avcodec_library(void) {
    static void *handle;
    SOUNDPACK_FFMPEG_OPEN(&handle, "avcodec", LIBAVCODEC_VERSION_MAJOR)
}
static inline void *soundpack_avformat_library(void) {
    static void *handle;
    SOUNDPACK_FFMPEG_OPEN(&handle, "avformat", LIBAVFORMAT_VERSION_MAJOR)
}

#define SOUNDPACK_AVUTIL_SYMBOL(name) SOUNDPACK_LAZY_SYMBOL(soundpack_avutil_library, &name, #name)
#define SOUNDPACK_AVCODEC_SYMBOL(name) SOUNDPACK_LAZY_SYMBOL(soundpack_avcodec_library, &name, #name)
#define SOUNDPACK_AVFORMAT_SYMBOL(name) SOUNDPACK_LAZY_SYMBOL(soundpack_avformat_library, &name, #name)

/// NULL when the three libraries are loaded (or load now), else the loader's message, with
/// `*library` the Debian package of the one that is missing (libavformat59).
static inline const char *soundpack_ffmpeg_load_error(const char **library) {
    if (!soundpack_avutil_library()) {
        *library = "libavutil" SOUNDPACK_FFMPEG_STRING(LIBAVUTIL_VERSION_MAJOR);
        return dlerror();
    }
    if (!soundpack_avcodec_library()) {
        *library = "libavcodec" SOUNDPACK_FFMPEG_STRING(LIBAVCODEC_VERSION_MAJOR);
        return dlerror();
    }
    if (!soundpack_avformat_library()) {
        *library = "libavformat" SOUNDPACK_FFMPEG_STRING(LIBAVFORMAT_VERSION_MAJOR);
        return dlerror();
    }
    // FFmpeg logs to stderr by default; soundpack's engine never prints (its errors say it all).
    static int quiet;
    if (!__atomic_load_n(&quiet, __ATOMIC_ACQUIRE)) {
        SOUNDPACK_AVUTIL_SYMBOL(av_log_set_level)
        if (function) function(AV_LOG_QUIET);
        __atomic_store_n(&quiet, 1, __ATOMIC_RELEASE);
    }
    *library = NULL;
    return NULL;
}

/// AVERROR_EOF and AVERROR(EAGAIN) are macros Swift does not import.
static const int SOUNDPACK_AVERROR_EOF = AVERROR_EOF;
static const int SOUNDPACK_AVERROR_EAGAIN = AVERROR(EAGAIN);
static const int SOUNDPACK_AVERROR_ENOMEM = AVERROR(ENOMEM);

// libavutil
static inline void *soundpack_av_malloc(size_t size) {
    SOUNDPACK_AVUTIL_SYMBOL(av_malloc)
    return function ? function(size) : NULL;
}
static inline void soundpack_av_freep(void *pointer) {
    SOUNDPACK_AVUTIL_SYMBOL(av_freep)
    if (function) function(pointer);
}
static inline AVFrame *soundpack_av_frame_alloc(void) {
    SOUNDPACK_AVUTIL_SYMBOL(av_frame_alloc)
    return function ? function() : NULL;
}
static inline void soundpack_av_frame_free(AVFrame **frame) {
    SOUNDPACK_AVUTIL_SYMBOL(av_frame_free)
    if (function) function(frame);
}
static inline void soundpack_av_frame_unref(AVFrame *frame) {
    SOUNDPACK_AVUTIL_SYMBOL(av_frame_unref)
    if (function) function(frame);
}
static inline int soundpack_av_strerror(int code, char *buffer, size_t size) {
    SOUNDPACK_AVUTIL_SYMBOL(av_strerror)
    return function ? function(code, buffer, size) : -1;
}
static inline int soundpack_av_dict_set(AVDictionary **dictionary, const char *key, const char *value) {
    SOUNDPACK_AVUTIL_SYMBOL(av_dict_set)
    return function ? function(dictionary, key, value, 0) : SOUNDPACK_AVERROR_ENOMEM;
}
static inline void soundpack_av_dict_free(AVDictionary **dictionary) {
    SOUNDPACK_AVUTIL_SYMBOL(av_dict_free)
    if (function) function(dictionary);
}

// libavcodec
static inline const AVCodec *soundpack_avcodec_find_decoder(enum AVCodecID id) {
    SOUNDPACK_AVCODEC_SYMBOL(avcodec_find_decoder)
    return function ? function(id) : NULL;
}
static inline const char *soundpack_avcodec_get_name(enum AVCodecID id) {
    SOUNDPACK_AVCODEC_SYMBOL(avcodec_get_name)
    return function ? function(id) : "unknown";
}
static inline AVCodecContext *soundpack_avcodec_alloc_context3(const AVCodec *codec) {
    SOUNDPACK_AVCODEC_SYMBOL(avcodec_alloc_context3)
    return function ? function(codec) : NULL;
}
static inline void soundpack_avcodec_free_context(AVCodecContext **context) {
    SOUNDPACK_AVCODEC_SYMBOL(avcodec_free_context)
    if (function) function(context);
}
static inline int soundpack_avcodec_parameters_to_context(AVCodecContext *context, const AVCodecParameters *parameters) {
    SOUNDPACK_AVCODEC_SYMBOL(avcodec_parameters_to_context)
    return function ? function(context, parameters) : SOUNDPACK_AVERROR_ENOMEM;
}
static inline int soundpack_avcodec_open2(AVCodecContext *context, const AVCodec *codec, AVDictionary **options) {
    SOUNDPACK_AVCODEC_SYMBOL(avcodec_open2)
    return function ? function(context, codec, options) : SOUNDPACK_AVERROR_ENOMEM;
}
static inline int soundpack_avcodec_send_packet(AVCodecContext *context, const AVPacket *packet) {
    SOUNDPACK_AVCODEC_SYMBOL(avcodec_send_packet)
    return function ? function(context, packet) : SOUNDPACK_AVERROR_ENOMEM;
}
static inline int soundpack_avcodec_receive_frame(AVCodecContext *context, AVFrame *frame) {
    SOUNDPACK_AVCODEC_SYMBOL(avcodec_receive_frame)
    return function ? function(context, frame) : SOUNDPACK_AVERROR_ENOMEM;
}
static inline AVPacket *soundpack_av_packet_alloc(void) {
    SOUNDPACK_AVCODEC_SYMBOL(av_packet_alloc)
    return function ? function() : NULL;
}
static inline void soundpack_av_packet_free(AVPacket **packet) {
    SOUNDPACK_AVCODEC_SYMBOL(av_packet_free)
    if (function) function(packet);
}
static inline void soundpack_av_packet_unref(AVPacket *packet) {
    SOUNDPACK_AVCODEC_SYMBOL(av_packet_unref)
    if (function) function(packet);
}

// libavformat
static inline const AVInputFormat *soundpack_av_find_input_format(const char *name) {
    SOUNDPACK_AVFORMAT_SYMBOL(av_find_input_format)
    return function ? function(name) : NULL;
}
static inline AVFormatContext *soundpack_avformat_alloc_context(void) {
    SOUNDPACK_AVFORMAT_SYMBOL(avformat_alloc_context)
    return function ? function() : NULL;
}
static inline void soundpack_avformat_free_context(AVFormatContext *context) {
    SOUNDPACK_AVFORMAT_SYMBOL(avformat_free_context)
    if (function) function(context);
}
static inline int soundpack_avformat_open_input(AVFormatContext **context, const AVInputFormat *format, AVDictionary **options) {
    SOUNDPACK_AVFORMAT_SYMBOL(avformat_open_input)
    return function ? function(context, NULL, format, options) : SOUNDPACK_AVERROR_ENOMEM;
}
static inline void soundpack_avformat_close_input(AVFormatContext **context) {
    SOUNDPACK_AVFORMAT_SYMBOL(avformat_close_input)
    if (function) function(context);
}
static inline int soundpack_av_read_frame(AVFormatContext *context, AVPacket *packet) {
    SOUNDPACK_AVFORMAT_SYMBOL(av_read_frame)
    return function ? function(context, packet) : SOUNDPACK_AVERROR_ENOMEM;
}
/// A read-only AVIOContext over `opaque` (no write callback).
static inline AVIOContext *soundpack_avio_alloc_context(unsigned char *buffer, int size, void *opaque,
                                                        int (*read)(void *, uint8_t *, int),
                                                        int64_t (*seek)(void *, int64_t, int)) {
    SOUNDPACK_AVFORMAT_SYMBOL(avio_alloc_context)
    return function ? function(buffer, size, 0, opaque, read, NULL, seek) : NULL;
}
static inline void soundpack_avio_context_free(AVIOContext **context) {
    SOUNDPACK_AVFORMAT_SYMBOL(avio_context_free)
    if (function) function(context);
}
