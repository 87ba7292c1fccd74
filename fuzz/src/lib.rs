//! Bodies of the fuzz targets, one public function per target (`fuzz_targets/<name>.rs` calls
//! `obbtree_fuzz::<name>`).
//!
//! The same file is compiled into the root package's `tests/fuzz_corpus.rs` (through `#[path]`),
//! which feeds every committed corpus file to these functions, so CI replays the corpora without
//! a fuzzing engine. It therefore uses only crates both packages depend on: `obbtree`,
//! `obbtree-cli`, `obbtree-compare` (the exact ray oracle), `arbitrary`, `flate2`, `serde`,
//! `num-rational`, `num-traits` and `xxhash-rust`.
//!
//! A body returns normally for any input it considers handled (a typed error is a handled input)
//! and panics on a finding: a panic inside the library, or a violated guarantee (NaN out of finite
//! input, a fitted volume that misses one of its points, a tree that loads but is inconsistent).
#![allow(dead_code)] // the corpus test uses `TARGETS`, not every helper by name

/// The exact oracles shared with the integration tests (big-integer separating axes, exact
/// plane sides, exact ray crossings, exact point parity), which share no code with the engine.
#[path = "../../tests/oracles/mod.rs"]
pub mod oracles;
use oracles::rays::ExactHits;

use arbitrary::{Result, Unstructured};
use obbtree::brute::brute_force;
use obbtree::bv::intersect::{
    frustum::Frustum, frustum_aabb, frustum_obb, frustum_sphere, line2d, moving_obb_obb,
    moving_sphere_plane, moving_sphere_polygon, moving_sphere_sphere, plane::Plane, plane_aabb,
    plane_obb, ray_aabb, ray_kdop, ray_obb, ray_polygon, ray_sphere, ray_triangle, segment2d,
    segment_aabb, segment_obb, shaft, three_planes,
};
use obbtree::bv::nalgebra::{Matrix4, Point2, Rotation3, Vector2};
use obbtree::bv::range::{RangeError, EXACT_MAX_COORDINATE};
use obbtree::bv::{
    Aabb, BoundingVolume, Kdop18, MeshError, Obb, ObbFit, Point, Pose, PoseError, Ray, Sphere,
    SphereFit, TriMesh, Triangle, Vector, MAX_COORDINATE,
};
use obbtree::error::Operand;
use obbtree::pick::MeshRay;
use obbtree::tree::{
    with_volume, BuildOptions, Bvh, NodeKind, Refit, SplitRule, TreeVolume, VolumeKind, MAX_DEPTH,
};
use obbtree::{
    any_hit, cast_ray, cast_ray_all, CollisionRequest, Containment, DistanceRequest,
    DistanceTracker, FrustumVolume, Mode, Model, ModelOptions, PosedOverlap, QueryError, RayHit,
    RayIndex, RayVolume,
};
use serde::{de::DeserializeOwned, Serialize};
use std::io::Write;
use std::path::Path;
use std::sync::OnceLock;

/// A target's body: takes the fuzzer's bytes, panics on a finding.
pub type Body = fn(&[u8]);

/// Every target: its name (the directory under `fuzz/corpus/`) and its body.
pub const TARGETS: &[(&str, Body)] = &[
    ("load_mesh", load_mesh),
    ("tree_bytes", tree_bytes),
    ("build_tree", build_tree),
    ("fit", fit),
    ("primitives", primitives),
    ("poses_json", poses_json),
    ("rays_json", rays_json),
    ("collide", collide),
    ("pick", pick),
    ("distance", distance),
    ("api_poses", api_poses),
];

// ---------------------------------------------------------------------------------------------
// Arbitrary geometry

/// A coordinate: often an ordinary small number, sometimes an extreme or non-finite one, sometimes
/// arbitrary bits, so that both the typical paths and the overflow paths are reached.
fn coord(u: &mut Unstructured) -> Result<f64> {
    let c = any_coord(u)?;
    if !moderate(c) {
        WILD.with(|w| w.set(true));
    }
    Ok(c)
}

thread_local! {
    /// Set when [`coord`] returns a value that is not [`moderate`]; [`primitive`] clears it before
    /// drawing each test's input, so that results are checked only for moderate input.
    static WILD: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

fn any_coord(u: &mut Unstructured) -> Result<f64> {
    const SPECIAL: [f64; 14] = [
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.5,
        1e-300,
        -1e-300,
        1e300,
        -1e300,
        1e9,
        f64::MIN_POSITIVE,
        f64::MAX,
        f64::INFINITY,
        f64::NAN,
    ];
    Ok(match u.int_in_range(0u8..=7)? {
        0..=3 => f64::from(u.int_in_range(-8i8..=8)?) * 0.25,
        4 => SPECIAL[u.choose_index(SPECIAL.len())?],
        5 => f64::from(u.arbitrary::<i32>()?) / 1024.0,
        _ => f64::from_bits(u.arbitrary()?),
    })
}

fn point(u: &mut Unstructured) -> Result<Point> {
    Ok(Point::new(coord(u)?, coord(u)?, coord(u)?))
}

fn vector(u: &mut Unstructured) -> Result<Vector> {
    Ok(point(u)?.coords)
}

fn point2(u: &mut Unstructured) -> Result<Point2<f64>> {
    Ok(Point2::new(coord(u)?, coord(u)?))
}

fn points(u: &mut Unstructured, max: usize) -> Result<Vec<Point>> {
    let n = u.int_in_range(1..=max)?;
    (0..n).map(|_| point(u)).collect()
}

/// Zero or of magnitude within `[1e-100, 1e100]`: products and quotients of a few such numbers
/// stay finite, so any NaN or infinity in a result is the code's, not the input's.
fn moderate(x: f64) -> bool {
    x == 0.0 || (1e-100..=1e100).contains(&x.abs())
}

fn moderate_points<'a>(ps: impl IntoIterator<Item = &'a Point>) -> bool {
    ps.into_iter().all(|p| p.iter().all(|&c| moderate(c)))
}

fn aabb(u: &mut Unstructured) -> Result<Aabb> {
    let (a, b) = (point(u)?, point(u)?);
    Ok(Aabb::new(a.inf(&b), a.sup(&b)))
}

/// An OBB with exactly orthonormal axes (a rotation from Euler angles) or, sometimes, arbitrary
/// (even non-finite) axes.
fn obb(u: &mut Unstructured) -> Result<Obb> {
    let axes = if u.ratio(1u8, 8)? {
        obbtree::bv::nalgebra::Matrix3::from_columns(&[vector(u)?, vector(u)?, vector(u)?])
    } else {
        Rotation3::from_euler_angles(coord(u)?, coord(u)?, coord(u)?).into_inner()
    };
    Ok(Obb {
        center: point(u)?,
        axes,
        half_extents: vector(u)?.abs(),
    })
}

fn sphere(u: &mut Unstructured) -> Result<Sphere> {
    Ok(Sphere::new(point(u)?, coord(u)?.abs()))
}

/// A ray; a zero direction (outside `Ray`'s contract, refused by the query layer) counts as wild
/// input, like a non-moderate coordinate.
fn ray(u: &mut Unstructured) -> Result<Ray> {
    let ray = Ray::new(point(u)?, vector(u)?);
    if ray.dir == Vector::zeros() {
        WILD.with(|w| w.set(true));
    }
    Ok(ray)
}

fn plane(u: &mut Unstructured) -> Result<Plane> {
    Ok(Plane::new(vector(u)?, coord(u)?))
}

/// A vertex/index mesh: some indices out of range, some coordinates non-finite.
fn raw_mesh(u: &mut Unstructured) -> Result<(Vec<Point>, Vec<[u32; 3]>)> {
    let vertices = points(u, 48)?;
    let n = vertices.len() as u32;
    let triangle_count = u.int_in_range(0..=96)?;
    let triangles = (0..triangle_count)
        .map(|_| {
            let mut index = || -> Result<u32> {
                Ok(if u.ratio(1u8, 64)? {
                    u.arbitrary()?
                } else {
                    u.int_in_range(0..=n - 1)?
                })
            };
            Ok([index()?, index()?, index()?])
        })
        .collect::<Result<_>>()?;
    Ok((vertices, triangles))
}

// ---------------------------------------------------------------------------------------------
// Checks

/// Panics if a result that came from moderate input holds a NaN or infinity.
fn finite(what: &str, values: &[f64]) {
    assert!(
        values.iter().all(|v| v.is_finite()),
        "{what}: non-finite result {values:?} from moderate input"
    );
}

/// `TriMesh::new` accepts exactly the valid meshes and names the first offending element.
fn validated(vertices: Vec<Point>, triangles: Vec<[u32; 3]>) -> Option<TriMesh> {
    let first_bad_vertex = vertices
        .iter()
        .position(|p| !p.iter().all(|c| c.is_finite()));
    let in_range = |c: f64| {
        c == 0.0
            || (obbtree::bv::MIN_NONZERO_COORDINATE..=obbtree::bv::MAX_COORDINATE)
                .contains(&c.abs())
    };
    let first_out_of_range = vertices
        .iter()
        .position(|p| !p.iter().all(|&c| in_range(c)));
    let first_bad_index = triangles.iter().enumerate().find_map(|(t, tri)| {
        tri.iter()
            .find(|&&i| i as usize >= vertices.len())
            .map(|&i| (t, i))
    });
    let empty = triangles.is_empty();
    match TriMesh::new(vertices, triangles) {
        Ok(mesh) => {
            assert!(!empty && first_out_of_range.is_none() && first_bad_index.is_none());
            Some(mesh)
        }
        Err(MeshError::Empty) => {
            assert!(empty);
            None
        }
        Err(MeshError::NonFiniteVertex { vertex, .. }) => {
            assert_eq!(Some(vertex), first_bad_vertex);
            None
        }
        Err(MeshError::CoordinateOutOfRange { vertex, .. }) => {
            assert!(first_bad_vertex.is_none());
            assert_eq!(Some(vertex), first_out_of_range);
            None
        }
        Err(MeshError::IndexOutOfRange {
            triangle, index, ..
        }) => {
            assert!(first_out_of_range.is_none());
            assert_eq!(Some((triangle, index)), first_bad_index);
            None
        }
        Err(e) => panic!("unexpected mesh error {e}"),
    }
}

/// Largest absolute coordinate of the mesh.
fn magnitude(mesh: &TriMesh) -> f64 {
    mesh.vertices()
        .iter()
        .flat_map(|p| p.iter())
        .fold(0.0f64, |m, c| m.max(c.abs()))
}

/// Checks a tree through its public accessors: every node reached once from the root by the
/// public traversal, depth within [`MAX_DEPTH`], every triangle in exactly one leaf, and, with
/// `tolerance`, every node's volume containing every vertex of every triangle below it.
pub fn check_tree<V: TreeVolume>(tree: &Bvh<V>, mesh: &TriMesh, tolerance: Option<f64>) {
    let nodes = tree.nodes();
    assert_eq!(tree.descend(|_| true).count(), nodes.len());
    assert!(tree.depth() <= MAX_DEPTH);
    let stats = tree.stats();
    assert_eq!(stats.depth, tree.depth());
    assert_eq!(stats.triangles, mesh.triangles().len());
    let mut seen = vec![false; mesh.triangles().len()];
    for &t in tree.triangle_order() {
        assert!(!std::mem::replace(&mut seen[t as usize], true));
    }
    assert!(seen.iter().all(|&s| s));
    // Positions of the triangle order below each node (children come after their parents).
    let mut ranges = vec![(0, 0); nodes.len()];
    for i in (0..nodes.len()).rev() {
        ranges[i] = match nodes[i].kind() {
            NodeKind::Internal { left, right } => (ranges[left].0, ranges[right].1),
            NodeKind::Leaf(r) => (r.start, r.end),
        };
    }
    let Some(tolerance) = tolerance else { return };
    for (node, &(start, end)) in nodes.iter().zip(&ranges) {
        for &t in &tree.triangle_order()[start..end] {
            for p in mesh.triangle(t as usize).vertices() {
                assert!(
                    node.bv().contains_point(&p, tolerance),
                    "{:?} misses vertex {p:?} of triangle {t}",
                    node.bv()
                );
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Targets

/// File names whose extension selects each loader (STL ascii/binary and PLY ascii/binary/endian
/// are told apart by the content).
const MESH_NAMES: [&str; 4] = ["fuzz.obj", "fuzz.stl", "fuzz.ply", "fuzz.off"];

/// Mesh loaders. First byte: `% 4` picks the format, `/ 4 % 3` picks plain, gzip-compressed by
/// the target (the parser behind the decoder), or the raw bytes handed to the gzip decoder.
/// A loaded mesh is validated (finite, indices in range) and gets a tree.
pub fn load_mesh(data: &[u8]) {
    let Some((&selector, bytes)) = data.split_first() else {
        return;
    };
    let name = MESH_NAMES[usize::from(selector % 4)];
    let result = match selector / 4 % 3 {
        0 => obbtree::load::load_mesh_bytes(bytes, Path::new(name)),
        1 => {
            let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            gz.write_all(bytes).unwrap();
            let gz = gz.finish().unwrap();
            obbtree::load::load_mesh_bytes(&gz, Path::new(&format!("{name}.gz")))
        }
        _ => obbtree::load::load_mesh_bytes(bytes, Path::new(&format!("{name}.gz"))),
    };
    match result {
        Ok(mesh) => {
            let mesh = validated(mesh.vertices().to_vec(), mesh.triangles().to_vec())
                .expect("a loaded mesh is valid");
            if mesh.triangles().len() <= 4096 {
                let tree = Bvh::<Aabb>::build(&mesh, &BuildOptions::default()).unwrap();
                check_tree(&tree, &mesh, Some(0.0));
            }
        }
        Err(e) => assert!(
            e.to_string().contains("fuzz."),
            "error without the file: {e}"
        ),
    }
}

/// The mesh every `tree_bytes` input is loaded against.
pub fn tree_mesh() -> &'static TriMesh {
    static MESH: OnceLock<TriMesh> = OnceLock::new();
    MESH.get_or_init(|| {
        let vertices: Vec<Point> = (0..24)
            .map(|i| {
                let a = f64::from(i) * 0.7;
                Point::new(a.cos() * 2.0, a.sin(), f64::from(i % 5) * 0.3)
            })
            .collect();
        let triangles = (0..22).map(|i| [i, i + 1, i + 2]).collect();
        TriMesh::new(vertices, triangles).unwrap()
    })
}

/// Wraps `payload` in a valid header and checksum (the layout of
/// [`obbtree::tree::serialize`]), so that mutated payloads reach the decoder and the structure
/// check instead of stopping at the checksum.
pub fn seal(payload: &[u8]) -> Vec<u8> {
    let mut bytes = b"OBBTREE\0".to_vec();
    bytes.extend_from_slice(&obbtree::tree::FORMAT_VERSION.to_le_bytes());
    bytes.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    bytes.extend_from_slice(payload);
    let checksum = xxhash_rust::xxh3::xxh3_64(&bytes);
    bytes.extend_from_slice(&checksum.to_le_bytes());
    bytes
}

/// The tree deserializer. First byte: `% 4` picks the volume type (AABB, OBB, sphere, 18-DOP);
/// bit 7 set means "the rest is a payload: seal it" (see [`seal`]), clear means "the rest is a
/// whole file". A tree that loads must be consistent, contain its mesh exactly (the volume check
/// on loading), re-save to the same bytes, and refit.
pub fn tree_bytes(data: &[u8]) {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let bytes = if selector & 0x80 != 0 {
        seal(rest)
    } else {
        rest.to_vec()
    };
    let kind = VolumeKind::ALL[usize::from(selector & 0x7f) % VolumeKind::ALL.len()];
    with_volume!(kind, |V| load_tree::<V>(&bytes))
}

fn load_tree<V: TreeVolume + Serialize + DeserializeOwned>(bytes: &[u8]) {
    let mesh = tree_mesh();
    let Ok(tree) = Bvh::<V>::from_bytes(bytes, mesh) else {
        return;
    };
    check_tree(&tree, mesh, Some(0.0));
    let again = tree.to_bytes();
    assert!(Bvh::<V>::from_bytes(&again, mesh).is_ok());
    let mut refitted = tree.clone();
    refitted
        .refit(mesh, V::Method::default(), Refit::Merge)
        .unwrap();
    check_tree(&refitted, mesh, Some(1e-12 * magnitude(mesh)));
    refitted
        .refit(mesh, V::Method::default(), Refit::Fit)
        .unwrap();
    check_tree(&refitted, mesh, Some(1e-12 * magnitude(mesh)));
}

/// Tree building on arbitrary meshes (validated first: non-finite and out-of-range input must be
/// refused naming the element), every volume type and split rule, then refit after a motion.
/// Containment is checked with the tree tests' tolerance (`1e-12` × the largest coordinate) when
/// the coordinates are moderate.
pub fn build_tree(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let _ = build_from(&mut u);
}

fn build_from(u: &mut Unstructured) -> Result<()> {
    let (vertices, triangles) = raw_mesh(u)?;
    let Some(mesh) = validated(vertices, triangles) else {
        return Ok(());
    };
    let leaf_size = u.int_in_range(0..=6)?;
    let split = [SplitRule::Gottschalk, SplitRule::Median, SplitRule::Sah][u.choose_index(3)?];
    let parallel = u.arbitrary()?;
    // Large leaves split (to single triangles at 0) or not: every valid ratio keeps the tree's
    // invariants; invalid ones are refused.
    let large_leaf_ratio = [f64::INFINITY, 4.0, 1.0, 0.0, -1.0, f64::NAN][u.choose_index(6)?];
    let shape = TreeShape {
        leaf_size,
        large_leaf_ratio,
        split,
        parallel,
    };
    let shift = vector(u)?;
    match u.choose_index(4)? {
        0 => build_checked::<Aabb>(&mesh, shape, (), shift),
        1 => {
            let method = [
                ObbFit::TriangleCovariance,
                ObbFit::HullCovariance,
                ObbFit::VertexCovariance,
                ObbFit::MinVolume,
                ObbFit::Ditetrahedron,
            ][u.choose_index(5)?];
            build_checked::<Obb>(&mesh, shape, method, shift)
        }
        2 => {
            let method = [
                SphereFit::AabbCenter,
                SphereFit::ImprovedAabbCenter,
                SphereFit::Ritter,
                SphereFit::Welzl,
            ][u.choose_index(4)?];
            build_checked::<Sphere>(&mesh, shape, method, shift)
        }
        _ => build_checked::<Kdop18>(&mesh, shape, (), shift),
    }
    Ok(())
}

/// The fuzzed build options but the fit.
#[derive(Clone, Copy)]
struct TreeShape {
    leaf_size: usize,
    large_leaf_ratio: f64,
    split: SplitRule,
    parallel: bool,
}

fn build_checked<V: TreeVolume>(
    mesh: &TriMesh,
    shape: TreeShape,
    method: V::Method,
    shift: Vector,
) {
    let TreeShape {
        leaf_size,
        large_leaf_ratio,
        split,
        parallel,
    } = shape;
    let options = BuildOptions::<V> {
        leaf_size,
        large_leaf_ratio,
        split,
        method,
        parallel,
    };
    let Ok(mut tree) = Bvh::<V>::build(mesh, &options) else {
        assert!(leaf_size == 0 || large_leaf_ratio.is_nan() || large_leaf_ratio < 0.0);
        return;
    };
    let tolerance = |m: &TriMesh| (magnitude(m) <= 1e100).then(|| 1e-12 * magnitude(m));
    check_tree(&tree, mesh, tolerance(mesh));
    let moved: Vec<Point> = mesh.vertices().iter().map(|p| p + shift).collect();
    let Ok(moved) = TriMesh::new(moved, mesh.triangles().to_vec()) else {
        return; // the motion overflowed a coordinate: refused like any non-finite mesh
    };
    for mode in [Refit::Merge, Refit::Fit] {
        tree.refit(&moved, method, mode).unwrap();
        check_tree(&tree, &moved, tolerance(&moved));
    }
}

/// Every fitting method on arbitrary points: the fitted volume contains every point with zero
/// tolerance and holds no NaN whenever the points are moderate (see `obbtree::bv::fit`).
pub fn fit(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let Ok(points) = points(&mut u, 64) else {
        return;
    };
    let checked = moderate_points(&points);
    let check = |name: &str, bv: &dyn Fn(&Point) -> bool| {
        if checked {
            for p in &points {
                assert!(bv(p), "{name} fit misses {p:?} of {points:?}");
            }
        }
    };
    let a = Aabb::fit_points(&points, ());
    check("aabb", &|p| a.contains_point(p, 0.0));
    let k = Kdop18::fit_points(&points, ());
    check("kdop18", &|p| k.contains_point(p, 0.0));
    for method in [
        ObbFit::TriangleCovariance,
        ObbFit::HullCovariance,
        ObbFit::VertexCovariance,
        ObbFit::MinVolume,
        ObbFit::Ditetrahedron,
    ] {
        let o = Obb::fit_points(&points, method);
        if checked {
            finite("obb fit", o.axes.as_slice());
            finite("obb fit", o.half_extents.as_slice());
        }
        check(&format!("{method:?}"), &|p| o.contains_point(p, 0.0));
    }
    for method in [
        SphereFit::AabbCenter,
        SphereFit::ImprovedAabbCenter,
        SphereFit::Ritter,
        SphereFit::Welzl,
    ] {
        let s = Sphere::fit_points(&points, method);
        if checked {
            finite("sphere fit", &[s.radius]);
        }
        check(&format!("{method:?}"), &|p| s.contains_point(p, 0.0));
    }
}

/// Every primitive test of `obbtree::bv::intersect` on arbitrary shapes: no panic ever; with
/// moderate input, hit parameters are finite, non-negative and ordered.
pub fn primitives(data: &[u8]) {
    let mut u = Unstructured::new(data);
    while !u.is_empty() {
        if primitive(&mut u).is_err() {
            return;
        }
    }
}

fn check_t(what: &str, t: f64) {
    if !WILD.with(|w| w.get()) {
        finite(what, &[t]);
        assert!(t >= 0.0, "{what}: negative t {t}");
    }
}

fn check_interval(what: &str, i: Option<(f64, f64)>) {
    if let Some((t0, t1)) = i {
        check_t(what, t0);
        assert!(t0 <= t1 || t1.is_nan(), "{what}: interval ({t0}, {t1})");
    }
}

fn primitive(u: &mut Unstructured) -> Result<()> {
    WILD.with(|w| w.set(false));
    match u.choose_index(16)? {
        0 => {
            let (r, b) = (ray(u)?, aabb(u)?);
            check_interval("ray_aabb::interval", ray_aabb::interval(&r, &b));
            if let Some(h) = ray_aabb::cast(&r, &b) {
                check_t("ray_aabb::cast", h.t);
            }
            if let Some(h) = ray_aabb::cast_woo(&r, &b) {
                check_t("ray_aabb::cast_woo", h.t);
            }
        }
        1 => {
            let (r, b) = (ray(u)?, obb(u)?);
            check_interval("ray_obb::interval", ray_obb::interval(&r, &b));
            if let Some(h) = ray_obb::cast(&r, &b) {
                check_t("ray_obb::cast", h.t);
            }
        }
        2 => {
            let r = ray(u)?;
            let k = Kdop18::fit_points(&points(u, 8)?, ());
            check_interval("ray_kdop::interval", ray_kdop::interval(&r, &k));
            if let Some(h) = ray_kdop::cast(&r, &k) {
                check_t("ray_kdop::cast", h.t);
            }
        }
        3 => {
            let (r, s) = (ray(u)?, sphere(u)?);
            let hit = ray_sphere::cast(&r, &s);
            if let Some(h) = hit {
                check_t("ray_sphere::cast", h.t);
            }
            let _ = ray_sphere::intersects(&r, &s);
        }
        4 => {
            let r = ray(u)?;
            let tri = Triangle::new(point(u)?, point(u)?, point(u)?);
            for (name, hit) in [
                ("ray_triangle::cast", ray_triangle::cast(&r, &tri)),
                (
                    "ray_triangle::cast_watertight",
                    ray_triangle::cast_watertight(&r, &tri),
                ),
            ] {
                if let Some(h) = hit {
                    let name = &format!("{name} {r:?} {tri:?}");
                    check_t(name, h.t);
                    if !WILD.with(|w| w.get()) {
                        finite(name, &[h.u, h.v]);
                    }
                    let _ = h.point(&tri);
                }
            }
        }
        5 => {
            let r = ray(u)?;
            let polygon = points(u, 8)?;
            if let Some(h) = ray_polygon::cast(&r, &polygon) {
                check_t("ray_polygon::cast", h.t);
            }
        }
        6 => {
            let (p0, p1) = (point(u)?, point(u)?);
            let _ = segment_aabb::overlaps(&p0, &p1, &aabb(u)?);
            let _ = segment_obb::overlaps(&p0, &p1, &obb(u)?);
        }
        7 => {
            let p = plane(u)?;
            let b = aabb(u)?;
            let _ = (
                plane_aabb::classify(&p, &b),
                plane_aabb::classify_diagonal(&p, &b),
                plane_aabb::classify_vertices(&p, &b),
            );
            let o = obb(u)?;
            let _ = (
                plane_obb::classify(&p, &o),
                plane_obb::classify_transformed_normal(&p, &o),
                plane_obb::classify_vertices(&p, &o),
            );
        }
        8 => {
            let m = Matrix4::from_fn(|_, _| coord(u).unwrap_or(0.0));
            if let Ok(f) = Frustum::from_view_projection(&m) {
                let _ = frustum_aabb::classify(&f, &aabb(u)?);
                let _ = frustum_obb::classify(&f, &obb(u)?);
                let s = sphere(u)?;
                let _ = frustum_sphere::classify(&f, &s);
                let _ = frustum_sphere::classify_octant(&f, &s);
                let _ = f.contains_point(&point(u)?);
            }
        }
        9 => {
            let s = shaft::Shaft::new(&aabb(u)?, &aabb(u)?);
            let _ = shaft::classify_aabb(&s, &aabb(u)?);
            let _ = shaft::classify_sphere(&s, &sphere(u)?);
            let _ = s.contains_point(&point(u)?);
        }
        10 => {
            let _ = three_planes::point(&plane(u)?, &plane(u)?, &plane(u)?);
        }
        11 => {
            let (o1, o2) = (point2(u)?, point2(u)?);
            let d1 = Vector2::new(coord(u)?, coord(u)?);
            let d2 = Vector2::new(coord(u)?, coord(u)?);
            let _ = line2d::intersect(&o1, &d1, &o2, &d2);
            let _ = line2d::point(&o1, &d1, &o2, &d2);
        }
        12 => {
            let (p1, p2, q1, q2) = (point2(u)?, point2(u)?, point2(u)?, point2(u)?);
            let _ = segment2d::intersect(&p1, &p2, &q1, &q2);
            let _ = segment2d::overlaps(&p1, &p2, &q1, &q2);
        }
        13 => {
            let (s, m) = (sphere(u)?, vector(u)?);
            let _ = moving_sphere_plane::time_of_contact(&s, &m, &plane(u)?);
            let _ = moving_sphere_sphere::time_of_contact(&s, &m, &sphere(u)?, &vector(u)?);
        }
        14 => {
            let (s, m) = (sphere(u)?, vector(u)?);
            let _ = moving_sphere_polygon::time_of_contact(&s, &m, &points(u, 8)?);
        }
        _ => {
            let _ = moving_obb_obb::time_of_contact(&obb(u)?, &vector(u)?, &obb(u)?, &vector(u)?);
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Pose and ray files

/// The pose reader of the command line ([`obbtree_cli::poses`]): JSON files and `--pose` strings.
/// A pose that is accepted is finite with a rotation matrix orthonormal to rounding and a
/// translation within [`MAX_COORDINATE`]; a refusal names the file or the pose.
pub fn poses_json(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let path = Path::new("fuzz.json");
    let checked = |pose: &Pose| {
        let r = pose.rotation();
        assert!(
            r.iter()
                .chain(pose.translation().iter())
                .all(|x| x.is_finite()),
            "accepted pose with a non-finite matrix: {pose:?}"
        );
        assert!(pose.translation().amax() <= MAX_COORDINATE);
        let error = (r.transpose() * r - obbtree::bv::nalgebra::Matrix3::identity()).amax();
        assert!(
            error <= 1e-12,
            "rotation not orthonormal ({error:e}): {pose:?}"
        );
    };
    match obbtree_cli::poses::poses_from_str(&text, path) {
        Ok(poses) => poses.iter().for_each(checked),
        Err(e) => {
            let e = e.to_string();
            assert!(e.contains("fuzz.json") || e.contains("pose "), "{e}");
        }
    }
    if let Ok(entry) = obbtree_cli::poses::PoseEntry::parse(&text) {
        match entry.to_pose(0) {
            Ok(pose) => checked(&pose),
            Err(e) => assert!(e.to_string().starts_with("pose 0: "), "{e}"),
        }
    }
}

/// The rays reader of the command line ([`obbtree_cli::rays`]): an accepted ray can be cast (finite,
/// non-zero direction: the pick queries' own check agrees); a refusal names the file.
pub fn rays_json(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    match obbtree_cli::rays::rays_from_str(&text, Path::new("fuzz.json")) {
        Ok(rays) => {
            for ray in &rays {
                assert!(valid_ray(ray), "accepted {ray:?}");
            }
        }
        Err(e) => assert!(e.to_string().starts_with("fuzz.json: "), "{e}"),
    }
}

/// The pick queries' contract for a ray: finite origin and direction, non-zero direction.
fn valid_ray(ray: &Ray) -> bool {
    ray.origin.iter().all(|c| c.abs() <= MAX_COORDINATE)
        && ray.dir.iter().all(|c| c.is_finite())
        && ray.dir != Vector::zeros()
}

// ---------------------------------------------------------------------------------------------
// Queries against the brute-force oracles

/// A coordinate for the query targets: mostly a multiple of 1/4 in `[-2, 2]` (so that touching,
/// coplanar and coincident configurations are common), sometimes a value at the ends of the
/// accepted range, sometimes arbitrary bits (which `TriMesh::new` may refuse).
fn query_coord(u: &mut Unstructured) -> Result<f64> {
    const SPECIAL: [f64; 8] = [1e-70, -1e-70, 1e100, -1e100, 1e9, 1e-9, 3.0 / 7.0, 0.1];
    Ok(match u.int_in_range(0u8..=15)? {
        0..=12 => f64::from(u.int_in_range(-8i8..=8)?) * 0.25,
        13 | 14 => SPECIAL[u.choose_index(SPECIAL.len())?],
        _ => f64::from_bits(u.arbitrary()?),
    })
}

/// A small valid mesh (up to 8 vertices and 12 triangles), scaled and moved as a whole
/// (1e-60, 1e90, an offset of 1e9), or `None` when `TriMesh::new` refuses it.
fn query_mesh(u: &mut Unstructured) -> Result<Option<TriMesh>> {
    let n = u.int_in_range(1u32..=8)?;
    let scale = [1.0, 1.0, 1.0, 1e-60, 1e90, 0.5][u.choose_index(6)?];
    let offset = [0.0, 0.0, 0.0, 1e9, -3.0][u.choose_index(5)?];
    let vertices = (0..n)
        .map(|_| {
            let mut c = || query_coord(u).map(|c| c * scale + offset);
            Ok(Point::new(c()?, c()?, c()?))
        })
        .collect::<Result<Vec<_>>>()?;
    let count = u.int_in_range(1..=12)?;
    let triangles = (0..count)
        .map(|_| {
            let mut i = || u.int_in_range(0..=n - 1);
            Ok([i()?, i()?, i()?])
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(validated(vertices, triangles))
}

/// An arbitrary rigid motion: identity, an exact axis permutation with signs (keeps grid points
/// on the grid), or a rotation vector; any of its numbers may be non-finite or huge. `None` when
/// [`Pose`] refuses it, which it must do exactly for a non-finite number or a rotation vector
/// whose length overflows (its rotation matrix is then NaN).
fn query_pose(u: &mut Unstructured) -> Result<Option<Pose>> {
    let c = |u: &mut Unstructured| -> Result<f64> {
        Ok(if u.ratio(1u8, 8)? {
            any_coord(u)?
        } else {
            query_coord(u)?
        })
    };
    let translation = Vector::new(c(u)?, c(u)?, c(u)?);
    let all_finite = |v: &Vector| v.iter().all(|x| x.is_finite());
    let (pose, acceptable) = match u.int_in_range(0u8..=2)? {
        0 => (
            Pose::from_translation(translation),
            all_finite(&translation),
        ),
        1 => {
            let perm = [[0, 1, 2], [1, 2, 0], [2, 0, 1], [1, 0, 2]][u.choose_index(4)?];
            let mut m = obbtree::bv::nalgebra::Matrix3::zeros();
            for (row, &col) in perm.iter().enumerate() {
                m[(row, col)] = if u.arbitrary()? { 1.0 } else { -1.0 };
            }
            if m.determinant() < 0.0 {
                m.column_mut(0).neg_mut();
            }
            (Pose::from_parts(translation, m), all_finite(&translation))
        }
        _ => {
            let rotation = Vector::new(c(u)?, c(u)?, c(u)?);
            let length = rotation.iter().map(|x| x * x).sum::<f64>().sqrt();
            (
                Pose::new(translation, rotation),
                all_finite(&translation) && length.is_finite(),
            )
        }
    };
    Ok(match pose {
        Ok(pose) => {
            assert!(acceptable, "accepted {pose:?}");
            Some(pose)
        }
        Err(e) => {
            assert!(
                !acceptable && matches!(e, PoseError::NonFinite { .. }),
                "refused {translation:?}: {e}"
            );
            None
        }
    })
}

/// `collide` on two small arbitrary meshes under arbitrary poses, every volume type, `First`
/// and `All` (with and without containment and contacts): never a panic; a refusal only for B
/// placed beyond the exact range (see [`collide_checked`]); otherwise exactly the brute-force
/// oracle's pairs (`All`), a witness among them (`First`), containment decided only when no
/// pair intersects and both meshes are closed.
pub fn collide(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let _ = collide_from(&mut u);
}

fn collide_from(u: &mut Unstructured) -> Result<()> {
    let (Some(a), Some(b)) = (query_mesh(u)?, query_mesh(u)?) else {
        return Ok(());
    };
    let pose_a = if u.arbitrary()? {
        Some(Pose::identity())
    } else {
        query_pose(u)?
    };
    let (Some(pose_a), Some(pose_b)) = (pose_a, query_pose(u)?) else {
        return Ok(());
    };
    let leaf_size = u.int_in_range(1..=3)?;
    // The oracle places B's vertices itself: only meaningful within the exact range.
    let oracle =
        placed_in_exact_range(&b, &pose_a, &pose_b).then(|| brute_force(&a, &pose_a, &b, &pose_b));
    let case = (&a, &pose_a, &b, &pose_b, leaf_size, oracle.as_deref());
    for kind in VolumeKind::ALL {
        with_volume!(kind, |V| {
            let _ = collide_checked::<V>(case);
        });
    }
    Ok(())
}

/// The largest coordinate magnitude of `b`'s vertices placed in A's frame as the queries place
/// them (`pose_a⁻¹ · pose_b`).
pub fn placed_reach(b: &TriMesh, pose_a: &Pose, pose_b: &Pose) -> f64 {
    let b_in_a = pose_a.inv_mul(pose_b);
    b.vertices()
        .iter()
        .map(|p| reach(&b_in_a.transform_point(p)))
        .fold(0.0, f64::max)
}

/// Whether every vertex of `b` placed in A's frame as the queries place it has coordinates in
/// the exact range ([`obbtree::bv::range::in_exact_range`]: within `2³³⁹`, multiples of
/// `2⁻³⁰⁶`): where the oracle's answer is exact.
pub fn placed_in_exact_range(b: &TriMesh, pose_a: &Pose, pose_b: &Pose) -> bool {
    let b_in_a = pose_a.inv_mul(pose_b);
    b.vertices().iter().all(|p| {
        b_in_a
            .transform_point(p)
            .iter()
            .all(|&c| obbtree::bv::range::in_exact_range(c))
    })
}

/// The largest coordinate magnitude of `p`, infinite if a coordinate is NaN.
fn reach(p: &Point) -> f64 {
    p.iter()
        .map(|c| if c.is_nan() { f64::INFINITY } else { c.abs() })
        .fold(0.0, f64::max)
}

/// The largest coordinate magnitude of the 8 corners of `b`'s bounding box (min and max of its
/// coordinates, each axis) placed in A's frame: what may justify refusing a placement.
fn placed_box_reach(b: &TriMesh, pose_a: &Pose, pose_b: &Pose) -> f64 {
    let b_in_a = pose_a.inv_mul(pose_b);
    let extreme = |axis: usize, pick: fn(f64, f64) -> f64, start: f64| {
        b.vertices().iter().map(|p| p[axis]).fold(start, pick)
    };
    let lo = [0, 1, 2].map(|axis| extreme(axis, f64::min, f64::INFINITY));
    let hi = [0, 1, 2].map(|axis| extreme(axis, f64::max, f64::NEG_INFINITY));
    (0..8)
        .map(|corner: usize| {
            let at = |axis: usize| {
                if corner >> axis & 1 == 0 {
                    lo[axis]
                } else {
                    hi[axis]
                }
            };
            reach(&b_in_a.transform_point(&Point::new(at(0), at(1), at(2))))
        })
        .fold(0.0, f64::max)
}

/// One collide case: mesh A, pose A, mesh B, pose B, the trees' leaf size, and the oracle's
/// pairs (`None` when B placed in A's frame leaves the exact range, where the query must refuse).
pub type CollideCase<'a> = (
    &'a TriMesh,
    &'a Pose,
    &'a TriMesh,
    &'a Pose,
    usize,
    Option<&'a [[u32; 2]]>,
);

/// Builds both models of volume `V` and checks `collide` (All with containment and contacts,
/// First) against the oracle's pairs. Returns the query's refusal, which must be
/// [`QueryError::OutOfRange`] for B with a reason that holds: a magnitude bound beyond the
/// exact range that bounds B's placed vertices, a pose that is not finite, or too fine a
/// placement. A placement whose vertices leave the exact range must be refused; one that is
/// answered has every placed vertex in the exact range, and the oracle's pairs.
pub fn collide_checked<V: PosedOverlap>(
    (a, pose_a, b, pose_b, leaf_size, oracle): CollideCase,
) -> std::result::Result<(), QueryError> {
    let options = BuildOptions::<V> {
        leaf_size,
        parallel: false,
        ..Default::default()
    };
    let options = ModelOptions::from(options);
    let (ma, mb) = (
        Model::<V>::build(a.clone(), &options).unwrap(),
        Model::<V>::build(b.clone(), &options).unwrap(),
    );
    let all = CollisionRequest::new(Mode::All)
        .with_containment(true)
        .with_contacts(true);
    let first = CollisionRequest::new(Mode::First);
    let what = || format!("{} {a:?} {pose_a:?} {b:?} {pose_b:?}", V::NAME);
    let (r_all, r_first) = match (
        obbtree::collide(&ma, pose_a, &mb, pose_b, &all),
        obbtree::collide(&ma, pose_a, &mb, pose_b, &first),
    ) {
        (Ok(r_all), Ok(r_first)) => (r_all, r_first),
        (Err(e), Err(e_first)) => {
            assert_eq!(e, e_first, "{}", what());
            let QueryError::OutOfRange {
                which: Operand::B,
                reason,
            } = &e
            else {
                panic!("refused with {e}: {}", what());
            };
            check_refusal(reason, b, pose_a, pose_b);
            return Err(e);
        }
        (all, first) => panic!("All {all:?}, First {first:?}: {}", what()),
    };
    assert!(
        placed_in_exact_range(b, pose_a, pose_b),
        "answered for B placed outside the exact range (up to {:e}): {}",
        placed_reach(b, pose_a, pose_b),
        what()
    );
    let oracle = oracle.expect("an oracle for a placement within the range");
    assert_eq!(r_all.pairs, oracle, "All: {}", what());
    assert_eq!(r_all.intersects, !oracle.is_empty(), "{}", what());
    assert!(!r_all.truncated);
    assert_eq!(r_all.contacts.len(), oracle.len());
    let closed = a.is_closed() && b.is_closed();
    let contained_fits = match r_all.contained {
        Containment::NotChecked => false,
        Containment::SurfacesIntersect => !oracle.is_empty(),
        Containment::OpenMesh => oracle.is_empty() && !closed,
        Containment::Disjoint
        | Containment::Overlapping
        | Containment::AInB
        | Containment::BInA => oracle.is_empty() && closed,
    };
    assert!(contained_fits, "{:?}: {}", r_all.contained, what());
    assert_eq!(r_first.intersects, !oracle.is_empty(), "First: {}", what());
    assert_eq!(r_first.contained, Containment::NotChecked, "{}", what());
    assert!(r_first.pairs.len() <= 1);
    if let Some(pair) = r_first.pairs.first() {
        assert!(oracle.contains(pair), "First witness {pair:?}: {}", what());
    }
    Ok(())
}

/// That a refusal's reason holds for B placed in A's frame: a magnitude bound beyond the exact
/// range is at least the placed vertices' reach, and a non-finite pose is not finite.
fn check_refusal(reason: &RangeError, b: &TriMesh, pose_a: &Pose, pose_b: &Pose) {
    let b_in_a = pose_a.inv_mul(pose_b);
    match reason {
        RangeError::TooLarge {
            axis, reach: bound, ..
        } => {
            // The bound is for the axis named (the first that fails), not the largest reach.
            let reach = b
                .vertices()
                .iter()
                .map(|p| b_in_a.transform_point(p)[*axis])
                .map(|c| if c.is_nan() { f64::INFINITY } else { c.abs() })
                .fold(0.0, f64::max);
            assert!(
                *bound > EXACT_MAX_COORDINATE && *bound >= reach,
                "refused with {reason}, vertices reach {reach:e} on axis {axis}"
            );
        }
        RangeError::NotFinite => {
            let finite = b_in_a.rotation().iter().chain(b_in_a.translation().iter());
            assert!(
                !finite.clone().all(|x| x.is_finite()),
                "refused with {reason}"
            );
        }
        RangeError::TooFine { .. } | RangeError::TranslationTooFine { .. } => {}
    }
}

/// An arbitrary ray: origin and direction from [`query_coord`] or, sometimes, anything
/// (zero, NaN, infinite, huge, tiny directions).
fn query_ray(u: &mut Unstructured) -> Result<Ray> {
    let c = |u: &mut Unstructured| -> Result<f64> {
        Ok(if u.ratio(1u8, 6)? {
            any_coord(u)?
        } else {
            query_coord(u)?
        })
    };
    let origin = Point::new(c(u)?, c(u)?, c(u)?);
    let dir = if u.ratio(1u8, 16)? {
        Vector::zeros()
    } else {
        Vector::new(c(u)?, c(u)?, c(u)?)
    };
    Ok(Ray::new(origin, dir))
}

/// The brute-force pick oracle: every triangle through the watertight test on the ray moved into
/// the mesh frame exactly as the queries move it ([`MeshRay::new`]), hits with `t <= max_t`
/// as `(t bits, triangle)`, sorted by `(t, triangle)`.
pub fn pick_oracle(mesh: &TriMesh, pose: &Pose, ray: &Ray, max_t: f64) -> Vec<(u64, u32)> {
    let local = MeshRay::new(pose, ray);
    let mut hits: Vec<(f64, u32)> = (0..mesh.triangles().len())
        .filter_map(|t| {
            ray_triangle::cast_watertight(&local.ray, &mesh.triangle(t))
                .filter(|h| h.t <= max_t)
                .map(|h| (h.t, t as u32))
        })
        .collect();
    hits.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    hits.into_iter().map(|(t, i)| (t.to_bits(), i)).collect()
}

/// The models every pick check walks, for one mesh and leaf size: the compact AABB index
/// ([`RayIndex::Compact`] over an AABB tree, whose copy it is) and each volume type's own tree
/// ([`RayIndex::ModelTree`]).
pub struct PickModels {
    pub compact: Model<Aabb>,
    /// Each volume kind's own tree, checked through [`PickCheck`].
    pub trees: Vec<Box<dyn PickCheck>>,
}

/// A model of any volume type that can be checked against a pick case.
pub trait PickCheck: Send + Sync {
    /// [`checked_against`] on this model.
    fn check(&self, case: PickCase, exact: bool, hits: Option<&ExactHits>);
}

impl<V: RayVolume + TreeVolume> PickCheck for Model<V> {
    fn check(&self, case: PickCase, exact: bool, hits: Option<&ExactHits>) {
        checked_against(self, case, exact, hits);
    }
}

impl PickModels {
    pub fn new(mesh: &TriMesh, leaf_size: usize) -> Self {
        let own = |kind: VolumeKind| -> Box<dyn PickCheck> {
            with_volume!(kind, |V| Box::new(pick_model::<V>(
                mesh,
                leaf_size,
                RayIndex::ModelTree
            )))
        };
        Self {
            compact: pick_model(mesh, leaf_size, RayIndex::Compact),
            trees: VolumeKind::ALL.into_iter().map(own).collect(),
        }
    }

    /// [`pick_checked`] through every model (the independent exact hits computed once).
    pub fn check(&self, case: PickCase, exact: bool) {
        let hits = (exact && answerable(case)).then(|| ExactHits::new(case.0, case.1, case.2));
        let hits = hits.as_ref();
        checked_against(&self.compact, case, exact, hits);
        for tree in &self.trees {
            tree.check(case, exact, hits);
        }
    }
}

/// A model of `mesh` for the pick checks: leaf size `leaf_size`, rays through `rays`.
pub fn pick_model<V: TreeVolume>(mesh: &TriMesh, leaf_size: usize, rays: RayIndex) -> Model<V> {
    let options = ModelOptions {
        tree: tree_options(leaf_size),
        rays,
    };
    Model::build(mesh.clone(), &options).unwrap()
}

/// `cast_ray`, `cast_ray_all` and `any_hit` on a small arbitrary mesh and arbitrary rays
/// (zero, NaN, infinite directions included), poses and `max_t`, through every volume type's
/// tree and the compact picking index: a ray, `max_t` or pose outside the contract is refused
/// with [`QueryError`] exactly when the contract says; otherwise the answers are exactly the
/// brute-force oracle's (first hit = lowest `(t, triangle)`), with finite `t` and barycentrics.
pub fn pick(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let _ = pick_from(&mut u);
}

fn pick_from(u: &mut Unstructured) -> Result<()> {
    let Some(mesh) = query_mesh(u)? else {
        return Ok(());
    };
    let leaf_size = u.int_in_range(1..=3)?;
    let pose = if u.arbitrary()? {
        Pose::identity()
    } else {
        let Some(pose) = query_pose(u)? else {
            return Ok(());
        };
        pose
    };
    let models = PickModels::new(&mesh, leaf_size);
    for _ in 0..u.int_in_range(1..=4)? {
        let ray = query_ray(u)?;
        let max_t = match u.int_in_range(0u8..=7)? {
            0 => f64::NAN,
            1 => -1.0,
            2 => 0.0,
            3 => 1.5,
            _ => f64::INFINITY,
        };
        models.check((&mesh, &pose, &ray, max_t), true);
    }
    Ok(())
}

fn tree_options<V: TreeVolume>(leaf_size: usize) -> BuildOptions<V> {
    BuildOptions {
        leaf_size,
        parallel: false,
        ..Default::default()
    }
}

/// One pick case: the mesh (the model's), its pose, the ray and `max_t`.
pub type PickCase<'a> = (&'a TriMesh, &'a Pose, &'a Ray, f64);

/// Whether a pick case is within the contract (a valid ray, `max_t` and pose translation), so
/// that the queries must answer it.
fn answerable((_, pose, ray, max_t): PickCase) -> bool {
    valid_ray(ray) && max_t >= 0.0 && pose.translation().iter().all(|x| x.abs() <= MAX_COORDINATE)
}

/// Checks `cast_ray`, `cast_ray_all` and `any_hit` through `model`'s ray index: the contract's
/// errors, and, when `exact`, exactly [`pick_oracle`]'s hits for `cast_ray_all` and `any_hit`,
/// and for `cast_ray` one of its hits within a few ulps of the first (two triangles hit at one
/// point, e.g. through a shared vertex, get their `t` each rounded on its own; the lowest-index
/// rule for equal `t` is checked by [`ties_to_lowest_index`]); and, independently of the triangle
/// test, the exact crossings of [`ExactHits`] (see [`ExactHits::check`]).
pub fn pick_checked<V: RayVolume + TreeVolume>(model: &Model<V>, case: PickCase, exact: bool) {
    let hits = (exact && answerable(case)).then(|| ExactHits::new(case.0, case.1, case.2));
    checked_against(model, case, exact, hits.as_ref());
}

/// Whether every non-zero component of `dir` is at least `2⁻¹⁰⁰⁰` of the largest (the
/// contract of [`QueryError::RayDirectionRange`]).
fn direction_in_range(dir: &Vector) -> bool {
    let smallest = dir.amax() * 2f64.powi(-1000);
    dir.iter().all(|c| *c == 0.0 || c.abs() >= smallest)
}

/// [`pick_checked`] with the exact hits computed by the caller.
fn checked_against<V: RayVolume + TreeVolume>(
    model: &Model<V>,
    (mesh, pose, ray, max_t): PickCase,
    exact: bool,
    exact_hits: Option<&ExactHits>,
) {
    assert_eq!(model.mesh().unwrap(), mesh, "the model's mesh");
    let first = cast_ray(model, pose, ray, max_t);
    let all = cast_ray_all(model, pose, ray, max_t);
    let any = any_hit(model, pose, ray, max_t);
    let translation = pose.translation();
    let expected_error = if !valid_ray(ray) {
        Some(QueryError::InvalidRay {
            origin: ray.origin.coords.into(),
            dir: ray.dir.into(),
        })
    } else if max_t.is_nan() || max_t < 0.0 {
        Some(QueryError::InvalidMaxT(max_t))
    } else if !translation.iter().all(|x| x.abs() <= MAX_COORDINATE) {
        Some(QueryError::TranslationOutOfRange {
            translation: (*translation).into(),
        })
    } else if !direction_in_range(&pose.inverse_transform_vector(&ray.dir)) {
        Some(QueryError::RayDirectionRange {
            dir: pose.inverse_transform_vector(&ray.dir).into(),
        })
    } else {
        None
    };
    if let Some(e) = expected_error {
        // PartialEq on the error compares NaN fields unequal: compare the messages.
        for got in [first.err(), all.err(), any.err()] {
            assert_eq!(got.map(|g| g.to_string()), Some(e.to_string()));
        }
        return;
    }
    let (first, all, any) = (first.unwrap(), all.unwrap(), any.unwrap());
    if !exact {
        return;
    }
    let oracle = pick_oracle(mesh, pose, ray, max_t);
    let key = |h: &RayHit| (h.t.to_bits(), h.triangle);
    let what = || {
        let index = format!("{} {:?}", V::NAME, model.ray_index());
        format!("{index} {mesh:?} {pose:?} {ray:?} max_t {max_t}")
    };
    match (&first, oracle.first()) {
        (None, None) => {}
        // A real hit (triangle and `t` as the oracle has them) at the first `t` up to 8 ulps:
        // rays through shared vertices get hits a few ulps apart (each `t` rounded on its
        // own), and a box entry may only be compared with such rounded values.
        (Some(h), Some(&(t, _))) => assert!(
            oracle.contains(&key(h)) && h.t <= f64::from_bits(t) * (1.0 + 8.0 * f64::EPSILON),
            "cast_ray {:?}: {}",
            key(h),
            what()
        ),
        _ => panic!("cast_ray {:?}: {}", first.as_ref().map(key), what()),
    }
    assert_eq!(
        all.iter().map(key).collect::<Vec<_>>(),
        oracle,
        "cast_ray_all: {}",
        what()
    );
    assert_eq!(any, !oracle.is_empty(), "any_hit: {}", what());
    for h in first.iter().chain(&all) {
        finite("hit", &[h.t]);
        finite("hit", &h.barycentric);
    }
    let exact_hits = exact_hits.expect("exact hits for an answerable case");
    exact_hits.check(max_t, &first, &all, any, &what);
}

/// The documented tie rule of `cast_ray`: among hits at the same `t`, the lowest triangle index.
pub fn ties_to_lowest_index<V: RayVolume>(model: &Model<V>, ray: &Ray) -> bool {
    let pose = Pose::identity();
    let first = cast_ray(model, &pose, ray, f64::INFINITY).unwrap();
    let oracle = pick_oracle(model.mesh().unwrap(), &pose, ray, f64::INFINITY);
    first.map(|h| (h.t.to_bits(), h.triangle)) == oracle.first().copied()
}

// ---------------------------------------------------------------------------------------------
// distance

/// Two small meshes (as `collide`) and an arbitrary pose of B, A at the identity: the distance,
/// `within_margin` and `proximity_pairs` of AABB, OBB, sphere and 18-DOP models against the
/// exact squared distance of every triangle pair (`oracles::distance`, which shares no code
/// with the engine). A refusal must be `OutOfRange` for B, and an answer needs B placed within
/// the exact range.
pub fn distance(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let _ = distance_from(&mut u);
}

fn distance_from(u: &mut Unstructured) -> Result<()> {
    let (Some(a), Some(b)) = (query_mesh(u)?, query_mesh(u)?) else {
        return Ok(());
    };
    let Some(pose_b) = query_pose(u)? else {
        return Ok(());
    };
    let leaf_size = u.int_in_range(1..=3)?;
    let extra_margin = query_coord(u)?.abs();
    // A tracker's earlier pose (read last: inputs written before it keep their meaning).
    let earlier = query_pose(u).ok().flatten().unwrap_or(pose_b);
    let oracle = placed_in_exact_range(&b, &Pose::identity(), &pose_b)
        .then(|| DistanceOracle::new(&a, &b, &pose_b));
    let case = (
        &a,
        &b,
        &pose_b,
        leaf_size,
        oracle.as_ref(),
        extra_margin,
        &earlier,
    );
    for kind in VolumeKind::ALL {
        with_volume!(kind, |V| distance_checked::<V>(case));
    }
    Ok(())
}

/// The exact squared distance of every triangle pair, A at the identity and B placed by its
/// pose as the queries place it.
pub struct DistanceOracle {
    a: Vec<[Point; 3]>,
    b: Vec<[Point; 3]>,
    /// `pairs[i][j]`: the exact squared distance of triangle `i` of A and `j` of B.
    pairs: Vec<Vec<num_rational::BigRational>>,
    /// The least of them: `d*²`.
    least: num_rational::BigRational,
    /// The largest absolute coordinate of the placed meshes, `L`.
    magnitude: f64,
}

impl DistanceOracle {
    pub fn new(a: &TriMesh, b: &TriMesh, pose_b: &Pose) -> Self {
        let tris = |m: &TriMesh, pose: &Pose| -> Vec<[Point; 3]> {
            (0..m.triangles().len())
                .map(|t| m.triangle(t).vertices().map(|v| pose.transform_point(&v)))
                .collect()
        };
        let (a, b) = (tris(a, &Pose::identity()), tris(b, pose_b));
        let pairs: Vec<Vec<_>> = a
            .iter()
            .map(|p| {
                b.iter()
                    .map(|q| oracles::distance::triangle_distance_squared(p, q))
                    .collect()
            })
            .collect();
        let least = pairs.iter().flatten().min().expect("triangles").clone();
        let magnitude = a
            .iter()
            .chain(&b)
            .flatten()
            .fold(0.0, |m: f64, v| m.max(reach(v)));
        Self {
            a,
            b,
            pairs,
            least,
            magnitude,
        }
    }

    /// Every pair at most `margin` apart, exactly, sorted.
    fn within(&self, margin: f64) -> Vec<[u32; 2]> {
        let m2 = square(margin);
        let mut out = Vec::new();
        for (i, row) in self.pairs.iter().enumerate() {
            for (j, d2) in row.iter().enumerate() {
                if *d2 <= m2 {
                    out.push([i as u32, j as u32]);
                }
            }
        }
        out
    }
}

/// `x²`, exactly.
fn square(x: f64) -> num_rational::BigRational {
    let q = oracles::exact::q(x);
    &q * &q
}

type DistanceCase<'a> = (
    &'a TriMesh,
    &'a TriMesh,
    &'a Pose,
    usize,
    Option<&'a DistanceOracle>,
    f64,
    &'a Pose,
);

/// The distance queries of `V` models on one case against the oracle.
pub fn distance_checked<V: PosedOverlap>(
    (a, b, pose_b, leaf_size, oracle, extra_margin, earlier): DistanceCase,
) {
    use oracles::exact::approx;
    let options = ModelOptions::from(BuildOptions::<V> {
        leaf_size,
        parallel: false,
        ..Default::default()
    });
    let (ma, mb) = (
        Model::<V>::build(a.clone(), &options).unwrap(),
        Model::<V>::build(b.clone(), &options).unwrap(),
    );
    let id = Pose::identity();
    let what = || format!("{} {a:?} {b:?} {pose_b:?}", V::NAME);
    let r = match obbtree::distance(&ma, &id, &mb, pose_b, &DistanceRequest::default()) {
        Ok(r) => r,
        Err(e) => {
            let QueryError::OutOfRange {
                which: Operand::B,
                reason,
            } = &e
            else {
                panic!("refused with {e}: {}", what());
            };
            check_refusal(reason, b, &id, pose_b);
            let margin = obbtree::within_margin(&ma, &id, &mb, pose_b, 1.0);
            assert_eq!(margin, Err(e), "{}", what());
            return;
        }
    };
    let oracle = oracle.unwrap_or_else(|| panic!("answered outside the exact range: {}", what()));
    // The guarantee, to the rounding of the oracle's conversion to f64.
    let d_star = approx(&oracle.least).sqrt();
    let tau = 1e-12 * (d_star + oracle.magnitude) * 1.001;
    assert!(
        (r.distance - d_star).abs() <= tau,
        "distance {r:?}, d* {d_star}: {}",
        what()
    );
    let [i, j] = r.pair.map(|k| k as usize);
    let pair = &oracle.pairs[i][j];
    assert!(
        (approx(pair).sqrt() - d_star).abs() <= tau,
        "pair {r:?}, d* {d_star}: {}",
        what()
    );
    assert_eq!(
        r.intersects,
        oracle.least == num_rational::BigRational::from_float(0.0).unwrap(),
        "{r:?}: {}",
        what()
    );
    assert_eq!(r.distance == 0.0, r.intersects, "{r:?}: {}", what());
    if r.intersects {
        assert_eq!(approx(pair), 0.0, "intersecting pair {r:?}: {}", what());
    }
    for (point, tri) in [(&r.point_a, &oracle.a[i]), (&r.point_b, &oracle.b[j])] {
        let off = approx(&oracles::distance::point_triangle_distance_squared(
            point, tri,
        ))
        .sqrt();
        assert!(off <= tau, "point {off} off its triangle {r:?}: {}", what());
    }
    assert!(
        r.lower >= 0.0 && square(r.lower) <= oracle.least,
        "lower {r:?}: {}",
        what()
    );
    assert!(square(r.upper) >= oracle.least, "upper {r:?}: {}", what());
    // A tracker that last measured at `earlier` meets the same guarantee at `pose_b`.
    let mut tracker = DistanceTracker::new();
    let request = DistanceRequest::default();
    let _ = tracker.distance(&ma, &id, &mb, earlier, &request);
    let t = tracker.distance(&ma, &id, &mb, pose_b, &request).unwrap();
    let tracked_pair = &oracle.pairs[t.pair[0] as usize][t.pair[1] as usize];
    assert!(
        (t.distance - d_star).abs() <= tau && (approx(tracked_pair).sqrt() - d_star).abs() <= tau,
        "tracked from {earlier:?}: {t:?}, d* {d_star}: {}",
        what()
    );
    assert_eq!(t.intersects, r.intersects, "tracked {t:?}: {}", what());
    assert!(
        square(t.lower) <= oracle.least && square(t.upper) >= oracle.least,
        "tracked interval {t:?}: {}",
        what()
    );
    // Margins: at the reported distance, one ulp below it, 0 and an arbitrary one.
    for margin in [
        r.distance,
        r.distance.next_down().max(0.0),
        0.0,
        extra_margin,
    ] {
        if !margin.is_finite() {
            // The arbitrary margin may be NaN or infinite: refused, by both queries.
            let refused = |e: QueryError| matches!(e, QueryError::InvalidMargin(_));
            let all = obbtree::proximity_pairs(&ma, &id, &mb, pose_b, margin);
            let first = obbtree::within_margin(&ma, &id, &mb, pose_b, margin);
            assert!(
                all.is_err_and(refused) && first.is_err_and(refused),
                "{margin}: {}",
                what()
            );
            continue;
        }
        let want = oracle.within(margin);
        let got = obbtree::proximity_pairs(&ma, &id, &mb, pose_b, margin).unwrap();
        assert_eq!(got, want, "proximity pairs at {margin}: {}", what());
        let witness = obbtree::within_margin(&ma, &id, &mb, pose_b, margin).unwrap();
        assert_eq!(
            witness.is_some(),
            !want.is_empty(),
            "within {margin}: {}",
            what()
        );
        if let Some(w) = witness {
            assert!(
                want.contains(&w),
                "witness {w:?} beyond {margin}: {}",
                what()
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Arbitrary poses through every query of the library API

/// The query kinds of [`api_poses`], in the order of the selector it draws first.
pub const API_QUERIES: [&str; 9] = [
    "collide",
    "collide_many",
    "self_collide",
    "containment",
    "contains_point",
    "pick",
    "cast_rays",
    "cull",
    "pick_pixel",
];

/// The environment variable that restricts [`api_poses`] to one kind of [`API_QUERIES`] (for a
/// run of one query kind: `OBBTREE_FUZZ_QUERY=cull fuzz/run.sh 600 api_poses`).
pub const API_QUERY_VAR: &str = "OBBTREE_FUZZ_QUERY";

/// A volume type every query takes: collision, picking and culling.
pub trait ApiVolume: PosedOverlap + RayVolume + FrustumVolume + TreeVolume {}
impl<V: PosedOverlap + RayVolume + FrustumVolume + TreeVolume> ApiVolume for V {}

/// Every query of the library API (collision, `collide_many`, self-collision, containment,
/// `contains_point`, `cast_ray` / `cast_ray_all` / `any_hit`, `cast_rays`, `cull`,
/// `pick_pixel`) on small meshes under arbitrary poses: NaN, ±∞, huge (1e300, `f64::MAX`),
/// just beyond the range (1e101), subnormal and arbitrary bits, in the translation, the rotation
/// vector, a rotation matrix or a homogeneous matrix. A pose that [`Pose`] accepts has finite
/// entries; a query given one either refuses it with the error its contract names (checked
/// here from the inputs alone) or gives the exact answer, decided by the independent oracles of
/// `tests/oracles` (big-integer separating axes for pairs, exact plane sides for culling, exact
/// ray crossings for picking, exact parity for points), never a silent wrong one.
pub fn api_poses(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let _ = api_poses_from(&mut u);
}

/// The kind of [`API_QUERIES`] to run: drawn from the input, unless [`API_QUERY_VAR`] names one.
fn api_query(u: &mut Unstructured) -> Result<usize> {
    static ONLY: OnceLock<Option<usize>> = OnceLock::new();
    let only = ONLY.get_or_init(|| {
        let name = std::env::var(API_QUERY_VAR).ok()?;
        let kind = API_QUERIES.iter().position(|q| *q == name);
        Some(kind.unwrap_or_else(|| panic!("{API_QUERY_VAR}={name}: not one of {API_QUERIES:?}")))
    });
    let drawn = u.choose_index(API_QUERIES.len())?;
    Ok(only.unwrap_or(drawn))
}

fn api_poses_from(u: &mut Unstructured) -> Result<()> {
    let kind = api_query(u)?;
    let leaf_size = u.int_in_range(1..=3)?;
    let volume = *u.choose(&VolumeKind::ALL)?;
    with_volume!(volume, |V| api_query_on::<V>(u, kind, leaf_size))
}

/// A number of a hostile pose: mostly a multiple of 1/4 in `[-2, 2]`, else NaN, ±∞, huge,
/// just beyond or at the ends of the accepted range, subnormal, or arbitrary bits.
fn hostile_number(u: &mut Unstructured) -> Result<f64> {
    const SPECIAL: [f64; 16] = [
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
        1e300,
        -1e300,
        f64::MAX,
        1e101,
        1e100,
        -1e100,
        1e-70,
        1e-71,
        1e-310,
        -5e-324,
        f64::MIN_POSITIVE,
        -0.0,
        1e9,
    ];
    Ok(match u.int_in_range(0u8..=7)? {
        0..=3 => f64::from(u.int_in_range(-8i8..=8)?) * 0.25,
        4 | 5 => SPECIAL[u.choose_index(SPECIAL.len())?],
        6 => f64::from(u.arbitrary::<i32>()?) / 1024.0,
        _ => f64::from_bits(u.arbitrary()?),
    })
}

/// An exact proper signed permutation matrix (an exact rotation).
fn signed_permutation(u: &mut Unstructured) -> Result<obbtree::bv::nalgebra::Matrix3<f64>> {
    let perm = [
        [0, 1, 2],
        [1, 2, 0],
        [2, 0, 1],
        [1, 0, 2],
        [0, 2, 1],
        [2, 1, 0],
    ][u.choose_index(6)?];
    let mut m = obbtree::bv::nalgebra::Matrix3::zeros();
    for (row, &col) in perm.iter().enumerate() {
        m[(row, col)] = if u.arbitrary()? { 1.0 } else { -1.0 };
    }
    if m.determinant() < 0.0 {
        m.column_mut(0).neg_mut();
    }
    Ok(m)
}

/// An arbitrary pose from [`hostile_number`]s, made by each constructor: a translation alone,
/// a translation and rotation vector, a translation and an exact rotation matrix (one entry
/// sometimes replaced by a hostile number), or a homogeneous matrix of those. `None` when
/// [`Pose`] refuses it, which it must do for every non-finite number given and may do for a
/// matrix that is not a rotation; an accepted pose has finite entries and, for finite input
/// that [`Pose::new`] takes, is never refused.
fn hostile_pose(u: &mut Unstructured) -> Result<Option<Pose>> {
    let translation = Vector::new(hostile_number(u)?, hostile_number(u)?, hostile_number(u)?);
    let finite = |xs: &[f64]| xs.iter().all(|x| x.is_finite());
    let (made, given_finite, must_accept) = match u.int_in_range(0u8..=3)? {
        0 => (
            Pose::from_translation(translation),
            finite(translation.as_slice()),
            finite(translation.as_slice()),
        ),
        1 => {
            let rotation = Vector::new(hostile_number(u)?, hostile_number(u)?, hostile_number(u)?);
            let length = rotation.iter().map(|x| x * x).sum::<f64>().sqrt();
            let all_finite = finite(translation.as_slice()) && finite(rotation.as_slice());
            (
                Pose::new(translation, rotation),
                all_finite,
                all_finite && length.is_finite(),
            )
        }
        k => {
            let mut m = signed_permutation(u)?;
            if u.ratio(1u8, 4)? {
                m[(u.choose_index(3)?, u.choose_index(3)?)] = hostile_number(u)?;
            }
            let all_finite = finite(translation.as_slice()) && finite(m.as_slice());
            let made = if k == 2 {
                Pose::from_parts(translation, m)
            } else {
                let mut h = obbtree::bv::nalgebra::Matrix4::identity();
                h.fixed_view_mut::<3, 3>(0, 0).copy_from(&m);
                h.fixed_view_mut::<3, 1>(0, 3).copy_from(&translation);
                Pose::from_homogeneous(&h)
            };
            (made, all_finite, false)
        }
    };
    Ok(match made {
        Ok(pose) => {
            assert!(given_finite, "accepted {pose:?} from non-finite numbers");
            let entries = pose.rotation().iter().chain(pose.translation().iter());
            assert!(entries.clone().all(|x| x.is_finite()), "{pose:?}");
            Some(pose)
        }
        Err(e) => {
            assert!(!must_accept, "refused {translation:?}: {e}");
            None
        }
    })
}

/// A pose for a query: the identity, a moderate one ([`query_pose`]) or a hostile one.
fn api_pose(u: &mut Unstructured) -> Result<Option<Pose>> {
    match u.int_in_range(0u8..=3)? {
        0 => Ok(Some(Pose::identity())),
        1 => query_pose(u),
        _ => hostile_pose(u),
    }
}

/// A closed tetrahedron (four faces, each edge on two) on arbitrary vertices, or a small
/// arbitrary mesh ([`query_mesh`]), so that containment and `contains_point` reach closed
/// meshes.
fn api_mesh(u: &mut Unstructured) -> Result<Option<TriMesh>> {
    if u.ratio(1u8, 2)? {
        return query_mesh(u);
    }
    let vertices = (0..4)
        .map(|_| {
            Ok(Point::new(
                query_coord(u)?,
                query_coord(u)?,
                query_coord(u)?,
            ))
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(validated(
        vertices,
        vec![[0, 2, 1], [0, 1, 3], [1, 2, 3], [0, 3, 2]],
    ))
}

fn api_model<V: ApiVolume>(mesh: &TriMesh, leaf_size: usize) -> Model<V> {
    Model::build(
        mesh.clone(),
        &ModelOptions::from(tree_options::<V>(leaf_size)),
    )
    .unwrap()
}

fn api_query_on<V: ApiVolume>(u: &mut Unstructured, kind: usize, leaf_size: usize) -> Result<()> {
    let Some(mesh) = api_mesh(u)? else {
        return Ok(());
    };
    let model = api_model::<V>(&mesh, leaf_size);
    match API_QUERIES[kind] {
        "self_collide" => api_self_collide(&model),
        "collide" | "collide_many" | "containment" => {
            let Some(other) = api_mesh(u)? else {
                return Ok(());
            };
            let other_model = api_model::<V>(&other, leaf_size);
            let Some(pose_a) = api_pose(u)? else {
                return Ok(());
            };
            let mut poses_b = Vec::new();
            for _ in 0..u.int_in_range(1..=3)? {
                poses_b.extend(api_pose(u)?);
            }
            let pair = (&model, &pose_a, &other_model);
            match API_QUERIES[kind] {
                "collide" => poses_b
                    .iter()
                    .for_each(|p| drop(api_collide(pair, p, false))),
                "containment" => poses_b
                    .iter()
                    .for_each(|p| drop(api_collide(pair, p, true))),
                _ => api_collide_many(pair, &poses_b),
            }
        }
        kind => {
            let Some(pose) = api_pose(u)? else {
                return Ok(());
            };
            match kind {
                "contains_point" => {
                    let p = Point::new(hostile_number(u)?, hostile_number(u)?, hostile_number(u)?);
                    let p = if u.arbitrary()? {
                        mesh.vertices()[0] + p.coords * 0.125
                    } else {
                        p
                    };
                    api_contains_point(&model, &pose, &p);
                }
                "pick" => {
                    let ray = query_ray(u)?;
                    let max_t = [f64::INFINITY, 1.5, 0.0, -1.0][u.choose_index(4)?];
                    pick_checked(&model, (&mesh, &pose, &ray, max_t), true);
                }
                "cast_rays" => {
                    let rays = (0..u.int_in_range(1..=4)?)
                        .map(|_| query_ray(u))
                        .collect::<Result<Vec<_>>>()?;
                    let max_t = [f64::INFINITY, 1.5, f64::NAN][u.choose_index(3)?];
                    api_cast_rays(&model, &pose, &rays, max_t);
                }
                "cull" => {
                    let Some(camera) = api_camera(u, &mesh, &pose)? else {
                        return Ok(());
                    };
                    api_cull(&model, &pose, &camera);
                }
                _ => {
                    let Some(camera) = api_camera(u, &mesh, &pose)? else {
                        return Ok(());
                    };
                    let (x, y) = (u.int_in_range(0..=40)?, u.int_in_range(0..=40)?);
                    api_pick_pixel(&model, &pose, &camera, x, y);
                }
            }
        }
    }
    Ok(())
}

/// The exact pairs of A and B placed in A's frame as the queries place them
/// (`pose_a⁻¹ · pose_b`, then `Pose::transform_point`), by the big-integer separating-axis
/// oracle: `None` when a placed vertex leaves the exact range (the query must refuse).
fn exact_pairs(a: &TriMesh, pose_a: &Pose, b: &TriMesh, pose_b: &Pose) -> Option<Vec<[u32; 2]>> {
    if !placed_in_exact_range(b, pose_a, pose_b) {
        return None;
    }
    let b_in_a = pose_a.inv_mul(pose_b);
    let placed: Vec<[Point; 3]> = (0..b.triangles().len())
        .map(|t| b.triangle(t).vertices().map(|p| b_in_a.transform_point(&p)))
        .collect();
    let mut pairs = Vec::new();
    for i in 0..a.triangles().len() {
        let ta = a.triangle(i).vertices();
        for (j, tb) in placed.iter().enumerate() {
            if oracles::sat::triangles_meet(&ta, tb) {
                pairs.push([i as u32, j as u32]);
            }
        }
    }
    Some(pairs)
}

/// Whether `mesh` (closed) bounds a solid of non-zero volume: some vertex off the plane of the
/// first triangle, exactly (a flat closed mesh has no inside to be in).
fn solid(mesh: &TriMesh) -> bool {
    use oracles::exact::{cross, dot, q3, sub};
    let [a, b, c] = mesh.triangle(0).vertices().map(|p| q3(&p));
    let n = cross(&sub(&b, &a), &sub(&c, &a));
    mesh.vertices()
        .iter()
        .any(|p| !num_traits::Zero::is_zero(&dot(&n, &sub(&q3(p), &a))))
}

/// `collide` of `a` at `pose_a` with `b` at `pose_b` (`All`, with contacts; with containment
/// when asked): refused exactly when B placed in A's frame leaves the exact range (the reason
/// checked by `collide_checked`'s rules), otherwise exactly the oracle's pairs; and, for two
/// closed solids whose surfaces do not meet, the containment the exact parity oracle gives on
/// one vertex of each.
fn api_collide<V: ApiVolume>(
    (a, pose_a, b): (&Model<V>, &Pose, &Model<V>),
    pose_b: &Pose,
    containment: bool,
) -> std::result::Result<obbtree::CollisionResult, QueryError> {
    let oracle = exact_pairs(a.mesh().unwrap(), pose_a, b.mesh().unwrap(), pose_b);
    let request = CollisionRequest::new(Mode::All)
        .with_contacts(true)
        .with_containment(containment);
    let what = || {
        format!(
            "{} {:?} {pose_a:?} {:?} {pose_b:?}",
            V::NAME,
            a.mesh(),
            b.mesh()
        )
    };
    let result = match obbtree::collide(a, pose_a, b, pose_b, &request) {
        // A refusal may be conservative (a bound on the placed box): its reason must hold.
        Err(e) => {
            let QueryError::OutOfRange {
                which: Operand::B,
                reason,
            } = &e
            else {
                panic!("refused with {e}: {}", what());
            };
            check_refusal(reason, b.mesh().unwrap(), pose_a, pose_b);
            return Err(e);
        }
        Ok(result) => result,
    };
    let oracle = oracle.unwrap_or_else(|| panic!("answered out of range: {}", what()));
    assert_eq!(result.pairs, oracle, "pairs: {}", what());
    assert_eq!(result.intersects, !oracle.is_empty(), "{}", what());
    if containment && oracle.is_empty() {
        check_containment(
            a.mesh().unwrap(),
            b.mesh().unwrap(),
            &pose_a.inv_mul(pose_b),
            result.contained,
            &what,
        );
    }
    Ok(result)
}

/// The containment of A and B (B placed by `b_in_a`, surfaces apart) against the parity
/// oracle: for closed solids, A in B when a vertex of A is inside B, B in A when a vertex of B
/// is inside A, disjoint when neither (one component each, so "overlapping" cannot happen).
fn check_containment(
    a: &TriMesh,
    b: &TriMesh,
    b_in_a: &Pose,
    got: Containment,
    what: &dyn Fn() -> String,
) {
    if !(a.is_closed() && b.is_closed()) {
        assert_eq!(got, Containment::OpenMesh, "{}", what());
        return;
    }
    let tetrahedra = a.triangles().len() == 4 && b.triangles().len() == 4;
    if !(tetrahedra && solid(a) && solid(b)) {
        return;
    }
    let a_in_b = oracles::parity::inside(b, b_in_a, &a.vertices()[0]);
    let b_in_a_exact = oracles::parity::inside(
        a,
        &Pose::identity(),
        &b_in_a.transform_point(&b.vertices()[0]),
    );
    let want = match (a_in_b, b_in_a_exact) {
        (Some(true), _) => Containment::AInB,
        (_, Some(true)) => Containment::BInA,
        (Some(false), Some(false)) => Containment::Disjoint,
        _ => return,
    };
    assert_eq!(got, want, "containment: {}", what());
}

/// `collide_many`: refused at the first pose `collide` refuses (with its error), otherwise
/// `collide`'s answer for every pose.
fn api_collide_many<V: ApiVolume>(pair: (&Model<V>, &Pose, &Model<V>), poses_b: &[Pose]) {
    let (a, pose_a, b) = pair;
    let request = CollisionRequest::new(Mode::All).with_contacts(true);
    let many = obbtree::collide_many(a, pose_a, b, poses_b, &request);
    let one: Vec<_> = poses_b
        .iter()
        .map(|p| api_collide(pair, p, false))
        .collect();
    match many {
        Err(e) => {
            let first = one.iter().position(|r| r.is_err()).expect("a refused pose");
            assert_eq!(e.index, first);
            assert_eq!(Err(e.source), one[first].clone().map(drop));
        }
        Ok(results) => {
            assert_eq!(results.len(), poses_b.len());
            for (got, want) in results.iter().zip(&one) {
                assert_eq!(Ok(got), want.as_ref(), "collide_many");
            }
        }
    }
}

/// `self_collide` against the separating-axis oracle on every pair sharing no vertex index.
fn api_self_collide<V: ApiVolume>(model: &Model<V>) {
    let mesh = model.mesh().unwrap();
    let got =
        obbtree::self_collide(model, &Pose::identity(), &CollisionRequest::new(Mode::All)).unwrap();
    let n = mesh.triangles().len();
    let mut want = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            let (ti, tj) = (mesh.triangles()[i], mesh.triangles()[j]);
            let share = ti.iter().any(|v| tj.contains(v));
            let meet = || {
                oracles::sat::triangles_meet(
                    &mesh.triangle(i).vertices(),
                    &mesh.triangle(j).vertices(),
                )
            };
            if !share && meet() {
                want.push([i as u32, j as u32]);
            }
        }
    }
    assert_eq!(got.pairs, want, "self_collide {} {mesh:?}", V::NAME);
}

/// `contains_point`: refused exactly for a point beyond the range (or NaN) or a mesh placed
/// out of the exact range; otherwise, for a closed solid, the exact parity oracle's answer.
fn api_contains_point<V: ApiVolume>(model: &Model<V>, pose: &Pose, p: &Point) {
    let mesh = model.mesh().unwrap();
    let got = obbtree::contains_point(model, pose, p);
    let what = || format!("{} {mesh:?} {pose:?} {p:?}", V::NAME);
    let point_ok = p.iter().all(|c| c.abs() <= MAX_COORDINATE);
    let placed_ok = placed_in_exact_range(mesh, &Pose::identity(), pose);
    match got {
        Err(QueryError::InvalidPoint(_)) => assert!(!point_ok, "{}", what()),
        Err(QueryError::OutOfRange {
            which: Operand::Model,
            reason,
        }) => {
            // Possibly conservative (a bound on the placed box): its reason must hold.
            assert!(point_ok, "{reason}: {}", what());
            check_refusal(&reason, mesh, &Pose::identity(), pose);
        }
        Err(e) => panic!("refused with {e}: {}", what()),
        Ok(inside) => {
            assert!(point_ok && placed_ok, "answered {inside}: {}", what());
            if mesh.is_closed() && solid(mesh) {
                if let Some(want) = oracles::parity::inside(mesh, pose, p) {
                    assert_eq!(inside, want, "contains_point: {}", what());
                }
            }
        }
    }
}

/// `cast_rays`: refused at the first ray `cast_ray` refuses (with its error), otherwise
/// `cast_ray`'s answer for every ray; the first answerable ray also checked against the exact
/// crossings ([`pick_checked`]).
fn api_cast_rays<V: ApiVolume>(model: &Model<V>, pose: &Pose, rays: &[Ray], max_t: f64) {
    let batch = obbtree::cast_rays(model, pose, rays, max_t);
    let one: Vec<_> = rays
        .iter()
        .map(|r| cast_ray(model, pose, r, max_t))
        .collect();
    // Errors carry NaN fields: compare their messages.
    let text = |e: &QueryError| e.to_string();
    match batch {
        Err(e) => {
            let first = one.iter().position(|r| r.is_err()).expect("a refused ray");
            assert_eq!(e.index, first);
            assert_eq!(text(&e.source), text(one[first].as_ref().unwrap_err()));
        }
        Ok(hits) => {
            assert_eq!(
                Ok(hits),
                one.into_iter().collect::<std::result::Result<Vec<_>, _>>()
            );
            pick_checked(model, (model.mesh().unwrap(), pose, &rays[0], max_t), true);
        }
    }
}

/// A camera looking at the mesh placed by `pose` from an arbitrary side (or from a hostile eye):
/// `None` when its matrices are not finite.
fn api_camera(
    u: &mut Unstructured,
    mesh: &TriMesh,
    pose: &Pose,
) -> Result<Option<obbtree::Camera>> {
    let bounds = Aabb::from_points(mesh.vertices());
    let center = pose.transform_point(&bounds.center());
    let radius = (bounds.maxs - bounds.mins).norm().max(1e-9);
    let eye = if u.ratio(1u8, 8)? {
        Point::new(hostile_number(u)?, hostile_number(u)?, hostile_number(u)?)
    } else {
        let d = Vector::new(query_coord(u)?, query_coord(u)?, query_coord(u)?);
        center + d.map(|x| x.clamp(-4.0, 4.0)) * radius + Vector::new(0.0, 0.0, 3.0 * radius)
    };
    let fov = f64::from(u.int_in_range(10u8..=120)?).to_radians();
    let near = radius * [1e-3, 0.1, 1.0][u.choose_index(3)?];
    let far = near + radius * [0.5, 3.0, 10.0][u.choose_index(3)?];
    let camera = obbtree::Camera::look_at(&eye, &center, &Vector::y(), fov, near, far, 32, 24);
    let finite = camera
        .view
        .iter()
        .chain(camera.projection.iter())
        .all(|x| x.is_finite());
    Ok(finite.then_some(camera))
}

/// `cull`: refused exactly for a translation beyond the range (or a plane that degenerates in
/// the mesh frame); otherwise every triangle's class is one the exact plane-side oracle allows.
fn api_cull<V: ApiVolume>(model: &Model<V>, pose: &Pose, camera: &obbtree::Camera) {
    use obbtree::bv::intersect::containment::RegionRelation as Class;
    let Ok(frustum) = Frustum::from_view_projection(&(camera.projection * camera.view)) else {
        return;
    };
    let mesh = model.mesh().unwrap();
    let what = || format!("{} {mesh:?} {pose:?} {frustum:?}", V::NAME);
    let in_range = pose.translation().iter().all(|x| x.abs() <= MAX_COORDINATE);
    let culled = match obbtree::cull(model, pose, &frustum) {
        Err(QueryError::TranslationOutOfRange { .. }) => {
            assert!(!in_range, "{}", what());
            return;
        }
        Err(QueryError::Frustum(_)) => return,
        Err(e) => panic!("refused with {e}: {}", what()),
        Ok(culled) => culled,
    };
    assert!(in_range, "culled out of range: {}", what());
    let sides = oracles::planes::sides(mesh, pose, &frustum);
    let lists = [
        (&culled.inside, Class::Inside),
        (&culled.outside, Class::Outside),
        (&culled.intersecting, Class::Intersecting),
    ];
    let mut seen = vec![0u8; mesh.triangles().len()];
    for (list, class) in lists {
        for &t in list {
            seen[t as usize] += 1;
            let vertices = mesh.triangles()[t as usize].map(|v| sides[v as usize]);
            let (exact, ok) = oracles::planes::allowed(&vertices, class);
            assert!(
                ok,
                "triangle {t} culled {class:?}, exactly {exact:?}: {}",
                what()
            );
        }
    }
    assert!(
        seen.iter().all(|&k| k == 1),
        "each triangle listed once: {}",
        what()
    );
}

/// `pick_pixel`: refused for a pixel outside the image or a degenerate camera, or with
/// `cast_ray`'s error; otherwise `cast_ray`'s hit for the pixel's ray, which is checked against
/// the exact crossings ([`pick_checked`]).
fn api_pick_pixel<V: ApiVolume>(
    model: &Model<V>,
    pose: &Pose,
    camera: &obbtree::Camera,
    x: u32,
    y: u32,
) {
    let got = obbtree::pick_pixel(model, pose, camera, x, y);
    let ray = match camera.pixel_ray(x, y) {
        Err(e) => {
            assert_eq!(got.err().map(|g| g.to_string()), Some(e.to_string()));
            return;
        }
        Ok(ray) => ray,
    };
    let want = cast_ray(model, pose, &ray, f64::INFINITY);
    match (got, want) {
        (Ok(got), Ok(want)) => assert_eq!(got, want),
        (Err(obbtree::CameraError::Query(got)), Err(want)) => {
            assert_eq!(got.to_string(), want.to_string())
        }
        (got, want) => panic!("pick_pixel {got:?}, cast_ray {want:?}"),
    }
    pick_checked(
        model,
        (model.mesh().unwrap(), pose, &ray, f64::INFINITY),
        true,
    );
}
