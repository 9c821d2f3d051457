// The loops declared in soundpack_kernels.h. Contraction into fused multiply-adds is off: it would
// round differently from the Swift loops these must match.
#include "soundpack_kernels.h"

#pragma clang fp contract(off)

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>

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

int soundpack_has_avx2(void) { return 0; }

void soundpack_kweighting4_avx2(const double b[5], const double a[4], const float *const inputs[4], long frames,
                                double state[16], double sum[4], int lanes) {
    (void)b; (void)a; (void)inputs; (void)frames; (void)state; (void)sum; (void)lanes;
    __builtin_trap();  // never called: soundpack_has_avx2() is 0 here
}

float soundpack_true_peak_avx2(const float *x, long count, float peak, const float phases[48], float gain, float centre,
                               float outer) {
    (void)x; (void)count; (void)peak; (void)phases; (void)gain; (void)centre; (void)outer;
    __builtin_trap();
}

#endif
