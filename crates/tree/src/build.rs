//! Top-down construction, serial or parallel (the same tree either way, bit for bit).

use crate::split::{split, Work};
use crate::{Bvh, MeshFingerprint, Node, SplitRule, TreeVolume};
use obbtree_bv::fit::covariance::TriangleMoments;
use obbtree_bv::{BoundingVolume, Point, TriMesh};
use rayon::prelude::*;

/// Default [`BuildOptions::leaf_size`] of every volume type but the OBB, whose
/// [`TreeVolume::LEAF_SIZE`] is 9 (the measurements behind both are in `docs/performance.md`).
pub const DEFAULT_LEAF_SIZE: usize = 7;

/// How much larger than the volume around its largest triangle a large leaf must be to be split
/// ([`Builder::split_shrinks`]): a little above 1, for the rounding of two fits of the same
/// triangles.
const SHRINK: f64 = 1.01;

/// Subtrees with at least this many triangles build their two halves in parallel.
const PARALLEL_MIN_TRIANGLES: usize = 4096;

/// How to build a [`Bvh`].
#[derive(Debug)]
pub struct BuildOptions<V: BoundingVolume> {
    /// A node with at most this many triangles becomes a leaf (must be at least 1), unless it
    /// is large (see [`Self::large_leaf_ratio`]).
    pub leaf_size: usize,
    /// A node of at most [`Self::leaf_size`] triangles is still split (down to single
    /// triangles at most) while its volume's surface area exceeds `large_leaf_ratio²` times
    /// the area a leaf would have if the root's area were shared evenly among `n / leaf_size`
    /// leaves (while it is more than `large_leaf_ratio` times as large, in linear size, as a
    /// leaf of an evenly tessellated mesh), and the area of the volume around its largest
    /// triangle, which no split can go below, by more than 1% (copies of one triangle stay one
    /// leaf).
    /// `f64::INFINITY` turns this off.
    ///
    /// Why: the chance that a node is met by a query, another tree's node or a ray grows with
    /// its surface area (MacDonald & Booth, "Heuristics for ray tracing using space
    /// subdivision", 1990), and a leaf cannot be split by a descent, so one large leaf makes the
    /// other tree descend to every leaf of its own that it meets. Meshes of evenly sized
    /// triangles (scans) have no such leaves, and their trees do not change; CAD meshes, whose
    /// few long triangles span whole faces beside small detailed ones, have many (measurements
    /// in `docs/performance.md`).
    pub large_leaf_ratio: f64,
    /// How a node's triangles are divided between its children.
    pub split: SplitRule,
    /// How each node's volume is fitted to its triangles.
    pub method: V::Method,
    /// Build independent subtrees on rayon's thread pool (when it has more than one thread).
    /// The tree is identical either way.
    pub parallel: bool,
}

impl<V: BoundingVolume> Clone for BuildOptions<V> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<V: BoundingVolume> Copy for BuildOptions<V> {}

impl<V: TreeVolume> Default for BuildOptions<V> {
    /// Leaf size [`TreeVolume::LEAF_SIZE`], [`TreeVolume::LARGE_LEAF_RATIO`], [`SplitRule::default`],
    /// [`TreeVolume::default_method`], parallel.
    fn default() -> Self {
        Self {
            leaf_size: V::LEAF_SIZE,
            large_leaf_ratio: V::LARGE_LEAF_RATIO,
            split: SplitRule::default(),
            method: V::default_method(),
            parallel: true,
        }
    }
}

/// Why a tree could not be built.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum BuildError {
    /// `leaf_size` was 0.
    #[error("the leaf size must be at least 1")]
    ZeroLeafSize,
    /// `large_leaf_ratio` was negative or NaN.
    #[error("the large leaf ratio must be at least 0 (infinity turns it off), not {0}")]
    LargeLeafRatio(f64),
    /// The mesh has more triangles than `u32` positions can address.
    #[error("{0} triangles is more than a tree can index (at most {max})", max = u32::MAX)]
    TooManyTriangles(usize),
}

/// The working memory of a build, 152 bytes per triangle: each triangle's vertices and
/// moments, permuted as the tree is split. [`Bvh::build`] allocates it afresh;
/// [`Bvh::build_reusing`] keeps it for the next build, which then neither allocates it nor has
/// the system map (and zero) its pages again, a cost a build pays whenever the allocator hands
/// the freed buffers back between builds (see `benches/build.rs` and `docs/performance.md`).
#[derive(Debug, Default)]
pub struct BuildBuffers {
    tris: Vec<[Point; 3]>,
    moments: Vec<TriangleMoments>,
}

impl<V: BoundingVolume> Bvh<V> {
    /// Builds the tree over all triangles of `mesh`, top down: fit the node's volume to its
    /// triangles, stop at `leaf_size` triangles, otherwise split by `options.split` and recurse.
    ///
    /// Recursion depth is bounded by [`MAX_DEPTH`](crate::MAX_DEPTH) (see [`SplitRule`]), so no
    /// mesh can overflow the stack.
    pub fn build(mesh: &TriMesh, options: &BuildOptions<V>) -> Result<Self, BuildError> {
        Self::build_reusing(mesh, options, &mut BuildBuffers::default())
    }

    /// [`Self::build`] with its working memory taken from (and left in) `buffers`, for
    /// applications that build many trees. The same tree.
    pub fn build_reusing(
        mesh: &TriMesh,
        options: &BuildOptions<V>,
        buffers: &mut BuildBuffers,
    ) -> Result<Self, BuildError> {
        if options.leaf_size == 0 {
            return Err(BuildError::ZeroLeafSize);
        }
        if options.large_leaf_ratio.is_nan() || options.large_leaf_ratio < 0.0 {
            return Err(BuildError::LargeLeafRatio(options.large_leaf_ratio));
        }
        let n = mesh.triangles().len();
        if u32::try_from(n).is_err() {
            return Err(BuildError::TooManyTriangles(n));
        }
        let vertices = mesh.vertices();
        let corners = |t: &[u32; 3]| t.map(|i| vertices[i as usize]);
        // Per-triangle work, the same values either way.
        let BuildBuffers { tris, moments } = buffers;
        tris.clear();
        moments.clear();
        if options.parallel {
            tris.par_extend(mesh.triangles().par_iter().map(corners));
            moments.par_extend(tris.par_iter().map(TriangleMoments::of));
        } else {
            tris.extend(mesh.triangles().iter().map(corners));
            moments.extend(tris.iter().map(TriangleMoments::of));
        }
        let mut order: Vec<u32> = (0..n as u32).collect();
        let work = Work {
            tris,
            moments,
            order: &mut order,
            first: 0,
        };
        let mut nodes = Vec::with_capacity(expected_nodes(n, options.leaf_size));
        // The fingerprint (a hash of the whole mesh) does not depend on the tree: in parallel
        // builds it is computed beside the root's fit (serial, like the root's split).
        let fit_root = || V::fit_triangles_with_moments(work.tris, work.moments, options.method);
        let (bv, mesh_fingerprint) = if options.parallel {
            rayon::join(fit_root, || MeshFingerprint::of(mesh))
        } else {
            (fit_root(), MeshFingerprint::of(mesh))
        };
        let builder = Builder {
            options,
            large_leaf_area: large_leaf_area(&bv, n, options),
        };
        nodes.push(Node::internal(bv.clone(), 0));
        let (root, depth) = builder.descend(bv, work, 0, &mut nodes);
        nodes[0] = root;
        nodes.shrink_to_fit();
        Ok(Self {
            nodes,
            order,
            depth: depth as u32,
            mesh: mesh_fingerprint,
        })
    }
}

struct Builder<'o, V: BoundingVolume> {
    options: &'o BuildOptions<V>,
    /// Nodes whose surface area exceeds this are split even when they have few triangles.
    large_leaf_area: f64,
}

impl<V: BoundingVolume> Builder<'_, V> {
    /// Fits the node for `work` at `depth` and appends its descendants to `out` (the node itself
    /// has a slot reserved by its parent). Returns the node, for the caller to store in that
    /// slot, and the depth of its deepest leaf.
    fn subtree(&self, work: Work, depth: usize, out: &mut Vec<Node<V>>) -> (Node<V>, usize) {
        let bv = V::fit_triangles_with_moments(work.tris, work.moments, self.options.method);
        self.descend(bv, work, depth, out)
    }

    /// Whether the node of `triangles` with volume `bv` is a leaf: few triangles, and not a
    /// large leaf ([`BuildOptions::large_leaf_ratio`]) that a split can make smaller.
    fn is_leaf(&self, bv: &V, triangles: &[[Point; 3]]) -> bool {
        triangles.len() <= self.options.leaf_size
            && (triangles.len() == 1
                || bv.surface_area() <= self.large_leaf_area
                || !self.split_shrinks(bv, triangles))
    }

    /// Whether `bv`, around `triangles`, has a surface area more than [`SHRINK`] times that of
    /// the volume around its largest triangle alone: no split can make a child smaller than
    /// that, so a node of copies of one triangle stays one leaf.
    fn split_shrinks(&self, bv: &V, triangles: &[[Point; 3]]) -> bool {
        let largest = triangles
            .iter()
            .map(|t| V::fit_triangles(std::slice::from_ref(t), self.options.method).surface_area())
            .fold(0.0, f64::max);
        bv.surface_area() > SHRINK * largest
    }

    /// Like [`Self::subtree`], with the node's volume `bv` already fitted.
    ///
    /// Layout: an internal node's two children are pushed as a pair, then the left child's
    /// descendants, then the right child's. Parallel subtrees are built into their own vectors
    /// and appended in that same order, so the array does not depend on `parallel`.
    fn descend(
        &self,
        bv: V,
        mut work: Work,
        depth: usize,
        out: &mut Vec<Node<V>>,
    ) -> (Node<V>, usize) {
        if self.is_leaf(&bv, work.tris) {
            return (Node::leaf(bv, work.first, work.len() as u32), depth);
        }
        let axes = bv.split_axes_for(work.tris, work.moments, self.options.method);
        let mid = split(self.options.split, axes, &mut work, depth);
        let parallel = self.options.parallel
            && work.len() >= PARALLEL_MIN_TRIANGLES
            && rayon::current_num_threads() > 1;
        let (left, right) = work.split_at(mid);
        let pair = out.len();
        out.push(Node::internal(bv.clone(), 0));
        out.push(Node::internal(bv.clone(), 0));
        let (l, r, d) = if parallel {
            let ((l, dl), (mut r, dr, right_nodes)) = rayon::join(
                || self.subtree(left, depth + 1, out),
                || {
                    let capacity = expected_nodes(right.len(), self.options.leaf_size);
                    let mut right_nodes = Vec::with_capacity(capacity);
                    let (r, dr) = self.subtree(right, depth + 1, &mut right_nodes);
                    (r, dr, right_nodes)
                },
            );
            let offset = out.len() as u32;
            out.extend(right_nodes.into_iter().map(|node| node.shifted(offset)));
            r = r.shifted(offset);
            (l, r, dl.max(dr))
        } else {
            let (l, dl) = self.subtree(left, depth + 1, out);
            let (r, dr) = self.subtree(right, depth + 1, out);
            (l, r, dl.max(dr))
        };
        out[pair] = l;
        out[pair + 1] = r;
        (Node::internal(bv, pair as u32), d)
    }
}

/// The surface area beyond which a node of few triangles is split
/// ([`BuildOptions::large_leaf_ratio`]): the root's area shared evenly among `n / leaf_size`
/// leaves, times the ratio squared (areas grow with the square of linear size).
fn large_leaf_area<V: BoundingVolume>(root: &V, n: usize, options: &BuildOptions<V>) -> f64 {
    let ratio = options.large_leaf_ratio;
    let area = ratio * ratio * root.surface_area() * options.leaf_size as f64 / n.max(1) as f64;
    // 0 · ∞ (an infinite ratio over a root of no area, or the reverse): nothing is large.
    if area.is_nan() {
        f64::INFINITY
    } else {
        area
    }
}

/// The room reserved for the nodes of a tree over `n` triangles: as many as leaves filled to
/// half of `leaf_size` on average make, and never more than the `2n − 1` a tree can have. A
/// node array that outgrows it grows by doubling (moving its nodes); one reserved far beyond
/// it would only be address space, as its untouched pages are never mapped, but `2n − 1`
/// nodes of a large mesh can exceed what the system lets a process reserve.
fn expected_nodes(n: usize, leaf_size: usize) -> usize {
    let leaves = n.div_ceil(leaf_size.div_ceil(2));
    (2 * leaves).min(2 * n).saturating_sub(1)
}

impl<V> Node<V> {
    /// The node with its child index moved by `offset` (leaves are unchanged: their triangle
    /// positions are global already).
    fn shifted(mut self, offset: u32) -> Self {
        if !self.is_leaf() {
            self.start += offset;
        }
        self
    }
}
