//! The library's own loop on the program's inputs: what `obbtree pick --rays` and
//! `obbtree collide --poses` time, done with `cast_ray` per ray and `collide_into` per pose, in
//! a fresh process, after the same 10 untimed warm-up queries, one timed pass. The ratio of the
//! program's `query_total_ms` to this one is the cost of the program's batch path (compare on
//! one thread: `RAYON_NUM_THREADS=1`).
//!
//! ```text
//! cargo run --release --example library_loop -- pick MESH RAYS.json
//! cargo run --release --example library_loop -- collide A B POSES.json [all|first]
//! ```

use obbtree::load::load_mesh;
use obbtree::{
    cast_ray, collide_into, BuildOptions, CollisionRequest, CollisionResult, Mode, Model,
    ModelOptions, Pose,
};
use obbtree_cli::{poses::load_poses, rays::load_rays};
use std::path::Path;
use std::time::Instant;

/// Queries run untimed first, as the program does.
const WARM_UP: usize = 10;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let ms = match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["pick", mesh, rays] => pick(mesh, rays)?,
        ["collide", a, b, poses] => collide(a, b, poses, Mode::All)?,
        ["collide", a, b, poses, "first"] => collide(a, b, poses, Mode::First)?,
        ["collide", a, b, poses, "all"] => collide(a, b, poses, Mode::All)?,
        _ => {
            return Err("usage: library_loop pick MESH RAYS | collide A B POSES [all|first]".into())
        }
    };
    println!("{{\"query_total_ms\":{ms}}}");
    Ok(())
}

/// The first hit of every ray, through the AABB model's compact index as `obbtree pick` builds
/// it (SAH splits, the AABB default).
fn pick(mesh: &str, rays: &str) -> Result<f64, Box<dyn std::error::Error>> {
    let rays = load_rays(Path::new(rays))?;
    let options = ModelOptions::from(BuildOptions::default());
    let model = Model::<obbtree::bv::Aabb>::build(load_mesh(Path::new(mesh))?, &options)?;
    model.prepare_rays();
    let pose = Pose::identity();
    for ray in rays.iter().take(WARM_UP) {
        cast_ray(&model, &pose, ray, f64::INFINITY)?;
    }
    let start = Instant::now();
    let mut hits = 0;
    for ray in &rays {
        hits += usize::from(cast_ray(&model, &pose, ray, f64::INFINITY)?.is_some());
    }
    let ms = start.elapsed().as_secs_f64() * 1e3;
    eprintln!("{} rays, {hits} hits", rays.len());
    Ok(ms)
}

/// Every pose of B against A, one result reused, as `obbtree collide` builds the models (two,
/// one per file, even for the same file).
fn collide(a: &str, b: &str, poses: &str, mode: Mode) -> Result<f64, Box<dyn std::error::Error>> {
    let poses = load_poses(Path::new(poses))?;
    let a: Model = Model::new(load_mesh(Path::new(a))?)?;
    let b: Model = Model::new(load_mesh(Path::new(b))?)?;
    let request = CollisionRequest::new(mode);
    let mut result = CollisionResult::default();
    for pose in poses.iter().take(WARM_UP) {
        collide_into(&a, &Pose::identity(), &b, pose, &request, &mut result)?;
    }
    let start = Instant::now();
    let mut pairs = 0;
    for pose in &poses {
        collide_into(&a, &Pose::identity(), &b, pose, &request, &mut result)?;
        pairs += result.pairs.len();
    }
    let ms = start.elapsed().as_secs_f64() * 1e3;
    eprintln!("{} poses, {pairs} pairs", poses.len());
    Ok(ms)
}
