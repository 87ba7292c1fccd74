//! The same queries through parry3d-f64, for `obbtree compare`, the demo, the comparison tests
//! and the benches: mesh and pose conversion (parry uses glam types) and parry's way of
//! enumerating intersecting triangle pairs of two meshes (its BVH's `leaf_pairs` with B's boxes
//! moved into A's frame, then its triangle–triangle `intersection_test` per candidate); picking
//! agreement in [`rays`].
//!
//! ```
//! use obbtree_bv::{Point, Pose, TriMesh};
//! let square = TriMesh::new(
//!     vec![Point::new(0.0, 0.0, 0.0), Point::new(1.0, 0.0, 0.0), Point::new(0.0, 1.0, 0.0)],
//!     vec![[0, 1, 2]],
//! )
//! .unwrap();
//! let parry_mesh = obbtree_compare::trimesh(&square).unwrap();
//! let turned = Pose::new([0.25, 0.25, -0.5], [1.5707963267948966, 0.0, 0.0]).unwrap();
//! let pairs = obbtree_compare::pairs(&parry_mesh, &parry_mesh, &obbtree_compare::pose(&turned), false);
//! assert_eq!(pairs, [[0, 0]]);
//! ```

pub mod rays;

use obbtree_bv::{Pose, TriMesh};
use parry3d_f64::bounding_volume::BoundingVolume;
use parry3d_f64::math::{Pose as PPose, Rotation, Vector as PVec};
use parry3d_f64::shape::TriMesh as PTriMesh;

/// The mesh as a parry TriMesh (same vertices and triangles, so indices agree), or parry's
/// reason for refusing it.
pub fn trimesh(m: &TriMesh) -> Result<PTriMesh, parry3d_f64::shape::TriMeshBuilderError> {
    let v = m
        .vertices()
        .iter()
        .map(|p| PVec::new(p.x, p.y, p.z))
        .collect();
    PTriMesh::new(v, m.triangles().to_vec())
}

/// Our pose as parry's (the rotation goes through a quaternion, so parry places B's vertices
/// within rounding of where obbtree places them, not bit for bit).
pub fn pose(p: &Pose) -> PPose {
    let q = nalgebra::UnitQuaternion::from_rotation_matrix(&p.isometry().rotation);
    let t = p.translation();
    PPose::from_parts(
        PVec::new(t.x, t.y, t.z),
        Rotation::from_xyzw(q.i, q.j, q.k, q.w).normalize(),
    )
}

/// Intersecting pairs `[a, b]` by parry, sorted; with `first`, stops at the first one.
pub fn pairs(a: &PTriMesh, b: &PTriMesh, pose: &PPose, first: bool) -> Vec<[u32; 2]> {
    let check = |na: &parry3d_f64::partitioning::BvhNode,
                 nb: &parry3d_f64::partitioning::BvhNode| {
        na.aabb().intersects(&nb.aabb().transform_by(pose))
    };
    let mut out = Vec::new();
    for (i, j) in a.bvh().leaf_pairs(b.bvh(), check) {
        let (ta, tb) = (a.triangle(i), b.triangle(j));
        let test = parry3d_f64::query::intersection_test(&PPose::IDENTITY, &ta, pose, &tb);
        if test.is_ok_and(|t| t.intersecting) {
            out.push([i, j]);
            if first {
                break;
            }
        }
    }
    out.sort_unstable();
    out
}
