// TruePeak.swift's pruned scan of one channel with AVX2. Contraction into fused multiply-adds is
// off: it would round differently from the Swift loop this must match.
#include "soundpack_kernels.h"

#pragma clang fp contract(off)

#if defined(__x86_64__)
#include <immintrin.h>

/// The largest of the eight lanes.
__attribute__((target("avx2")))
static inline float largest_lane(__m256 v) {
    __m128 m = _mm_max_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    m = _mm_max_ps(m, _mm_movehl_ps(m, m));
    m = _mm_max_ss(m, _mm_shuffle_ps(m, m, 1));
    return _mm_cvtss_f32(m);
}

/// The largest |x[i]| for i in start..<end (every sample finite).
__attribute__((target("avx2")))
static float largest_magnitude(const float *x, long start, long end) {
    const __m256 magnitude = _mm256_castsi256_ps(_mm256_set1_epi32(0x7FFFFFFF));
    __m256 top = _mm256_setzero_ps();
    long i = start;
    for (; i + 8 <= end; i += 8) top = _mm256_max_ps(top, _mm256_and_ps(_mm256_loadu_ps(x + i), magnitude));
    float largest = largest_lane(top);
    for (; i < end; i++) {
        float v = __builtin_fabsf(x[i]);
        if (v > largest) largest = v;
    }
    return largest;
}

/// The largest magnitude of the 4 × 8 values interpolated after x[n] … x[n + 7]: phase by phase,
/// each tap one load of eight neighbours times the tap.
__attribute__((target("avx2")))
static inline float run_peak(const float *x, long n, const float phases[48]) {
    const __m256 magnitude = _mm256_castsi256_ps(_mm256_set1_epi32(0x7FFFFFFF));
    const float *w = x + n - 11;
    __m256 top = _mm256_setzero_ps();
    for (int p = 0; p < 4; p++) {
        const float *c = phases + 12 * p;
        __m256 y = _mm256_mul_ps(_mm256_set1_ps(c[0]), _mm256_loadu_ps(w));
        for (int k = 1; k < 12; k++) y = _mm256_add_ps(y, _mm256_mul_ps(_mm256_set1_ps(c[k]), _mm256_loadu_ps(w + k)));
        top = _mm256_max_ps(top, _mm256_and_ps(y, magnitude));
    }
    return largest_lane(top);
}

/// The same values after x[n] for n in start..<end, one at a time.
static float samples_peak(const float *x, long start, long end, const float phases[48]) {
    float largest = 0;
    for (long n = start; n < end; n++) {
        const float *w = x + n - 11;
        for (int p = 0; p < 4; p++) {
            const float *c = phases + 12 * p;
            float y = c[0] * w[0];
            for (int k = 1; k < 12; k++) y += c[k] * w[k];
            float v = __builtin_fabsf(y);
            if (v > largest) largest = v;
        }
    }
    return largest;
}

__attribute__((target("avx2")))
float soundpack_true_peak_avx2(const float *x, long count, float peak, const float phases[48], float gain, float centre,
                               float outer) {
    for (long start = 11; start < count; start += 32) {
        const long end = start + 32 < count ? start + 32 : count;
        const float window = largest_magnitude(x, start - 11, end);
        if (!(window * gain > peak)) continue;
        const float beyond = outer * window;
        long n = start;
        for (; n + 8 <= end; n += 8) {
            // The largest |x[n - 7 ..< n + 4]|, from two overlapping loads.
            const __m256 magnitude = _mm256_castsi256_ps(_mm256_set1_epi32(0x7FFFFFFF));
            const __m256 near = _mm256_max_ps(_mm256_and_ps(_mm256_loadu_ps(x + n - 7), magnitude),
                                              _mm256_and_ps(_mm256_loadu_ps(x + n - 4), magnitude));
            if (centre * largest_lane(near) + beyond > peak) {
                const float v = run_peak(x, n, phases);
                if (v > peak) peak = v;
            }
        }
        if (n < end) {
            const float v = samples_peak(x, n, end, phases);
            if (v > peak) peak = v;
        }
    }
    return peak;
}

#else

float soundpack_true_peak_avx2(const float *x, long count, float peak, const float phases[48], float gain, float centre,
                               float outer) {
    (void)x; (void)count; (void)peak; (void)phases; (void)gain; (void)centre; (void)outer;
    __builtin_trap();
}

#endif
