//! `--tree KIND`: build a hierarchy over a loaded mesh and report its statistics.

use obbtree::bv::{Aabb, Kdop18, Obb, Sphere, TriMesh};
use obbtree::tree::{BuildOptions, Bvh, Level, TreeVolume};
use serde::Serialize;
use std::time::Instant;

/// The hierarchies the program can build (`info --tree`, `collide --bv`, `pick --bv`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// OBBTree (oriented boxes).
    Obb,
    /// AABB tree.
    Aabb,
    /// 18-DOP tree.
    Kdop18,
    /// Sphere tree.
    Sphere,
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
    pub fn build(mesh: &TriMesh, kind: Kind) -> Self {
        match kind {
            Kind::Obb => Self::of::<Obb>(mesh),
            Kind::Aabb => Self::of::<Aabb>(mesh),
            Kind::Kdop18 => Self::of::<Kdop18>(mesh),
            Kind::Sphere => Self::of::<Sphere>(mesh),
        }
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
