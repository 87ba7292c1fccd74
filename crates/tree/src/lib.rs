//! Bounding-volume hierarchies over a [`TriMesh`](obbtree_bv::TriMesh)'s triangles, generic over
//! the volume: OBBTree (`Bvh<Obb>`), AABB tree, k-DOP tree, sphere tree.

mod build;
mod bvh;
mod fingerprint;
mod node;
mod refit;
pub mod serialize;
mod split;
mod stats;
mod traverse;
mod volume;

pub use build::{BuildError, BuildOptions, DEFAULT_LEAF_SIZE};
pub use bvh::{Bvh, MAX_DEPTH};
pub use fingerprint::{MeshFingerprint, MeshMismatch};
pub use node::{Node, NodeKind};
pub use refit::Refit;
pub use serialize::{LoadError, FORMAT_VERSION};
pub use split::{SplitRule, SAH_BINS};
pub use stats::{Level, Stats};
pub use traverse::Descend;
pub use volume::TreeVolume;
