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
use obbtree::tree::{BuildOptions, Bvh, NodeKind, Refit, SplitRule, TreeVolume, MAX_DEPTH};
use obbtree::{
    any_hit, brute_force, cast_ray, cast_ray_all, CollisionRequest, Containment, DistanceRequest,
    MeshRay, Mode, Model, ModelOptions, Operand, PosedOverlap, QueryError, RayHit, RayIndex,
    RayVolume,
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
    match selector % 4 {
        0 => load_tree::<Aabb>(&bytes),
        1 => load_tree::<Obb>(&bytes),
        2 => load_tree::<Sphere>(&bytes),
        _ => load_tree::<Kdop18>(&bytes),
    }
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
    let shift = vector(u)?;
    match u.choose_index(4)? {
        0 => build_checked::<Aabb>(&mesh, leaf_size, split, parallel, (), shift),
        1 => {
            let method = [
                ObbFit::TriangleCovariance,
                ObbFit::HullCovariance,
                ObbFit::VertexCovariance,
                ObbFit::MinVolume,
            ][u.choose_index(4)?];
            build_checked::<Obb>(&mesh, leaf_size, split, parallel, method, shift)
        }
        2 => {
            let method = [
                SphereFit::AabbCenter,
                SphereFit::ImprovedAabbCenter,
                SphereFit::Ritter,
                SphereFit::Welzl,
            ][u.choose_index(4)?];
            build_checked::<Sphere>(&mesh, leaf_size, split, parallel, method, shift)
        }
        _ => build_checked::<Kdop18>(&mesh, leaf_size, split, parallel, (), shift),
    }
    Ok(())
}

fn build_checked<V: TreeVolume>(
    mesh: &TriMesh,
    leaf_size: usize,
    split: SplitRule,
    parallel: bool,
    method: V::Method,
    shift: Vector,
) {
    let options = BuildOptions::<V> {
        leaf_size,
        split,
        method,
        parallel,
    };
    let Ok(mut tree) = Bvh::<V>::build(mesh, &options) else {
        assert_eq!(leaf_size, 0);
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
    let _ = collide_checked::<Aabb>(case);
    let _ = collide_checked::<Obb>(case);
    let _ = collide_checked::<Sphere>(case);
    let _ = collide_checked::<Kdop18>(case);
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
        RangeError::TooLarge { reach: bound, .. } => {
            let reach = placed_reach(b, pose_a, pose_b);
            assert!(
                *bound > EXACT_MAX_COORDINATE && *bound >= reach,
                "refused with {reason}, vertices reach {reach:e}"
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
    pub aabb: Model<Aabb>,
    pub obb: Model<Obb>,
    pub sphere: Model<Sphere>,
    pub kdop: Model<Kdop18>,
}

impl PickModels {
    pub fn new(mesh: &TriMesh, leaf_size: usize) -> Self {
        Self {
            compact: pick_model(mesh, leaf_size, RayIndex::Compact),
            aabb: pick_model(mesh, leaf_size, RayIndex::ModelTree),
            obb: pick_model(mesh, leaf_size, RayIndex::ModelTree),
            sphere: pick_model(mesh, leaf_size, RayIndex::ModelTree),
            kdop: pick_model(mesh, leaf_size, RayIndex::ModelTree),
        }
    }

    /// [`pick_checked`] through every model (the independent exact hits computed once).
    pub fn check(&self, case: PickCase, exact: bool) {
        let hits = (exact && answerable(case)).then(|| ExactHits::new(case.0, case.1, case.2));
        let hits = hits.as_ref();
        checked_against(&self.compact, case, exact, hits);
        checked_against(&self.aabb, case, exact, hits);
        checked_against(&self.obb, case, exact, hits);
        checked_against(&self.sphere, case, exact, hits);
        checked_against(&self.kdop, case, exact, hits);
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

/// [`pick_checked`] with the exact hits computed by the caller.
fn checked_against<V: RayVolume + TreeVolume>(
    model: &Model<V>,
    (mesh, pose, ray, max_t): PickCase,
    exact: bool,
    exact_hits: Option<&ExactHits>,
) {
    assert_eq!(model.mesh(), mesh, "the model's mesh");
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
    let oracle = pick_oracle(model.mesh(), &pose, ray, f64::INFINITY);
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
    let oracle = placed_in_exact_range(&b, &Pose::identity(), &pose_b)
        .then(|| DistanceOracle::new(&a, &b, &pose_b));
    let case = (&a, &b, &pose_b, leaf_size, oracle.as_ref(), extra_margin);
    distance_checked::<Aabb>(case);
    distance_checked::<Obb>(case);
    distance_checked::<Sphere>(case);
    distance_checked::<Kdop18>(case);
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
);

/// The distance queries of `V` models on one case against the oracle.
pub fn distance_checked<V: PosedOverlap>(
    (a, b, pose_b, leaf_size, oracle, extra_margin): DistanceCase,
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
