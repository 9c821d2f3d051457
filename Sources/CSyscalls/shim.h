#pragma once
// System calls Glibc's Swift module does not offer.
#ifdef __linux__
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <sched.h>
#include <unistd.h>
/// syncfs(2): write out every dirty page of the file system holding `fd`, then flush the device once.
static inline int soundpack_syncfs(int fd) { return syncfs(fd); }

/// sched_getaffinity(2): how many processors the calling thread may run on (`taskset`, a container's
/// cpuset); 0 when it cannot tell. The set grows until the kernel's mask fits in it (EINVAL: too small).
static inline int soundpack_allowed_processors(void) {
    for (int processors = 1024; processors <= (1 << 20); processors *= 2) {
        cpu_set_t *set = CPU_ALLOC(processors);
        if (!set) return 0;
        size_t size = CPU_ALLOC_SIZE(processors);
        int allowed = sched_getaffinity(0, size, set) == 0 ? CPU_COUNT_S(size, set) : -1;
        int failure = errno;
        CPU_FREE(set);
        if (allowed >= 0) return allowed;
        if (failure != EINVAL) return 0;
    }
    return 0;
}
#endif
