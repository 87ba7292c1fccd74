//! `--tree KIND`: build a hierarchy over a loaded mesh and report its statistics.

use obbtree::bv::TriMesh;
use obbtree::tree::{with_volume, BuildOptions, Bvh, Level, TreeVolume, VolumeKind};
use serde::Serialize;
use std::time::Instant;

/// The `--tree` / `--bv` value: any volume kind of the registry, parsed by name, with clap's
/// list of possible values in its help and errors.
pub fn volume_parser() -> impl clap::builder::TypedValueParser<Value = VolumeKind> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(VolumeKind::ALL.map(VolumeKind::name)).map(
        |name: String| {
            VolumeKind::from_name(&name).expect("clap accepted only the registry's names")
        },
    )
}

/// Statistics of a tree built with the default options (flattened into the mesh's JSON object).
#[derive(Debug, Serialize)]
pub struct Report {
    pub tree: &'static str,
    pub build_ms: f64,
    pub nodes: usize,
    pub leaves: usize,
    pub depth: usize,
    pub bytes_per_triangle: f64,
    /// `leaf_sizes[k]` leaves hold `k` triangles.
    pub leaf_sizes: Vec<usize>,
    /// Per depth: nodes, leaves, sum of volumes, sum of surface areas.
    pub levels: Vec<Level>,
    #[serde(skip)]
    pub text: String,
}

impl Report {
    /// Builds the `kind` tree over `mesh` (default options) and measures it.
    pub fn build(mesh: &TriMesh, kind: VolumeKind) -> Self {
        with_volume!(kind, |V| Self::of::<V>(mesh))
    }

    fn of<V: TreeVolume>(mesh: &TriMesh) -> Self {
        let options = BuildOptions::<V>::default();
        let start = Instant::now();
        let bvh = Bvh::<V>::build(mesh, &options)
            .expect("the default options are valid for any mesh a loader returns");
        let build_ms = start.elapsed().as_secs_f64() * 1e3;
        let stats = bvh.stats();
        let text = format!(
            "{} tree, {:?} split, leaf size {}, built in {build_ms:.1} ms\n{stats}",
            V::NAME,
            options.split,
            options.leaf_size
        );
        Self {
            tree: V::NAME,
            build_ms,
            nodes: stats.nodes,
            leaves: stats.leaves,
            depth: stats.depth,
            bytes_per_triangle: stats.bytes_per_triangle,
            leaf_sizes: stats.leaf_sizes,
            levels: stats.levels,
            text,
        }
    }
}
