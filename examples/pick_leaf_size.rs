//! Picking time per ray against the leaf size of the binary AABB tree a [`PickTree`] is made
//! from: the measurement behind the leaf size of [`PickTree::build`] (the AABB tree's default).
//!
//! Builds one `PickTree` per leaf size, then runs every ray through each in turn, `ROUNDS`
//! times, interleaved (so that a slow spell of the machine hits every tree alike), and prints
//! the fastest and the median round per tree, in µs per ray, with the number of hits (equal for
//! every tree) and the tree's memory.
//!
//! `cargo run --profile bench --example pick_leaf_size -- MESH RAYS.json 7,5,4,3 [ROUNDS]`
//! (the rays of the picking benchmark: `OBBTREE_BENCH_EXPORT=DIR cargo bench --bench pick`
//! writes `DIR/dragon_res2.obj` and `DIR/dragon_res2_rays.json`).

use obbtree::bv::{Aabb, Isometry, Ray, TriMesh};
use obbtree::load::load_mesh;
use obbtree::query::pick::{self, PickTree};
use obbtree::tree::{BuildOptions, Bvh, SplitRule};
use obbtree_cli::rays::load_rays;
use std::path::Path;
use std::time::Instant;

/// How many of `rays` hit (not inlined, so that a profiler can count this part alone:
/// `valgrind --tool=callgrind --toggle-collect='*cast_all*'`).
#[inline(never)]
fn cast_all(
    mesh: &TriMesh,
    tree: &PickTree,
    pose: &Isometry,
    rays: &[Ray],
) -> Result<usize, pick::PickError> {
    let mut count = 0;
    for ray in rays {
        count += usize::from(pick::cast_ray(mesh, tree, pose, ray, f64::INFINITY)?.is_some());
    }
    Ok(count)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let [_, mesh, rays, sizes, rest @ ..] = args.as_slice() else {
        return Err("usage: pick_leaf_size MESH RAYS.json LEAF,SIZES [ROUNDS]".into());
    };
    let mesh = load_mesh(Path::new(mesh))?;
    let rays = load_rays(Path::new(rays))?;
    let sizes = sizes
        .split(',')
        .map(str::parse)
        .collect::<Result<Vec<usize>, _>>()?;
    let rounds: usize = rest.first().map(|r| r.parse()).transpose()?.unwrap_or(10);
    let trees = sizes
        .iter()
        .map(|&leaf_size| {
            let options = BuildOptions {
                leaf_size,
                split: SplitRule::Sah,
                ..Default::default()
            };
            Ok(PickTree::new(&mesh, &Bvh::<Aabb>::build(&mesh, &options)?))
        })
        .collect::<Result<Vec<_>, obbtree::tree::BuildError>>()?;
    let pose = Isometry::identity();
    let mut times = vec![Vec::with_capacity(rounds); trees.len()];
    let mut hits = vec![0; trees.len()];
    for _ in 0..rounds {
        for (k, tree) in trees.iter().enumerate() {
            let start = Instant::now();
            hits[k] = cast_all(&mesh, tree, &pose, &rays)?;
            times[k].push(start.elapsed().as_secs_f64() * 1e6 / rays.len() as f64);
        }
    }
    for (k, t) in times.iter_mut().enumerate() {
        t.sort_by(f64::total_cmp);
        println!(
            "leaf size {:2}: fastest {:.4} µs/ray, median {:.4}, {} hits, {:.1} MB",
            sizes[k],
            t[0],
            t[t.len() / 2],
            hits[k],
            trees[k].memory_bytes() as f64 / 1e6
        );
    }
    Ok(())
}
