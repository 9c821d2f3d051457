#pragma once
// Arithmetic loops written for wider vector units than the Swift compiler targets, each chosen at
// run time only where the processor has them. Each does, lane by lane, exactly the operations of
// the portable Swift loop it stands in for, so the results are the same to the last bit. Each
// kernel has its own file beside its Swift twin: kweighting.c (KWeighting.swift), true_peak.c
// (TruePeak.swift); cpu.c checks the processor.

/// 1 when this processor and its operating system run AVX2 instructions (x86-64 only), else 0.
int soundpack_has_avx2(void);

/// The K-weighting recursion of `KWeighting.run` for four channels side by side, one in each
/// lane of a 256-bit vector. `b` holds b0…b4 and `a` a1…a4; `inputs[lane]` points at `frames`
/// samples of that lane; `state` is v1[4], v2[4], v3[4], v4[4] and `sum` the four sums of squared
/// outputs, updated for the lanes whose bit (1 << lane) is set in `lanes` and left as they were
/// for the others. Call only when `soundpack_has_avx2()` says 1.
void soundpack_kweighting4_avx2(const double b[5], const double a[4], const float *const inputs[4], long frames,
                                double state[16], double sum[4], int lanes);

/// `TruePeakMeter`'s scan of one channel: `x` holds the 11 samples before and then `count - 11`
/// samples whose four interpolated values (`phases`: four phases of 12 taps, newest sample last)
/// are each computed as the Swift loop computes them; returns the largest magnitude among them
/// and `peak`. Neighbourhoods whose bound cannot beat the peak are skipped: a block's window
/// times `gain`, a run of eight by `centre` times its nearest samples plus `outer` times the
/// window (each already widened for rounding). Call only when `soundpack_has_avx2()` says 1.
float soundpack_true_peak_avx2(const float *x, long count, float peak, const float phases[48], float gain, float centre,
                               float outer);
