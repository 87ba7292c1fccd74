//! One error type across the library: loading, building, collision, distance and a scene in
//! one function returning `Result<_, obbtree::Error>`, each step's own error converted by `?`.
//! Then the same function on a file that does not exist, to show the error that comes out.
//!
//! `cargo run --example one_error [ASSETS_DIR]` (the bundled `assets/` by default).

use obbtree::load::load_mesh;
use obbtree::{collide, distance, CollisionRequest, DistanceRequest, Error, Model, Pose, Scene};
use std::path::{Path, PathBuf};

/// Loads the bunny and the duck, builds their models, asks whether and how close they are with
/// the duck 9 units along y, and keeps both in a scene whose closest pair it reports.
fn report(assets: &Path, duck_file: &str) -> Result<String, Error> {
    let bunny: Model = Model::new(load_mesh(&assets.join("bunny.obj"))?)?;
    let duck: Model = Model::new(load_mesh(&assets.join(duck_file))?)?;
    let duck_pose = Pose::new([0.0, 9.0, 0.0], [0.0, 0.5, 0.0])?;
    let id = Pose::identity();
    let touch = collide(&bunny, &id, &duck, &duck_pose, &CollisionRequest::default())?;
    let apart = distance(&bunny, &id, &duck, &duck_pose, &DistanceRequest::default())?;
    let mut scene = Scene::new();
    scene.insert("bunny", bunny, id)?;
    scene.insert("duck", duck, duck_pose)?;
    let closest = scene
        .min_distance()?
        .expect("two objects have a closest pair");
    Ok(format!(
        "touch: {}\ndistance: {:.6}\nscene's closest pair: {} and {}, {:.6} apart",
        touch.intersects,
        apart.distance,
        scene.name(closest.a),
        scene.name(closest.b),
        closest.distance
    ))
}

fn main() {
    let assets = std::env::args_os()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("assets"));
    match report(&assets, "duck/duck.obj") {
        Ok(text) => println!("{text}"),
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    }
    match report(&assets, "no_such_duck.obj") {
        Ok(_) => unreachable!("the file does not exist"),
        Err(e @ Error::Load(_)) => println!("a missing file: {e}"),
        Err(e) => {
            eprintln!("unexpected error: {e}");
            std::process::exit(1);
        }
    }
}
