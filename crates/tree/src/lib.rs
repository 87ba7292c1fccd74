//! Bounding-volume hierarchies over a [`TriMesh`](obbtree_bv::TriMesh)'s triangles, generic over
//! the volume: OBBTree (`Bvh<Obb>`), AABB tree, k-DOP tree, sphere tree, RSS tree (`Bvh<Rss>`).
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
//! [`BuildOptions::default`]: [`SplitRule::Sah`], each volume's [`TreeVolume::LEAF_SIZE`] (9 for
//! OBBs, [`DEFAULT_LEAF_SIZE`] = 7 for the others), each volume's
//! [`TreeVolume::default_method`] (for OBBs the triangle covariance: per-node convex hulls made
//! the build ~15× slower for no tighter boxes), parallel.
//!
//! OBB leaves of 9 (session 6): once the collision leaf test ran its box tests without branches
//! (a bit mask per run of triangles) and its plane sides without a branch per vertex, a leaf
//! triangle pair cost less than the proxy below assumes. Leaf size 9 against 7, interleaved
//! `collide_with` runs (`All`, first poses of the bench sets, minimum of 6): dragon_res3 48.4 →
//! 46.6 ms (−4%), dragon_res2 56.2 → 54.0 ms (−4%), gears 69.5 → 71.8 ms (+3%); the serial
//! build 12% faster on dragon_res4 and 5% on the 871k dragon (fewer nodes to fit), and 45 B per
//! triangle instead of 56. The picking tree keeps leaves of 7: on its AABB tree, leaves of 9
//! made dragon_res2 rays ~20% slower (0.83 against 0.69 µs), 8 the same as 7.
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
//! on every bundled mesh (an OBB node is 128 bytes): with SAH, leaf size 7 gave 54.5–61.9 B per
//! triangle, leaf size 6 up to 64.4. (This table predates the build-speed work below; its
//! longest-axis SAH moves the collide cost by under 1% and gives 55.0–59.4 B per triangle at leaf
//! size 7: dragons 55.8–56.9, the 871k dragon 56.2.) SAH builds took ~1.6× Gottschalk's before
//! that work; build-once workloads should save the tree ([`Bvh::save`]).
//!
//! The fit method against collide time. Every OBB fit splits a node along the axes of its triangle
//! covariance box ([`BoundingVolume::split_axes_for`](obbtree_bv::BoundingVolume::split_axes_for)),
//! so the fits change the boxes a tree stores but not which triangles share a node. Until session 9
//! each fit split along its own boxes' axes, and this table (session 6; `collide_with`, one thread,
//! `All`, the first poses of the bench sets, minimum of 3 runs, identical pair sets) kept the
//! triangle covariance the default because no other fit won on every mesh:
//!
//! | fit (own split axes) | dragon_res3, 40 poses | dragon_res2, 20 poses | gears, 200 poses | building both dragon_res3 trees (parallel) |
//! |---|---:|---:|---:|---:|
//! | triangle covariance (default) | 56.9 ms | 62.0 ms | 70.6 ms | 40 ms |
//! | vertex covariance | 55.4 ms | 62.8 ms | 91.3 ms | — |
//! | hull covariance | 55.7 ms | — | — | 446 ms |
//! | minimum volume | 48.8 ms (−14%) | 57.9 ms (−7%) | 106.5 ms (+51%) | 1,797 ms |
//!
//! The gears' loss came from the partition, not the boxes: a gear's minimum-volume box turns almost
//! freely about the gear's axis (nearly equal volumes), so splitting across its longest axis cut
//! the teeth into leaves that meet more of the other gear's leaves. Counted on the gears (side gear
//! as A, `obbtree collide`'s 200 poses and ten warm-up queries, `All`): with minimum-volume boxes
//! split along their own axes, 599k OBB tests, 694k leaf box tests and 2.65M exact triangle tests;
//! split along the covariance axes, 518k, 434k and 1.97M, against 568k, 429k and 1.96M for the
//! default tree. On dragon_res2 (50 poses and the ten warm-up queries) the OBB tests go from 1.31M
//! (default) to 1.08M (minimum volume, covariance split; 0.96M with its own split). The vertex and
//! hull covariance fits gain from the covariance split as well (gears: 2.37M → 2.12M and 2.25M →
//! 1.99M exact tests). Minimum-volume trees now beat the default on every bench mesh (session 9,
//! interleaved `obbtree collide` runs, one thread, `All`: dragon_res2 200 poses 349–365 → 317–347
//! ms, gears 62–65 → 57–58 ms; criterion: dragon_res2 367.8 → 340.7 ms, dragon_res3 500 poses 372.9
//! → 349.7 ms, gears 60.3 → 57.2 ms, and `First` −12 to −26%), at ~20 times the build time (both
//! dragon_res2 trees: 0.22 s → 5.0 s on two threads). The default stays the triangle covariance,
//! which builds fastest; for meshes whose trees are built once,
//! [`ObbFit::MinVolume`](obbtree_bv::ObbFit::MinVolume) (saved with [`Bvh::save`], or `obbtree
//! collide --fit min-volume`) answers queries ~10% faster.
//!
//! Build time against parry3d-f64's `TriMesh::new` (its binned AABB tree, one triangle per
//! leaf): `cargo bench --bench build`. Before the build-speed work (quiet machine, `dragon_res3`):
//! serial OBBTree 53.6 ms, parallel 32.8 ms, parry 23.3 ms. What the build does now, and what
//! each step saved in instructions (callgrind, serial `dragon_res4` build, 11k triangles, total
//! 131.0 M before):
//!
//! | step | build instructions | collide cost |
//! |---|---:|---:|
//! | before | 131.0 M | 203.69 M |
//! | SAH: centroids projected once per node, bins merged with plain min/max (same tree) | 118.5 M | same tree |
//! | [`TriangleMoments`](obbtree_bv::fit::covariance::TriangleMoments) once per triangle; a node's covariance is their sum (same fit as `Obb::fit_triangles`) | 104.2 M | 203.68 M |
//! | covariance boxes sized in one pass, padded by a rounding bound instead of a second widening pass (boxes a few ulps larger) | 88.0 M | 203.69 M |
//! | SAH bins an OBB's longest axis alone | 70.6 M | 204.82 M (+0.55%) |
//! | each split rule partitions by keys computed once per triangle (same tree) | 70.0 M | same tree |
//! | *second round (session 4), measured in a separate harness crate (71.2 M at its start):* | | |
//! | OBB extents pass on plain arrays (the same bits as `tr_mul` + `inf`/`sup`); SAH bin helpers inlined | 61.4 M | same tree |
//! | SAH records each triangle's bin while binning, and the partition sorts by it (3.4 M fewer, measured after an eigen-solver step that was not kept) | ≈ 58 M | same tree |
//! | *session 5, measured on serial builds in a harness crate:* | | |
//! | covariance frames by the closed-form solver of [`obbtree_bv::fit::eigen3`] instead of nalgebra's iterative `SymmetricEigen` (~1,800 instructions per node, a latency-bound chain of square roots and divisions) | **−13.5%** (dragon_res4: 38.9 M → 33.6 M per build) | 313.28 M → 313.24 M (−0.01%) |
//! | no Gram–Schmidt pass after it (its frame is orthonormal to rounding by construction): 3–4% less time | — | 313.24 M (same) |
//!
//! Tried in session 5 and not kept (same trees): one pair of SAH buffers (projections, bin ids)
//! reused by every node of a subtree instead of two allocations per node. The allocations it
//! saves (~3 M instructions of `malloc`/`free` per serial `dragon_res4` build) were outweighed by
//! the less tight fill loops (`extend` per axis: +0.2 M net; `resize` then indexed writes:
//! +0.8 M), and wall time did not improve (`dragon_res2` serial 101.1/101.3 ms before,
//! 101.5/100.5 and 105.1/105.5 ms after, interleaved, parry 109–113 ms in the same runs).
//!
//! Every tree of the second round is identical bit for bit to the first round's (node array and
//! triangle order compared on all bundled meshes and the 871k dragon, serial and parallel).
//!
//! Parallel builds also gather the triangles and compute their moments on rayon (the same
//! values, so still the serial tree bit for bit), and hash the mesh's fingerprint beside the
//! root's fit.
//!
//! Collide cost: callgrind instructions in `obbtree_query::collide` for
//! `obbtree collide dragon_res3 dragon_res3 --mode all` over the first 40 poses of
//! `benches/data/poses_dragon_res3_500.json` (identical pair sets throughout). On `dragon_res2`
//! (first 20 of its 200 poses) the longest-axis SAH costs +0.14% (390.9 M → 391.5 M). Trees that
//! differ only by tie-breaking can move this cost by more than that (flipping the sign
//! convention of every covariance eigenvector cost +3.6% once), so a change of eigen solver is
//! checked on the collide cost: the closed-form solver's trees differ from nalgebra's in the
//! last bits of their frames and cost the same to within 0.01% (dragon_res3 40 poses
//! 313.28 M → 313.24 M, dragon_res2 20 poses 343.60 M → 343.59 M, gears 200 poses 705.83 M →
//! 705.80 M; identical pair sets), while serial builds take 12–19% less time (dragon_res4
//! 5.73 → 4.64 ms, dragon_res3 26.5 → 21.8 ms, dragon_res2 120.8 → 101.5 ms, the 871k dragon
//! 655 → 575 ms; minimum of 3–10 builds, no LTO), and 3–4% less again without the Gram–Schmidt
//! pass that used to follow the solver (dragon_res4 4.60 → 4.40 ms, 871k 587 → 566 ms). AABB, sphere and k-DOP trees do not use it and
//! are bit for bit the trees of before, so picking is unaffected.
//!
//! Same-run build times against parry are in the README ("Performance: building trees"). The
//! remaining profile of a serial OBBTree build (perf, `dragon_res3`, session 4): SAH projection,
//! binning and partition ~27%, the box extents pass ~15%, nalgebra's 3×3 eigen solver ~16–18%
//! (since replaced, see above), moments sum ~6%, allocation and page faults ~5%.
//! Memory of the tree beyond the
//! mesh: OBBTree 55.8–56.9 B per triangle on the dragons with the defaults, parry's
//! `Bvh::heap_memory_size()` 144 B per triangle.

#![forbid(unsafe_code)]

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

pub use build::{BuildBuffers, BuildError, BuildOptions, DEFAULT_LEAF_SIZE};
pub use bvh::{Bvh, MAX_DEPTH};
pub use fingerprint::{MeshFingerprint, MeshMismatch};
pub use node::{Node, NodeKind};
pub use refit::Refit;
pub use serialize::{LoadError, FORMAT_VERSION};
pub use split::{SplitRule, SAH_BINS};
pub use stats::{Level, Stats};
pub use traverse::Descend;
pub use volume::TreeVolume;
