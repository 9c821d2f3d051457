#pragma once
// Debian puts libpq's headers in include/postgresql/; Homebrew's libpq in its own include/.
#if __has_include(<postgresql/libpq-fe.h>)
#include <postgresql/libpq-fe.h>
#else
#include <libpq-fe.h>
#endif
#include "../CSyscalls/lazy_library.h"

// libpq is opened the first time a postgresql:// catalog is used (see lazy_library.h). When it
// cannot be opened the functions fail as libpq itself would on a failed allocation (NULL
// connection or result), and soundpack_pq_load_error() says why.

static inline void *soundpack_pq_library(void) {
    static void *handle;
#if defined(__APPLE__)
    // Homebrew's libpq is keg-only: never in a folder dyld searches by itself.
    static const char *const names[] = {
        "/opt/homebrew/opt/libpq/lib/libpq.5.dylib",  // Homebrew on Apple silicon
        "/usr/local/opt/libpq/lib/libpq.5.dylib",     // Homebrew on Intel
        "libpq.5.dylib",                              // DYLD_LIBRARY_PATH, /usr/local/lib, /usr/lib
        NULL,
    };
    return soundpack_open_first_library(&handle, names);
#else
    return soundpack_open_library(&handle, "libpq.so.5");
#endif
}

/// NULL when libpq is loaded (or loads now), else the loader's message.
static inline const char *soundpack_pq_load_error(void) {
    return soundpack_pq_library() ? NULL : dlerror();
}

#define SOUNDPACK_PQ_SYMBOL(type, name) SOUNDPACK_LAZY_SYMBOL(soundpack_pq_library, type, name)

static inline PGconn *soundpack_PQconnectdb(const char *conninfo) {
    SOUNDPACK_PQ_SYMBOL(PGconn *(*)(const char *), "PQconnectdb")
    return function ? function(conninfo) : NULL;
}
static inline ConnStatusType soundpack_PQstatus(const PGconn *connection) {
    SOUNDPACK_PQ_SYMBOL(ConnStatusType (*)(const PGconn *), "PQstatus")
    return function ? function(connection) : CONNECTION_BAD;
}
static inline char *soundpack_PQerrorMessage(const PGconn *connection) {
    SOUNDPACK_PQ_SYMBOL(char *(*)(const PGconn *), "PQerrorMessage")
    return function ? function(connection) : (char *)"libpq is not loaded";
}
static inline void soundpack_PQfinish(PGconn *connection) {
    SOUNDPACK_PQ_SYMBOL(void (*)(PGconn *), "PQfinish")
    if (function) function(connection);
}
static inline PQnoticeProcessor soundpack_PQsetNoticeProcessor(PGconn *connection, PQnoticeProcessor processor, void *argument) {
    SOUNDPACK_PQ_SYMBOL(PQnoticeProcessor (*)(PGconn *, PQnoticeProcessor, void *), "PQsetNoticeProcessor")
    return function ? function(connection, processor, argument) : NULL;
}
static inline PGresult *soundpack_PQexec(PGconn *connection, const char *query) {
    SOUNDPACK_PQ_SYMBOL(PGresult *(*)(PGconn *, const char *), "PQexec")
    return function ? function(connection, query) : NULL;
}
static inline PGresult *soundpack_PQexecParams(PGconn *connection, const char *command, int count, const Oid *types,
                                               const char *const *values, const int *lengths, const int *formats,
                                               int resultFormat) {
    SOUNDPACK_PQ_SYMBOL(PGresult *(*)(PGconn *, const char *, int, const Oid *, const char *const *, const int *,
                                      const int *, int), "PQexecParams")
    return function ? function(connection, command, count, types, values, lengths, formats, resultFormat) : NULL;
}
static inline ExecStatusType soundpack_PQresultStatus(const PGresult *result) {
    SOUNDPACK_PQ_SYMBOL(ExecStatusType (*)(const PGresult *), "PQresultStatus")
    return function ? function(result) : PGRES_FATAL_ERROR;
}
static inline char *soundpack_PQresultErrorMessage(const PGresult *result) {
    SOUNDPACK_PQ_SYMBOL(char *(*)(const PGresult *), "PQresultErrorMessage")
    return function ? function(result) : (char *)"libpq is not loaded";
}
static inline void soundpack_PQclear(PGresult *result) {
    SOUNDPACK_PQ_SYMBOL(void (*)(PGresult *), "PQclear")
    if (function) function(result);
}
static inline int soundpack_PQntuples(const PGresult *result) {
    SOUNDPACK_PQ_SYMBOL(int (*)(const PGresult *), "PQntuples")
    return function ? function(result) : 0;
}
static inline int soundpack_PQnfields(const PGresult *result) {
    SOUNDPACK_PQ_SYMBOL(int (*)(const PGresult *), "PQnfields")
    return function ? function(result) : 0;
}
static inline char *soundpack_PQgetvalue(const PGresult *result, int row, int column) {
    SOUNDPACK_PQ_SYMBOL(char *(*)(const PGresult *, int, int), "PQgetvalue")
    return function ? function(result, row, column) : NULL;
}
static inline int soundpack_PQgetisnull(const PGresult *result, int row, int column) {
    SOUNDPACK_PQ_SYMBOL(int (*)(const PGresult *, int, int), "PQgetisnull")
    return function ? function(result, row, column) : 1;
}
static inline Oid soundpack_PQftype(const PGresult *result, int column) {
    SOUNDPACK_PQ_SYMBOL(Oid (*)(const PGresult *, int), "PQftype")
    return function ? function(result, column) : 0;
}
static inline char *soundpack_PQfname(const PGresult *result, int column) {
    SOUNDPACK_PQ_SYMBOL(char *(*)(const PGresult *, int), "PQfname")
    return function ? function(result, column) : NULL;
}
