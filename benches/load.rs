//! Mesh loading speed on bundled meshes (parse + validation). parry3d has no loaders, so this
//! bench runs alone; it shows what `obbtree info` and the demo spend before any query.
#![allow(missing_docs)] // `criterion_main!` defines an undocumented `main`

use criterion::{criterion_group, criterion_main, Criterion};
use obbtree::load::load_mesh;
use std::path::Path;

fn load(c: &mut Criterion) {
    let assets = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets");
    let mut group = c.benchmark_group("load");
    group.sample_size(10);
    for name in [
        "bunny.obj",
        "duck/duck.obj",
        "differential/diff_ring.stl",
        "dragon_res3.ply.gz",
    ] {
        let path = assets.join(name);
        group.bench_function(name, |b| b.iter(|| load_mesh(&path).unwrap()));
    }
    // The eight links of the KUKA arm, as a URDF load reads them.
    let links: Vec<_> = (0..8)
        .map(|i| assets.join(format!("kuka_iiwa/link_{i}.obj")))
        .collect();
    group.bench_function("kuka_iiwa/link_*.obj", |b| {
        b.iter(|| {
            links
                .iter()
                .map(|p| load_mesh(p).unwrap())
                .collect::<Vec<_>>()
        })
    });
    group.finish();
}

criterion_group!(benches, load);
criterion_main!(benches);
