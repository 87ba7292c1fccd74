//! Ray picking speed: obbtree's `cast_ray` beside parry3d-f64's `cast_ray_and_get_normal` on the
//! same incoherent rays, one thread and all threads, on dragon_res2 (202k triangles) and, when
//! `assets/fetch.sh --large` has fetched it, the full 871k dragon.
//!
//! Rays: origin uniform on the sphere of radius 2R about the AABB centre, aimed at a point
//! uniform in the AABB (the recipe of the Embree comparison's ray files), generated here from
//! a fixed seed.
//! With `OBBTREE_BENCH_EXPORT=DIR` the meshes (OBJ) and rays (JSON, `{"rays":[...]}`) are
//! written to DIR so that `embree_bench ray MESH.obj rays.json` runs on exactly these inputs.
//! `OBBTREE_BENCH_RAYS` overrides the ray count (default 100,000). Criterion reports rays/s
//! (throughput elements).
#![allow(missing_docs)] // `criterion_main!` defines an undocumented `main`

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use obbtree::bv::{Aabb, BoundingVolume, Kdop18, Obb, Sphere};
use obbtree::tree::{SplitRule, TreeVolume};
use obbtree::{
    cast_ray, cast_rays, BuildOptions, Model, ModelOptions, Point, Pose, Ray, RayIndex, RayVolume,
    TriMesh, Vector,
};
use parry3d_f64::math::{Pose as PPose, Vector as PVector};
use parry3d_f64::query::{Ray as PRay, RayCast};
use rand::{Rng, SeedableRng};
use rayon::prelude::*;
use std::io::Write;
use std::path::Path;

/// `n` rays, each from a point uniform on the sphere of radius `2R` about the AABB centre (`R`:
/// the largest distance of a used vertex from it), aimed at a point uniform in the AABB.
fn rays(mesh: &TriMesh, n: usize, seed: u64) -> Vec<Ray> {
    let used: Vec<Point> = mesh
        .triangles()
        .iter()
        .flatten()
        .map(|&i| mesh.vertices()[i as usize])
        .collect();
    let bounds = Aabb::from_points(&used);
    let c = bounds.center();
    let r = used.iter().map(|p| (p - c).norm()).fold(0.0, f64::max);
    let mut rng = rand_pcg::Pcg64::seed_from_u64(seed);
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let z: f64 = 2.0 * rng.gen::<f64>() - 1.0;
        let phi = 2.0 * std::f64::consts::PI * rng.gen::<f64>();
        let s = (1.0 - z * z).max(0.0).sqrt();
        let o = c + Vector::new(s * phi.cos(), s * phi.sin(), z) * (2.0 * r);
        let target = bounds.mins + (bounds.maxs - bounds.mins).map(|e| e * rng.gen::<f64>());
        if let Some(dir) = (target - o).try_normalize(0.0) {
            out.push(Ray::new(o, dir));
        }
    }
    out
}

fn export(dir: &Path, name: &str, mesh: &TriMesh, rays: &[Ray]) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let mut obj = std::io::BufWriter::new(std::fs::File::create(dir.join(format!("{name}.obj")))?);
    for v in mesh.vertices() {
        writeln!(obj, "v {:?} {:?} {:?}", v.x, v.y, v.z)?;
    }
    for t in mesh.triangles() {
        writeln!(obj, "f {} {} {}", t[0] + 1, t[1] + 1, t[2] + 1)?;
    }
    let json = serde_json::json!({
        "rays": rays.iter().map(|r| serde_json::json!({
            "origin": [r.origin.x, r.origin.y, r.origin.z],
            "dir": [r.dir.x, r.dir.y, r.dir.z],
        })).collect::<Vec<_>>()
    });
    std::fs::write(dir.join(format!("{name}_rays.json")), json.to_string())
}

/// A model of `mesh` built with `split`, its rays walking `index`.
fn model<V: TreeVolume>(mesh: &TriMesh, split: SplitRule, index: RayIndex) -> Model<V> {
    let options = ModelOptions {
        tree: BuildOptions {
            split,
            ..Default::default()
        },
        rays: index,
    };
    let model = Model::build(mesh.clone(), &options).unwrap();
    model.prepare_rays();
    model
}

fn cast_all<V: RayVolume>(model: &Model<V>, rays: &[Ray]) -> usize {
    let pose = Pose::identity();
    rays.iter()
        .filter(|r| cast_ray(model, &pose, r, f64::INFINITY).unwrap().is_some())
        .count()
}

fn parry_cast(mesh: &parry3d_f64::shape::TriMesh, ray: &Ray) -> bool {
    let v = |x: &Vector| PVector::new(x.x, x.y, x.z);
    let ray = PRay::new(v(&ray.origin.coords), v(&ray.dir));
    mesh.cast_ray_and_get_normal(&PPose::IDENTITY, &ray, f64::MAX, true)
        .is_some()
}

fn bench_mesh(c: &mut Criterion, name: &str, path: &Path) {
    let mesh = obbtree::load::load_mesh(path).unwrap();
    let n = std::env::var("OBBTREE_BENCH_RAYS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(100_000);
    let rays = rays(&mesh, n, 7);
    if let Ok(dir) = std::env::var("OBBTREE_BENCH_EXPORT") {
        export(Path::new(&dir), name, &mesh, &rays).unwrap();
    }
    let parry = parry3d_f64::shape::TriMesh::new(
        mesh.vertices()
            .iter()
            .map(|p| PVector::new(p.x, p.y, p.z))
            .collect(),
        mesh.triangles().to_vec(),
    )
    .unwrap();
    let aabb_sah: Model<Aabb> = model(&mesh, SplitRule::Sah, RayIndex::ModelTree);
    let compact: Model<Aabb> = model(&mesh, SplitRule::Sah, RayIndex::Compact);
    eprintln!(
        "{name}: AABB model with its compact ray index {:.1} MB ({} triangles)",
        compact.memory_bytes() as f64 / 1e6,
        mesh.triangles().len()
    );

    let mut group = c.benchmark_group(format!("pick/{name}/1thread"));
    group.sample_size(10);
    group.throughput(Throughput::Elements(rays.len() as u64));
    group.bench_function("obbtree_compact", |b| b.iter(|| cast_all(&compact, &rays)));
    group.bench_function("obbtree_aabb_sah", |b| {
        b.iter(|| cast_all(&aabb_sah, &rays))
    });
    if name == "dragon_res2" {
        let tree_walk = RayIndex::ModelTree;
        let aabb_g: Model<Aabb> = model(&mesh, SplitRule::Gottschalk, tree_walk);
        group.bench_function("obbtree_aabb_gottschalk", |b| {
            b.iter(|| cast_all(&aabb_g, &rays))
        });
        let obb: Model<Obb> = model(&mesh, SplitRule::Sah, tree_walk);
        group.bench_function("obbtree_obb_sah", |b| b.iter(|| cast_all(&obb, &rays)));
        let kdop: Model<Kdop18> = model(&mesh, SplitRule::Sah, tree_walk);
        group.bench_function("obbtree_kdop18_sah", |b| b.iter(|| cast_all(&kdop, &rays)));
        let sphere: Model<Sphere> = model(&mesh, SplitRule::Sah, tree_walk);
        group.bench_function("obbtree_sphere_sah", |b| {
            b.iter(|| cast_all(&sphere, &rays))
        });
    }
    group.bench_function("parry3d", |b| {
        b.iter(|| rays.iter().filter(|r| parry_cast(&parry, r)).count())
    });
    group.finish();

    let mut group = c.benchmark_group(format!("pick/{name}/all_threads"));
    group.sample_size(10);
    group.throughput(Throughput::Elements(rays.len() as u64));
    group.bench_function("obbtree_compact", |b| {
        b.iter(|| cast_rays(&compact, &Pose::identity(), &rays, f64::INFINITY).unwrap())
    });
    group.bench_function("parry3d", |b| {
        b.iter(|| rays.par_iter().filter(|r| parry_cast(&parry, r)).count())
    });
    group.finish();
}

fn picking(c: &mut Criterion) {
    let assets = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets");
    bench_mesh(c, "dragon_res2", &assets.join("dragon_res2.ply.gz"));
    let large = assets.join("large/dragon_vrip.ply.gz");
    if large.exists() {
        bench_mesh(c, "dragon_vrip", &large);
    }
}

criterion_group!(benches, picking);
criterion_main!(benches);
