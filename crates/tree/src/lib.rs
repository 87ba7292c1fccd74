//! Bounding-volume hierarchies over a [`TriMesh`](obbtree_bv::TriMesh)'s triangles, generic over
//! the volume: OBBTree (`Bvh<Obb>`), AABB tree, k-DOP tree, sphere tree.
//!
//! ```
//! use obbtree_bv::{Obb, Point, TriMesh};
//! use obbtree_tree::{BuildOptions, Bvh, NodeKind};
//!
//! let vertices = vec![Point::new(0.0, 0.0, 0.0), Point::new(1.0, 0.0, 0.0), Point::new(0.0, 1.0, 0.0)];
//! let mesh = TriMesh::new(vertices, vec![[0, 1, 2]; 20]).unwrap();
//! let bvh = Bvh::<Obb>::build(&mesh, &BuildOptions::default()).unwrap();
//! // Explicit-stack traversal through the public accessors (what the query crate does).
//! let mut stack = vec![0];
//! let mut seen = 0;
//! while let Some(i) = stack.pop() {
//!     match bvh.node(i).kind() {
//!         NodeKind::Internal { left, right } => stack.extend([right, left]),
//!         NodeKind::Leaf(_) => seen += bvh.leaf_triangles(i).len(),
//!     }
//! }
//! assert_eq!(seen, 20);
//! assert!(bvh.depth() <= obbtree_tree::MAX_DEPTH);
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
//! * [`serialize`]: `to_bytes`/`from_bytes`/`save`/`load`, versioned and checksummed, tied to
//!   the mesh by a [`MeshFingerprint`].
//!
//! # Containment
//!
//! Every node's volume contains every vertex of every triangle below it *exactly*, as the
//! volume's `contains_point(p, 0.0)` evaluates it: the fits and merges of `obbtree_bv` widen for
//! their own rounding. The tests check this with zero tolerance for every volume type and split
//! rule on random soups (coordinates from 1e-8 to 1e8), degenerate meshes, every bundled mesh,
//! and after refits.
//!
//! # Defaults, by measurement
//!
//! [`BuildOptions::default`]: [`SplitRule::Sah`], leaf size [`DEFAULT_LEAF_SIZE`] = 7, each
//! volume's [`TreeVolume::default_method`] (for OBBs the triangle covariance: per-node convex
//! hulls made the build ~15× slower for no tighter boxes), parallel.
//!
//! Query cost proxy: the OBBTree of `dragon_res3` (47,794 triangles) against itself in 24 poses
//! of heavy overlap, counting OBB–OBB tests and leaf triangle pairs of a dual descent
//! (triangle-covariance OBBs; fewer is better), with the memory of the tree:
//!
//! | split, leaf size | OBB tests | triangle pairs | sum | bytes/triangle |
//! |---|---:|---:|---:|---:|
//! | Gottschalk, 4 | 625k | 523k | 1.15M | 88.6 |
//! | Gottschalk, 6 | 524k | 1.00M | 1.53M | 61.2 |
//! | Gottschalk, 7 | 492k | 1.24M | 1.73M | 53.8 |
//! | Gottschalk, 8 | 467k | 1.49M | 1.96M | 48.4 |
//! | Median, 8 | 549k | 1.80M | 2.35M | 47.9 |
//! | SAH, 4 | 525k | 405k | 0.93M | 90.7 |
//! | SAH, 6 | 450k | 737k | 1.19M | 63.8 |
//! | **SAH, 7** | 423k | 935k | **1.36M** | **56.1** |
//! | SAH, 8 | 400k | 1.17M | 1.56M | 49.6 |
//!
//! SAH beats Gottschalk's rule by 20–25% at every leaf size (vertex-covariance boxes: the same
//! ranking). The leaf size is the smallest that keeps the OBBTree within 64 bytes per triangle
//! on every bundled mesh (an OBB node is 128 bytes): with SAH, leaf size 7 gives 54.5–61.9 B per
//! triangle (dragons 55.6–56.1, the 871k dragon 56.0), leaf size 6 up to 64.4. The price is build
//! time: SAH builds take ~1.6× Gottschalk's, so build-once workloads should save the tree
//! ([`Bvh::save`]); `SplitRule::Gottschalk` is the fast-build choice.
//!
//! Build time against parry3d-f64's `TriMesh::new` (its binned AABB tree, one triangle per
//! leaf): `cargo bench --bench build`. Measured only on the shared 2-core machine while other
//! jobs ran (load average 8–14), so absolute times are inflated several-fold and only same-run
//! ratios mean anything. Gottschalk's rule, leaf size 4: serial OBBTree build 2.0–2.6× parry's
//! time on the 11k–871k dragons. Defaults (SAH, leaf size 7): serial 2.2–2.5×, parallel 1.5–1.7×
//! (the parallel build was 1.4–1.5× faster than the serial one even under that load). About 65%
//! of an OBBTree build is the fit (covariance, eigenvectors and the two extent passes of
//! `Obb::from_axes`), 11% the splits. Accumulating only the six distinct covariance entries and
//! fitting the triangles in place (no vertex copy per node) cut the serial `dragon_res3` build
//! from 135 ms to 107 ms in one loaded run, but parry sped up as much between the runs
//! (58 → 47 ms): same-run ratios barely moved (serial 2.33× → 2.28×; `dragon_res2` serial 2.8×,
//! parallel 2.0× in a heavily loaded run). The build-time targets are still missed; in a profile
//! of the serial build the SAH binning costs about as much as the whole OBB fit. Memory of the tree beyond the mesh: OBBTree 55.6–56.1 B per
//! triangle with the defaults, parry's `Bvh::heap_memory_size()` 144 B per triangle.

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
