//! A floating-point filter in front of the exact polytope tests: a direction along which two
//! point sets' projections are certainly apart separates their convex hulls (the
//! separating-axis theorem; Gottschalk, Lin & Manocha, "OBBTree", SIGGRAPH 1996; Ericson,
//! *Real-Time Collision Detection* (2005) §4.4 and §5.2.1). The filter only ever says
//! "apart"; when no direction shows a gap wider than the rounding, the exact test decides.

use crate::{Point, Vector};

/// Relative bound on a projection's rounding, against `‖axis‖₁ · max |coordinate|`: a dot
/// product of three terms errs by at most `γ₃ = 3u/(1 − 3u)` times `Σ|aᵢ xᵢ|` (Higham,
/// *Accuracy and Stability of Numerical Algorithms* (2002) §3.1), `u = 2⁻⁵³`; four times
/// `f64::EPSILON` (`8u`) also covers the rounding of the bound and of the comparison's sum.
const PROJECTION_ERROR: f64 = 4.0 * f64::EPSILON;

/// Whether one of `axes` certainly separates the convex hulls of `p` and `q`: along it, the
/// largest projection of one set plus twice the rounding bound is below the other's least.
/// The axes need not be exact: any direction that shows a gap between the exact projections
/// separates the sets. An axis with a non-finite bound (overflow) proves nothing.
pub(super) fn some_axis_separates(
    axes: impl IntoIterator<Item = Vector>,
    p: &[Point],
    q: &[Point],
) -> bool {
    let magnitude = p
        .iter()
        .chain(q)
        .map(|v| v.coords.amax())
        .fold(0.0, f64::max);
    axes.into_iter()
        .any(|axis| separates_along(&axis, p, q, magnitude))
}

/// Whether the projections of `p` and `q` on `axis` are certainly apart (see
/// [`some_axis_separates`]); `magnitude` bounds every coordinate of both.
fn separates_along(axis: &Vector, p: &[Point], q: &[Point], magnitude: f64) -> bool {
    // Subnormal products err absolutely, by at most 2⁻¹⁰⁷⁵ each: MIN_POSITIVE covers them.
    let error = PROJECTION_ERROR * (axis.abs().sum() * magnitude) + f64::MIN_POSITIVE;
    if !error.is_finite() {
        return false;
    }
    let ([p_low, p_high], [q_low, q_high]) = (extent(axis, p), extent(axis, q));
    p_high + 2.0 * error < q_low || q_high + 2.0 * error < p_low
}

/// The least and largest projection of `points` on `axis`, in `f64`.
fn extent(axis: &Vector, points: &[Point]) -> [f64; 2] {
    points
        .iter()
        .fold([f64::INFINITY, f64::NEG_INFINITY], |[low, high], v| {
            let x = axis.dot(&v.coords);
            [low.min(x), high.max(x)]
        })
}

/// The candidate axes of a box (or a hull, with no edge directions) against a triangle `[a,
/// b, c]`: the triangle's normal, the box's edge directions, and their cross products with the
/// triangle's edges (Akenine-Möller, "Fast 3D triangle-box overlap testing", 2001).
pub(super) fn polytope_triangle_axes(
    box_edges: Option<[Vector; 3]>,
    [a, b, c]: [Point; 3],
) -> impl Iterator<Item = Vector> {
    let edges = [b - a, c - b, a - c];
    let normal = edges[0].cross(&edges[1]);
    let box_edges = box_edges.into_iter().flatten();
    let crosses = box_edges
        .clone()
        .flat_map(move |e| edges.map(|f| e.cross(&f)));
    std::iter::once(normal).chain(box_edges).chain(crosses)
}

/// The candidate axes of two boxes: each one's edge directions and the cross products of the
/// two sets (15 axes; a hull contributes no edge directions, so only the other box's 3).
pub(super) fn polytope_polytope_axes(
    p_edges: Option<[Vector; 3]>,
    q_edges: Option<[Vector; 3]>,
) -> impl Iterator<Item = Vector> {
    let (p_edges, q_edges) = (p_edges.into_iter().flatten(), q_edges.into_iter().flatten());
    let crossed = q_edges.clone();
    let crosses = p_edges
        .clone()
        .flat_map(move |e| crossed.clone().map(move |f| e.cross(&f)));
    p_edges.chain(q_edges).chain(crosses)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg64;

    /// A triangle with integer corners below 2²⁰ scaled by `2^shift`, and a point exactly in
    /// it (`(2a + b + c)/4`, exact in `f64`): the normal `(b − a) × (c − a)` is exact too, but
    /// the projections on it (about 2⁶¹ before scaling) are rounded, so the four equal exact
    /// projections come out a few ulps apart.
    fn touching_case(rng: &mut Pcg64, shift: i32) -> ([Point; 3], Point) {
        let scale = 2f64.powi(shift);
        let mut corner = || {
            Point::from(Vector::from_fn(|_, _| {
                f64::from(rng.gen_range(-(1 << 20)..(1 << 20))) * scale
            }))
        };
        let [a, b, c] = [corner(), corner(), corner()];
        let inside = Point::from((a.coords * 2.0 + b.coords + c.coords) / 4.0);
        ([a, b, c], inside)
    }

    /// Convex sets that touch at one point (a point of a triangle's interior, the other set a
    /// segment from it out of the plane) are never called apart, along every candidate axis,
    /// on either side and at every scale: the rounding bound must cover projections that are
    /// equal exactly but not in floating point. Moved off the plane by a millionth of the
    /// size, the same sets are called apart: the filter is not idle.
    #[test]
    fn sets_touching_inside_a_face_are_never_called_apart() {
        let mut rng = Pcg64::seed_from_u64(7);
        let mut apart = 0;
        for case in 0..4000 {
            let shift = [-60, 0, 30, 200][case % 4];
            let (tri, inside) = touching_case(&mut rng, shift);
            let normal = (tri[1] - tri[0]).cross(&(tri[2] - tri[0]));
            if normal == Vector::zeros() {
                continue;
            }
            let side = if case % 8 < 4 { 1.0 } else { -1.0 };
            let out = |gap: f64| {
                let step = normal.normalize() * (side * gap * 2f64.powi(20 + shift));
                [inside + step, inside + step * 2.0]
            };
            let box_edges = Some(std::array::from_fn(|_| {
                Vector::from_fn(|_, _| rng.gen_range(-1.0..1.0))
            }));
            let touching = [inside, out(1.0)[1]];
            assert!(
                !some_axis_separates(polytope_triangle_axes(box_edges, tri), &tri, &touching),
                "case {case}: {tri:?} and {touching:?} touch at {inside:?}"
            );
            let off = out(1e-6);
            apart += usize::from(some_axis_separates(
                polytope_triangle_axes(box_edges, tri),
                &tri,
                &off,
            ));
        }
        assert!(
            apart > 3900,
            "only {apart} of the sets moved apart were called apart"
        );
    }
}
