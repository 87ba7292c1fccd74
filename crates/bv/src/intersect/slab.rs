//! Clipping a parameter interval against one slab: the step shared by the slab methods
//! (ray–AABB, ray–OBB, ray–k-DOP, the dynamic separating-axis test).

/// Clips `[t0, t1]` to the parameters `t` with `lo <= s + t·ds <= hi` (closed slab), where
/// `s` and `ds` are the projections of the origin and of the direction on the slab normal.
///
/// The slab ends are crossed at `t = (lo - s) / ds` and `(hi - s) / ds` (Kay & Kajiya 1986;
/// Ericson, *Real-Time Collision Detection* (2005), §5.3.3). `ds == 0.0` is the parallel case:
/// the interval is kept whole if `s` lies in the slab and emptied otherwise. Returns `None`
/// when the result is empty.
#[inline]
pub fn clip(interval: (f64, f64), s: f64, ds: f64, lo: f64, hi: f64) -> Option<(f64, f64)> {
    let (mut t0, mut t1) = interval;
    if ds == 0.0 {
        if s < lo || s > hi {
            return None;
        }
    } else {
        let (mut a, mut b) = ((lo - s) / ds, (hi - s) / ds);
        if a > b {
            std::mem::swap(&mut a, &mut b);
        }
        t0 = t0.max(a);
        t1 = t1.min(b);
        if t0 > t1 {
            return None;
        }
    }
    Some((t0, t1))
}
