//! Lower bounds on the distance between posed volumes (`distance::{rss_rss, obb_obb,
//! aabb_aabb, sphere_sphere, kdop_kdop}`), against the exact rational oracle of
//! `common/distance.rs`, with B moved to touch, nearly touch or clear A under random, nearly
//! identical and quarter-turn rotations, at scales from 1e-50 to 1e80:
//! * never above the exact distance between the triangles fitted inside the two volumes (box
//!   corners, flat rectangles, diameters, random triangles), B's vertices placed by `R·p + t`
//!   in floating point as the leaf tests see them;
//! * never above the exact distance between points on the boundaries of volumes built without
//!   fitting (hence without the fits' padding) on a dyadic grid, so that the check bites at
//!   the rounding level: with any of the bounds' pads removed, these tests fail;
//! * the RSS and sphere bounds are tight (within `1e-8` of the magnitudes).

mod common;

use common::config_with;
use common::distance::triangle_distance_squared;
use common::exact::q;
use nalgebra::{Matrix3, UnitQuaternion};
use num_rational::BigRational;
use obbtree_bv::distance::kdop_kdop::KdopPose;
use obbtree_bv::distance::obb_obb::PlacedObb;
use obbtree_bv::distance::rss_rss::PlacedRss;
use obbtree_bv::distance::{aabb_aabb, kdop_kdop, obb_obb, rss_rss, sphere_sphere, tri_tri};
use obbtree_bv::fit::ObbFit;
use obbtree_bv::{Aabb, BoundingVolume, Kdop18, Kdop6, Obb, Point, Rss, Sphere, Triangle, Vector};
use proptest::prelude::*;

/// A volume type with a posed lower bound.
trait Bounded: BoundingVolume {
    type Placed;
    fn fit(points: &[Point]) -> Self;
    fn place(&self, rotation: &Matrix3<f64>, translation: &Vector) -> Self::Placed;
    fn bound(a: &Self, b: &Self::Placed) -> f64;
}

impl Bounded for Rss {
    type Placed = PlacedRss;
    fn fit(points: &[Point]) -> Self {
        Rss::fit_points(points, ())
    }
    fn place(&self, rotation: &Matrix3<f64>, translation: &Vector) -> PlacedRss {
        PlacedRss::new(self, rotation, translation)
    }
    fn bound(a: &Self, b: &PlacedRss) -> f64 {
        rss_rss::lower_bound(a, b)
    }
}

impl Bounded for Obb {
    type Placed = PlacedObb;
    fn fit(points: &[Point]) -> Self {
        Obb::fit_points(points, ObbFit::VertexCovariance)
    }
    fn place(&self, rotation: &Matrix3<f64>, translation: &Vector) -> PlacedObb {
        PlacedObb::new(self, rotation, translation)
    }
    fn bound(a: &Self, b: &PlacedObb) -> f64 {
        obb_obb::lower_bound(a, b)
    }
}

impl Bounded for Aabb {
    type Placed = PlacedObb;
    fn fit(points: &[Point]) -> Self {
        Aabb::fit_points(points, ())
    }
    fn place(&self, rotation: &Matrix3<f64>, translation: &Vector) -> PlacedObb {
        aabb_aabb::place(self, rotation, translation)
    }
    fn bound(a: &Self, b: &PlacedObb) -> f64 {
        aabb_aabb::lower_bound(a, b)
    }
}

impl Bounded for Sphere {
    type Placed = Sphere;
    fn fit(points: &[Point]) -> Self {
        Sphere::fit_points(points, Default::default())
    }
    fn place(&self, rotation: &Matrix3<f64>, translation: &Vector) -> Sphere {
        sphere_sphere::place(self, rotation, translation)
    }
    fn bound(a: &Self, b: &Sphere) -> f64 {
        sphere_sphere::lower_bound(a, b)
    }
}

impl<const A: usize> Bounded for obbtree_bv::Kdop<A> {
    type Placed = (Self, KdopPose<A>);
    fn fit(points: &[Point]) -> Self {
        Self::fit_points(points, ())
    }
    fn place(&self, rotation: &Matrix3<f64>, translation: &Vector) -> (Self, KdopPose<A>) {
        (*self, KdopPose::new(rotation, translation))
    }
    fn bound(a: &Self, (b, pose): &(Self, KdopPose<A>)) -> f64 {
        kdop_kdop::lower_bound(a, b, pose)
    }
}

/// A shape as points and the triangles over them (its hull, for the tight shapes).
#[derive(Clone, Debug)]
struct Shape {
    points: Vec<Point>,
    triangles: Vec<[usize; 3]>,
}

/// The twelve triangles of the box with corners indexed by bits (x: 1, y: 2, z: 4).
const BOX_FACES: [[usize; 3]; 12] = [
    [0, 1, 3],
    [0, 3, 2],
    [4, 5, 7],
    [4, 7, 6],
    [0, 1, 5],
    [0, 5, 4],
    [2, 3, 7],
    [2, 7, 6],
    [0, 2, 6],
    [0, 6, 4],
    [1, 3, 7],
    [1, 7, 5],
];

/// Tight shapes (their volume is their hull) and loose ones.
fn shape() -> impl Strategy<Value = Shape> {
    let size = || 0.05..1.0f64;
    let tilt = (-3.0..3.0f64, [-1.0..1.0f64, -1.0..1.0f64, -1.0..1.0f64]);
    prop_oneof![
        // Box corners along a random frame.
        (size(), size(), size(), tilt.clone(), any::<bool>()).prop_map(
            |(a, b, c, (angle, axis), aligned)| {
                let r = if aligned {
                    Matrix3::identity()
                } else {
                    rotation(angle, axis)
                };
                let points = (0..8)
                    .map(|i| {
                        let s = |bit: usize, l: f64| if i & bit == 0 { -l } else { l };
                        Point::from(r * Vector::new(s(1, a), s(2, b), s(4, c)))
                    })
                    .collect();
                Shape {
                    points,
                    triangles: BOX_FACES.to_vec(),
                }
            }
        ),
        // A flat rectangle.
        (size(), size(), tilt.clone()).prop_map(|(a, b, (angle, axis))| {
            let r = rotation(angle, axis);
            let points = [(-a, -b), (a, -b), (a, b), (-a, b)]
                .map(|(x, y)| Point::from(r * Vector::new(x, y, 0.0)))
                .to_vec();
            Shape {
                points,
                triangles: vec![[0, 1, 2], [0, 2, 3]],
            }
        }),
        // A diameter (a segment).
        (size(), tilt).prop_map(|(a, (angle, axis))| {
            let r = rotation(angle, axis);
            let points = vec![
                Point::from(r * Vector::new(-a, 0.0, 0.0)),
                Point::from(r * Vector::new(a, 0.0, 0.0)),
            ];
            Shape {
                points,
                triangles: vec![[0, 1, 1]],
            }
        }),
        // A few random triangles.
        prop::collection::vec([-1.0..1.0f64, -1.0..1.0f64, -1.0..1.0f64], 3..9).prop_map(|v| {
            let points: Vec<Point> = v.iter().map(|c| Point::new(c[0], c[1], c[2])).collect();
            let n = points.len();
            Shape {
                points,
                triangles: (0..n - 2).map(|i| [i, i + 1, i + 2]).collect(),
            }
        }),
    ]
}

fn rotation(angle: f64, axis: [f64; 3]) -> Matrix3<f64> {
    let axis = Vector::from(axis);
    if axis.norm() < 1e-3 {
        return Matrix3::identity();
    }
    UnitQuaternion::from_scaled_axis(axis.normalize() * angle)
        .to_rotation_matrix()
        .into_inner()
}

/// Poses: random, nearly the identity, the identity, a quarter turn.
fn pose_rotation() -> impl Strategy<Value = Matrix3<f64>> {
    let axis = [-1.0..1.0f64, -1.0..1.0f64, -1.0..1.0f64];
    prop_oneof![
        3 => (-3.0..3.0f64, axis.clone()).prop_map(|(a, x)| rotation(a, x)),
        1 => axis.clone().prop_map(|x| rotation(1e-9, x)),
        1 => Just(Matrix3::identity()),
        1 => (0usize..3).prop_map(|k| rotation(std::f64::consts::FRAC_PI_2, [0, 1, 2].map(|i| f64::from(u8::from(i == k))))),
    ]
}

/// The scaled shape's points and its triangles as triangles.
fn scaled(shape: &Shape, scale: f64, offset: &Vector) -> Vec<Point> {
    shape
        .points
        .iter()
        .map(|p| Point::from(p.coords * scale + offset))
        .collect()
}

fn triangles(shape: &Shape, points: &[Point]) -> Vec<Triangle> {
    shape
        .triangles
        .iter()
        .map(|t| Triangle::new(points[t[0]], points[t[1]], points[t[2]]))
        .collect()
}

/// The least exact squared distance between two triangle sets.
fn exact_distance_squared(a: &[Triangle], b: &[Triangle]) -> BigRational {
    a.iter()
        .flat_map(|p| {
            b.iter()
                .map(move |q| triangle_distance_squared(&p.vertices(), &q.vertices()))
        })
        .min()
        .expect("triangles")
}

/// `x <= √y` exactly.
fn at_most_root(x: f64, y: &BigRational) -> bool {
    x <= 0.0 || {
        let x = q(x);
        &x * &x <= *y
    }
}

/// The points moved by `R·p + t` in floating point.
fn place_points(points: &[Point], rotation: &Matrix3<f64>, translation: &Vector) -> Vec<Point> {
    points
        .iter()
        .map(|p| Point::from(rotation * p.coords + translation))
        .collect()
}

/// A checked configuration: the bound, the volumes and B's translation.
struct Case<V> {
    bound: f64,
    a: V,
    b: V,
    translation: Vector,
}

/// Places B by `rot` and a translation chosen so that B's triangles are `gap` (relative to the
/// scale) from A's along their closest direction, as computed in floating point, and checks the
/// bound against the exact distance between the triangles.
fn check<V: Bounded>(
    a: &Shape,
    b: &Shape,
    rot: &Matrix3<f64>,
    direction: &Vector,
    gap: f64,
    scale: f64,
    shift: f64,
) -> Result<Case<V>, TestCaseError> {
    let offset = Vector::repeat(shift * scale);
    let (pa, pb) = (
        scaled(a, scale, &offset),
        scaled(b, scale, &Vector::zeros()),
    );
    let ta = triangles(a, &pa);
    // A first translation, then slid so that the triangles are `gap·scale` apart.
    let t0 = offset + direction * (3.0 * scale);
    let tb0 = triangles(b, &place_points(&pb, rot, &t0));
    let (d, toward) = ta
        .iter()
        .flat_map(|p| tb0.iter().map(move |q| tri_tri::distance(p, q)))
        .map(|r| (r.distance, r.point_q - r.point_p))
        .min_by(|x, y| x.0.total_cmp(&y.0))
        .expect("triangles");
    let unit = if d > 0.0 { toward / d } else { *direction };
    let t = t0 - unit * (d - gap * scale);
    let placed = place_points(&pb, rot, &t);
    let tb = triangles(b, &placed);
    let (va, vb) = (V::fit(&pa), V::fit(&pb));
    let bound = V::bound(&va, &vb.place(rot, &t));
    let exact = exact_distance_squared(&ta, &tb);
    prop_assert!(
        at_most_root(bound, &exact),
        "bound {:e} above the distance {:e} (gap {:e}, scale {:e})\n{:?}\n{:?}",
        bound,
        common::exact::approx(&exact).sqrt(),
        gap,
        scale,
        va,
        vb
    );
    Ok(Case {
        bound,
        a: va,
        b: vb,
        translation: t,
    })
}

fn gap() -> impl Strategy<Value = f64> {
    prop_oneof![Just(0.0), Just(1e-13), Just(1e-7), Just(0.1), Just(2.0)]
}

fn scale() -> impl Strategy<Value = f64> {
    prop_oneof![3 => Just(1.0), 1 => Just(1e-50), 1 => Just(1e80), 1 => Just(3e5)]
}

fn shift() -> impl Strategy<Value = f64> {
    prop_oneof![Just(0.0), Just(-0.7), Just(1e4)]
}

fn direction() -> impl Strategy<Value = Vector> {
    [-1.0..1.0f64, -1.0..1.0f64, -1.0..1.0f64].prop_filter_map("short", |v| {
        let v = Vector::from(v);
        (v.norm() > 0.1).then(|| v.normalize())
    })
}

macro_rules! bound_tests {
    ($name:ident, $V:ty) => {
        proptest! {
            #![proptest_config(config_with(150))]
            #[test]
            fn $name(a in shape(), b in shape(), rot in pose_rotation(), dir in direction(),
                     gap in gap(), scale in scale(), shift in shift()) {
                check::<$V>(&a, &b, &rot, &dir, gap, scale, shift)?;
            }
        }
    };
}

bound_tests!(rss_bound_is_conservative, Rss);
bound_tests!(obb_bound_is_conservative, Obb);
bound_tests!(aabb_bound_is_conservative, Aabb);
bound_tests!(sphere_bound_is_conservative, Sphere);
bound_tests!(kdop18_bound_is_conservative, Kdop18);
bound_tests!(kdop6_bound_is_conservative, Kdop6);

/// Volumes built directly (no fit, hence no padding) on a dyadic grid, with axes a signed
/// permutation of the coordinate axes, so that their corners (and, for an RSS, the corners of
/// its inner prism `rectangle × [−r, r]`) are floats exactly: the points of each that the check
/// uses lie on the volume's boundary, and nothing absorbs a missing rounding term.
#[derive(Clone, Debug)]
struct GridVolume {
    /// The box (or prism) corners, in the volume's own frame.
    corners: Vec<Point>,
    /// A signed permutation matrix and the grid parameters.
    axes: Matrix3<f64>,
    low: Vector,
    size: Vector,
}

/// A grid number: `k / 64` for `k` in `-64..=64` (exact, and sums of a few stay exact).
fn grid() -> impl Strategy<Value = f64> {
    (-64i32..=64).prop_map(|k| f64::from(k) / 64.0)
}

fn grid_volume() -> impl Strategy<Value = GridVolume> {
    // Sides from 1/64 to 1, or 2^-40 (a box tiny next to its offsets, where the offsets'
    // rounding is not hidden by the `1e-9` of the sizes the bounds also give up).
    let extent = || {
        prop_oneof![4 => (1i32..=64).prop_map(|k| f64::from(k) / 64.0), 1 => Just(2f64.powi(-40))]
            .boxed()
    };
    let far = prop_oneof![3 => Just(0.0), 1 => Just(1024.0)];
    (
        [grid(), grid(), grid()],
        [extent(), extent(), prop_oneof![extent(), Just(0.0)].boxed()],
        0usize..6,
        [any::<bool>(), any::<bool>(), any::<bool>()],
        far,
    )
        .prop_map(|(low, size, perm, flips, far)| {
            let order = [
                [0, 1, 2],
                [1, 2, 0],
                [2, 0, 1],
                [0, 2, 1],
                [2, 1, 0],
                [1, 0, 2],
            ][perm];
            let mut axes = Matrix3::zeros();
            for (j, &i) in order.iter().enumerate() {
                axes[(i, j)] = if flips[j] { -1.0 } else { 1.0 };
            }
            // Keep it right-handed.
            if axes.determinant() < 0.0 {
                axes.column_mut(2).neg_mut();
            }
            let (low, size) = (Vector::from(low).add_scalar(far), Vector::from(size));
            let corners = (0..8)
                .map(|i| {
                    let pick = |bit: usize, k: usize| if i & bit == 0 { 0.0 } else { size[k] };
                    Point::from(axes * (low + Vector::new(pick(1, 0), pick(2, 1), pick(4, 2))))
                })
                .collect();
            GridVolume {
                corners,
                axes,
                low,
                size,
            }
        })
}

/// A volume type that can be built exactly from a [`GridVolume`] and scaled by a power of two.
trait Exact: Bounded {
    fn exact(g: &GridVolume, scale: f64) -> Self;
}

impl Exact for Aabb {
    fn exact(g: &GridVolume, scale: f64) -> Self {
        Aabb::from_points(&g.corners.iter().map(|p| p * scale).collect::<Vec<_>>())
    }
}

impl Exact for Obb {
    fn exact(g: &GridVolume, scale: f64) -> Self {
        let half = g.size * (0.5 * scale);
        Obb {
            center: Point::from(g.axes * ((g.low + g.size * 0.5) * scale)),
            axes: g.axes,
            half_extents: half,
        }
    }
}

/// The RSS whose inner prism is the grid box: rectangle `low + [0, size₀] × [0, size₁]` at
/// height `low₂ + size₂/2`, radius `size₂/2`.
impl Exact for Rss {
    fn exact(g: &GridVolume, scale: f64) -> Self {
        let corner = g.axes * (Vector::new(g.low.x, g.low.y, g.low.z + 0.5 * g.size.z) * scale);
        Rss {
            axes: g.axes,
            corner: Point::from(corner),
            lengths: [g.size.x * scale, g.size.y * scale],
            radius: 0.5 * g.size.z * scale,
        }
    }
}

impl<const A: usize> Exact for obbtree_bv::Kdop<A> {
    fn exact(g: &GridVolume, scale: f64) -> Self {
        Self::fit_points(&g.corners.iter().map(|p| p * scale).collect::<Vec<_>>(), ())
    }
}

/// Builds A and B exactly, places B's corners by `R·p + t` in floating point with `t` chosen
/// so that the corners' hulls are `gap` apart (as computed in floating point), and checks the
/// bound against the exact distance between the hulls (twelve triangles each).
fn check_exact<V: Exact>(
    a: &GridVolume,
    b: &GridVolume,
    rot: &Matrix3<f64>,
    direction: &Vector,
    gap: f64,
    scale: f64,
) -> Result<(), TestCaseError> {
    let shape = Shape {
        points: vec![],
        triangles: BOX_FACES.to_vec(),
    };
    let pa: Vec<Point> = a.corners.iter().map(|p| p * scale).collect();
    let pb: Vec<Point> = b.corners.iter().map(|p| p * scale).collect();
    let ta = triangles(&shape, &pa);
    let t0 = direction * (4.0 * scale);
    let tb0 = triangles(&shape, &place_points(&pb, rot, &t0));
    let (d, toward) = ta
        .iter()
        .flat_map(|p| tb0.iter().map(move |q| tri_tri::distance(p, q)))
        .map(|r| (r.distance, r.point_q - r.point_p))
        .min_by(|x, y| x.0.total_cmp(&y.0))
        .expect("triangles");
    let unit = if d > 0.0 { toward / d } else { *direction };
    let t = t0 - unit * (d - gap * scale);
    let tb = triangles(&shape, &place_points(&pb, rot, &t));
    let bound = V::bound(&V::exact(a, scale), &V::exact(b, scale).place(rot, &t));
    let exact = exact_distance_squared(&ta, &tb);
    prop_assert!(
        at_most_root(bound, &exact),
        "bound {:e} above the distance {:e} (gap {:e}, scale {:e})",
        bound,
        common::exact::approx(&exact).sqrt(),
        gap,
        scale
    );
    Ok(())
}

fn power_of_two_scale() -> impl Strategy<Value = f64> {
    prop_oneof![3 => Just(1.0), 1 => Just(2f64.powi(-160)), 1 => Just(2f64.powi(260)), 1 => Just(2f64.powi(20))]
}

macro_rules! exact_bound_tests {
    ($name:ident, $V:ty) => {
        proptest! {
            #![proptest_config(config_with(60))]
            #[test]
            fn $name(a in grid_volume(), b in grid_volume(), rot in pose_rotation(), dir in direction(),
                     gap in prop_oneof![Just(0.0), Just(1e-15), Just(1e-9), Just(0.25)], scale in power_of_two_scale()) {
                check_exact::<$V>(&a, &b, &rot, &dir, gap, scale)?;
            }
        }
    };
}

proptest! {
    #![proptest_config(config_with(300))]

    /// Balls on the grid, B's centre placed so the balls are `gap` apart in floating point:
    /// the bound is at most the exact distance between the centres (B's placed exactly) less
    /// the radii.
    #[test]
    fn sphere_bound_holds_exactly(ca in [grid(), grid(), grid()], cb in [grid(), grid(), grid()],
                                  ra in 0i32..64, rb in 0i32..64, rot in pose_rotation(), dir in direction(),
                                  gap in prop_oneof![Just(0.0), Just(1e-15), Just(0.25)], scale in power_of_two_scale()) {
        let (ca, cb) = (Point::from(Vector::from(ca) * scale), Point::from(Vector::from(cb) * scale));
        let (ra, rb) = (f64::from(ra) / 64.0 * scale, f64::from(rb) / 64.0 * scale);
        let t0 = ca.coords + dir * (4.0 * scale) - rot * cb.coords;
        let t = t0 - dir * (4.0 * scale - ra - rb - gap * scale);
        let (a, b) = (Sphere::new(ca, ra), Sphere::new(cb, rb));
        let bound = sphere_sphere::lower_bound(&a, &sphere_sphere::place(&b, &rot, &t));
        // Exactly: |c_a − (R c_b + t)|² >= (bound + r_a + r_b)².
        let placed: [BigRational; 3] = std::array::from_fn(|i| {
            (0..3).fold(q(t[i]), |s, k| s + q(rot[(i, k)]) * q(cb[k])) - q(ca[i])
        });
        let squared = placed.iter().fold(BigRational::from_integer(0.into()), |s, x| s + x * x);
        let reach = q(bound) + q(ra) + q(rb);
        prop_assert!(reach <= BigRational::from_integer(0.into()) || &reach * &reach <= squared, "{} {:?}", bound, t);
    }
}

exact_bound_tests!(rss_bound_holds_on_the_boundary, Rss);
exact_bound_tests!(obb_bound_holds_on_the_boundary, Obb);
exact_bound_tests!(aabb_bound_holds_on_the_boundary, Aabb);
exact_bound_tests!(kdop18_bound_holds_on_the_boundary, Kdop18);
exact_bound_tests!(kdop6_bound_holds_on_the_boundary, Kdop6);

proptest! {
    #![proptest_config(config_with(150))]

    /// The RSS bound is the distance between the volumes up to its padding: measured against
    /// the rectangles' distance (as two triangles each, by the float triangle distance) less
    /// the radii.
    #[test]
    fn rss_bound_is_tight(a in shape(), b in shape(), rot in pose_rotation(), dir in direction(),
                          gap in gap(), scale in scale(), shift in shift()) {
        let case = check::<Rss>(&a, &b, &rot, &dir, gap, scale, shift)?;
        let rect = |r: &Rss, rot: &Matrix3<f64>, t: &Vector| {
            let c = r.corners().map(|p| Point::from(rot * p.coords + t));
            [Triangle::new(c[0], c[1], c[2]), Triangle::new(c[0], c[2], c[3])]
        };
        let (ra, rb) = (rect(&case.a, &Matrix3::identity(), &Vector::zeros()), rect(&case.b, &rot, &case.translation));
        let between = ra
            .iter()
            .flat_map(|p| rb.iter().map(move |q| tri_tri::distance(p, q).distance))
            .fold(f64::INFINITY, f64::min);
        let want = between - case.a.radius - case.b.radius;
        let magnitude = case.translation.abs().sum()
            + case.a.corner.coords.abs().sum()
            + case.b.corner.coords.abs().sum()
            + case.a.lengths.iter().chain(&case.b.lengths).sum::<f64>()
            + case.a.radius
            + case.b.radius;
        // (Crossing rectangles have negative gaps: only disjoint ones are measured.)
        prop_assert!(
            between == 0.0 || case.bound >= want - 1e-8 * magnitude,
            "bound {:e} below the distance {:e} by more than the padding (rectangles {:e} apart)",
            case.bound,
            want,
            between
        );
    }

    /// The sphere bound is the distance between the balls up to its padding.
    #[test]
    fn sphere_bound_is_tight(a in shape(), b in shape(), rot in pose_rotation(), dir in direction(),
                             gap in gap(), scale in scale(), shift in shift()) {
        let case = check::<Sphere>(&a, &b, &rot, &dir, gap, scale, shift)?;
        let centre = rot * case.b.center.coords + case.translation;
        let want = (centre - case.a.center.coords).norm() - case.a.radius - case.b.radius;
        let magnitude = centre.abs().sum() + case.a.center.coords.abs().sum() + case.a.radius + case.b.radius;
        prop_assert!(case.bound >= want - 1e-8 * magnitude, "{} {}", case.bound, want);
    }
}

proptest! {
    #![proptest_config(config_with(300))]

    /// The bound that may stop early (`lower_bound_or_above`) is never above the full one,
    /// equals it for an infinite `enough`, and is above `enough` exactly when the full one is
    /// (and equal to it when not).
    #[test]
    fn rss_bound_stops_only_above_enough(a in shape(), b in shape(), rot in pose_rotation(),
                                          dir in direction(), gap in gap(), fraction in 0.0..2.0f64) {
        let (va, vb) = (Rss::fit_points(&a.points, ()), Rss::fit_points(&b.points, ()));
        let placed = PlacedRss::new(&vb, &rot, &(dir * (gap + 3.0)));
        let full = rss_rss::lower_bound(&va, &placed);
        prop_assert_eq!(rss_rss::lower_bound_or_above(&va, &placed, f64::INFINITY), full);
        let enough = fraction * full.abs();
        let early = rss_rss::lower_bound_or_above(&va, &placed, enough);
        prop_assert!(early <= full, "{early} > {full}");
        if early > enough {
            prop_assert!(full > enough);
        } else {
            prop_assert_eq!(early, full);
        }
    }
}
