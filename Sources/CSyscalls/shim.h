#pragma once
// System calls Glibc's Swift module does not offer.
#ifdef __linux__
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <fcntl.h>
#include <unistd.h>
/// sync_file_range(2) with SYNC_FILE_RANGE_WRITE: start writing the file's dirty pages out, without
/// waiting, so that the fsyncs that follow overlap their I/O.
static inline int soundpack_start_writeback(int fd) { return sync_file_range(fd, 0, 0, SYNC_FILE_RANGE_WRITE); }
#endif
