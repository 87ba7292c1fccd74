//! The wide tree: a 4-wide AABB tree for picking, every node holding its (up to) four
//! children's boxes, the triangles' vertices copied in leaf order. The layout is here, the
//! build from a binary AABB tree in `build.rs`; the ray walk is the picking query's (it needs the
//! query's ray and visitor), in `obbtree-query`.

mod build;

use obbtree_bv::{Aabb, Triangle};

/// Children per node.
pub const WIDTH: usize = 4;

/// A reference to a child: an internal node (index into [`WideTree::nodes`]) or a leaf (a run
/// of [`WideTree::triangles`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Child {
    /// Internal: node index. Leaf: first position.
    pub start: u32,
    /// Internal: 0. Leaf: number of triangles.
    pub count: u32,
}

/// An internal node: its children's boxes side by side (structure of arrays, so the four slab
/// tests run together: `lo[axis][child]`, `hi[axis][child]`), in `f32` rounded outwards so each
/// stored box contains the exact one, and the children. Two 64-byte cache lines. A node with
/// fewer than four children fills the rest with empty boxes (`lo = +inf`, `hi = -inf`), which
/// every ray misses.
#[derive(Clone, Debug, PartialEq)]
#[repr(C, align(64))]
pub struct Node {
    /// The children's lower corners, `lo[axis][child]`.
    pub lo: [[f32; WIDTH]; 3],
    /// The children's upper corners, `hi[axis][child]`.
    pub hi: [[f32; WIDTH]; 3],
    /// The children.
    pub children: [Child; WIDTH],
}

/// The picking layout of a [`Bvh<Aabb>`](crate::Bvh): the binary tree collapsed into a 4-wide one (each
/// node adopts its children's children, always opening the child of largest surface area, until
/// it has four), so a ray takes about half as many dependent steps through memory, each reading
/// one 128-byte record and testing four boxes together (stored in `f32` rounded outwards,
/// tested in `f64`). Each triangle's three vertices are copied in leaf order next to its mesh
/// index, so a leaf's triangles are one contiguous read instead of index lookups into the mesh.
/// Same answers as walking the [`Bvh`](crate::Bvh) it was made from (the same leaves and triangle tests;
/// the slightly larger boxes only cost a few more box tests). The collapse follows Wald et al.,
/// "Getting rid of packets: efficient SIMD single-ray traversal using multi-branching BVHs"
/// (IEEE RT 2008), and Wald, Woop, Benthin, Johnson & Ernst, "Embree: a kernel framework for efficient CPU
/// ray tracing" (SIGGRAPH 2014), whose 4-wide nodes this mirrors.
///
/// Memory: 128 bytes per node (about a third of the binary tree's internal nodes) and 40 bytes
/// per triangle (80 when the mesh's coordinates are not all `f32` values) ([`WideTree::memory_bytes`]); built in one pass over the source tree.
#[derive(Clone, Debug, PartialEq)]
pub struct WideTree {
    /// The box around every triangle (exact, `f64`).
    pub root_box: Aabb,
    /// The root: an internal node, or a leaf when the binary tree was one.
    pub root: Child,
    /// The internal nodes, the root's first.
    pub nodes: Vec<Node>,
    /// The triangle at each leaf position.
    pub triangles: Leaves,
}

/// The leaf triangles, in `f32` when every vertex coordinate of the mesh is an `f32` (as in
/// meshes read from single-precision files: half the memory, and the same `f64` values once
/// widened, so the same answers), in `f64` otherwise.
#[derive(Clone, Debug, PartialEq)]
pub enum Leaves {
    /// Every coordinate is an `f32`.
    Single(Vec<LeafTriangle<f32>>),
    /// Some coordinate is not.
    Double(Vec<LeafTriangle<f64>>),
}

/// A triangle's vertices and its mesh index, read together by a leaf (one cache miss, not two).
#[derive(Clone, Debug, PartialEq)]
pub struct LeafTriangle<T> {
    /// The vertices, `vertices[vertex][axis]`.
    pub vertices: [[T; 3]; 3],
    /// The triangle's index in the mesh.
    pub index: u32,
}

impl<T: Copy + Into<f64>> LeafTriangle<T> {
    /// The triangle in `f64` (exact).
    #[inline]
    pub fn triangle(&self) -> Triangle {
        let [a, b, c] = self
            .vertices
            .map(|v| obbtree_bv::Point::new(v[0].into(), v[1].into(), v[2].into()));
        Triangle { a, b, c }
    }
}

impl Leaves {
    /// How many leaf triangles there are.
    pub fn len(&self) -> usize {
        match self {
            Leaves::Single(t) => t.len(),
            Leaves::Double(t) => t.len(),
        }
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The mesh index of the triangle at leaf position `position`.
    #[inline]
    pub fn index(&self, position: usize) -> u32 {
        match self {
            Leaves::Single(t) => t[position].index,
            Leaves::Double(t) => t[position].index,
        }
    }

    /// The triangle at leaf position `position`, in `f64` (exact).
    #[inline]
    pub fn triangle(&self, position: usize) -> Triangle {
        match self {
            Leaves::Single(t) => t[position].triangle(),
            Leaves::Double(t) => t[position].triangle(),
        }
    }
}

impl WideTree {
    /// Every leaf (a run of [`WideTree::triangles`]), each once: the root when it is one, else
    /// the leaf children of the internal nodes, node by node.
    pub fn leaves(&self) -> impl Iterator<Item = Child> + '_ {
        let root = (self.root.count > 0).then_some(self.root);
        let below = self.nodes.iter().flat_map(|node| node.children);
        root.into_iter()
            .chain(below.filter(|child| child.count > 0))
    }

    /// Bytes held by the tree's arrays.
    pub fn memory_bytes(&self) -> usize {
        self.nodes.len() * std::mem::size_of::<Node>()
            + match &self.triangles {
                Leaves::Single(t) => t.len() * std::mem::size_of::<LeafTriangle<f32>>(),
                Leaves::Double(t) => t.len() * std::mem::size_of::<LeafTriangle<f64>>(),
            }
    }
}
