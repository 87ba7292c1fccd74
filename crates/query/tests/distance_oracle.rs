//! The distance queries against brute force with exact rational squared distances over every
//! triangle pair (`common::distance`, the bv tests' oracle: a convex quadratic programme solved
//! by Cramer's rule over the integers, sharing no code with the engine), on small meshes
//! (bumpy spheres, subdivided cubes, height fields, a soup with degenerate triangles) at random
//! poses (intersecting, near, far) and at exact cube symmetries on a dyadic grid (touching,
//! coplanar faces, parallel edges), for every volume type.
//!
//! Every point of the guarantee is checked: `|d − d*| <= 1e-12 (d* + L)` for the distance and
//! for the reported pair's exact distance, the points on their triangles and `d` apart,
//! `lower <= d* <= upper` (exactly), intersecting meshes at exactly 0 with an intersecting
//! pair; `within_margin` and `proximity_pairs` against the exact set, including at margins
//! equal to the exact distance (true) and one ulp below (false); hints; and the typed errors.

mod common;

use common::distance::{point_triangle_distance_squared, triangle_distance_squared};
use common::exact::{approx, q};
use common::*;
use nalgebra::Matrix3;
use num_rational::BigRational;
use num_traits::Zero;
use obbtree_bv::{Point, Pose, TriMesh};
use obbtree_query::{
    distance, distance_many, proximity_pairs, within_margin, Containment, DistanceRequest,
    DistanceResult, DistanceTracker, Model, PosedOverlap, QueryError,
};
use rand::Rng;
use std::collections::HashMap;

/// The relative bound of the guarantee.
const PROMISE: f64 = 1e-12;

/// The two meshes placed in A's frame (B by `pose`, as collision places it), with `L`.
struct Placed {
    a: Vec<[Point; 3]>,
    b: Vec<[Point; 3]>,
    magnitude: f64,
    /// Exact squared distances of the pairs measured so far.
    exact: HashMap<[u32; 2], BigRational>,
}

impl Placed {
    fn new(a: &TriMesh, b: &TriMesh, pose: &Pose) -> Self {
        let tris = |m: &TriMesh, pose: &Pose| -> Vec<[Point; 3]> {
            m.triangles()
                .iter()
                .map(|t| t.map(|i| pose.transform_point(&m.vertices()[i as usize])))
                .collect()
        };
        let (a, b) = (tris(a, &Pose::identity()), tris(b, pose));
        let magnitude = a
            .iter()
            .chain(&b)
            .flatten()
            .fold(0.0, |m: f64, p| m.max(p.coords.amax()));
        Self {
            a,
            b,
            magnitude,
            exact: HashMap::new(),
        }
    }

    /// The exact squared distance of the pair `[i, j]`.
    fn pair(&mut self, [i, j]: [u32; 2]) -> BigRational {
        let (p, r) = (&self.a[i as usize], &self.b[j as usize]);
        self.exact
            .entry([i, j])
            .or_insert_with(|| triangle_distance_squared(p, r))
            .clone()
    }

    /// The pairs whose boxes are at most `reach` apart (with room for the rounding of the
    /// gap): every pair at most `reach` apart is among them.
    fn near(&self, reach: f64) -> Vec<[u32; 2]> {
        let boxes = |ts: &[[Point; 3]]| -> Vec<([f64; 3], [f64; 3])> {
            ts.iter()
                .map(|t| {
                    let lo =
                        [0, 1, 2].map(|k| t.iter().map(|p| p[k]).fold(f64::INFINITY, f64::min));
                    let hi =
                        [0, 1, 2].map(|k| t.iter().map(|p| p[k]).fold(f64::NEG_INFINITY, f64::max));
                    (lo, hi)
                })
                .collect()
        };
        let (ba, bb) = (boxes(&self.a), boxes(&self.b));
        let limit = reach * (1.0 + 1e-9) + 1e-300;
        let mut pairs = Vec::new();
        for (i, x) in ba.iter().enumerate() {
            for (j, y) in bb.iter().enumerate() {
                let gap2: f64 = (0..3)
                    .map(|k| (y.0[k] - x.1[k]).max(x.0[k] - y.1[k]).max(0.0).powi(2))
                    .sum();
                if gap2.sqrt() <= limit {
                    pairs.push([i as u32, j as u32]);
                }
            }
        }
        pairs
    }

    /// The exact squared distance `d*²` of the meshes, if some pair is at most `reach` apart;
    /// `None` when every pair is farther.
    fn least_within(&mut self, reach: f64) -> Option<BigRational> {
        self.near(reach).into_iter().map(|p| self.pair(p)).min()
    }

    /// Every pair at most `margin` apart, exactly, sorted.
    fn within(&mut self, margin: f64) -> Vec<[u32; 2]> {
        let m2 = q(margin) * q(margin);
        let mut pairs: Vec<[u32; 2]> = self
            .near(margin)
            .into_iter()
            .filter(|&p| self.pair(p) <= m2)
            .collect();
        pairs.sort();
        pairs
    }
}

/// `x²` exactly.
fn square(x: f64) -> BigRational {
    q(x) * q(x)
}

/// Every point of the guarantee for the answer `r` (A at the identity) against the exact
/// distance; returns `d*²`.
fn check_distance(placed: &mut Placed, r: &DistanceResult, what: &str) -> BigRational {
    let tau = PROMISE * (r.distance + placed.magnitude);
    let exact = placed
        .least_within(r.distance + 2.0 * tau)
        .unwrap_or_else(|| panic!("{what}: every pair is farther than the reported {r:?}"));
    let d_star = approx(&exact).sqrt();
    let tau = PROMISE * (d_star + placed.magnitude);
    assert!(
        (r.distance - d_star).abs() <= tau,
        "{what}: distance {} but d* = {d_star} ({r:?})",
        r.distance
    );
    let pair = placed.pair(r.pair);
    assert!(
        (approx(&pair).sqrt() - d_star).abs() <= tau,
        "{what}: pair {:?} is {} apart, d* = {d_star}",
        r.pair,
        approx(&pair).sqrt()
    );
    assert_eq!(
        r.distance == 0.0,
        exact.is_zero(),
        "{what}: zero iff d* = 0 ({r:?})"
    );
    assert_eq!(
        r.intersects,
        exact.is_zero(),
        "{what}: intersects iff d* = 0 ({r:?})"
    );
    if exact.is_zero() {
        assert!(
            pair.is_zero(),
            "{what}: intersecting meshes, pair {:?} apart",
            r.pair
        );
    }
    let [i, j] = r.pair.map(|k| k as usize);
    for (point, tri, side) in [
        (&r.point_a, &placed.a[i], "A"),
        (&r.point_b, &placed.b[j], "B"),
    ] {
        let off = approx(&point_triangle_distance_squared(point, tri)).sqrt();
        assert!(
            off <= tau,
            "{what}: point of {side} {off} off its triangle ({r:?})"
        );
    }
    let gap = (r.point_b - r.point_a).norm();
    assert!(
        (gap - r.distance).abs() <= tau,
        "{what}: points {gap} apart ({r:?})"
    );
    assert!(
        square(r.lower) <= exact || r.lower <= 0.0,
        "{what}: lower above d* ({r:?})"
    );
    assert!(
        r.lower >= 0.0 && square(r.upper) >= exact,
        "{what}: upper below d* ({r:?})"
    );
    exact
}

/// The margin queries at `margin` against the exact set.
fn check_margin<V: PosedOverlap>(
    a: &Model<V>,
    b: &Model<V>,
    pose: &Pose,
    placed: &mut Placed,
    margin: f64,
    what: &str,
) {
    let id = Pose::identity();
    let want = placed.within(margin);
    let got = proximity_pairs(a, &id, b, pose, margin).expect("valid margin");
    assert_eq!(got, want, "{what}: proximity pairs at margin {margin}");
    let witness = within_margin(a, &id, b, pose, margin).expect("valid margin");
    assert_eq!(
        witness.is_some(),
        !want.is_empty(),
        "{what}: within {margin}"
    );
    if let Some(w) = witness {
        assert!(
            want.contains(&w),
            "{what}: witness {w:?} farther than {margin}"
        );
    }
}

/// Distances, hints and margins at one pose, for one volume type.
fn check_pose<V: PosedOverlap>(
    a: &Model<V>,
    b: &Model<V>,
    pose: &Pose,
    placed: &mut Placed,
    what: &str,
) {
    let id = Pose::identity();
    let r = distance(a, &id, b, pose, &DistanceRequest::default()).expect("valid pose");
    let exact = check_distance(placed, &r, what);
    // Hints: the pair found, and another pair, give answers that meet the guarantee as well.
    let others = [
        r.pair,
        [r.pair[1] % a.mesh().unwrap().triangles().len() as u32, 0],
    ];
    for hint in others {
        let request = DistanceRequest::default().with_hint(Some(hint));
        let h = distance(a, &id, b, pose, &request).expect("valid hint");
        check_distance(placed, &h, &format!("{what}, hint {hint:?}"));
    }
    // Margins: the distance itself, a little above and below it.
    let d = approx(&exact).sqrt();
    for margin in [d, d * 1.001 + 1e-3, d * 0.99] {
        check_margin(
            a,
            b,
            pose,
            placed,
            margin,
            &format!("{what}, margin {margin}"),
        );
    }
}

/// Small meshes: a bumpy sphere, a subdivided cube, a height field, and a soup of grid
/// triangles among which segments and points (degenerate triangles).
fn meshes() -> Vec<(&'static str, TriMesh)> {
    let mut r = rng(7);
    let mut vertices = Vec::new();
    let mut triangles = Vec::new();
    for k in 0..16u32 {
        let corner = Point::new(
            r.gen_range(-4..4) as f64,
            r.gen_range(-4..4) as f64,
            r.gen_range(-4..4) as f64,
        ) * 0.25;
        let step = |r: &mut rand_pcg::Pcg64| {
            nalgebra::Vector3::new(
                r.gen_range(-2..=2) as f64,
                r.gen_range(-2..=2) as f64,
                r.gen_range(-2..=2) as f64,
            ) * 0.25
        };
        let (e, f) = (step(&mut r), step(&mut r));
        let third = match k % 4 {
            0 => corner + e * 2.0, // a segment
            1 => corner,           // a segment with a repeated vertex
            _ => corner + f,
        };
        let second = if k % 8 == 7 { corner } else { corner + e };
        let base = vertices.len() as u32;
        vertices.extend([corner, second, third]);
        triangles.push([base, base + 1, base + 2]);
    }
    let soup = TriMesh::new(vertices, triangles).expect("soup");
    vec![
        ("blob", blob(3, 4, 6, 1.0, 0.2)),
        ("cube", cube(2, 0.5)),
        ("terrain", terrain(5, 4, 0.3)),
        ("soup", soup),
    ]
}

#[test]
fn random_poses_meet_the_guarantee_for_every_volume() {
    let meshes = meshes();
    let mut r = rng(11);
    let per_pair = cases(6) as usize;
    for (na, ma) in &meshes {
        for (nb, mb) in &meshes {
            for k in 0..per_pair {
                // Intersecting or near (within the meshes' reach), or far.
                let reach = [1.5, 2.5, 40.0][k % 3];
                let pose = random_pose(&mut r, reach);
                let mut placed = Placed::new(ma, mb, &pose);
                for_each_volume(ma, mb, |volume, models| {
                    let what = format!("{na} × {nb}, {volume}, pose {k} {pose:?}");
                    with_models!(models, |a, b| check_pose(a, b, &pose, &mut placed, &what));
                });
            }
        }
    }
}

/// The 24 rotations of the cube: signed permutation matrices of determinant 1 (exact).
fn cube_rotations() -> Vec<Matrix3<f64>> {
    let mut out = Vec::new();
    for perm in [
        [0, 1, 2],
        [1, 2, 0],
        [2, 0, 1],
        [0, 2, 1],
        [2, 1, 0],
        [1, 0, 2],
    ] {
        for signs in 0..8 {
            let mut m = Matrix3::zeros();
            for (row, &col) in perm.iter().enumerate() {
                m[(row, col)] = if signs >> row & 1 == 1 { -1.0 } else { 1.0 };
            }
            if m.determinant() > 0.0 {
                out.push(m);
            }
        }
    }
    out
}

/// The cube `[-s, s]³`, each face cut into `n × n` squares.
fn centred_cube(n: usize, s: f64) -> TriMesh {
    let c = cube(n, 2.0 * s / n as f64);
    let vertices = c
        .vertices()
        .iter()
        .map(|p| p - nalgebra::Vector3::repeat(s))
        .collect();
    TriMesh::new(vertices, c.triangles().to_vec()).expect("cube")
}

#[test]
fn dyadic_grid_margins_are_exact_at_the_distance() {
    // Two cubes of half-side 1/2 apart by `g` along some axes: d* = |g| exactly, for gaps of
    // Pythagorean quadruples (|g| integer) scaled by powers of two. Faces coplanar or touching
    // where a gap is 0, parallel edges where one is.
    let a = centred_cube(2, 0.5);
    let gaps: [[f64; 3]; 6] = [
        [0.0, 0.0, 3.0],
        [0.0, 3.0, 4.0],
        [2.0, 3.0, 6.0],
        [1.0, 4.0, 8.0],
        [4.0, 4.0, 7.0],
        [0.0, 0.0, 0.0],
    ];
    let rotations = cube_rotations();
    let mut r = rng(13);
    let poses = cases(40) as usize;
    let models: (Model<obbtree_bv::Obb>, Model<obbtree_bv::Obb>) = (model(&a), model(&a));
    for k in 0..poses {
        let mut g = gaps[k % gaps.len()];
        let scale = 2f64.powi(r.gen_range(-30..4));
        let signs = [0; 3].map(|_| if r.gen_bool(0.5) { 1.0 } else { -1.0 });
        let rotation = rotations[r.gen_range(0..rotations.len())];
        g.swap(0, r.gen_range(0..3));
        let t = nalgebra::Vector3::from_fn(|i, _| {
            // Where a gap is 0 the cubes overlap on that axis (offset 0) or touch (offset 1).
            let offset = if g[i] == 0.0 {
                [0.0, 1.0][r.gen_range(0..2)]
            } else {
                1.0 + g[i] * scale
            };
            signs[i] * offset
        });
        let pose = Pose::from_parts(t, rotation).expect("cube symmetry");
        let d_exact = (g[0] * g[0] + g[1] * g[1] + g[2] * g[2]).sqrt() * scale;
        let mut placed = Placed::new(&a, &a, &pose);
        let what = format!("pose {k}: {pose:?}, d* = {d_exact}");
        let (ma, mb) = &models;
        let result = distance(ma, &Pose::identity(), mb, &pose, &Default::default()).expect("pose");
        let exact = check_distance(&mut placed, &result, &what);
        if g == [0.0; 3] {
            assert!(exact.is_zero(), "{what}");
        } else {
            assert_eq!(exact, square(d_exact), "{what}: the construction");
        }
        for margin in [d_exact, d_exact.next_down().max(0.0), d_exact.next_up()] {
            check_margin(
                ma,
                mb,
                &pose,
                &mut placed,
                margin,
                &format!("{what}, margin {margin}"),
            );
        }
        let id = Pose::identity();
        assert!(
            within_margin(ma, &id, mb, &pose, d_exact)
                .unwrap()
                .is_some(),
            "{what}: at d*"
        );
        if d_exact > 0.0 {
            assert_eq!(
                within_margin(ma, &id, mb, &pose, d_exact.next_down()).unwrap(),
                None,
                "{what}: one ulp below d*"
            );
        }
    }
}

#[test]
fn solids_inside_each_other_are_at_distance_zero() {
    let (outer, inner) = (blob(1, 6, 8, 2.0, 0.1), blob(2, 4, 6, 0.5, 0.1));
    let (a, b): (Model<obbtree_bv::Obb>, Model<obbtree_bv::Obb>) = (model(&outer), model(&inner));
    let pose = Pose::new([0.1, -0.2, 0.05], [0.3, 0.2, 0.1]).unwrap();
    let id = Pose::identity();
    let surfaces = distance(&a, &id, &b, &pose, &DistanceRequest::default()).unwrap();
    check_distance(
        &mut Placed::new(&outer, &inner, &pose),
        &surfaces,
        "surfaces",
    );
    assert!(surfaces.distance > 0.5);
    let solids = distance(
        &a,
        &id,
        &b,
        &pose,
        &DistanceRequest::default().with_solids(true),
    )
    .unwrap();
    assert_eq!(
        (solids.distance, solids.lower, solids.contained),
        (0.0, 0.0, Containment::BInA)
    );
    assert_eq!(
        solids.pair, surfaces.pair,
        "the surfaces' closest pair is still reported"
    );
}

#[test]
fn distance_many_matches_single_queries_and_names_the_bad_pose() {
    let m = blob(4, 4, 6, 1.0, 0.2);
    let (a, b): (Model<obbtree_bv::Obb>, Model<obbtree_bv::Obb>) = (model(&m), model(&m));
    let mut r = rng(17);
    let mut poses: Vec<Pose> = (0..20).map(|_| random_pose(&mut r, 3.0)).collect();
    let id = Pose::identity();
    let many = distance_many(&a, &id, &b, &poses, &Default::default()).unwrap();
    for (pose, got) in poses.iter().zip(&many) {
        assert_eq!(
            *got,
            distance(&a, &id, &b, pose, &Default::default()).unwrap()
        );
    }
    poses[7] = Pose::from_translation([1e103, 0.0, 0.0]).unwrap();
    let error = distance_many(&a, &id, &b, &poses, &Default::default()).unwrap_err();
    assert_eq!(error.index, 7);
    assert!(
        matches!(error.source, QueryError::OutOfRange { .. }),
        "{error:?}"
    );
}

#[test]
fn bad_inputs_are_typed_errors() {
    let m = blob(4, 4, 6, 1.0, 0.2);
    let (a, b): (Model<obbtree_bv::Obb>, Model<obbtree_bv::Obb>) = (model(&m), model(&m));
    let (id, pose) = (
        Pose::identity(),
        Pose::from_translation([3.0, 0.0, 0.0]).unwrap(),
    );
    for margin in [
        -1.0,
        -0.0 - 1e-300,
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
    ] {
        let e = within_margin(&a, &id, &b, &pose, margin).unwrap_err();
        assert!(matches!(e, QueryError::InvalidMargin(_)), "{margin}: {e:?}");
        let e = proximity_pairs(&a, &id, &b, &pose, margin).unwrap_err();
        assert!(matches!(e, QueryError::InvalidMargin(_)), "{margin}: {e:?}");
    }
    for bad in [-1e-9, f64::NAN, f64::INFINITY] {
        for (rel, abs, name) in [(bad, 0.0, "rel_err"), (0.0, bad, "abs_err")] {
            let request = DistanceRequest::default().with_tolerances(rel, abs);
            let e = distance(&a, &id, &b, &pose, &request).unwrap_err();
            assert!(
                matches!(e, QueryError::InvalidTolerance { name: n, .. } if n == name),
                "{e:?}"
            );
        }
    }
    let triangles = m.triangles().len() as u32;
    for hint in [[triangles, 0], [0, triangles]] {
        let request = DistanceRequest::default().with_hint(Some(hint));
        let e = distance(&a, &id, &b, &pose, &request).unwrap_err();
        assert!(matches!(e, QueryError::InvalidHint { .. }), "{e:?}");
    }
    let far = Pose::from_translation([1e103, 0.0, 0.0]).unwrap();
    let e = distance(&a, &id, &b, &far, &Default::default()).unwrap_err();
    assert!(matches!(e, QueryError::OutOfRange { .. }), "{e:?}");
    let e = within_margin(&a, &id, &b, &far, 1.0).unwrap_err();
    assert!(matches!(e, QueryError::OutOfRange { .. }), "{e:?}");
}

#[test]
fn tolerances_bound_the_excess() {
    let m = blob(5, 4, 6, 1.0, 0.3);
    let (a, b): (Model<obbtree_bv::Obb>, Model<obbtree_bv::Obb>) = (model(&m), model(&m));
    let mut r = rng(19);
    for k in 0..cases(20) {
        let pose = random_pose(&mut r, 4.0);
        let (rel, abs) = [(0.1, 0.0), (0.0, 0.05), (0.5, 0.01)][k as usize % 3];
        let request = DistanceRequest::default().with_tolerances(rel, abs);
        let got = distance(&a, &Pose::identity(), &b, &pose, &request).unwrap();
        let mut placed = Placed::new(&m, &m, &pose);
        let exact = placed.least_within(got.distance + 1e-9).expect("some pair");
        let d_star = approx(&exact).sqrt();
        let slack = PROMISE * (d_star + placed.magnitude);
        assert!(
            got.distance <= d_star * (1.0 + rel) + abs + slack,
            "pose {k}: {got:?} d* {d_star}"
        );
        assert!(
            square(got.lower) <= exact || got.lower == 0.0,
            "pose {k}: lower {got:?}"
        );
        assert!(square(got.upper) >= exact, "pose {k}: upper {got:?}");
        assert!(
            approx(&placed.pair(got.pair)).sqrt() <= got.distance + slack,
            "pose {k}: pair"
        );
    }
}

/// `mesh` shifted by `offset`.
fn shifted(mesh: &TriMesh, offset: [f64; 3]) -> TriMesh {
    let offset = nalgebra::Vector3::from(offset);
    let vertices = mesh.vertices().iter().map(|p| p + offset).collect();
    TriMesh::new(vertices, mesh.triangles().to_vec()).expect("shifted mesh")
}

/// The triangles of `a` and `b` in one mesh.
fn merged(a: &TriMesh, b: &TriMesh) -> TriMesh {
    let base = a.vertices().len() as u32;
    let vertices = a.vertices().iter().chain(b.vertices()).copied().collect();
    let triangles = a
        .triangles()
        .iter()
        .copied()
        .chain(b.triangles().iter().map(|t| t.map(|i| i + base)))
        .collect();
    TriMesh::new(vertices, triangles).expect("merged mesh")
}

/// A tracker's answers along `poses`, each checked against the exact distance, for every
/// volume type.
fn check_tracked(a: &TriMesh, b: &TriMesh, poses: &[Pose], what: &str) {
    let mut placed: Vec<Placed> = poses.iter().map(|p| Placed::new(a, b, p)).collect();
    let id = Pose::identity();
    for_each_volume(a, b, |volume, models| {
        with_models!(models, |ma, mb| {
            let mut tracker = DistanceTracker::new();
            for (k, pose) in poses.iter().enumerate() {
                let request = DistanceRequest::default();
                let r = tracker.distance(ma, &id, mb, pose, &request).unwrap();
                check_distance(&mut placed[k], &r, &format!("{what}, {volume}, step {k}"));
            }
        })
    });
}

#[test]
fn tracked_sequences_meet_the_guarantee_for_every_volume() {
    let meshes = meshes();
    let mut r = rng(23);
    for (na, ma) in &meshes {
        for (nb, mb) in &meshes {
            // A random walk: each step turns B by up to 0.05 rad about its origin and shifts
            // it by up to 0.1; every eighth step jumps to a fresh pose.
            let mut pose = random_pose(&mut r, 2.5);
            let mut poses = Vec::new();
            for k in 0..cases(16) {
                let step = if k % 8 == 7 {
                    random_pose(&mut r, 2.5)
                } else {
                    let turn = [0; 3].map(|_| r.gen_range(-0.03..0.03));
                    let shift = [0; 3].map(|_| r.gen_range(-0.06..0.06));
                    pose * Pose::new(shift, turn).expect("small step")
                };
                pose = step;
                poses.push(pose);
            }
            check_tracked(ma, mb, &poses, &format!("{na} × {nb}"));
        }
    }
}

/// Motions that bring a part of A left out at one pose nearer than the last closest pair: a
/// tracker that did not lower its bounds by the shift (first case) or by the turn (second)
/// would leave the new closest pair out.
#[test]
fn tracked_bounds_are_lowered_by_the_shift_and_the_turn() {
    let ball = blob(9, 4, 8, 1.0, 0.1);
    let small = blob(10, 3, 6, 0.5, 0.1);
    // Two balls 10 apart; B between them moves from the first's side to the second's.
    let two = merged(&ball, &shifted(&ball, [10.0, 0.0, 0.0]));
    let poses = [4.0, 4.4, 5.6, 6.2, 3.0].map(|x| Pose::from_translation([x, 0.0, 0.0]).unwrap());
    check_tracked(&two, &small, &poses, "shifted between two balls");
    // Two balls above and below B's arm: a ball 6 from B's origin, turned about it from one
    // side to the other.
    let above_below = merged(
        &shifted(&ball, [6.0, 3.5, 0.0]),
        &shifted(&ball, [6.0, -3.5, 0.0]),
    );
    let arm = shifted(&small, [6.0, 0.0, 0.0]);
    let poses =
        [0.15, 0.1, -0.1, -0.15, 0.12].map(|angle| Pose::new([0.0; 3], [0.0, 0.0, angle]).unwrap());
    check_tracked(&above_below, &arm, &poses, "turned between two balls");
}

#[test]
fn a_tracker_given_other_models_starts_afresh() {
    let m = blob(4, 4, 6, 1.0, 0.2);
    let far = shifted(&m, [30.0, 0.0, 0.0]);
    let (a, b): (Model<obbtree_bv::Obb>, Model<obbtree_bv::Obb>) = (model(&m), model(&m));
    let other: Model<obbtree_bv::Obb> = model(&far);
    let (id, pose) = (
        Pose::identity(),
        Pose::from_translation([3.0, 0.0, 0.0]).unwrap(),
    );
    let request = DistanceRequest::default();
    let mut tracker = DistanceTracker::new();
    // The same distance as a cold query (within the guarantee: on ties, the pair may differ).
    let same = |tracked: DistanceResult, cold: DistanceResult| {
        let tau = PROMISE * (cold.distance + 35.0);
        assert!(
            (tracked.distance - cold.distance).abs() <= tau,
            "{tracked:?} {cold:?}"
        );
        assert!(tracked.lower <= cold.upper && cold.lower <= tracked.upper);
    };
    for (x, y) in [(&a, &b), (&a, &other), (&other, &b), (&a, &b.clone())] {
        let tracked = tracker.distance(x, &id, y, &pose, &request).unwrap();
        same(tracked, distance(x, &id, y, &pose, &request).unwrap());
    }
    tracker.forget();
    let again = tracker.distance(&a, &id, &b, &pose, &request).unwrap();
    same(again, distance(&a, &id, &b, &pose, &request).unwrap());
    let bad = DistanceRequest::default().with_tolerances(-1.0, 0.0);
    assert!(tracker.distance(&a, &id, &b, &pose, &bad).is_err());
}

/// The search leaves out pairs that cannot be nearer than the best found by more than a tenth
/// of the guarantee: here the hint's pair is 1e-11 farther than the closest (1.4 times the
/// guarantee's bound), and must not be kept.
#[test]
fn pairs_nearer_by_more_than_the_guarantee_are_found() {
    let triangle = |x: f64, z: f64| {
        [
            Point::new(x, 0.0, z),
            Point::new(x + 1.0, 0.0, z),
            Point::new(x, 1.0, z),
        ]
    };
    let gap = 1e-11;
    let [p, q, r] = triangle(0.0, 0.0);
    let [s, t, u] = triangle(5.0, gap);
    let a = TriMesh::new(vec![p, q, r, s, t, u], vec![[0, 1, 2], [3, 4, 5]]).unwrap();
    let b = TriMesh::new(
        vec![
            Point::new(-1.0, -1.0, 0.0),
            Point::new(7.0, -1.0, 0.0),
            Point::new(-1.0, 7.0, 0.0),
        ],
        vec![[0, 1, 2]],
    )
    .unwrap();
    let pose = Pose::from_translation([0.0, 0.0, 1.0]).unwrap();
    let mut placed = Placed::new(&a, &b, &pose);
    for_each_volume(&a, &b, |volume, models| {
        with_models!(models, |ma, mb| {
            for hint in [None, Some([0, 0])] {
                let request = DistanceRequest::default().with_hint(hint);
                let r = distance(ma, &Pose::identity(), mb, &pose, &request).unwrap();
                check_distance(&mut placed, &r, &format!("{volume}, hint {hint:?}"));
                assert_eq!(r.pair, [1, 0], "{volume}: {r:?}");
            }
        })
    });
}
