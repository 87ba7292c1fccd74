//! Cylinder against triangle.

use super::field::{
    at_most_zero, cross3, dot3, lerp3, normalizing_factors, sub3, v3, Field, Interval, V3,
};
use crate::distance::tri_tri::within;
use crate::intersect::tri_tri_exact;
use crate::{Point, Triangle};
use num_rational::BigRational;
use std::cell::Cell;
use std::cmp::Ordering;

thread_local! {
    static EXACT_RUNS: Cell<u64> = const { Cell::new(0) };
}

/// How many times [`cylinder_triangle`] has taken its exact slow path on this thread (for the
/// tests that count it; not part of the API).
#[doc(hidden)]
pub fn cylinder_triangle_exact_runs() -> u64 {
    EXACT_RUNS.with(Cell::get)
}

/// Whether the solid cylinder of radius `r` about the segment `[a, b]` (`a ≠ b`; the flat caps
/// through `a` and `b` perpendicular to `b − a`) meets the closed triangle `t`, exactly
/// (touching counts; a triangle wholly inside touches; zero-area triangles are the segment or
/// point they are). Coordinates and `r` in the exact range of [`range`](crate::range).
///
/// Method (the cylinder as the slab between its cap planes intersected with the infinite
/// cylinder about its axis line; Ericson (2005) §5.3.7 clips a segment the same way, and
/// Sutherland & Hodgman, "Reentrant polygon clipping", CACM 17(1), 1974, clip the polygon):
/// 1. the capsule of radius `r` about `[a, b]` holds the cylinder, so a triangle farther than
///    `r` from the segment misses it ([`within`], exact);
/// 2. a triangle meeting the segment `[a, b]` meets it ([`tri_tri_exact`], exact);
/// 3. otherwise clip `t` by the two cap planes (the part of `t` in the slab is a convex polygon
///    `P` with rational vertices, possibly a segment or a point, or empty: no contact); the
///    axis line misses `P` (the line within the slab is the segment of step 2), so the least
///    squared distance from `P` to the line is reached on `P`'s boundary (it is a convex
///    function whose zero set, the line, misses `P`): the least over `P`'s edges of the
///    segment–line squared distance, compared with `r²`.
///
/// All of step 3 is written once on `Field` (`field.rs`): first on rigorous intervals, which
/// settle the answer unless a sign in it is too close to call, then, only then, on exact
/// rationals.
/// Squared distances to the line are kept multiplied by `|b − a|²` (`|(p − a) × (b − a)|²`),
/// so no square root or division by the length is needed.
///
/// How often the exact path runs, counted in test runs (`tests/cylinder.rs`, which counts it
/// with a per-thread counter): on none of the 2048 random cases of
/// `random_cylinders_against_triangles` (random radii, lengths, poses; points, segments,
/// collinear and proper triangles; the test fails above 1%), in both runs counted; and on
/// 305 and 341 of the 1024 cases of `grid_cylinders_against_grid_triangles` in two runs (the
/// cases vary with the seed), integer data built so that exact contacts (a vertex on a cap
/// plane, a face tangent to the side) are common: those are the cases whose signs intervals
/// cannot settle.
pub fn cylinder_triangle([a, b]: [&Point; 2], r: f64, t: &Triangle) -> bool {
    let axis = Triangle::new(*a, *b, *b);
    if !within(&axis, t, r) {
        return false;
    }
    if tri_tri_exact::intersects(&axis, t) {
        return true;
    }
    let inputs = [a, b, &t.a, &t.b, &t.c];
    let [f0, f1] = normalizing_factors(inputs.iter().flat_map(|p| p.iter().copied()).chain([r]));
    let scale = |p: &Point| [p.x * f0 * f1, p.y * f0 * f1, p.z * f0 * f1];
    let scaled = inputs.map(scale);
    if let Some(answer) = clipped_within::<Interval>(&scaled, r * f0 * f1) {
        return answer;
    }
    EXACT_RUNS.with(|n| n.set(n.get() + 1));
    let exact = inputs.map(|p| [p.x, p.y, p.z]);
    clipped_within::<BigRational>(&exact, r).expect("exact signs")
}

/// Step 3 of [`cylinder_triangle`] on `[a, b, t0, t1, t2]`: whether the part of the triangle
/// between the cap planes is within `r` of the axis line, given that the segment `[a, b]`
/// misses the triangle. `None` when an interval sign is unknown.
fn clipped_within<T: Field>(points: &[[f64; 3]; 5], r: f64) -> Option<bool> {
    let a: V3<T> = v3(&points[0]);
    let w = sub3(&v3(&points[1]), &a);
    let length2 = dot3(&w, &w);
    // A vertex relative to `a`, with its height `(p − a)·w` along the axis (0 to |w|²).
    let polygon: Vec<(V3<T>, T)> = points[2..]
        .iter()
        .map(|p| {
            let p = sub3(&v3(p), &a);
            let h = dot3(&p, &w);
            (p, h)
        })
        .collect();
    let polygon = clip(&polygon, |h| h.clone(), &T::zero())?;
    let polygon = clip(&polygon, |h| length2.sub(h), &length2)?;
    if polygon.is_empty() {
        return Some(false);
    }
    // `u = (p − a) × w`: `|u|²` is `|w|²` times p's squared distance to the axis line.
    let u: Vec<V3<T>> = polygon.iter().map(|(p, _)| cross3(p, &w)).collect();
    let n = u.len();
    let mut least: Option<T> = None;
    for i in 0..n {
        let (p, q) = (&u[i], &u[(i + 1) % n]);
        let e = sub3(q, p);
        let edge = T::quadratic_min(&dot3(p, p), &dot3(p, &e), &dot3(&e, &e), &dot3(q, q))?;
        least = Some(match least {
            None => edge,
            Some(m) => m.min(&edge),
        });
    }
    let r = T::from_f64(r);
    let bound = r.mul(&r).mul(&length2);
    at_most_zero(&least.expect("a nonempty polygon").sub(&bound))
}

/// Sutherland–Hodgman: the part of the convex polygon `polygon` (vertices with their heights)
/// where `side(height) >= 0`, `side` affine in the height; a crossing point lies on the plane,
/// so its height is `plane`. `None` when a sign is unknown.
fn clip<T: Field>(
    polygon: &[(V3<T>, T)],
    side: impl Fn(&T) -> T,
    plane: &T,
) -> Option<Vec<(V3<T>, T)>> {
    let values: Vec<T> = polygon.iter().map(|(_, h)| side(h)).collect();
    let signs = values.iter().map(T::sign).collect::<Option<Vec<_>>>()?;
    let n = polygon.len();
    let mut out = Vec::with_capacity(n + 1);
    for i in 0..n {
        let j = (i + 1) % n;
        if signs[i] != Ordering::Less {
            out.push(polygon[i].clone());
        }
        let crosses = matches!(
            (signs[i], signs[j]),
            (Ordering::Greater, Ordering::Less) | (Ordering::Less, Ordering::Greater)
        );
        if crosses {
            let lambda = values[i].div(&values[i].sub(&values[j]));
            out.push((lerp3(&polygon[i].0, &polygon[j].0, &lambda), plane.clone()));
        }
    }
    Some(out)
}
