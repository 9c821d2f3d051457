#pragma once
// glibc's allocator statistics, which Glibc's Swift module does not offer (for the stand-ins' memory meter).
#include <malloc.h>
#include <stddef.h>

/// Bytes of the heap in live allocations, every arena and every mmapped chunk (mallinfo2(3):
/// `uordblks`, "total allocated space", plus `hblkhd`, "space in mmapped regions").
static inline size_t soundpack_heap_in_use(void) {
    struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;
}
