//! Command-line interface: one module per subcommand. Each subcommand returns an [`Error`] that
//! `main` prints as one line before exiting with a non-zero status. The pose and ray file
//! readers are public, for tools that feed the program:
//!
//! ```
//! use std::path::Path;
//! let text = r#"{"poses":[{"translation":[1,0,0],"rotation":[0,0,0.5]}]}"#;
//! let poses = obbtree_cli::poses::poses_from_str(text, Path::new("poses.json")).unwrap();
//! assert_eq!(poses[0].translation().x, 1.0);
//! let bad = obbtree_cli::poses::poses_from_str(r#"[{"translation":[1,0,0]}]"#, Path::new("p.json"));
//! assert!(bad.unwrap_err().to_string().contains("p.json"));
//! ```

pub mod ccd_queries;
mod json_shape;
pub mod motions;
pub mod poses;
pub mod rays;

mod ccd;
mod ccd_motions;
mod chart;
mod collide;
mod compare;
mod compare_distance;
mod compare_rays;
mod demo;
mod distance;
mod info;
mod mesh;
mod pick;
mod points;
mod render;
mod report;
mod robot;
mod scene;
mod sdf;
mod shape_spec;
mod steps;
mod tessellate;
mod tree;

use clap::{Parser, Subcommand};

/// Queries run once, untimed and discarded, before `query_total_ms` is measured: the first ten,
/// as the harnesses in `bench/anchors` do for FCL, coal and Embree, so that the reported time is
/// the steady state (trees in cache, each thread's query caches allocated) on both sides.
const WARM_UP_QUERIES: usize = 10;

/// obbtree: exact mesh–mesh collision and ray picking over bounding-volume hierarchies.
///
/// Run without a subcommand to see the demo on the bundled meshes.
#[derive(Debug, Parser)]
#[command(
    version,
    about,
    long_about,
    after_help = "Examples:\n  obbtree                              # the demo on the bundled meshes\n  obbtree info assets/bunny.obj        # what is in a mesh file\n  obbtree demo --quick                 # the demo on the small meshes only\n  obbtree pick assets/bunny.obj --pixel 320 240 --image bunny.png\n  obbtree collide A.obj B.obj --poses poses.json --json\n  obbtree compare assets/bunny.obj assets/bunny.obj --random 200\n  obbtree compare --rays rays.json assets/bunny.obj\n  obbtree ccd --edge-edge queries.csv --json"
)]
pub struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Debug, Subcommand)]
enum Command {
    Info(info::Args),
    Ccd(ccd::Args),
    Collide(collide::Args),
    Compare(compare::Args),
    Demo(demo::Args),
    Distance(distance::Args),
    Pick(pick::Args),
    Points(points::Args),
    Scene(scene::Args),
    Sdf(sdf::Args),
    Robot(robot::Args),
}

/// `--mode`: the first witness pair or every intersecting pair.
#[derive(Clone, Copy, Debug, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ModeArg {
    /// Stop at the first intersecting pair.
    First,
    /// Every intersecting pair.
    All,
}

/// What went wrong, as one line that says what to fix.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A mesh file could not be loaded.
    #[error(transparent)]
    Load(#[from] obbtree::load::LoadError),
    /// JSON output failed.
    #[error("cannot write JSON: {0}")]
    Json(#[from] serde_json::Error),
    /// Writing to standard output failed (e.g. the reader of a pipe went away).
    #[error("cannot write the output: {0}")]
    Output(#[from] std::io::Error),
    /// Anything else, already phrased for the user.
    #[error("{0}")]
    Message(String),
}

/// The mesh of `model`, or an error saying that `what` needs a mesh, not a primitive shape.
pub(crate) fn mesh_of<'m, V>(
    model: &'m obbtree::Model<V>,
    what: &str,
) -> Result<&'m obbtree::TriMesh, Error> {
    model
        .mesh()
        .ok_or_else(|| Error::Message(format!("{what} needs a mesh, not a primitive shape")))
}

/// Runs the chosen subcommand (the demo when there is none), writing its report to `out`.
pub fn run(cli: Cli, out: &mut impl std::io::Write) -> Result<(), Error> {
    match cli.command.unwrap_or(Command::Demo(demo::Args::default())) {
        Command::Info(args) => info::run(&args, out),
        Command::Ccd(args) => ccd::run(&args, out),
        Command::Collide(args) => collide::run(&args, out),
        Command::Compare(args) => compare::run(&args, out),
        Command::Demo(args) => demo::run(&args, out),
        Command::Distance(args) => distance::run(&args, out),
        Command::Pick(args) => pick::run(&args, out),
        Command::Points(args) => points::run(&args, out),
        Command::Scene(args) => scene::run(&args, out),
        Command::Sdf(args) => sdf::run(&args, out),
        Command::Robot(args) => robot::run(&args, out),
    }?;
    Ok(out.flush()?)
}
