// Whether this processor and its operating system run the AVX2 loops of kweighting.c and
// true_peak.c (checked once, by WideLoops.swift).
#include "soundpack_kernels.h"

#if defined(__x86_64__)
#include <cpuid.h>

int soundpack_has_avx2(void) {
    unsigned int eax, ebx, ecx, edx;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return 0;
    // The OS saves the YMM registers on a context switch (OSXSAVE, then XCR0's SSE and AVX bits).
    if (!(ecx & bit_OSXSAVE) || !(ecx & bit_AVX)) return 0;
    unsigned int xcr0_low, xcr0_high;
    __asm__("xgetbv" : "=a"(xcr0_low), "=d"(xcr0_high) : "c"(0));
    if ((xcr0_low & 0x6) != 0x6) return 0;
    if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return 0;
    return (ebx & bit_AVX2) ? 1 : 0;
}

#else

int soundpack_has_avx2(void) { return 0; }

#endif
