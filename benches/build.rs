//! Tree build time on the dragons: the OBBTree (serial and parallel) against parry3d-f64's
//! `TriMesh::new`, which builds parry's binned AABB tree, in the same run. Before timing, prints
//! the memory of each tree per triangle (the mesh itself not included).
//!
//! `*-reusing`: the same builds through `Bvh::build_reusing`, whose working memory (152 bytes per
//! triangle) stays allocated from one build to the next. A fresh build's buffers are handed
//! back to the system when the tree is dropped and mapped and zeroed again by the next build
//! (glibc's trimming; the page faults it costs are counted in `docs/performance.md`); parry's
//! constructor allocates afresh each time too.
//!
//! The 871k-triangle dragon is included when `assets/large/` has it (`assets/fetch.sh --large`).
#![allow(missing_docs)] // `criterion_main!` defines an undocumented `main`

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use obbtree::bv::{Obb, TriMesh};
use obbtree::load::load_mesh;
use obbtree::tree::{BuildBuffers, BuildOptions, Bvh};
use parry3d_f64::math::Vector as ParryVector;
use parry3d_f64::shape::TriMesh as ParryMesh;
use std::path::Path;

fn parry_input(mesh: &TriMesh) -> (Vec<ParryVector>, Vec<[u32; 3]>) {
    let vertices = mesh
        .vertices()
        .iter()
        .map(|p| ParryVector::new(p.x, p.y, p.z))
        .collect();
    (vertices, mesh.triangles().to_vec())
}

fn build(c: &mut Criterion) {
    let assets = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets");
    let mut group = c.benchmark_group("build");
    group.sample_size(10);
    for name in [
        "dragon_res4.ply.gz",
        "dragon_res3.ply.gz",
        "dragon_res2.ply.gz",
        "large/dragon_vrip.ply.gz",
    ] {
        let path = assets.join(name);
        if !path.exists() {
            eprintln!("{name}: not present, skipped");
            continue;
        }
        let mesh = load_mesh(&path).unwrap();
        let n = mesh.triangles().len();
        let serial = BuildOptions::<Obb> {
            parallel: false,
            ..Default::default()
        };
        let parallel = BuildOptions::<Obb> {
            parallel: true,
            ..Default::default()
        };
        let ours = Bvh::<Obb>::build(&mesh, &serial).unwrap().stats();
        let (vertices, indices) = parry_input(&mesh);
        let parry = ParryMesh::new(vertices, indices).unwrap();
        eprintln!(
            "{name}: {n} triangles; bytes per triangle: obbtree OBB tree {:.1}, parry3d AABB tree {:.1}",
            ours.bytes_per_triangle,
            parry.bvh().heap_memory_size() as f64 / n as f64,
        );
        group.bench_function(format!("{name}/obbtree-obb-serial"), |b| {
            b.iter(|| Bvh::<Obb>::build(&mesh, &serial).unwrap())
        });
        let mut buffers = BuildBuffers::default();
        group.bench_function(format!("{name}/obbtree-obb-serial-reusing"), |b| {
            b.iter(|| Bvh::<Obb>::build_reusing(&mesh, &serial, &mut buffers).unwrap())
        });
        group.bench_function(format!("{name}/obbtree-obb-parallel"), |b| {
            b.iter(|| Bvh::<Obb>::build(&mesh, &parallel).unwrap())
        });
        group.bench_function(format!("{name}/obbtree-obb-parallel-reusing"), |b| {
            b.iter(|| Bvh::<Obb>::build_reusing(&mesh, &parallel, &mut buffers).unwrap())
        });
        group.bench_function(format!("{name}/parry3d-trimesh-new"), |b| {
            b.iter_batched(
                || parry_input(&mesh),
                |(vertices, indices)| ParryMesh::new(vertices, indices).unwrap(),
                BatchSize::LargeInput,
            )
        });
    }
    group.finish();
}

criterion_group!(benches, build);
criterion_main!(benches);
