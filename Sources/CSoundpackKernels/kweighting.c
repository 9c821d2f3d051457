// The K-weighting recursion of KWeighting.swift for four lanes in one 256-bit vector. Contraction
// into fused multiply-adds is off: it would round differently from the Swift loop this must match.
#include "soundpack_kernels.h"

#pragma clang fp contract(off)

#if defined(__x86_64__)
#include <immintrin.h>

__attribute__((target("avx2")))
void soundpack_kweighting4_avx2(const double b[5], const double a[4], const float *const inputs[4], long frames,
                                double state[16], double sum[4], int lanes) {
    const __m256d a0 = _mm256_set1_pd(a[0]), a1 = _mm256_set1_pd(a[1]), a2 = _mm256_set1_pd(a[2]), a3 = _mm256_set1_pd(a[3]);
    const __m256d b0 = _mm256_set1_pd(b[0]), b1 = _mm256_set1_pd(b[1]), b2 = _mm256_set1_pd(b[2]),
                  b3 = _mm256_set1_pd(b[3]), b4 = _mm256_set1_pd(b[4]);
    __m256d v1 = _mm256_loadu_pd(state), v2 = _mm256_loadu_pd(state + 4), v3 = _mm256_loadu_pd(state + 8),
            v4 = _mm256_loadu_pd(state + 12), total = _mm256_loadu_pd(sum);
    const float *x0 = inputs[0], *x1 = inputs[1], *x2 = inputs[2], *x3 = inputs[3];
    for (long i = 0; i < frames; i++) {
        const __m256d x = _mm256_cvtps_pd(_mm_setr_ps(x0[i], x1[i], x2[i], x3[i]));
        // KWeighting.run's order: x - a3·v4 - a2·v3 - a1·v2, then - a0·v1; the output from b0 up.
        const __m256d older = _mm256_sub_pd(_mm256_sub_pd(_mm256_sub_pd(x, _mm256_mul_pd(a3, v4)), _mm256_mul_pd(a2, v3)),
                                            _mm256_mul_pd(a1, v2));
        const __m256d v0 = _mm256_sub_pd(older, _mm256_mul_pd(a0, v1));
        __m256d y = _mm256_add_pd(_mm256_mul_pd(b0, v0), _mm256_mul_pd(b1, v1));
        y = _mm256_add_pd(y, _mm256_mul_pd(b2, v2));
        y = _mm256_add_pd(y, _mm256_mul_pd(b3, v3));
        y = _mm256_add_pd(y, _mm256_mul_pd(b4, v4));
        total = _mm256_add_pd(total, _mm256_mul_pd(y, y));
        v4 = v3;
        v3 = v2;
        v2 = v1;
        v1 = v0;
    }
    // Only the chosen lanes are written back (a store mask's lane counts when its top bit is set).
    const __m256i keep = _mm256_setr_epi64x(lanes & 1 ? -1 : 0, lanes & 2 ? -1 : 0, lanes & 4 ? -1 : 0, lanes & 8 ? -1 : 0);
    _mm256_maskstore_pd(state, keep, v1);
    _mm256_maskstore_pd(state + 4, keep, v2);
    _mm256_maskstore_pd(state + 8, keep, v3);
    _mm256_maskstore_pd(state + 12, keep, v4);
    _mm256_maskstore_pd(sum, keep, total);
}

#else

void soundpack_kweighting4_avx2(const double b[5], const double a[4], const float *const inputs[4], long frames,
                                double state[16], double sum[4], int lanes) {
    (void)b; (void)a; (void)inputs; (void)frames; (void)state; (void)sum; (void)lanes;
    __builtin_trap();  // never called: soundpack_has_avx2() is 0 here
}

#endif
