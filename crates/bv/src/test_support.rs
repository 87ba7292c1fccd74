//! What the white-box unit tests of the exact predicates' float filters share.

use crate::Vector;
use num_rational::BigRational;
use rand::Rng;

/// `x` as an exact rational.
pub(crate) fn q(x: f64) -> BigRational {
    BigRational::from_float(x).expect("finite")
}

/// A vector of magnitude about `m`: components of equal size with random signs (where a
/// permanent comes closest to its bound), or random ones.
pub(crate) fn vector(rng: &mut impl Rng, m: f64) -> Vector {
    let mut c = || {
        let x = if rng.gen_bool(0.5) {
            1.0 + rng.gen_range(0.0..1e-3)
        } else {
            rng.gen_range(-1.0..1.0)
        };
        if rng.gen_bool(0.5) {
            -m * x
        } else {
            m * x
        }
    };
    Vector::new(c(), c(), c())
}

/// `avx2()` where the CPU has AVX2 (the fits' AVX2 loops, compared with their portable loops);
/// elsewhere `None`, said on stderr, so a run without AVX2 shows that it compared nothing.
#[cfg(target_arch = "x86_64")]
pub(crate) fn where_avx2<T>(avx2: impl FnOnce() -> T) -> Option<T> {
    if std::arch::is_x86_feature_detected!("avx2") {
        return Some(avx2());
    }
    eprintln!("no AVX2 on this CPU: only the portable loop ran");
    None
}
