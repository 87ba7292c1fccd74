//! The library example of the README: load two meshes, build a model of each once, ask whether
//! they touch at a pose and where, then which triangle a ray hits first.
//!
//! `cargo run --release --example collide_and_pick`

use obbtree::bv::BoundingVolume;
use obbtree::load::load_mesh;
use obbtree::{cast_ray, collide, CollisionRequest, Model, Point, Pose, Ray, TriMesh, Vector};
use std::path::Path;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let assets = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets");
    // A model owns its mesh and its hierarchy (OBBs by default); build it once, share it freely.
    let bunny: Model = Model::new(load_mesh(&assets.join("bunny.obj"))?)?;
    let duck: Model = Model::new(load_mesh(&assets.join("duck/duck.obj"))?)?;

    // The duck placed at the bunny's centre: a translation, then a rotation vector (axis ×
    // angle, radians). Poses are checked when made: NaN, ∞ or a non-rotation is an error.
    let centre = bunny.bounds().center();
    let duck_pose = Pose::new(centre.coords, [0.0, 0.5, 0.0])?;
    let result = collide(
        &bunny,
        &Pose::identity(),
        &duck,
        &duck_pose,
        &CollisionRequest::default(),
    )?;
    println!(
        "touch: {}, {} intersecting triangle pairs",
        result.intersects,
        result.pairs.len()
    );
    if let Some([ia, ib]) = result.pairs.first() {
        println!("e.g. bunny triangle {ia} and duck triangle {ib}");
    }

    // The first triangle of the bunny hit by a ray from in front of it.
    let ray = Ray::new(
        centre + Vector::new(0.0, 0.0, 100.0),
        Vector::new(0.0, 0.0, -1.0),
    );
    match cast_ray(&bunny, &Pose::identity(), &ray, f64::INFINITY)? {
        Some(hit) => println!(
            "ray hits triangle {} at t = {:.4}, point {:?}",
            hit.triangle, hit.t, hit.point
        ),
        None => println!("ray misses"),
    }

    // Your own arrays work the same way: a TriMesh is validated vertices and index triples.
    // A floor under the bunny, exactly at the height of its lowest vertex: touching counts.
    let (lo, hi) = (bunny.bounds().mins, bunny.bounds().maxs);
    let floor = TriMesh::new(
        vec![
            Point::new(lo.x, lo.y, lo.z),
            Point::new(hi.x, lo.y, lo.z),
            Point::new(hi.x, lo.y, hi.z),
            Point::new(lo.x, lo.y, hi.z),
        ],
        vec![[0, 1, 2], [0, 2, 3]],
    )?;
    let floor: Model = Model::new(floor)?;
    let standing = collide(
        &floor,
        &Pose::identity(),
        &bunny,
        &Pose::identity(),
        &CollisionRequest::default(),
    )?;
    println!(
        "the bunny stands on the floor: {} ({} triangle pairs touch)",
        standing.intersects,
        standing.pairs.len()
    );
    Ok(())
}
