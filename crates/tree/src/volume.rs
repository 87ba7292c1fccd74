//! What the hierarchies need to know about each volume type beyond [`BoundingVolume`].

use crate::Bvh;
use obbtree_bv::fit::{ObbFit, SphereFit};
use obbtree_bv::{Aabb, BoundingVolume, Kdop, Obb, Rss, Sphere};

/// Per-volume-type settings of the hierarchies.
pub trait TreeVolume: BoundingVolume {
    /// Stable short lowercase name (`"obb"`, `"aabb"`, `"kdop18"`, ...): stored in tree files, so
    /// that a file is only ever loaded as the type it was saved with, and used by the CLI.
    const NAME: &'static str;

    /// The fitting method [`BuildOptions::default`](crate::BuildOptions) uses for this type
    /// (chosen by measurement: see `docs/performance.md`).
    fn default_method() -> Self::Method;

    /// The fitting method for trees built once and queried many times (a robot's links, whose
    /// trees serve every configuration): a tighter fit whose extra build time the queries
    /// repay. [`TreeVolume::default_method`] unless measurement chose another (see
    /// `docs/performance.md`).
    fn reused_method() -> Self::Method {
        Self::default_method()
    }

    /// The leaf size [`BuildOptions::default`](crate::BuildOptions) uses for this type:
    /// [`DEFAULT_LEAF_SIZE`](crate::DEFAULT_LEAF_SIZE) unless measurement chose another (see
    /// `docs/performance.md`).
    const LEAF_SIZE: usize = crate::DEFAULT_LEAF_SIZE;

    /// The [`BuildOptions::large_leaf_ratio`](crate::BuildOptions::large_leaf_ratio)
    /// [`BuildOptions::default`](crate::BuildOptions) uses for this type: off (infinite) unless
    /// measurement chose a ratio (see `docs/performance.md`).
    const LARGE_LEAF_RATIO: f64 = f64::INFINITY;

    /// `tree` itself when it is a tree of axis-aligned boxes (`None` for every other type):
    /// the wide picking tree is then collapsed from it rather than from a second tree built
    /// for it.
    #[inline]
    fn as_aabb_tree(tree: &Bvh<Self>) -> Option<&Bvh<Aabb>> {
        let _ = tree;
        None
    }

    /// This volume as an oriented box, when it is one (`None` otherwise): placed by a pose,
    /// its axis-aligned box can be much tighter than the placed box of the mesh's own bounds
    /// for a long mesh turned off its axes.
    #[inline]
    fn as_obb(&self) -> Option<&Obb> {
        None
    }
}

impl TreeVolume for Aabb {
    const NAME: &'static str = "aabb";
    fn default_method() {}

    #[inline]
    fn as_aabb_tree(tree: &Bvh<Self>) -> Option<&Bvh<Aabb>> {
        Some(tree)
    }
}

/// The triangle covariance (the OBBTree paper's fit and [`ObbFit`]'s default): per-node convex
/// hulls ([`ObbFit::HullCovariance`]) make the build much slower for boxes no tighter on the
/// bundled meshes. Leaves of up to 9 triangles: since the collision leaf test runs its box tests
/// without branches, that is cheaper on the dragons than 7. Large leaves split at a ratio of 4:
/// the dragons' trees stay as they were, while CAD meshes' long triangles get leaves of their
/// own (see `docs/performance.md`). Picking's axis-aligned trees keep their large leaves: there
/// the split costs time.
impl TreeVolume for Obb {
    const NAME: &'static str = "obb";
    const LEAF_SIZE: usize = 9;
    const LARGE_LEAF_RATIO: f64 = 4.0;
    fn default_method() -> ObbFit {
        ObbFit::TriangleCovariance
    }

    /// The ditetrahedron frame ([`ObbFit::Ditetrahedron`]): boxes nearer the least area, for
    /// about a third more build time.
    fn reused_method() -> ObbFit {
        ObbFit::Ditetrahedron
    }

    #[inline]
    fn as_obb(&self) -> Option<&Obb> {
        Some(self)
    }
}

impl TreeVolume for Sphere {
    const NAME: &'static str = "sphere";
    fn default_method() -> SphereFit {
        SphereFit::default()
    }
}

impl<const A: usize> TreeVolume for Kdop<A> {
    const NAME: &'static str = match A {
        3 => "kdop6",
        7 => "kdop14",
        9 => "kdop18",
        13 => "kdop26",
        _ => "kdop",
    };
    fn default_method() {}
}

/// Rectangle swept spheres (the distance queries' volume, as in PQP): one fit, along the
/// triangle covariance frame.
impl TreeVolume for Rss {
    const NAME: &'static str = "rss";
    fn default_method() {}
}
