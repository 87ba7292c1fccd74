//! Loads two bundled meshes and prints what they hold (the README's library example).
//! Run: `cargo run --release --example load`

use obbtree::load::load_mesh;
use std::path::Path;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let assets = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets");
    let bunny = load_mesh(&assets.join("bunny.obj"))?;
    let gear = load_mesh(&assets.join("differential/diff_ring.stl"))?;
    for (name, mesh) in [("bunny", &bunny), ("ring gear", &gear)] {
        println!(
            "{name}: {} vertices, {} triangles, closed: {}, degenerate: {}",
            mesh.vertices().len(),
            mesh.triangles().len(),
            mesh.is_closed(),
            mesh.degenerate_triangles().len()
        );
    }
    Ok(())
}
