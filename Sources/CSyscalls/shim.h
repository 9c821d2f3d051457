#pragma once
// System calls Glibc's Swift module does not offer.
#ifdef __linux__
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <unistd.h>
/// syncfs(2): write out every dirty page of the file system holding `fd`, then flush the device once.
static inline int soundpack_syncfs(int fd) { return syncfs(fd); }
#endif
