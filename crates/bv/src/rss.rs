//! Rectangle swept sphere (RSS): the points within a radius of a rectangle (Larsen,
//! Gottschalk, Lin & Manocha, "Fast Proximity Queries with Swept Sphere Volumes", 1999
//! technical report TR99-018 / ICRA 2000): the volume PQP, FCL and coal use for distance
//! queries, because the distance between two of them is the distance between two rectangles
//! minus the radii ([`crate::distance::rss_rss`]).

use crate::fit::covariance::{self, TriangleMoments};
use crate::fit::predicate_safe;
use crate::{BoundingVolume, Point, Pose, Vector};
use nalgebra::Matrix3;
use serde::{Deserialize, Serialize};

/// The closed set of points within `radius` of the rectangle
/// `corner + x·axes[0] + y·axes[1]`, `0 <= x <= lengths[0]`, `0 <= y <= lengths[1]`, where
/// `axes[k]` is column `k` of `axes`. 120 bytes, as PQP's.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rss {
    /// Orthonormal, right-handed axes as columns: the rectangle's two directions, then its
    /// normal.
    pub axes: Matrix3<f64>,
    /// The rectangle's corner at `x = y = 0`.
    pub corner: Point,
    /// The rectangle's side lengths along `axes[0]` and `axes[1]` (non-negative).
    pub lengths: [f64; 2],
    /// The swept sphere's radius (non-negative).
    pub radius: f64,
}

/// A ball to be covered by a fit: centre and radius (0 for a point).
type Ball = (Point, f64);

impl Rss {
    /// `p` in the RSS's frame: `axesᵀ (p − corner)`. [`Rss::contains_point`] measures with
    /// exactly this arithmetic.
    pub fn local(&self, p: &Point) -> Vector {
        self.axes.tr_mul(&(p - self.corner))
    }

    /// The distance from `p` to the rectangle, from its local coordinates.
    fn rectangle_distance(&self, l: &Vector) -> f64 {
        let dx = l.x - l.x.clamp(0.0, self.lengths[0]);
        let dy = l.y - l.y.clamp(0.0, self.lengths[1]);
        (dx * dx + dy * dy + l.z * l.z).sqrt()
    }

    /// The rectangle's four corners.
    pub fn corners(&self) -> [Point; 4] {
        let (u, v) = (self.axes.column(0), self.axes.column(1));
        let (a, b) = (u * self.lengths[0], v * self.lengths[1]);
        [
            self.corner,
            self.corner + a,
            self.corner + a + b,
            self.corner + b,
        ]
    }

    /// [`BoundingVolume::fit_triangles_with_moments`] from the triangles' `moments` and any
    /// list of points holding each of their vertices (repeats allowed, e.g. each vertex once
    /// instead of once per triangle naming it): the same frame, and the RSS around the same
    /// point set. `None` when the triangles have no area in floating point (or their sums
    /// overflow), where the fit needs the triangles themselves.
    pub fn fit_moments_around(moments: &[TriangleMoments], points: &[Point]) -> Option<Self> {
        let covariance = covariance::moments_covariance(moments)?;
        Some(Self::from_axes(
            covariance::eigen_frame(&covariance),
            points,
        ))
    }

    /// An RSS along `axes` (orthonormal columns, the normal last) containing `points`
    /// (non-empty): [`Rss::around_balls`] with radius 0.
    pub fn from_axes(axes: Matrix3<f64>, points: &[Point]) -> Self {
        Self::around_balls(axes, points.iter().map(|&p| (p, 0.0)))
    }

    /// An RSS along `axes` containing the balls `(centre, radius)` (non-empty), in the
    /// manner of PQP's RSS fit (Larsen et al. 1999, §4): the radius is half the balls' spread
    /// along the normal `axes[2]`, and the rectangle the one that brings every ball within
    /// reach, i.e. at a height `h` above the rectangle's plane a ball of radius `ρ` needs the
    /// rectangle within `√((radius − ρ)² − h²)` in the plane. The rectangle is first fitted
    /// along each side separately, then widened along `axes[0]` for balls that its corners
    /// leave uncovered.
    ///
    /// All in coordinates relative to the first ball; the radius is then padded by a bound on
    /// the rounding of those coordinates, of the corner's placement and of
    /// [`Rss::contains_point`]'s arithmetic, and on the axes' departure from orthonormality
    /// (as [`Obb`](crate::Obb)'s one-pass fit does), so every ball lies in the returned RSS
    /// exactly and every point passes `contains_point(p, 0.0)`.
    pub fn around_balls(axes: Matrix3<f64>, balls: impl IntoIterator<Item = Ball>) -> Self {
        let balls: Vec<Ball> = balls.into_iter().collect();
        let origin = balls.first().expect("an RSS fit needs a point").0;
        let local: Vec<(Vector, f64)> = balls
            .iter()
            .map(|(p, r)| (axes.tr_mul(&(p - origin)), *r))
            .collect();
        let (low, high) = local
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), (l, r)| {
                (lo.min(l.z - r), hi.max(l.z + r))
            });
        let radius = 0.5 * (high - low);
        let height = 0.5 * (high + low);
        // Each ball's reach in the plane, once for the three passes below.
        let reaches: Vec<f64> = local
            .iter()
            .map(|(l, r)| {
                let (room, h) = (radius - r, l.z - height);
                (room * room - h * h).max(0.0).sqrt()
            })
            .collect();
        let side = |k: usize| {
            let (lo, hi) = local
                .iter()
                .zip(&reaches)
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), (b, &rho)| {
                    (lo.min(b.0[k] + rho), hi.max(b.0[k] - rho))
                });
            if lo <= hi {
                (lo, hi)
            } else {
                let mid = 0.5 * (lo + hi);
                (mid, mid)
            }
        };
        let ((mut x0, mut x1), (y0, y1)) = (side(0), side(1));
        for (b, &rho) in local.iter().zip(&reaches) {
            let l = &b.0;
            let dy = (y0 - l.y).max(l.y - y1).max(0.0);
            let room = (rho * rho - dy * dy).max(0.0).sqrt();
            x0 = x0.min(l.x + room);
            x1 = x1.max(l.x - room);
        }
        let offset = Vector::new(x0, y0, height);
        let corner = origin + axes * offset;
        let delta = (axes.tr_mul(&axes) - Matrix3::identity()).amax();
        let magnitude = local
            .iter()
            .fold(0.0, |m: f64, (l, r)| m.max(l.abs().sum() + r))
            + offset.abs().sum()
            + origin.coords.abs().sum()
            + corner.coords.abs().sum()
            + radius;
        let pad = (64.0 * f64::EPSILON + 8.0 * delta) * magnitude;
        Self {
            axes,
            corner,
            lengths: [x1 - x0, y1 - y0],
            radius: radius + pad,
        }
    }

    /// The covariance frame of `points` (computed on a scaled copy when the coordinates leave
    /// the range where the covariance is safe, as [`crate::fit::obb`] does).
    fn vertex_frame(points: &[Point]) -> Matrix3<f64> {
        let covariance = match predicate_safe(points) {
            Some(s) => covariance::vertex_covariance(&points.iter().map(&s).collect::<Vec<_>>()),
            None => covariance::vertex_covariance(points),
        };
        covariance::eigen_frame(&covariance)
    }

    /// The triangles' area-weighted covariance frame (given their moments), or, when the
    /// total area is zero or the sums overflow, the covariance frame of a safely scaled copy.
    fn triangle_frame(triangles: &[[Point; 3]], moments: &[TriangleMoments]) -> Matrix3<f64> {
        if let Some(c) = covariance::moments_covariance(moments) {
            return covariance::eigen_frame(&c);
        }
        let points = triangles.as_flattened();
        match predicate_safe(points) {
            Some(s) => {
                let scaled: Vec<[Point; 3]> = triangles.iter().map(|t| t.map(|p| s(&p))).collect();
                covariance::triangle_covariance(&scaled)
                    .map(|c| covariance::eigen_frame(&c))
                    .unwrap_or_else(|| Self::vertex_frame(points))
            }
            None => Self::vertex_frame(points),
        }
    }
}

impl BoundingVolume for Rss {
    /// An RSS has one fit: along the covariance frame (PQP's), see [`Rss::around_balls`].
    type Method = ();

    /// Along the points' covariance frame (as PQP).
    fn fit_points(points: &[Point], _: ()) -> Self {
        Self::from_axes(Self::vertex_frame(points), points)
    }

    /// Along the triangles' area-weighted covariance frame (the OBB default's).
    fn fit_triangles(triangles: &[[Point; 3]], _: ()) -> Self {
        let moments: Vec<TriangleMoments> = triangles.iter().map(TriangleMoments::of).collect();
        Self::fit_triangles_with_moments(triangles, &moments, ())
    }

    fn fit_triangles_with_moments(
        triangles: &[[Point; 3]],
        moments: &[TriangleMoments],
        _: (),
    ) -> Self {
        Self::from_axes(
            Self::triangle_frame(triangles, moments),
            triangles.as_flattened(),
        )
    }

    /// The RSS around both inputs' rectangle corners, each as a ball of its RSS's radius (grown
    /// by the corners' rounding), along either input's axes: the smaller wins.
    fn merge(&self, other: &Self) -> Self {
        let balls = |r: &Rss| {
            let pad =
                8.0 * f64::EPSILON * (r.corner.coords.abs().sum() + r.lengths[0] + r.lengths[1]);
            r.corners().map(|c| (c, r.radius + pad))
        };
        let all: Vec<Ball> = balls(self).into_iter().chain(balls(other)).collect();
        [self.axes, other.axes]
            .map(|axes| Self::around_balls(axes, all.iter().copied()))
            .into_iter()
            .min_by(|a, b| a.volume().total_cmp(&b.volume()))
            .expect("two candidates")
    }

    /// The moved RSS (an RSS stays one): axes re-orthonormalised after the rotation, radius
    /// padded by the move's rounding.
    fn transformed(&self, motion: &Pose) -> Self {
        let axes = covariance::orthonormalize(&(motion.rotation() * self.axes));
        let corner = motion.transform_point(&self.corner);
        let pad = 64.0
            * f64::EPSILON
            * (corner.coords.abs().sum() + self.lengths[0] + self.lengths[1] + self.radius);
        Self {
            axes,
            corner,
            lengths: self.lengths,
            radius: self.radius + pad,
        }
    }

    /// The distance from `p` to the rectangle, measured in [`Rss::local`] coordinates, is at
    /// most `radius + tolerance`.
    fn contains_point(&self, p: &Point, tolerance: f64) -> bool {
        self.rectangle_distance(&self.local(p)) <= self.radius + tolerance
    }

    /// `2r·A + (π r² / 2)·P + (4/3)π r³` for the rectangle's area `A` and perimeter `P`
    /// (Steiner's formula for a flat convex set).
    fn volume(&self) -> f64 {
        let [a, b] = self.lengths;
        let r = self.radius;
        let pi = std::f64::consts::PI;
        2.0 * r * a * b + 0.5 * pi * r * r * 2.0 * (a + b) + 4.0 / 3.0 * pi * r * r * r
    }

    /// `2A + π r P + 4π r²`.
    fn surface_area(&self) -> f64 {
        let [a, b] = self.lengths;
        let r = self.radius;
        let pi = std::f64::consts::PI;
        2.0 * a * b + pi * r * 2.0 * (a + b) + 4.0 * pi * r * r
    }

    /// The rectangle's centre.
    fn center(&self) -> Point {
        self.corner
            + self.axes.column(0) * (0.5 * self.lengths[0])
            + self.axes.column(1) * (0.5 * self.lengths[1])
    }

    /// The RSS's own axes, longest extent first, ties in axis order.
    fn split_axes(&self) -> Option<[Vector; 3]> {
        let extent = [self.lengths[0], self.lengths[1], 0.0];
        let mut order = [0, 1, 2];
        order.sort_by(|&a, &b| extent[b].total_cmp(&extent[a]));
        Some(order.map(|i| self.axes.column(i).into_owned()))
    }
}
