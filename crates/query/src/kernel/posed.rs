//! Overlap of a volume of A with a volume of B given in B's own frame, under the relative pose
//! of the two meshes: the bounding-volume test of the dual-tree traversal.
//!
//! The relative pose is prepared once per query ([`PosedOverlap::relative`]); no volume of B is
//! ever re-fitted or re-bounded in A's frame as a whole mesh.
//!
//! Every test here is *conservative*: it never reports two volumes that share a point as
//! disjoint, whatever the rounding (the slack terms bound it). It may report overlap for volumes
//! apart by a few units of rounding (or, for k-DOPs and AABBs, by the looseness of the bound
//! described at each impl). So the traversal never misses an intersecting triangle pair.

use nalgebra::Matrix3;
use obbtree_bv::intersect::obb_obb::{self, RelativePose};
use obbtree_bv::intersect::{segment_aabb, segment_obb};
use obbtree_bv::{Aabb, BoundingVolume, Kdop, Obb, Point, Pose, Sphere, Vector};

/// Relative padding of volumes in [`PosedOverlap::meets_segment`], on top of the caller's pad:
/// it dwarfs the rounding of the test itself (a few ulps of the coordinates) and the deviation of
/// the volumes' axes from orthonormal.
const SEGMENT_PAD: f64 = 1e-9;

/// Relative slack of the k-DOP and sphere tests: many times the rounding of their few
/// arithmetic steps (tens of ulps).
const SLACK: f64 = 64.0 * f64::EPSILON;

/// A volume type the dual-tree traversal can test across two frames (and that a tree can be
/// built of with default options).
pub trait PosedOverlap: obbtree_tree::TreeVolume {
    /// The relative pose of B's frame in A's frame, prepared for this volume type.
    type Relative: Send + Sync;

    /// A volume of B moved into A's frame, in whatever form [`PosedOverlap::overlaps`] needs
    /// (with a bound on the rounding of the move where it matters).
    type Placed: Copy + 'static;

    /// Prepares `b_in_a` (the pose of B's frame in A's frame) once per query.
    fn relative(b_in_a: &Pose) -> Self::Relative {
        Self::relative_within(b_in_a, 0.0)
    }

    /// Prepares `b_in_a` for a margin query: [`PosedOverlap::overlaps`] then reports every pair
    /// of volumes whose contents may come within `margin` (finite, non-negative) of each other,
    /// as if one volume of the pair were grown by `margin` on every side. (A point within
    /// `margin` of a box lies in the box grown by `margin` along each of its axes, and likewise
    /// for a slab along a unit axis, so growing the box or the slabs keeps the test
    /// conservative.)
    fn relative_within(b_in_a: &Pose, margin: f64) -> Self::Relative;

    /// Moves a volume of B into A's frame. The traversal does this once per node of B it
    /// visits and tests the result against many nodes of A.
    fn place(b: &Self, rel: &Self::Relative) -> Self::Placed;

    /// Whether `a` (in A's frame) and the placed volume `b` may overlap; conservative. The
    /// traversal tests volumes only while B's node is internal (a leaf of B is compared by the
    /// box around its placed triangles instead), where a false overlap costs a few more volume
    /// tests below, not leaf work: a cheap test that is looser than it could be can pay (see
    /// the OBB impl).
    fn overlaps(a: &Self, b: &Self::Placed, rel: &Self::Relative) -> bool;

    /// A measure of size that decides which tree the traversal descends first (the larger).
    fn size(&self) -> f64;

    /// The squared distance between the centres of `a` and of the placed `b`, which orders a
    /// split's two children (the nearer first); `None` where the placed volume has no centre
    /// in A's frame.
    #[inline]
    fn centre_gap(a: &Self, b: &Self::Placed) -> Option<f64> {
        let _ = (a, b);
        None
    }

    /// Whether the closed segment `p0 p1` (in the volume's frame) may meet the volume grown by
    /// `pad` and by a relative `SEGMENT_PAD` of its own coordinates; conservative. `pad`
    /// (absolute, in the volume's frame) is the caller's bound on how far the segment it means
    /// may lie from `p0 p1`: the rounding of moving a world segment into the mesh frame and of
    /// placing the mesh, which follows the world coordinates and the translation, not the
    /// volume's (a 1 mm cube placed 1e5 away is off by ~1e-11 there, far beyond 1e-9 of its own
    /// coordinates).
    fn meets_segment(&self, p0: &Point, p1: &Point, pad: f64) -> bool;
}

/// The relative pose of the two meshes as box-test data (rotation and |R| + ε computed once),
/// with A's boxes grown by `margin` (through the slack every box test adds to A's extents).
fn relative_pose(b_in_a: &Pose, margin: f64) -> RelativePose {
    let mut rel = RelativePose::new(*b_in_a.rotation(), *b_in_a.translation());
    rel.slack += rounded_up(margin);
    rel
}

/// `margin` with room for the rounding of the few sums it enters in a volume test (each off
/// by at most half an ulp of its result).
fn rounded_up(margin: f64) -> f64 {
    margin * (1.0 + 4.0 * f64::EPSILON)
}

/// An OBB of B in A's frame: centre `R_ab c_B + t_ab`, axes `R_ab B` (orthonormal up to
/// rounding, which the test's `|R| + ε` absorbs), and a bound on the centre's rounding.
#[derive(Clone, Copy, Debug)]
pub struct PlacedObb {
    center: Vector,
    axes: Matrix3<f64>,
    half_extents: Vector,
    slack: f64,
}

/// Gottschalk's OBB–OBB test (its six face axes; Gottschalk, Lin & Manocha 1996; Ericson,
/// *Real-Time Collision Detection* §4.4.1) on the pair's relative pose:
/// with B's box placed in A's frame once per node of B, each pair costs `t = Aᵀ (c'_B - c_A)`
/// and as many rows of `R = Aᵀ (R_ab B)` as the test needs ([`obb_obb::overlaps_lazy`]).
impl PosedOverlap for Obb {
    type Relative = RelativePose;
    type Placed = PlacedObb;

    fn relative_within(b_in_a: &Pose, margin: f64) -> RelativePose {
        relative_pose(b_in_a, margin)
    }

    #[inline]
    fn place(b: &Obb, rel: &RelativePose) -> PlacedObb {
        let rb = rel.rotation * b.center.coords;
        let center = rb + rel.translation;
        // The rounding of the centre's move, and (per pair, with A's centre added in
        // `placed_obbs_overlap`) of the pair's centre offset; and the rounding of B's vertices'
        // placement `R p + t`, which is what the leaf test sees (a vertex has magnitude at most
        // `|c| + Σ h`): without that term, a 1e40 needle's placed vertices, rounded by ~1e24,
        // fell outside its exactly placed box (fuzz/README.md, finding 6).
        let magnitude = rb.abs().sum()
            + rel.translation.abs().sum()
            + center.abs().sum()
            + b.half_extents.sum();
        PlacedObb {
            center,
            axes: rel.rotation * b.axes,
            half_extents: b.half_extents,
            slack: rel.slack + SLACK * magnitude,
        }
    }

    /// The six face axes only (see [`obb_obb::overlaps_lazy`]).
    #[inline]
    fn overlaps(a: &Obb, b: &PlacedObb, _: &RelativePose) -> bool {
        placed_obbs_overlap(a, b)
    }

    #[inline]
    fn size(&self) -> f64 {
        self.half_extents.sum()
    }

    #[inline]
    fn centre_gap(a: &Obb, b: &PlacedObb) -> Option<f64> {
        Some((b.center - a.center.coords).norm_squared())
    }

    fn meets_segment(&self, p0: &Point, p1: &Point, pad: f64) -> bool {
        let pad = pad + SEGMENT_PAD * (self.center.coords.abs().sum() + self.half_extents.sum());
        let grown = Obb {
            half_extents: self.half_extents.add_scalar(pad),
            ..*self
        };
        segment_obb::overlaps(p0, p1, &grown)
    }
}

/// [`obb_obb::overlaps_lazy`] (the six face axes) on A's box and B's placed box.
#[inline]
fn placed_obbs_overlap(a: &Obb, b: &PlacedObb) -> bool {
    let slack = b.slack + SLACK * a.center.coords.abs().sum();
    obb_obb::overlaps_lazy(a, &b.center, &b.axes, &b.half_extents, slack)
}

/// AABBs as boxes: A's box against B's box rotated into A's frame by the same 15-axis test. The
/// rotation part `R_ab` (and `|R_ab| + ε`) is the same for every node pair, so only the centre
/// offset is computed per pair. Exact for boxes (no re-bounding of B's box in A's frame).
impl PosedOverlap for Aabb {
    type Relative = RelativePose;
    /// Centre in A's frame, half-extents, rounding bound.
    type Placed = (Vector, Vector, f64);

    fn relative_within(b_in_a: &Pose, margin: f64) -> RelativePose {
        relative_pose(b_in_a, margin)
    }

    #[inline]
    fn place(b: &Aabb, rel: &RelativePose) -> (Vector, Vector, f64) {
        let rb = rel.rotation * b.center().coords;
        // The centre's move and B's vertices' placement (magnitude at most `|c| + Σ h`).
        let magnitude = rb.abs().sum() + rel.translation.abs().sum() + half(b).sum();
        let slack = rel.slack + SLACK * magnitude;
        (rb + rel.translation, half(b), slack)
    }

    #[inline]
    fn overlaps(a: &Aabb, &(cb, hb, slack): &(Vector, Vector, f64), rel: &RelativePose) -> bool {
        let ca = a.center().coords;
        let pair = RelativePose {
            translation: cb - ca,
            slack: slack + SLACK * (cb.abs().sum() + ca.abs().sum()),
            ..*rel
        };
        obb_obb::overlaps_posed(&half(a), &hb, &pair)
    }

    fn size(&self) -> f64 {
        half(self).sum()
    }

    #[inline]
    fn centre_gap(a: &Aabb, &(cb, _, _): &(Vector, Vector, f64)) -> Option<f64> {
        Some((cb - a.center().coords).norm_squared())
    }

    fn meets_segment(&self, p0: &Point, p1: &Point, pad: f64) -> bool {
        segment_aabb::overlaps(p0, p1, &grown(self, SEGMENT_PAD, pad))
    }
}

fn half(b: &Aabb) -> Vector {
    (b.maxs - b.mins) * 0.5
}

/// The box around the segment `p0 p1` grown as [`PosedOverlap::meets_segment`] grows an
/// [`Aabb`]: by `pad` and [`SEGMENT_PAD`] of its coordinates.
pub(crate) fn grown_segment_box(p0: &Point, p1: &Point, pad: f64) -> Aabb {
    grown(&Aabb::from_points([p0, p1]), SEGMENT_PAD, pad)
}

/// The box grown on every side by `rel` times its coordinates' magnitude plus its size, and by
/// `pad`.
fn grown(b: &Aabb, rel: f64, pad: f64) -> Aabb {
    widened(
        b,
        pad + rel * (b.mins.coords.abs().sum() + b.maxs.coords.abs().sum()),
    )
}

/// The relative pose of the two meshes and the margin B's volumes are grown by (rounded up).
#[derive(Clone, Copy, Debug)]
pub struct PoseAndMargin {
    pose: Pose,
    margin: f64,
}

/// The box grown by `m` on every side.
fn widened(b: &Aabb, m: f64) -> Aabb {
    Aabb::new(b.mins.map(|x| x - m), b.maxs.map(|x| x + m))
}

/// Spheres: the centre of B's sphere moved into A's frame, then the distance test.
impl PosedOverlap for Sphere {
    type Relative = PoseAndMargin;
    /// B's sphere with its centre in A's frame and its radius grown by the move's rounding
    /// (and by the margin).
    type Placed = Sphere;

    fn relative_within(b_in_a: &Pose, margin: f64) -> PoseAndMargin {
        PoseAndMargin {
            pose: *b_in_a,
            margin: rounded_up(margin),
        }
    }

    #[inline]
    fn place(b: &Sphere, rel: &PoseAndMargin) -> Sphere {
        let c = rel.pose.transform_point(&b.center);
        // The centre's move and B's vertices' placement (magnitude at most `|c| + r`).
        let slack = SLACK * (c.coords.abs().sum() + rel.pose.translation().abs().sum() + b.radius);
        Sphere::new(c, b.radius + slack + rel.margin)
    }

    #[inline]
    fn overlaps(a: &Sphere, b: &Sphere, _: &PoseAndMargin) -> bool {
        let r = a.radius + b.radius;
        let r = r + SLACK * (b.center.coords.abs().sum() + a.center.coords.abs().sum() + r);
        (b.center - a.center).norm_squared() <= r * r
    }

    fn size(&self) -> f64 {
        self.radius
    }

    #[inline]
    fn centre_gap(a: &Sphere, b: &Sphere) -> Option<f64> {
        Some((b.center - a.center).norm_squared())
    }

    fn meets_segment(&self, p0: &Point, p1: &Point, pad: f64) -> bool {
        let d = p1 - p0;
        let len2 = d.norm_squared();
        let t = if len2 > 0.0 {
            ((self.center - p0).dot(&d) / len2).clamp(0.0, 1.0)
        } else {
            0.0
        };
        let r = self.radius + pad + SEGMENT_PAD * (self.center.coords.abs().sum() + self.radius);
        (p0 + d * t - self.center).norm_squared() <= r * r
    }
}

/// The relative pose prepared for k-DOPs: B's slab directions in A's frame and A's in B's.
#[derive(Clone, Debug)]
pub struct KdopRelative<const A: usize> {
    /// The slab axes (computed once: [`Kdop::axes`] builds them).
    axes: [Vector; A],
    pose: Pose,
    inverse: Pose,
    /// `|Rᵀ n_i| + ε` for A's axes `n_i`: B's box's projected radius on A's slab `i`.
    a_axes_in_b: [Vector; A],
    /// `|R n_j| + ε` for B's axes `n_j`: A's box's projected radius on B's slab `j`.
    b_axes_in_a: [Vector; A],
    /// How far the boxes are grown on every side (the margin, rounded up).
    margin: f64,
}

/// k-DOPs (fixed slab axes, so a rotated k-DOP is no k-DOP): conservative test in two halves.
/// B's k-DOP is bounded by its AABB (its first three slabs), that box is rotated into A's frame
/// and its support interval along each of A's slab axes compared with A's slab (Ericson,
/// Real-Time Collision Detection §4.6.2, projecting a box on an axis); then the same with the
/// roles swapped (A's AABB in B's frame against B's slabs). For a margin query both boxes are
/// grown by the margin: a point within the margin of B's contents lies in B's grown box, and
/// likewise for A.
impl<const A: usize> PosedOverlap for Kdop<A> {
    type Relative = KdopRelative<A>;
    /// B's k-DOP itself (the test places its box).
    type Placed = Kdop<A>;

    fn relative_within(b_in_a: &Pose, margin: f64) -> KdopRelative<A> {
        let r = b_in_a.rotation();
        let axes = Self::axes();
        KdopRelative {
            axes,
            pose: *b_in_a,
            inverse: b_in_a.inverse(),
            a_axes_in_b: axes.map(|n| (r.tr_mul(&n)).abs().add_scalar(obb_obb::PARALLEL_EPS)),
            b_axes_in_a: axes.map(|n| (r * n).abs().add_scalar(obb_obb::PARALLEL_EPS)),
            margin: rounded_up(margin),
        }
    }

    #[inline]
    fn place(b: &Self, _: &KdopRelative<A>) -> Self {
        *b
    }

    #[inline]
    fn overlaps(a: &Self, b: &Self, rel: &KdopRelative<A>) -> bool {
        let (box_a, box_b) = (
            widened(&a.aabb(), rel.margin),
            widened(&b.aabb(), rel.margin),
        );
        slabs_meet_box(a, &box_b, &rel.pose, &rel.axes, &rel.a_axes_in_b)
            && slabs_meet_box(b, &box_a, &rel.inverse, &rel.axes, &rel.b_axes_in_a)
    }

    fn size(&self) -> f64 {
        half(&self.aabb()).sum()
    }

    fn meets_segment(&self, p0: &Point, p1: &Point, pad: f64) -> bool {
        let axes = Self::axes();
        let sep = (0..A).any(|i| {
            let (d0, d1) = (axes[i].dot(&p0.coords), axes[i].dot(&p1.coords));
            // The slab axes have length up to √2: the pad along them, `pad · |aᵢ|`, is below 2·pad.
            let pad = 2.0 * pad + SEGMENT_PAD * (self.min[i].abs() + self.max[i].abs() + d0.abs());
            d0.min(d1) > self.max[i] + pad || d0.max(d1) < self.min[i] - pad
        });
        !sep
    }
}

/// Whether the box `b` (in its own frame, placed by `pose` in the k-DOP's frame) may meet the
/// slabs of `kdop` (slab directions `axes`); `radii[i]` is `|pose.rotationᵀ n_i| + ε`.
#[inline]
fn slabs_meet_box<const A: usize>(
    kdop: &Kdop<A>,
    b: &Aabb,
    pose: &Pose,
    axes: &[Vector; A],
    radii: &[Vector; A],
) -> bool {
    let c = pose.transform_point(&b.center());
    let h = half(b);
    // The rounding of this test, and of B's vertices placed in A's frame (`R p + t` in f64,
    // what the leaf test sees): at most a few ulps of `|p| + |t|`, with `|p|` bounded by the
    // box or k-DOP of B and `|t|` the translation (the same in both directions). Without the
    // translation term a point of B at 1.25e-60, moved by 1.25 onto A's point 1.25, was found
    // 1.25e-60 away in B's frame (fuzz/README.md, finding 3).
    // A vertex's rounding is not confined to the slab's direction: a 1e40 needle along z,
    // rotated, moves by ~1e24 across its thin x and y slabs too, so the k-DOP's largest slab
    // value bounds its vertices' magnitude here.
    let extent = kdop
        .min
        .iter()
        .chain(&kdop.max)
        .fold(0.0f64, |m, v| m.max(v.abs()));
    let magnitude = c.coords.abs().sum() + h.sum() + pose.translation().abs().sum();
    let slack = SLACK * (magnitude * 3.0 + extent);
    (0..A).all(|i| {
        let proj = axes[i].dot(&c.coords);
        let r = radii[i].dot(&h);
        proj - r <= kdop.max[i] + slack && proj + r >= kdop.min[i] - slack
    })
}
