//! An exact separating-axis oracle for closed triangles, zero-area ones (segments, points)
//! included, in big integers. It shares no code and no method with the engine, which decides
//! by orientation predicates (Guigue & Devillers 2003) through Shewchuk's adaptive arithmetic:
//! here every coordinate becomes an exact integer (one common power of two scales them all, which
//! changes no answer) and only integer dot and cross products decide.
//!
//! The closed convex sets `P` and `Q` are disjoint iff `0 ∉ M = P − Q = conv{pᵢ − qⱼ}`, iff some
//! axis `a` separates them strictly (`max a·pᵢ < min a·qⱼ` or the reverse). The affine hull of
//! `M` is `d + span(E)`, `d = p₀ − q₀`, `E` the edge vectors of both triangles; which axes suffice
//! depends on its dimension (Ericson, *Real-Time Collision Detection*, 2005, §4.4.1 and §5.2.1
//! for the full-dimensional case):
//!
//! * 3: the facet normals of the Minkowski sum, `n_P`, `n_Q` and the nine `eᵢ × fⱼ`;
//! * 2 (plane normal `n`): `n` (is `0` off the plane?) and the in-plane edge normals `n × g`,
//!   `g ∈ E` (the polygon `M`'s edges are parallel to edges of `P` or `Q`);
//! * 1 (line direction `g`): `(g × d) × g` (is `0` off the line?) and `g`;
//! * 0: `d` itself.

use super::exact::to_common_integers;
use num_bigint::BigInt;
use num_traits::Zero;
use obbtree_bv::Point;

type Z3 = [BigInt; 3];

/// Whether the closed triangles `p` and `q` (any vertices, any order, possibly degenerate)
/// share a point, exactly.
pub fn triangles_meet(p: &[Point; 3], q: &[Point; 3]) -> bool {
    let coordinates: Vec<f64> = p.iter().chain(q).flat_map(|v| [v.x, v.y, v.z]).collect();
    let mut ints = to_common_integers(&coordinates).into_iter();
    let mut point = || -> Z3 { std::array::from_fn(|_| ints.next().expect("18 integers")) };
    let pv: [Z3; 3] = std::array::from_fn(|_| point());
    let qv: [Z3; 3] = std::array::from_fn(|_| point());
    !candidate_axes(&pv, &qv)
        .iter()
        .any(|axis| separates(axis, &pv, &qv))
}

/// The axes of the module docs for the dimension of `P − Q`.
fn candidate_axes(p: &[Z3; 3], q: &[Z3; 3]) -> Vec<Z3> {
    let (ep, eq) = (edges(p), edges(q));
    let all: Vec<&Z3> = ep.iter().chain(&eq).filter(|e| !is_zero(e)).collect();
    let d = sub(&p[0], &q[0]);
    let normal = all
        .iter()
        .enumerate()
        .flat_map(|(i, e)| all[i + 1..].iter().map(move |f| cross(e, f)))
        .find(|n| !is_zero(n));
    let axes = match (normal, all.first()) {
        (Some(n), _) if all.iter().any(|g| !dot(&n, g).is_zero()) => {
            let mut axes = vec![cross(&ep[0], &ep[1]), cross(&eq[0], &eq[1])];
            axes.extend(ep.iter().flat_map(|e| eq.iter().map(move |f| cross(e, f))));
            axes
        }
        (Some(n), _) => {
            let mut axes: Vec<Z3> = all.iter().map(|g| cross(&n, g)).collect();
            axes.push(n);
            axes
        }
        (None, Some(g)) => vec![cross(&cross(g, &d), g), (*g).clone()],
        (None, None) => vec![d],
    };
    axes.into_iter().filter(|a| !is_zero(a)).collect()
}

/// Whether the projections of `p` and `q` onto `axis` are disjoint intervals.
fn separates(axis: &Z3, p: &[Z3; 3], q: &[Z3; 3]) -> bool {
    let span = |v: &[Z3; 3]| {
        let d = v.each_ref().map(|x| dot(axis, x));
        let [a, b, c] = d;
        let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
        (lo.min(c.clone()), hi.max(c))
    };
    let ((p_lo, p_hi), (q_lo, q_hi)) = (span(p), span(q));
    p_hi < q_lo || q_hi < p_lo
}

fn edges(v: &[Z3; 3]) -> [Z3; 3] {
    [sub(&v[1], &v[0]), sub(&v[2], &v[1]), sub(&v[0], &v[2])]
}

fn is_zero(v: &Z3) -> bool {
    v.iter().all(Zero::is_zero)
}

fn sub(a: &Z3, b: &Z3) -> Z3 {
    std::array::from_fn(|i| &a[i] - &b[i])
}

fn dot(a: &Z3, b: &Z3) -> BigInt {
    &a[0] * &b[0] + &a[1] * &b[1] + &a[2] * &b[2]
}

fn cross(a: &Z3, b: &Z3) -> Z3 {
    [
        &a[1] * &b[2] - &a[2] * &b[1],
        &a[2] * &b[0] - &a[0] * &b[2],
        &a[0] * &b[1] - &a[1] * &b[0],
    ]
}
