//! Lower bounds on the distance between a volume of A and a volume of B placed by the relative
//! pose of the two meshes: the pruning test of the distance walk, one implementation per volume
//! type, each a thin layer over that pair's file in [`obbtree_bv::distance`].
//!
//! Every bound is *conservative*: never above the distance between any point of the two
//! volumes, nor between A's volume and B's vertices as the leaf test sees them (placed by
//! `R·p + t` in `f64`), whatever the rounding. So pruning a node pair whose bound is at least
//! the best distance found never loses a closer triangle pair.

use obbtree_bv::distance::{aabb_aabb, kdop_kdop, obb_obb, rss_rss, sphere_sphere};
use nalgebra::Matrix3;
use obbtree_bv::{Aabb, BoundingVolume, Kdop, Obb, Pose, Rss, Sphere, Vector};

/// A volume type the distance walk can bound node pairs with across two frames.
pub trait DistanceVolume: BoundingVolume + Send + Sync + 'static {
    /// The relative pose of B's frame in A's frame, prepared for this volume type.
    type Relative: Send + Sync;

    /// A volume of B moved into A's frame, in the form [`DistanceVolume::lower_bound`] needs
    /// (with a bound on the rounding of the move). The walk places each node of B it visits
    /// once per query and measures it against many nodes of A.
    type Placed: Copy + 'static;

    /// Prepares `b_in_a` (the pose of B's frame in A's frame) once per query.
    fn relative(b_in_a: &Pose) -> Self::Relative;

    /// Moves a volume of B into A's frame.
    fn place(b: &Self, rel: &Self::Relative) -> Self::Placed;

    /// A lower bound on the distance between `a` (in A's frame) and the placed `b`;
    /// conservative (see the module docs). Negative: they may meet.
    fn lower_bound(a: &Self, b: &Self::Placed, rel: &Self::Relative) -> f64;

    /// A measure of size that decides which node of a pair the walk splits (the larger).
    fn size(&self) -> f64;

    /// The interval `[low, high]` of the volume's projections onto `n` (in its own frame), up
    /// to rounding.
    fn support(&self, n: &Vector) -> [f64; 2];
}

/// The projections of a box with centre `c` and half-extents `h` along its axes `axes` onto
/// `n`.
#[inline(always)]
fn box_support(c: &Vector, axes: &Matrix3<f64>, h: &Vector, n: &Vector) -> [f64; 2] {
    let along = axes.tr_mul(n);
    let centre = c.dot(n);
    let reach = h.dot(&along.abs());
    [centre - reach, centre + reach]
}

/// Rectangle swept spheres: the distance between the rectangles less both radii (Larsen,
/// Gottschalk, Lin & Manocha 1999; [`rss_rss`]).
impl DistanceVolume for Rss {
    type Relative = Pose;
    type Placed = rss_rss::PlacedRss;

    fn relative(b_in_a: &Pose) -> Pose {
        *b_in_a
    }

    #[inline]
    fn place(b: &Rss, rel: &Pose) -> rss_rss::PlacedRss {
        rss_rss::PlacedRss::new(b, rel.rotation(), rel.translation())
    }

    #[inline]
    fn lower_bound(a: &Rss, b: &rss_rss::PlacedRss, _: &Pose) -> f64 {
        match super::traverse::projections() {
            0 => rss_rss::lower_bound(a, b),
            k => rss_rss::lower_bound_projected(a, b, k as usize),
        }
    }

    #[inline]
    fn size(&self) -> f64 {
        match super::traverse::split_rule() {
            1 => self.radius,
            2 => (self.lengths[0] * self.lengths[0] + self.lengths[1] * self.lengths[1]).sqrt() * 0.5 + self.radius,
            3 => self.lengths[0] * self.lengths[1] + 3.14 * self.radius * (self.lengths[0] + self.lengths[1]) + 2.0 * self.radius * self.radius,
            4 => self.lengths[0].max(self.lengths[1]) + 2.0 * self.radius,
            _ => self.lengths[0] + self.lengths[1] + 2.0 * self.radius,
        }
    }

    #[inline]
    fn support(&self, n: &Vector) -> [f64; 2] {
        let centre = self.corner.coords.dot(n);
        let e0 = self.lengths[0] * self.axes.column(0).dot(n);
        let e1 = self.lengths[1] * self.axes.column(1).dot(n);
        [
            centre + e0.min(0.0) + e1.min(0.0) - self.radius,
            centre + e0.max(0.0) + e1.max(0.0) + self.radius,
        ]
    }
}

/// Oriented boxes: the largest gap over the fifteen separating axes and the centre line
/// ([`obb_obb`]).
impl DistanceVolume for Obb {
    type Relative = Pose;
    type Placed = obb_obb::PlacedObb;

    fn relative(b_in_a: &Pose) -> Pose {
        *b_in_a
    }

    #[inline]
    fn place(b: &Obb, rel: &Pose) -> obb_obb::PlacedObb {
        obb_obb::PlacedObb::new(b, rel.rotation(), rel.translation())
    }

    #[inline]
    fn lower_bound(a: &Obb, b: &obb_obb::PlacedObb, _: &Pose) -> f64 {
        obb_obb::lower_bound(a, b)
    }

    #[inline]
    fn size(&self) -> f64 {
        self.half_extents.sum()
    }

    #[inline]
    fn support(&self, n: &Vector) -> [f64; 2] {
        box_support(&self.center.coords, &self.axes, &self.half_extents, n)
    }
}

/// Axis-aligned boxes: B's box turned into A's frame stays the oriented box it is
/// ([`aabb_aabb`]).
impl DistanceVolume for Aabb {
    type Relative = Pose;
    type Placed = obb_obb::PlacedObb;

    fn relative(b_in_a: &Pose) -> Pose {
        *b_in_a
    }

    #[inline]
    fn place(b: &Aabb, rel: &Pose) -> obb_obb::PlacedObb {
        aabb_aabb::place(b, rel.rotation(), rel.translation())
    }

    #[inline]
    fn lower_bound(a: &Aabb, b: &obb_obb::PlacedObb, _: &Pose) -> f64 {
        aabb_aabb::lower_bound(a, b)
    }

    #[inline]
    fn size(&self) -> f64 {
        (self.maxs - self.mins).sum()
    }

    #[inline]
    fn support(&self, n: &Vector) -> [f64; 2] {
        aabb_support(self, n)
    }
}

/// Balls: the distance between the centres less both radii ([`sphere_sphere`]).
impl DistanceVolume for Sphere {
    type Relative = Pose;
    type Placed = Sphere;

    fn relative(b_in_a: &Pose) -> Pose {
        *b_in_a
    }

    #[inline]
    fn place(b: &Sphere, rel: &Pose) -> Sphere {
        sphere_sphere::place(b, rel.rotation(), rel.translation())
    }

    #[inline]
    fn lower_bound(a: &Sphere, b: &Sphere, _: &Pose) -> f64 {
        sphere_sphere::lower_bound(a, b)
    }

    #[inline]
    fn size(&self) -> f64 {
        self.radius
    }

    #[inline]
    fn support(&self, n: &Vector) -> [f64; 2] {
        let centre = self.center.coords.dot(n);
        let reach = self.radius * n.norm();
        [centre - reach, centre + reach]
    }
}

/// k-DOPs: each side's box measured against the other's slabs ([`kdop_kdop`]).
impl<const A: usize> DistanceVolume for Kdop<A> {
    type Relative = kdop_kdop::KdopPose<A>;
    type Placed = Kdop<A>;

    fn relative(b_in_a: &Pose) -> kdop_kdop::KdopPose<A> {
        kdop_kdop::KdopPose::new(b_in_a.rotation(), b_in_a.translation())
    }

    #[inline]
    fn place(b: &Self, _: &kdop_kdop::KdopPose<A>) -> Self {
        *b
    }

    #[inline]
    fn lower_bound(a: &Self, b: &Self, rel: &kdop_kdop::KdopPose<A>) -> f64 {
        kdop_kdop::lower_bound(a, b, rel)
    }

    #[inline]
    fn size(&self) -> f64 {
        let b = self.aabb();
        (b.maxs - b.mins).sum()
    }

    #[inline]
    fn support(&self, n: &Vector) -> [f64; 2] {
        aabb_support(&self.aabb(), n)
    }
}

/// The projections of an axis-aligned box onto `n`.
#[inline(always)]
pub(crate) fn aabb_support(b: &Aabb, n: &Vector) -> [f64; 2] {
    let centre = (b.mins.coords + b.maxs.coords).dot(n) * 0.5;
    let reach = ((b.maxs - b.mins) * 0.5).dot(&n.abs());
    [centre - reach, centre + reach]
}
