//! An exact oracle for frustum culling: each vertex of a mesh placed exactly (`R·p + t` in
//! dyadic arithmetic, no rounding) and its side of each world plane `n·x + d` decided exactly,
//! then the plane-by-plane classification of *Real-Time Rendering* (3rd ed., 2008) §16.14 that
//! culling documents (outside one plane → outside; inside all → inside; otherwise
//! intersecting). It shares no code with `cull`, which moves the planes into the mesh frame
//! (rounded) and classifies volumes and triangles there: a floating-point filter with a proven
//! error bound decides the sides of vertices far from a plane, exact dyadic arithmetic
//! ([`super::exact::Dy`]) the others.
//!
//! `cull` rounds, so a vertex within [`TIE`] (a few hundred ulps of its terms) of a plane may
//! land on either side: [`allowed`] says which answers rounding can explain.

use super::exact::Dy;
use obbtree::bv::intersect::containment::RegionRelation;
use obbtree::bv::intersect::frustum::Frustum;
use obbtree::bv::{Point, Pose, TriMesh, Vector};

/// How near a plane (relative to the magnitude of the terms of `n·(R p + t) + d`) a vertex may
/// be put on either side by `cull`'s rounding: 128 ulps.
pub const TIE: f64 = 128.0 * f64::EPSILON;

/// Where a placed vertex lies relative to one plane, exactly: beyond the tie band on either
/// side, or within it (then with its exact sign).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Side {
    /// `s < -tie`.
    In,
    /// `-tie <= s <= 0`.
    NearIn,
    /// `0 < s <= tie`.
    NearOut,
    /// `s > tie`.
    Out,
}

/// A world plane `n·x + d` seen on the vertices of a mesh placed by `pose`, exactly:
/// `s(p) = m·p + c` with `m = Rᵀn` and `c = n·t + d` as exact dyadic numbers.
pub struct PlacedPlane {
    n: Vector,
    d: f64,
    m: [Dy; 3],
    c: Dy,
}

impl PlacedPlane {
    pub fn new(n: Vector, d: f64, pose: &Pose) -> Self {
        let (r, t) = (pose.rotation(), pose.translation());
        let dy = |x: f64| Dy::new(x);
        let m =
            [0, 1, 2].map(|j| (0..3).fold(dy(0.0), |s, i| s.add(&dy(n[i]).mul(&dy(r[(i, j)])))));
        let c = (0..3).fold(dy(d), |s, i| s.add(&dy(n[i]).mul(&dy(t[i]))));
        Self { n, d, m, c }
    }

    /// The exact side of vertex `p` (mesh frame) placed by `pose`: the value in floating point
    /// with a bound on its error (`γ₈` times the sum of the magnitudes of its terms) decides
    /// when it is far from the band's edges; exact dyadic arithmetic decides the rest.
    pub fn side(&self, p: &Point, pose: &Pose) -> Side {
        let (r, t) = (pose.rotation(), pose.translation());
        let (mut value, mut magnitude) = (self.d, self.d.abs());
        for i in 0..3 {
            let row = r[(i, 0)] * p.x + r[(i, 1)] * p.y + r[(i, 2)] * p.z + t[i];
            let row_magnitude = (r[(i, 0)] * p.x).abs()
                + (r[(i, 1)] * p.y).abs()
                + (r[(i, 2)] * p.z).abs()
                + t[i].abs();
            value += self.n[i] * row;
            magnitude += self.n[i].abs() * row_magnitude;
        }
        let error = 8.0 * f64::EPSILON * magnitude * (1.0 + 1e-12);
        let tie = TIE * (3.0 * p.coords.amax() + t.amax() + self.d.abs());
        if value - error > tie {
            return Side::Out;
        }
        if value + error < -tie {
            return Side::In;
        }
        let s = (0..3).fold(self.c.clone(), |s, j| s.add(&self.m[j].mul(&Dy::new(p[j]))));
        let (zero, tie) = (Dy::new(0.0), Dy::new(tie));
        if s.gt(&tie) {
            Side::Out
        } else if s.gt(&zero) {
            Side::NearOut
        } else if zero.sub(&tie).gt(&s) {
            Side::In
        } else {
            Side::NearIn
        }
    }
}

/// The exact sides of every vertex of `mesh` placed by `pose` for each plane of `frustum`.
pub fn sides(mesh: &TriMesh, pose: &Pose, frustum: &Frustum) -> Vec<[Side; 6]> {
    let planes = frustum
        .planes()
        .map(|pl| PlacedPlane::new(pl.normal, pl.d, pose));
    mesh.vertices()
        .iter()
        .map(|p| planes.each_ref().map(|pl| pl.side(p, pose)))
        .collect()
}

/// The plane-by-plane class of a triangle from whether each vertex counts as outside each plane
/// (`out(side)`): outside when all three are outside one plane; inside when none is outside
/// any; otherwise intersecting.
pub fn class(vertices: &[[Side; 6]; 3], out: impl Fn(Side) -> bool) -> RegionRelation {
    if (0..6).any(|k| vertices.iter().all(|v| out(v[k]))) {
        RegionRelation::Outside
    } else if vertices.iter().all(|v| v.iter().all(|&s| !out(s))) {
        RegionRelation::Inside
    } else {
        RegionRelation::Intersecting
    }
}

/// The exact class, and whether rounding may move the triangle to `got`: some way of putting
/// each near vertex on either side gives `got`. (Outside needs one plane with all three
/// vertices possibly outside; inside needs every vertex possibly inside every plane;
/// intersecting needs no plane with all three surely outside, and some vertex possibly outside.)
pub fn allowed(vertices: &[[Side; 6]; 3], got: RegionRelation) -> (RegionRelation, bool) {
    let exact = class(vertices, |s| matches!(s, Side::NearOut | Side::Out));
    let surely_out = |s| s == Side::Out;
    let possibly_out = |s| s != Side::In;
    let ok = match got {
        RegionRelation::Outside => (0..6).any(|k| vertices.iter().all(|v| possibly_out(v[k]))),
        RegionRelation::Inside => vertices.iter().all(|v| v.iter().all(|&s| !surely_out(s))),
        RegionRelation::Intersecting => {
            !(0..6).any(|k| vertices.iter().all(|v| surely_out(v[k])))
                && vertices.iter().any(|v| v.iter().any(|&s| possibly_out(s)))
        }
    };
    (exact, ok)
}
