//! Reading back the four `f64` lanes of an AVX register, for the fits' AVX2 loops.

/// The four lanes of `v`, lowest first.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
pub(crate) fn lanes(v: std::arch::x86_64::__m256d) -> [f64; 4] {
    use std::arch::x86_64::*;
    let (low, high) = (_mm256_castpd256_pd128(v), _mm256_extractf128_pd::<1>(v));
    [
        _mm_cvtsd_f64(low),
        _mm_cvtsd_f64(_mm_unpackhi_pd(low, low)),
        _mm_cvtsd_f64(high),
        _mm_cvtsd_f64(_mm_unpackhi_pd(high, high)),
    ]
}
