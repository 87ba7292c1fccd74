//! Whether a point lies in the closed solid bounded by a closed mesh placed by a pose: the parity
//! of the exact crossings of a ray from the point with the placed triangles (placed as the
//! queries place them, `Pose::transform_point`), each decided in rationals by
//! [`obbtree_compare::rays::crossing`]. A ray through an edge or a vertex, or in a triangle's
//! plane, is replaced by the next of a fixed list of directions; a point on a triangle is inside
//! (closed sets). No code is shared with `contains_point` (the tree's segment culling, Shewchuk's
//! predicates, its own choice of directions).

use super::exact::{cross, q3, sub};
use num_traits::Zero;
use obbtree::bv::{Point, Pose, Ray, TriMesh, Triangle, Vector};
use obbtree_compare::rays::{crossing, Crossing, Place};

/// Whether `tri` has zero area, exactly.
fn flat(tri: &Triangle) -> bool {
    let [a, b, c] = tri.vertices().map(|v| q3(&v));
    cross(&sub(&b, &a), &sub(&c, &a)).iter().all(Zero::is_zero)
}

/// The `k`-th direction of the fixed list: generic directions (no two coplanar with a grid
/// axis), so a ray rarely grazes an edge of a mesh made on a grid.
fn direction(k: u32) -> Vector {
    let x = f64::from(k);
    Vector::new(
        0.577_31 + 0.131 * x,
        -0.596_77 + 0.377 * x.sin(),
        0.557_17 - 0.219 * x.cos(),
    )
}

/// `Some(inside)` for a closed `mesh` placed by `pose` and a point `p` (world frame); `None`
/// when each of 32 directions grazes an edge, a vertex or a plane (never seen).
pub fn inside(mesh: &TriMesh, pose: &Pose, p: &Point) -> Option<bool> {
    let placed: Vec<Triangle> = (0..mesh.triangles().len())
        .map(|t| {
            let t = mesh.triangle(t);
            Triangle::new(
                pose.transform_point(&t.a),
                pose.transform_point(&t.b),
                pose.transform_point(&t.c),
            )
        })
        .filter(|t| !flat(t))
        .collect();
    'directions: for k in 0..32 {
        let ray = Ray::new(*p, direction(k));
        let mut count = 0usize;
        for tri in &placed {
            match crossing(&ray, tri) {
                Crossing::Through { t, .. } if t.is_zero() => return Some(true),
                Crossing::Through {
                    at: Place::Interior,
                    ..
                } => count += 1,
                Crossing::Through { .. } | Crossing::InPlane => continue 'directions,
                Crossing::Misses => {}
            }
        }
        return Some(count % 2 == 1);
    }
    None
}
