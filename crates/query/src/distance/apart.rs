//! Meshes far apart: the closest pair certified by an empty slab, without a walk.
//!
//! If the slab between two parallel planes, one through each point of a triangle pair's
//! closest points and both orthogonal to the line joining them, holds no vertex of either mesh,
//! the slab separates the meshes and no pair can be nearer than its width: the pair is the
//! closest (the distance between convex sets is the largest gap between their projections on a
//! direction, Ericson, *Real-Time Collision Detection* (2005) §5.2.1; a mesh's projection on a
//! direction is its vertices'). That happens exactly when the closest points of the two
//! meshes' convex hulls lie on the meshes, as they often do for meshes apart by about their
//! size (how often is in `docs/performance.md`).
//!
//! The candidate pair is found from the hulls' closest points, by GJK ([`gjk::closest_points`])
//! over each mesh's hull sample (the extreme vertices along a few thousand directions, kept
//! with the model's convex hull: a brute-force support mapping over a sample small enough to stay in
//! cache, where an exact one over the whole mesh cost far more for the same pairs; see
//! `docs/performance.md`), and the triangles nearest them; the slab is then measured exactly
//! (the extreme vertices by [`highest`], with a bound on the rounding of the projections and of
//! B's placement). A slab that does not certify leaves the candidate as the walk's first best
//! pair.

use super::closest::Closest;
use super::offer_pair;
use super::slab::Slab;
use crate::kernel::descent::best_first::Visitor;
use crate::kernel::place;
use crate::model::index::support::{farthest, highest, nearest_triangle};
use crate::MeshModel;
use obbtree_bv::distance::gjk;
use obbtree_bv::distance::rss_rss::{self, PlacedRss};
use obbtree_bv::{BoundingVolume, Point, Pose, Vector};
use obbtree_tree::TreeVolume;

/// What [`settle`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Hulls {
    /// The best pair is the answer (the slab's width the certified lower bound), or it
    /// intersects.
    Settled,
    /// The meshes' bounding volumes are apart but no slab settled the search: the best pair is
    /// the one nearest the hulls' closest points, when GJK found them.
    Apart,
    /// The meshes' bounding volumes may meet: nothing was tried.
    MayMeet,
}

/// Settles `closest`'s search of `a` against `b` (placed by `b_in_a`) when the meshes are
/// separated by a slab as wide as its best pair's distance (up to the search's tolerances),
/// trying the best pair it has, then the pair nearest the hulls' closest points.
pub(crate) fn settle<V: TreeVolume>(
    a: &MeshModel<V>,
    b: &MeshModel<V>,
    b_in_a: &Pose,
    closest: &mut Closest,
) -> Hulls {
    if closest.done() {
        return Hulls::Settled;
    }
    if !roots_apart(a, b, b_in_a) {
        return Hulls::MayMeet;
    }
    if closest.best.is_some() && certify(a, b, b_in_a, closest) {
        return Hulls::Settled;
    }
    let Some(pair) = hulls_pair(a, b, b_in_a) else {
        return Hulls::Apart;
    };
    if closest.best.is_some_and(|best| best.pair == pair) {
        return Hulls::Apart;
    }
    offer_pair(closest, a, b, b_in_a, Some(pair));
    if closest.done() || certify(a, b, b_in_a, closest) {
        Hulls::Settled
    } else {
        Hulls::Apart
    }
}

/// Whether the rectangle swept spheres around the two meshes are apart: hulls that may meet
/// cannot be separated by a slab.
fn roots_apart<V: TreeVolume>(a: &MeshModel<V>, b: &MeshModel<V>, b_in_a: &Pose) -> bool {
    let (a_root, b_root) = (&a.distance_index().rss[0], &b.distance_index().rss[0]);
    let placed = PlacedRss::new(b_root, b_in_a.rotation(), b_in_a.translation());
    rss_rss::lower_bound(a_root, &placed) > 0.0
}

/// The triangle pair `[of A, of B]` nearest the closest points of the hulls of the meshes' hull
/// samples as GJK finds them, or `None` when GJK finds the hulls meeting or breaks down.
fn hulls_pair<V: TreeVolume>(
    a: &MeshModel<V>,
    b: &MeshModel<V>,
    b_in_a: &Pose,
) -> Option<[u32; 2]> {
    let rotation = b_in_a.rotation();
    let (sample_a, sample_b) = (&a.hull().sample, &b.hull().sample);
    let support_a = |d: &Vector| farthest(sample_a, d).vertex;
    let support_b = |d: &Vector| place(b_in_a, &farthest(sample_b, &rotation.tr_mul(d)).vertex);
    let guess = a.bounds().center() - place(b_in_a, &b.bounds().center());
    let (near_a, near_b) = gjk::closest_points(support_a, support_b, &guess)?;
    let in_b = Point::from(rotation.tr_mul(&(near_b.coords - b_in_a.translation())));
    let (ia, ib) = (nearest_triangle(a, &near_a), nearest_triangle(b, &in_b));
    Some([a.tree().triangle_order()[ia], b.tree().triangle_order()[ib]])
}

/// Whether the slab orthogonal to the best pair's direction, between the extreme vertices of A
/// and of B along it, certifies the best pair: its width, a lower bound on the distance, is
/// enough to prune every other pair. Then tells `closest` that width.
fn certify<V>(a: &MeshModel<V>, b: &MeshModel<V>, b_in_a: &Pose, closest: &mut Closest) -> bool {
    let n = closest.direction();
    if n == Vector::zeros() {
        return false;
    }
    let width = slab_width(a, b, b_in_a, &n);
    if !closest.prunes(width) {
        return false;
    }
    closest.pruned(width);
    true
}

/// A lower bound on the distance between the meshes of `a` and of `b` (placed by `b_in_a`) from
/// their projections on the unit vector `n` (A's frame), B's extreme vertex found in its own
/// frame ([`Slab`]).
fn slab_width<V>(a: &MeshModel<V>, b: &MeshModel<V>, b_in_a: &Pose, n: &Vector) -> f64 {
    let slab = Slab::new(a, b, b_in_a, n);
    slab.width(
        highest(a, &slab.along_a).projection,
        highest(b, &slab.along_b).projection,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::distance::DistanceRequest;
    use crate::test_meshes::closed_box;
    use obbtree_bv::distance::tri_tri;
    use obbtree_bv::TriMesh;

    /// The least float distance over every triangle pair, B placed by `pose`.
    fn brute_force(a: &TriMesh, b: &TriMesh, pose: &Pose) -> f64 {
        let placed: Vec<_> = (0..b.triangles().len())
            .map(|j| crate::kernel::leaf::placed_triangle(b, j, pose))
            .collect();
        (0..a.triangles().len())
            .flat_map(|i| placed.iter().map(move |q| (i, q)))
            .map(|(i, q)| tri_tri::distance(&a.triangle(i), q).distance)
            .fold(f64::INFINITY, f64::min)
    }

    /// Runs `settle` from no pair (or `hint`): whether it settled, and the best pair's distance.
    fn settled(a: &TriMesh, b: &TriMesh, pose: &Pose, hint: Option<[u32; 2]>) -> (bool, f64) {
        let (ma, mb): (MeshModel, MeshModel) = (
            MeshModel::new(a.clone()).unwrap(),
            MeshModel::new(b.clone()).unwrap(),
        );
        let mut closest = Closest::for_request(&DistanceRequest::default(), &ma);
        offer_pair(&mut closest, &ma, &mb, pose, hint);
        let done = settle(&ma, &mb, pose, &mut closest) == Hulls::Settled;
        (
            done,
            closest.best.map_or(f64::INFINITY, |b| b.found.distance),
        )
    }

    #[test]
    fn convex_meshes_apart_are_settled_by_the_slab() {
        let (a, b) = (closed_box([1.0; 3]), closed_box([0.5; 3]));
        for (k, pose) in [
            Pose::new([3.0, 0.25, 0.5], [0.0, 0.0, 0.0]).unwrap(),
            Pose::new([2.0, -3.0, 1.5], [0.3, -1.1, 0.7]).unwrap(),
            Pose::new([-4.0, 0.5, 0.5], [0.0, 0.0, std::f64::consts::FRAC_PI_4]).unwrap(),
        ]
        .iter()
        .enumerate()
        {
            let (done, d) = settled(&a, &b, pose, None);
            let want = brute_force(&a, &b, pose);
            assert!(done, "pose {k}: not settled");
            assert!(
                (d - want).abs() <= 1e-12 * (want + 5.0),
                "pose {k}: {d} against {want}"
            );
        }
    }

    /// Two triangles far apart along x, and a triangle of B facing the gap between them: the
    /// hulls' closest points lie on the hull's bridge, on no triangle, and no slab separates the
    /// meshes as wide as the closest pair's distance.
    #[test]
    fn a_hull_bridging_a_gap_is_left_to_the_walk() {
        let a = TriMesh::new(
            vec![
                Point::new(-5.0, 0.0, 0.0),
                Point::new(-4.0, 0.0, 0.0),
                Point::new(-5.0, 0.0, 1.0),
                Point::new(4.0, 0.0, 0.0),
                Point::new(5.0, 0.0, 0.0),
                Point::new(5.0, 0.0, 1.0),
            ],
            vec![[0, 1, 2], [3, 4, 5]],
        )
        .unwrap();
        let b = TriMesh::new(
            vec![
                Point::new(0.0, 0.0, 0.0),
                Point::new(0.25, 0.0, 0.0),
                Point::new(0.0, 0.0, 0.25),
            ],
            vec![[0, 1, 2]],
        )
        .unwrap();
        let pose = Pose::from_translation([0.0, 1.0, 0.0]).unwrap();
        let (done, _) = settled(&a, &b, &pose, None);
        assert!(!done);
    }

    /// A vertex of A 1e-11 inside the slab of the hinted pair (parallel triangles one above the
    /// other): the hint is not certified, and the pair the hulls give is.
    #[test]
    fn a_vertex_inside_the_slab_refuses_the_pair() {
        let a = TriMesh::new(
            vec![
                Point::new(0.0, 0.0, 0.0),
                Point::new(1.0, 0.0, 0.0),
                Point::new(0.0, 1.0, 0.0),
                Point::new(5.0, 0.0, 1e-11),
                Point::new(6.0, 0.0, 1e-11),
                Point::new(5.0, 1.0, 1e-11),
            ],
            vec![[0, 1, 2], [3, 4, 5]],
        )
        .unwrap();
        let b = TriMesh::new(
            vec![
                Point::new(-1.0, -1.0, 0.0),
                Point::new(7.0, -1.0, 0.0),
                Point::new(-1.0, 7.0, 0.0),
            ],
            vec![[0, 1, 2]],
        )
        .unwrap();
        let pose = Pose::from_translation([0.0, 0.0, 1.0]).unwrap();
        let (ma, mb): (MeshModel, MeshModel) =
            (MeshModel::new(a).unwrap(), MeshModel::new(b).unwrap());
        let mut closest = Closest::for_request(&DistanceRequest::default(), &ma);
        offer_pair(&mut closest, &ma, &mb, &pose, Some([0, 0]));
        assert!(
            !certify(&ma, &mb, &pose, &mut closest),
            "the hint's slab holds a vertex"
        );
        assert_eq!(settle(&ma, &mb, &pose, &mut closest), Hulls::Settled);
        assert_eq!(closest.best.unwrap().pair, [1, 0]);
    }
}
