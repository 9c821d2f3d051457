#pragma once
// System calls Glibc's Swift module does not offer.
#ifdef __linux__
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <unistd.h>
/// syncfs(2): write out every dirty page of the file system holding `fd`, then flush the device once.
static inline int soundpack_syncfs(int fd) { return syncfs(fd); }
#include <spawn.h>
/// A spawn action closing every descriptor from `from` up in the child (glibc 2.34); a no-op before.
static inline int soundpack_spawn_closefrom(posix_spawn_file_actions_t *actions, int from) {
#if __GLIBC_PREREQ(2, 34)
    return posix_spawn_file_actions_addclosefrom_np(actions, from);
#else
    (void)actions; (void)from;
    return 0;
#endif
}
#endif
