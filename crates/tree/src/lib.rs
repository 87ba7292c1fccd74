//! Bounding-volume hierarchies over a [`TriMesh`](obbtree_bv::TriMesh)'s triangles, generic over
//! the volume: OBBTree (`Bvh<Obb>`), AABB tree, k-DOP tree, sphere tree, RSS tree (`Bvh<Rss>`).
//!
//! ```
//! use obbtree_bv::{Obb, Point, TriMesh};
//! use obbtree_tree::{BuildOptions, Bvh};
//!
//! // Two triangles forming the unit square in the plane z = 0.
//! let vertices = vec![
//!     Point::new(0.0, 0.0, 0.0),
//!     Point::new(1.0, 0.0, 0.0),
//!     Point::new(1.0, 1.0, 0.0),
//!     Point::new(0.0, 1.0, 0.0),
//! ];
//! let mesh = TriMesh::new(vertices, vec![[0, 1, 2], [0, 2, 3]]).unwrap();
//! let bvh = Bvh::<Obb>::build(&mesh, &BuildOptions::default()).unwrap();
//! println!("{} nodes, depth {}", bvh.nodes().len(), bvh.depth());
//! // Both triangles fit in one leaf, so the root is that leaf.
//! assert_eq!(bvh.nodes().len(), 1);
//! assert_eq!(bvh.leaf_triangles(0).len(), 2);
//! ```
//!
//! * [`Bvh`]: flat node array ([`Node`]: volume + 8 bytes; siblings adjacent, children after
//!   parents) and the triangle order, whose runs are the leaves. Accessors: [`Bvh::nodes`],
//!   [`Bvh::node`], [`Node::kind`] / [`Node::children`] / [`Node::triangle_range`],
//!   [`Bvh::leaf_triangles`], [`Bvh::triangle_order`], [`Bvh::descend`] (single-tree traversal).
//! * [`Bvh::build`] with [`BuildOptions`]: top down, [`SplitRule`] Gottschalk / median / binned
//!   SAH, depth at most [`MAX_DEPTH`] for any mesh, and a parallel build (rayon) that gives the
//!   serial tree bit for bit.
//! * [`Bvh::refit`]: new volumes after the vertices move ([`Refit::Merge`] bottom up, or
//!   [`Refit::Fit`] every node from its triangles).
//! * [`Bvh::stats`]: node count, depth, leaf-size histogram, bytes per triangle, per-level sums.
//! * [`DynamicTree`] ([`dynamic`]): a dynamic AABB tree over moving objects, the broad phase
//!   of scenes.
//! * [`serialize`]: `to_bytes`/`from_bytes`/`save`/`load`, versioned and checksummed, tied to
//!   the mesh by a [`MeshFingerprint`].
//!
//! [`BuildOptions::default`]: [`SplitRule::Sah`], each volume's [`TreeVolume::LEAF_SIZE`] (9 for
//! OBBs, [`DEFAULT_LEAF_SIZE`] = 7 for the others), each volume's
//! [`TreeVolume::default_method`], parallel. These defaults were chosen by measurement; the
//! measurements are in `docs/performance.md` at the repository root.
//!
//! # Containment
//!
//! Every node's volume contains every vertex of every triangle below it *exactly*, as the
//! volume's `contains_point(p, 0.0)` evaluates it: the fits and merges of `obbtree_bv` widen for
//! their own rounding. The tests check this with zero tolerance for every volume type and split
//! rule on random soups (coordinates from 1e-8 to 1e8), degenerate meshes, every bundled mesh,
//! and after refits.

#![forbid(unsafe_code)]

mod build;
mod bvh;
pub mod dynamic;
mod fingerprint;
mod node;
mod refit;
mod registry;
pub mod serialize;
mod split;
mod stats;
mod traverse;
mod volume;
pub mod wide;

pub use build::{BuildBuffers, BuildError, BuildOptions, DEFAULT_LEAF_SIZE};
pub use bvh::{Bvh, MAX_DEPTH};
pub use dynamic::{DynamicOptions, DynamicTree, ProxyError, ProxyId};
pub use fingerprint::{MeshFingerprint, MeshMismatch};
pub use node::{Node, NodeKind};
pub use refit::Refit;
#[doc(hidden)]
pub use registry::__private;
pub use registry::VolumeKind;
pub use serialize::{TreeFileError, FORMAT_VERSION};
pub use split::{SplitRule, SAH_BINS};
pub use stats::{Level, Stats};
pub use traverse::Descend;
pub use volume::TreeVolume;
pub use wide::WideTree;
