//! Picking time per ray against the leaf size of the AABB tree whose compact copy rays walk:
//! the measurement behind the AABB tree's default leaf size.
//!
//! Builds one AABB model per leaf size (its rays through the compact index), then runs every ray through each in turn, `ROUNDS`
//! times, interleaved (so that a slow spell of the machine hits every tree alike), and prints
//! the fastest and the median round per tree, in µs per ray, with the number of hits (equal for
//! every tree) and the tree's memory.
//!
//! `cargo run --profile bench --example pick_leaf_size -- MESH RAYS.json 7,5,4,3 [ROUNDS]`
//! (the rays of the picking benchmark: `OBBTREE_BENCH_EXPORT=DIR cargo bench --bench pick`
//! writes `DIR/dragon_res2.obj` and `DIR/dragon_res2_rays.json`).

use obbtree::bv::Aabb;
use obbtree::load::load_mesh;
use obbtree::tree::SplitRule;
use obbtree::{cast_ray, BuildOptions, Model, ModelOptions, Pose, QueryError, Ray};
use obbtree_cli::rays::load_rays;
use std::path::Path;
use std::time::Instant;

/// How many of `rays` hit (not inlined, so that a profiler can count this part alone:
/// `valgrind --tool=callgrind --toggle-collect='*cast_all*'`).
#[inline(never)]
fn cast_all(model: &Model<Aabb>, pose: &Pose, rays: &[Ray]) -> Result<usize, QueryError> {
    let mut count = 0;
    for ray in rays {
        count += usize::from(cast_ray(model, pose, ray, f64::INFINITY)?.is_some());
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
            let model = Model::<Aabb>::build(mesh.clone(), &ModelOptions::from(options))?;
            model.prepare_rays();
            Ok(model)
        })
        .collect::<Result<Vec<_>, obbtree::BuildError>>()?;
    let pose = Pose::identity();
    let mut times = vec![Vec::with_capacity(rounds); trees.len()];
    let mut hits = vec![0; trees.len()];
    for _ in 0..rounds {
        for (k, tree) in trees.iter().enumerate() {
            let start = Instant::now();
            hits[k] = cast_all(tree, &pose, &rays)?;
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
