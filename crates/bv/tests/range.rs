//! The exact range and the placement check (`obbtree_bv::range`): every pose the check accepts
//! places every vertex of random meshes (coordinates from `1e-70` to `1e100`, zeros, mixed)
//! inside the exact range, checked by brute force with the placement collision uses; the exact
//! predicate on such placed triangles equals the separating-axis oracle; each refusal names the
//! offending magnitude and limit; and outside the range the predicate can indeed be wrong.

mod common;

use common::config_with;
use common::sat::triangles_meet;
use nalgebra::{IsometryMatrix3, Matrix3, Rotation3, Translation3, Unit};
use obbtree_bv::intersect::tri_tri_exact;
use obbtree_bv::range::{placed_in_exact_range, RangeError};
use obbtree_bv::{Aabb, Point, TriMesh, Triangle, Vector};
use proptest::prelude::*;

/// `2³³⁹` and `2⁻³⁰⁶`, the documented limits, written out (the brute-force check below must not
/// lean on the constants it checks).
const EXACT_MAX: f64 = 1.1198723710889021e102;
const GRANULARITY_EXPONENT: i32 = -306;

/// Whether `x` is a multiple of `2⁻³⁰⁶` with `|x| ≤ 2³³⁹`, from its integer decomposition
/// `m · 2^e`: the lowest set bit of `m` sits at `e + trailing_zeros(m)`.
fn in_range(x: f64) -> bool {
    let (mantissa, exponent, _) = num_traits::Float::integer_decode(x);
    x.is_finite()
        && x.abs() <= EXACT_MAX
        && (mantissa == 0
            || i32::from(exponent) + mantissa.trailing_zeros() as i32 >= GRANULARITY_EXPONENT)
}

/// `R·p + t` in `f64` as collision places mesh B (`IsometryMatrix3 * Point`).
fn place(r: &Matrix3<f64>, t: &Vector, p: &Point) -> Point {
    IsometryMatrix3::from_parts(Translation3::from(*t), Rotation3::from_matrix_unchecked(*r)) * p
}

/// A coordinate: 0, or `±m · 10^e` with `e` across `TriMesh`'s range and its ends exactly.
fn coordinate() -> impl Strategy<Value = f64> {
    prop_oneof![
        1 => Just(0.0),
        1 => prop_oneof![Just(1e-70), Just(-1e-70), Just(1e100), Just(-1e100)],
        6 => (1.0..9.99f64, -70i32..=99, any::<bool>())
            .prop_map(|(m, e, negative)| {
                let x = (m * 10f64.powi(e)).clamp(1e-70, 1e100);
                if negative { -x } else { x }
            }),
    ]
}

fn mesh_vertices() -> impl Strategy<Value = Vec<Point>> {
    prop::collection::vec([coordinate(), coordinate(), coordinate()], 1..12)
        .prop_map(|v| v.into_iter().map(Point::from).collect())
}

/// Rotations of several kinds: random, by a tiny angle (tiny nonzero entries), signed axis
/// permutations (entries 0 and ±1) and about a coordinate axis.
fn rotation() -> impl Strategy<Value = Matrix3<f64>> {
    let axis = [-1.0..1.0f64, -1.0..1.0f64, -1.0..1.0f64];
    prop_oneof![
        [-1.0..1.0f64, -1.0..1.0f64, -1.0..1.0f64, -1.0..1.0f64]
            .prop_map(common::quaternion_rotation),
        (axis, 0i32..60).prop_map(|(a, e)| {
            let axis = Unit::try_new(Vector::from(a), 1e-3).unwrap_or(Vector::x_axis());
            Rotation3::from_axis_angle(&axis, 10f64.powi(-e)).into_inner()
        }),
        (0usize..6, any::<[bool; 3]>()).prop_map(|(perm, flips)| {
            let axes = [
                [0, 1, 2],
                [0, 2, 1],
                [1, 0, 2],
                [1, 2, 0],
                [2, 0, 1],
                [2, 1, 0],
            ][perm];
            Matrix3::from_fn(|i, j| {
                if axes[i] != j {
                    0.0
                } else if flips[i] {
                    -1.0
                } else {
                    1.0
                }
            })
        }),
        (0usize..3, -4.0..4.0f64).prop_map(|(k, angle)| {
            Rotation3::from_axis_angle(&Vector::ith_axis(k), angle).into_inner()
        }),
    ]
}

/// Translations: zero, tiny, ordinary or huge components, some beyond the exact range.
fn translation() -> impl Strategy<Value = Vector> {
    let component = prop_oneof![
        2 => Just(0.0),
        4 => (-1.0..1.0f64, -90i32..=101).prop_map(|(m, e)| m * 10f64.powi(e)),
        1 => (-1.0..1.0f64).prop_map(|m| m * 2e102),
    ];
    [component.clone(), component.clone(), component].prop_map(Vector::from)
}

proptest! {
    #![proptest_config(config_with(3000))]

    /// Soundness by brute force: when the check accepts a pose, every placed coordinate of
    /// every vertex is in the exact range.
    #[test]
    fn accepted_poses_place_every_vertex_in_range(
        vertices in mesh_vertices(), r in rotation(), t in translation(),
    ) {
        let bounds = Aabb::from_points(&vertices);
        let smallest = smallest_nonzero(&vertices);
        if placed_in_exact_range(&bounds, smallest, &r, &t).is_ok() {
            for p in &vertices {
                let placed = place(&r, &t, p);
                prop_assert!(placed.iter().all(|&x| in_range(x)), "{:?} placed at {:?} by {:?} {:?}", p, placed, r, t);
            }
        }
    }
}

/// The smallest nonzero absolute coordinate, by brute force.
fn smallest_nonzero(vertices: &[Point]) -> Option<f64> {
    let mut all: Vec<f64> = vertices
        .iter()
        .flat_map(|p| [p.x, p.y, p.z])
        .map(f64::abs)
        .filter(|&x| x != 0.0)
        .collect();
    all.sort_by(f64::total_cmp);
    all.first().copied()
}

proptest! {
    #![proptest_config(config_with(300))]

    /// `TriMesh::smallest_nonzero_coordinate` is the brute-force minimum.
    #[test]
    fn smallest_nonzero_coordinate_is_the_minimum(vertices in mesh_vertices()) {
        let mesh = TriMesh::new(vertices.clone(), vec![[0, 0, 0]]).unwrap();
        prop_assert_eq!(mesh.smallest_nonzero_coordinate(), smallest_nonzero(&vertices));
    }
}

/// The check is not vacuous: on ordinary meshes and poses it accepts nearly everything, and
/// each kind of refusal occurs in the random cases above.
#[test]
fn accepts_ordinary_poses_and_refuses_each_kind() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let case = (mesh_vertices(), rotation(), translation());
    let mut outcomes = std::collections::BTreeMap::<&str, usize>::new();
    for _ in 0..3000 {
        let (vertices, r, t) = case.new_tree(&mut runner).unwrap().current();
        let bounds = Aabb::from_points(&vertices);
        let outcome = match placed_in_exact_range(&bounds, smallest_nonzero(&vertices), &r, &t) {
            Ok(()) => "accepted",
            Err(RangeError::TooLarge { .. }) => "too large",
            Err(RangeError::TooFine { .. }) => "too fine",
            Err(RangeError::TranslationTooFine { .. }) => "translation too fine",
            Err(RangeError::NotFinite) => "not finite",
        };
        *outcomes.entry(outcome).or_default() += 1;
    }
    println!("{outcomes:?}");
    assert!(outcomes["accepted"] >= 1000, "{outcomes:?}");
    for kind in ["too large", "too fine", "translation too fine"] {
        assert!(
            outcomes.get(kind).copied().unwrap_or(0) >= 30,
            "{outcomes:?}"
        );
    }
    // Unit-scale meshes at any random rotation and ordinary translations pass.
    let unit = Aabb::new(Point::new(-1.0, -2.0, 0.5), Point::new(3.0, 1.0, 2.0));
    let r = common::quaternion_rotation([0.3, -0.5, 0.7, 0.1]);
    assert_eq!(
        placed_in_exact_range(&unit, Some(0.5), &r, &Vector::new(1e3, -7.0, 0.0)),
        Ok(())
    );
}

/// Each refusal names the offending magnitude and the limit, and each guards a real danger: the
/// placement it refuses puts a coordinate outside the exact range.
#[test]
fn refusals_name_magnitude_and_limit() {
    let identity = Matrix3::identity();
    let tiny = Aabb::new(Point::new(1e-70, 0.0, 0.0), Point::new(1e-70, 0.0, 0.0));
    // A rotation entry of 1e-10 carries x = 1e-70 to y = 1e-80, finer than 2⁻³⁰⁶ allows.
    let r = Rotation3::from_axis_angle(&Vector::z_axis(), 1e-10).into_inner();
    let placed = place(&r, &Vector::zeros(), &Point::new(1e-70, 0.0, 0.0));
    assert!(!in_range(placed.y), "{placed:?}");
    match placed_in_exact_range(&tiny, Some(1e-70), &r, &Vector::zeros()) {
        Err(RangeError::TooFine {
            rotation,
            coordinate,
            product,
            limit,
        }) => {
            assert_eq!((rotation, coordinate), (1e-10, 1e-70));
            assert!(
                product < limit && limit == 2f64.powi(-253),
                "{product:e} {limit:e}"
            );
        }
        other => panic!("{other:?}"),
    }
    // A translation of 1e-80 on an axis where the mesh is 0.
    let t = Vector::new(0.0, 1e-80, 0.0);
    assert!(!in_range(place(&identity, &t, &Point::origin()).y));
    assert_eq!(
        placed_in_exact_range(&tiny, Some(1e-70), &identity, &t),
        Err(RangeError::TranslationTooFine {
            axis: 1,
            value: 1e-80,
            limit: 2f64.powi(-254)
        })
    );
    // A translation of 1.2e102 leaves the range.
    let t = Vector::new(0.0, 0.0, -1.2e102);
    match placed_in_exact_range(&tiny, Some(1e-70), &identity, &t) {
        Err(RangeError::TooLarge {
            axis: 2,
            reach,
            limit,
        }) => {
            assert!(
                reach >= 1.2e102 && limit == EXACT_MAX,
                "{reach:e} {limit:e}"
            );
        }
        other => panic!("{other:?}"),
    }
    // A mesh at 1e100 rotated by 45° and moved by 1e100 reaches about 2.4e100: inside.
    let big = Aabb::new(
        Point::new(-1e100, -1e100, -1e100),
        Point::new(1e100, 1e100, 1e100),
    );
    let r = Rotation3::from_axis_angle(&Vector::z_axis(), std::f64::consts::FRAC_PI_4).into_inner();
    assert_eq!(
        placed_in_exact_range(&big, Some(1.0), &r, &Vector::repeat(1e100)),
        Ok(())
    );
    assert_eq!(
        placed_in_exact_range(&big, Some(f64::NAN), &r, &Vector::zeros()),
        Err(RangeError::NotFinite)
    );
    let message = RangeError::TranslationTooFine {
        axis: 1,
        value: 1e-80,
        limit: 2f64.powi(-254),
    }
    .to_string();
    assert!(
        message.contains("1e-80") && message.contains("3.454467422037778e-77"),
        "{message}"
    );
}

proptest! {
    #![proptest_config(config_with(3000))]

    /// On placed coordinates the check accepts, the predicate equals the oracle: triangle B is
    /// built touching triangle A in A's frame, carried back to its own frame by the inverse
    /// pose (which rounds), and placed again as collision places it.
    #[test]
    fn predicate_is_exact_on_accepted_placements(
        a in prop::array::uniform3([coordinate(), coordinate(), coordinate()]),
        weights in [0u32..=4, 0u32..=4, 0u32..=4],
        others in prop::array::uniform2([coordinate(), coordinate(), coordinate()]),
        r in rotation(),
        t in translation(),
    ) {
        let a = a.map(Point::from);
        let total = f64::from(weights.iter().sum::<u32>().max(1));
        let touch = Point::from(
            a.iter().zip(weights).map(|(p, w)| p.coords * (f64::from(w) / total)).sum::<Vector>(),
        );
        let b_in_a = [touch, Point::from(others[0]), Point::from(others[1])];
        let inverse = |p: &Point| Point::from(r.transpose() * (p - t));
        let b: Vec<Point> = b_in_a.iter().map(inverse).collect();
        prop_assume!(b.iter().all(|p| p.iter().all(|x| x.is_finite())));
        let smallest = smallest_nonzero(&b);
        prop_assume!(smallest.is_none_or(|s| s >= 1e-70) && b.iter().all(|p| p.coords.amax() <= 1e100));
        prop_assume!(placed_in_exact_range(&Aabb::from_points(&b), smallest, &r, &t).is_ok());
        let placed = [0, 1, 2].map(|i| place(&r, &t, &b[i]));
        let want = triangles_meet(&a, &placed);
        let got = tri_tri_exact::intersects(&Triangle::new(a[0], a[1], a[2]), &Triangle::new(placed[0], placed[1], placed[2]));
        prop_assert_eq!(got, want, "a = {:?}\nplaced = {:?}", a, placed);
    }
}

/// The range is needed: with coordinates near `1e-150`, outside it, the predicate reports a
/// triangle lying above another as touching it (the filter's products and bound underflow to
/// 0). Inside the range, at `2⁻²⁵⁴` and `2³³⁹` scalings of the same pair, it is right.
#[test]
fn outside_the_range_the_predicate_can_be_wrong() {
    let pair = |s: f64| {
        let p = Triangle::new(
            Point::new(0.0, 0.0, 0.0),
            Point::new(s, 0.0, 0.0),
            Point::new(0.0, s, 0.0),
        );
        let q = Triangle::new(
            Point::new(0.25 * s, 0.25 * s, 0.5 * s),
            Point::new(0.25 * s, 0.25 * s, 1.5 * s),
            Point::new(s, s, s),
        );
        (p, q)
    };
    let (p, q) = pair(1e-150);
    assert!(!triangles_meet(&p.vertices(), &q.vertices()));
    assert!(
        tri_tri_exact::intersects(&p, &q),
        "the predicate is now right at 1e-150: update the range docs"
    );
    for s in [2f64.powi(-252), 1.0, 2f64.powi(337)] {
        let (p, q) = pair(s);
        assert!(!tri_tri_exact::intersects(&p, &q), "{s:e}");
    }
}

/// Every power of two `2ᵏ` from the smallest subnormal to the largest, made by doubling from
/// the smallest subnormal (exact, and sharing nothing with the bit arithmetic under test).
fn powers_of_two() -> Vec<(i32, f64)> {
    let mut p = f64::from_bits(1); // 2⁻¹⁰⁷⁴
    (-1074..=1023)
        .map(|k| {
            let here = (k, p);
            p *= 2.0;
            here
        })
        .collect()
}

#[test]
fn binary_exponent_is_the_floor_of_log2_everywhere() {
    use obbtree_bv::range::binary_exponent;
    for (k, p) in powers_of_two() {
        for x in [p, -p] {
            assert_eq!(binary_exponent(x), k, "2^{k}");
        }
        // The largest value below 2^(k+1): 2^(k+1) minus one ulp, or 2^k's double less one ulp.
        let below_next = (p * 2.0).next_down();
        if below_next.is_finite() && below_next >= p {
            assert_eq!(binary_exponent(below_next), k, "just below 2^{}", k + 1);
        }
        if k > -1073 {
            assert_eq!(binary_exponent(p * 1.5), k, "1.5·2^{k}");
        }
    }
    assert_eq!(binary_exponent(f64::MAX), 1023);
    assert_eq!(binary_exponent(f64::MIN_POSITIVE), -1022);
}

#[test]
fn power_of_two_factors_multiply_to_the_power() {
    use obbtree_bv::range::power_of_two_factors;
    for (k, p) in powers_of_two() {
        let [f0, f1] = power_of_two_factors(k);
        assert_eq!(f0 * f1, p, "2^{k}");
        // And 2^-k undoes it where both are in range.
        if (-1022..=1022).contains(&k) {
            let [g0, g1] = power_of_two_factors(-k);
            assert_eq!(p * g0 * g1, 1.0, "2^-{k}");
        }
    }
    let [f0, f1] = power_of_two_factors(2046);
    assert_eq!(
        f64::from_bits(1) * f0 * f1,
        2f64.powi(972),
        "2^-1074 · 2^2046"
    );
}
