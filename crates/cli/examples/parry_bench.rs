//! parry3d-f64 as one more anchor harness: the same inputs and the same one-line JSON report
//! (`build_ms`, `query_total_ms`) as `obbtree collide` / `obbtree pick` and the FCL, coal and
//! Embree harnesses of `bench/anchors`, so that all of them are timed in one run by one script
//! (`bench/anchors/tables.sh`).
//!
//! ```text
//! cargo run --release -p obbtree-cli --example parry_bench -- collide A B POSES.json --mode all|first
//! cargo run --release -p obbtree-cli --example parry_bench -- pick MESH RAYS.json
//! cargo run --release -p obbtree-cli --example parry_bench -- build MESH
//! ```
//!
//! `build` times parry's tree (`TriMesh::new`) for the mesh twice over, as the collide reports
//! time both trees, in parry3d-f64 and in parry3d's `f32` build (`build_f32_ms`).
//!
//! Collision is parry's way of enumerating intersecting triangle pairs (its BVH's `leaf_pairs`
//! with B's boxes placed in A's frame, then `intersection_test` per candidate, as in
//! `obbtree_compare::pairs`); picking is `cast_ray_and_get_normal` per ray. One thread; the
//! first ten queries run once untimed, as every harness does.

use obbtree::load::load_mesh;
use obbtree_cli::{poses::load_poses, rays::load_rays};
use std::path::Path;
use std::time::Instant;

const WARM_UP_QUERIES: usize = 10;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let report = match args.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
        ["collide", a, b, poses, "--mode", mode] => collide(a, b, poses, *mode == "first"),
        ["pick", mesh, rays] => pick(mesh, rays),
        ["build", mesh] => build(mesh),
        _ => Err("usage: parry_bench collide A B POSES.json --mode all|first | pick MESH RAYS.json | build MESH".into()),
    };
    match report {
        Ok(line) => println!("{line}"),
        Err(e) => {
            eprintln!("parry_bench: {e}");
            std::process::exit(1);
        }
    }
}

/// parry's mesh for the file at `path`, and the time to build its tree.
fn parry_mesh(path: &str) -> Result<(parry3d_f64::shape::TriMesh, f64), String> {
    let mesh = load_mesh(Path::new(path)).map_err(|e| e.to_string())?;
    let start = Instant::now();
    let parry = obbtree_compare::trimesh(&mesh).map_err(|e| format!("{path}: {e:?}"))?;
    Ok((parry, millis(start)))
}

fn millis(start: Instant) -> f64 {
    start.elapsed().as_secs_f64() * 1e3
}

/// Runs `query` on every item after the warm-up; returns the timed total in ms and the results.
fn timed<T, R>(items: &[T], mut query: impl FnMut(&T) -> R) -> (f64, Vec<R>) {
    items
        .iter()
        .take(WARM_UP_QUERIES)
        .for_each(|i| drop(query(i)));
    let start = Instant::now();
    let results: Vec<R> = items.iter().map(query).collect();
    (millis(start), results)
}

fn collide(a: &str, b: &str, poses: &str, first: bool) -> Result<String, String> {
    let (pa, build_a) = parry_mesh(a)?;
    let (pb, build_b) = parry_mesh(b)?;
    let poses = load_poses(Path::new(poses)).map_err(|e| e.to_string())?;
    let poses: Vec<_> = poses.iter().map(obbtree_compare::pose).collect();
    let (total, results) = timed(&poses, |p| obbtree_compare::pairs(&pa, &pb, p, first));
    let intersecting = results.iter().filter(|r| !r.is_empty()).count();
    let pairs: usize = results.iter().map(Vec::len).sum();
    Ok(format!(
        "{{\"engine\":\"parry3d-f64\",\"mode\":\"{}\",\"build_ms\":{:.3},\"query_total_ms\":{total:.3},\"poses\":{},\"intersecting\":{intersecting},\"pairs\":{pairs}}}",
        if first { "first" } else { "all" },
        build_a + build_b,
        poses.len()
    ))
}

fn pick(mesh: &str, rays: &str) -> Result<String, String> {
    let (parry, build) = parry_mesh(mesh)?;
    let rays = load_rays(Path::new(rays)).map_err(|e| e.to_string())?;
    let (total, hits) = timed(&rays, |r| obbtree_compare::rays::parry_cast(&parry, r));
    let hit_count = hits.iter().filter(|h| h.is_some()).count();
    Ok(format!(
        "{{\"engine\":\"parry3d-f64\",\"build_ms\":{build:.3},\"query_total_ms\":{total:.3},\"rays\":{},\"hits\":{hit_count}}}",
        rays.len()
    ))
}

/// Both trees of a collide run (the mesh twice), in parry3d-f64 and parry3d (`f32`).
fn build(path: &str) -> Result<String, String> {
    let mesh = load_mesh(Path::new(path)).map_err(|e| e.to_string())?;
    let start = Instant::now();
    for _ in 0..2 {
        obbtree_compare::trimesh(&mesh).map_err(|e| format!("{path}: {e:?}"))?;
    }
    let f64_ms = millis(start);
    let vertices: Vec<parry3d::math::Vector> = mesh
        .vertices()
        .iter()
        .map(|p| parry3d::math::Vector::new(p.x as f32, p.y as f32, p.z as f32))
        .collect();
    let start = Instant::now();
    for _ in 0..2 {
        parry3d::shape::TriMesh::new(vertices.clone(), mesh.triangles().to_vec())
            .map_err(|e| format!("{path}: {e:?}"))?;
    }
    let f32_ms = millis(start);
    Ok(format!(
        "{{\"engine\":\"parry3d\",\"build_ms\":{f64_ms:.3},\"build_f32_ms\":{f32_ms:.3},\"query_total_ms\":0}}"
    ))
}
