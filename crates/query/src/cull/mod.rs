//! View-frustum culling of a tree (*Real-Time Rendering*, 3rd ed. 2008, §16.14; Assarsson &
//! Möller 2000): the frustum is walked down the hierarchy; a node outside is dropped with its whole subtree, a
//! node inside is accepted with its whole subtree without further tests, and only the leaves
//! that straddle the frustum's boundary have their triangles classified one by one. A shape
//! has no tree: it is placed by its pose and classified whole ([`classify_shape`]), its one
//! feature 0 landing in one of the three lists.

mod shape;
mod triangle;
mod volume;

pub use shape::classify_shape;
pub use triangle::classify_triangle;
pub use volume::FrustumVolume;

use crate::error::Operand;
use crate::error::{check_translation, QueryError};
use crate::model::{Form, ShapeModel};
use crate::Model;
use obbtree_bv::intersect::containment::RegionRelation;
use obbtree_bv::intersect::frustum::{Frustum, FrustumError};
use obbtree_bv::intersect::plane::Plane;
use obbtree_bv::Pose;
use obbtree_tree::{Bvh, MAX_DEPTH};

/// The triangles of a mesh (indices in the mesh's order, each list ascending), or a shape's
/// one feature 0, by where they lie relative to a frustum. Conservative like the volume tests
/// ([`RegionRelation`]): `outside` triangles are provably outside (beyond one plane),
/// `inside` ones are contained in the closed frustum, and `intersecting` holds the rest (those
/// that cross the boundary, and a few outside near a frustum edge or corner).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Culled {
    /// Contained in the closed frustum.
    pub inside: Vec<u32>,
    /// Outside one of the frustum's planes.
    pub outside: Vec<u32>,
    /// Neither proven.
    pub intersecting: Vec<u32>,
    /// Nodes whose volume was classified (a measure of the work saved over
    /// classifying every triangle; 0 for a shape).
    pub nodes_tested: usize,
}

/// Classifies every triangle of `model`'s mesh (placed at `pose`) against `frustum` (world
/// frame) through the model's tree; for a shape, the placed shape as a whole
/// ([`classify_shape`]; an error, [`QueryError::ShapePlacement`], when it cannot be placed). The frustum's planes are moved into the mesh frame once;
/// the mesh is never transformed. An error when the pose translates beyond
/// [`MAX_COORDINATE`](obbtree_bv::MAX_COORDINATE) or a plane degenerates in the mesh frame.
///
/// Equal to classifying each triangle alone with [`classify_triangle`] (up to the rounding of a
/// vertex lying exactly on a plane): a volume inside the frustum has all its triangles inside,
/// a volume outside a plane has all of them outside it.
pub fn cull<V: FrustumVolume>(
    model: &Model<V>,
    pose: &Pose,
    frustum: &Frustum,
) -> Result<Culled, QueryError> {
    check_translation(pose)?;
    let model = match model.form() {
        Form::Mesh(m) => m,
        Form::Shape(s) => return cull_shape(s, pose, frustum),
    };
    let local = to_mesh_frame(frustum, pose)?;
    let (mesh, tree) = (model.mesh(), model.tree());
    let mut culled = Culled::default();
    let mut stack = Vec::with_capacity(MAX_DEPTH + 1);
    stack.push(0usize);
    while let Some(index) = stack.pop() {
        let node = tree.node(index);
        culled.nodes_tested += 1;
        match node.bv().classify(&local) {
            RegionRelation::Outside => culled
                .outside
                .extend_from_slice(triangles_below(tree, index)),
            RegionRelation::Inside => culled
                .inside
                .extend_from_slice(triangles_below(tree, index)),
            RegionRelation::Intersecting => match node.children() {
                Some([left, right]) => stack.extend([right, left]),
                None => {
                    for &t in tree.leaf_triangles(index) {
                        let list = match classify_triangle(&local, &mesh.triangle(t as usize)) {
                            RegionRelation::Inside => &mut culled.inside,
                            RegionRelation::Outside => &mut culled.outside,
                            RegionRelation::Intersecting => &mut culled.intersecting,
                        };
                        list.push(t);
                    }
                }
            },
        }
    }
    for list in [
        &mut culled.inside,
        &mut culled.outside,
        &mut culled.intersecting,
    ] {
        list.sort_unstable();
    }
    Ok(culled)
}

/// The mesh indices of the triangles below node `index`: one run of the triangle order, from
/// the first position of its leftmost leaf to the last of its rightmost leaf (`O(depth)`).
fn triangles_below<V>(tree: &Bvh<V>, index: usize) -> &[u32] {
    let extreme = |side: usize| {
        let mut i = index;
        while let Some(children) = tree.node(i).children() {
            i = children[side];
        }
        tree.node(i).triangle_range().expect("a leaf")
    };
    &tree.triangle_order()[extreme(0).start..extreme(1).end]
}

/// The frustum seen from the mesh placed at `pose`: each world plane `n·x + d = 0` becomes
/// `(Rᵀn)·y + (n·t + d) = 0` for `x = R y + t`.
fn to_mesh_frame(frustum: &Frustum, pose: &Pose) -> Result<Frustum, FrustumError> {
    let planes = frustum.planes().map(|p| {
        Plane::new(
            pose.inverse_transform_vector(&p.normal),
            p.normal.dot(pose.translation()) + p.d,
        )
    });
    Frustum::from_planes(planes)
}

/// [`cull`] for a shape: placed in the world by `pose`, classified by [`classify_shape`]
/// against the world frustum, its one feature 0 in the list that says where it lies.
fn cull_shape<V>(
    shape: &ShapeModel<V>,
    pose: &Pose,
    frustum: &Frustum,
) -> Result<Culled, QueryError> {
    let placed = shape
        .shape()
        .place(pose)
        .map_err(|source| QueryError::ShapePlacement {
            which: Operand::Model,
            source,
        })?;
    let mut culled = Culled::default();
    match classify_shape(frustum, &placed) {
        RegionRelation::Inside => culled.inside.push(0),
        RegionRelation::Outside => culled.outside.push(0),
        RegionRelation::Intersecting => culled.intersecting.push(0),
    }
    Ok(culled)
}
