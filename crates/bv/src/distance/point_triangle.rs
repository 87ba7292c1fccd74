//! Point–triangle: the closest point of a closed triangle (Ericson, *Real-Time Collision
//! Detection* (2005) §5.1.5), in floating point and exactly. Zero-area triangles are the
//! segment or point they are.
//!
//! # The float method
//!
//! Ericson's `ClosestPtPointTriangle` finds the Voronoi region of the point from barycentric
//! quantities such as `(ab·ap)(ac·bp) − (ab·bp)(ac·ap)`, which equal `n·(ab × ap)` for the
//! normal `n = ab × ac`: on a sliver whose angles all have sines near `s`, they cancel to an
//! error of `~ε/s` of the triangle's size, and a point just above the sliver can be sent to an
//! edge region it is not in, up to `√ε` of the size too far (at `s ≈ √ε`).
//!
//! Here the triangle is described from its longest edge, the *base* `b → c` (length `|e|`),
//! and the *height* vector `g` from the base line to the opposite vertex (orthogonal to the
//! base; it falls within the base because the base is the longest edge). A point `p` is
//! located by its parameter `t` along the base and its offset `f = p − (b + t e)` from the base
//! line, and `λ = f·g / |g|²`: its projection is `b + t e + λ g`, with barycentric coordinates
//! `(1 − t − λ(1 − t_a), t − λ t_a, λ)` (`t_a` the apex's own parameter). When all three are
//! non-negative that projection is the closest point, otherwise the nearest point of the three
//! edges (Ericson §5.1.2) is. An error `δ` in `g`'s direction (of relative size `ε |e| / |g|`,
//! the sliver's intrinsic ill-conditioning) moves `λ`'s decision by `δ |f|`, where the offset
//! `|f|` from the base line is at most the point's height plus the sliver's width `|g|`: a
//! wrong decision costs a few ulps of `|e|`, not `√ε`. Every reported point is a convex
//! combination of the vertices (up to rounding), so the distance is never underestimated by
//! more than rounding.

use super::exact::{is_zero, Fraction};
use super::point_segment;
use crate::predicates::exact::{cross, dot, sub, Z3};
use crate::{Point, Triangle, Vector};
use num_bigint::Sign;

/// A triangle prepared for closest-point queries (see the module docs): its vertices and
/// edges in some frame, the longest edge as the base, and the apex's height over it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TriangleFrame {
    /// The vertices.
    pub(crate) vertices: [Vector; 3],
    /// `edges[i] = vertices[i + 1] − vertices[i]` (indices mod 3).
    pub(crate) edges: [Vector; 3],
    /// `|edges[i]|²`.
    pub(crate) lengths_squared: [f64; 3],
    /// Index `i` of the base `edges[i]` (the longest edge).
    base: usize,
    /// Parameter of the apex's foot along the base.
    apex_parameter: f64,
    /// The apex minus its foot on the base line.
    height: Vector,
    /// `|height|²`: zero for a triangle that is a segment or a point in floating point.
    height_squared: f64,
}

impl TriangleFrame {
    /// The frame of the triangle with vertices `v`.
    #[inline]
    pub(crate) fn new(v: [Vector; 3]) -> Self {
        let edges = [v[1] - v[0], v[2] - v[1], v[0] - v[2]];
        let lengths_squared = edges.map(|e| e.norm_squared());
        let base = if lengths_squared[0] >= lengths_squared[1] {
            if lengths_squared[0] >= lengths_squared[2] {
                0
            } else {
                2
            }
        } else if lengths_squared[1] >= lengths_squared[2] {
            1
        } else {
            2
        };
        let (e, ee) = (edges[base], lengths_squared[base]);
        let to_apex = v[(base + 2) % 3] - v[base];
        let apex_parameter = if ee > 0.0 { to_apex.dot(&e) / ee } else { 0.0 };
        let height = to_apex - e * apex_parameter;
        Self {
            vertices: v,
            edges,
            lengths_squared,
            base,
            apex_parameter,
            height,
            height_squared: height.norm_squared(),
        }
    }

    /// Whether the triangle has a positive area in floating point (a plane to project onto).
    #[inline]
    pub(crate) fn is_proper(&self) -> bool {
        self.height_squared > 0.0 && self.lengths_squared[self.base] > 0.0
    }

    /// A normal, `base × height`: a cross product of orthogonal vectors, accurate to rounding
    /// even for slivers. Zero when the triangle is not [proper](Self::is_proper).
    #[inline]
    pub(crate) fn normal(&self) -> Vector {
        self.edges[self.base].cross(&self.height)
    }

    /// A point of the plane when [proper](Self::is_proper): the base's start.
    #[inline]
    pub(crate) fn origin(&self) -> Vector {
        self.vertices[self.base]
    }

    /// The point of the closed triangle closest to `p` (see the module docs).
    #[inline]
    pub(crate) fn closest_point(&self, p: &Vector) -> Vector {
        if self.is_proper() {
            let (b, e) = (&self.vertices[self.base], &self.edges[self.base]);
            let w = p - b;
            let t = w.dot(e) / self.lengths_squared[self.base];
            let f = w - e * t;
            let lambda = f.dot(&self.height) / self.height_squared;
            let along = t - lambda * self.apex_parameter;
            if lambda >= 0.0 && along >= 0.0 && 1.0 - along - lambda >= 0.0 {
                return b + e * t + self.height * lambda;
            }
        }
        self.closest_on_edges(p)
    }

    /// The point of the three closed edges closest to `p`.
    #[inline]
    fn closest_on_edges(&self, p: &Vector) -> Vector {
        let on = |i: usize| {
            let (v, e) = (&self.vertices[i], &self.edges[i]);
            v + e * point_segment::parameter(&(p - v), e, self.lengths_squared[i])
        };
        let candidates = [on(0), on(1), on(2)];
        let d = candidates.map(|c| (c - p).norm_squared());
        let best = if d[0] <= d[1] {
            if d[0] <= d[2] {
                0
            } else {
                2
            }
        } else if d[1] <= d[2] {
            1
        } else {
            2
        };
        candidates[best]
    }
}

/// The point of the closed triangle `t` closest to `p` (a zero-area triangle is its segment or
/// point). Computed relative to the triangle's first vertex.
///
/// Its distance to `p`, `d = |p − closest_point(p, t)|` in floating point, is within
/// [`DISTANCE_ERROR`](super::tri_tri::DISTANCE_ERROR)` · (M + d*)` of the exact distance `d*`
/// (`M` the largest absolute coordinate of `p` and `t`): the triangle–triangle bound, of which
/// this is the vertex–triangle case, tested against exact rationals on its own
/// (`tests/tri_tri_distance.rs`).
pub fn closest_point(p: &Point, t: &Triangle) -> Point {
    PreparedTriangle::new(t).closest_point(p)
}

/// A triangle prepared once for the closest points of several points: the same answers as
/// [`closest_point`], bit for bit, without describing the triangle again for each point.
#[derive(Clone, Copy, Debug)]
pub struct PreparedTriangle {
    /// The triangle's first vertex, the frame's origin.
    origin: Point,
    /// The triangle relative to `origin`.
    frame: TriangleFrame,
}

impl PreparedTriangle {
    /// `t` prepared (see the module docs).
    #[inline]
    pub fn new(t: &Triangle) -> Self {
        let origin = t.a;
        Self {
            origin,
            frame: TriangleFrame::new(t.vertices().map(|v| v - origin)),
        }
    }

    /// The point of the closed triangle closest to `p`.
    #[inline]
    pub fn closest_point(&self, p: &Point) -> Point {
        self.origin + self.frame.closest_point(&(p - self.origin))
    }
}

/// The exact squared distance from `p` to the closed triangle `t` (integer coordinates): the
/// plane distance `(n·(p − a))² / |n|²` when `p` projects into the triangle (`n = (b − a) ×
/// (c − a)`, decided by the signs of `n·(e_i × (p − v_i))`), else the least distance to the
/// three edges, which is also the answer for a zero-area triangle.
pub(crate) fn distance_squared_exact(p: &Z3, t: &[Z3; 3]) -> Fraction {
    let n = cross(&sub(&t[1], &t[0]), &sub(&t[2], &t[0]));
    let inside = |i: usize| {
        let (v, w) = (&t[i], &t[(i + 1) % 3]);
        dot(&n, &cross(&sub(w, v), &sub(p, v))).sign() != Sign::Minus
    };
    if !is_zero(&n) && (0..3).all(inside) {
        let h = dot(&n, &sub(p, &t[0]));
        return Fraction::new(&h * &h, dot(&n, &n));
    }
    Fraction::least(
        (0..3).map(|i| point_segment::distance_squared_exact(p, &t[i], &t[(i + 1) % 3])),
    )
}
