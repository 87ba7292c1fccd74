//! An exact oracle for collision on meshes too large for the all-pairs brute force: the
//! triangles' bounding boxes (min/max of the corners, exact) are swept along x, so only pairs
//! whose boxes cannot meet are skipped, and every remaining pair goes through the exact
//! predicate (the engine's `tri_tri_exact`: this oracle checks the traversal; the tests check its
//! predicate against the independent `oracles::sat` on the candidate pairs).

use obbtree::bv::intersect::tri_tri_exact;
use obbtree::bv::{Aabb, Pose, TriMesh, Triangle};

/// Pairs `[i, j]`, `i < j`, of `tris` that `keep(i, j)` accepts and whose bounding boxes meet
/// (compared exactly: any other pair is disjoint), unsorted.
pub fn candidates(tris: &[Triangle], keep: impl Fn(usize, usize) -> bool) -> Vec<[u32; 2]> {
    let boxes: Vec<Aabb> = tris
        .iter()
        .map(|t| Aabb::from_points(&[t.a, t.b, t.c]))
        .collect();
    let mut order: Vec<usize> = (0..tris.len()).collect();
    order.sort_by(|&i, &j| boxes[i].mins.x.total_cmp(&boxes[j].mins.x));
    let mut pairs = Vec::new();
    for (k, &i) in order.iter().enumerate() {
        for &j in &order[k + 1..] {
            if boxes[j].mins.x > boxes[i].maxs.x {
                break;
            }
            let (p, q) = (&boxes[i], &boxes[j]);
            let meet = (1..3).all(|d| p.mins[d] <= q.maxs[d] && q.mins[d] <= p.maxs[d]);
            let (lo, hi) = (i.min(j), i.max(j));
            if meet && keep(lo, hi) {
                pairs.push([lo as u32, hi as u32]);
            }
        }
    }
    pairs
}

/// The [`candidates`] that the exact predicate says intersect, sorted.
pub fn sweep(tris: &[Triangle], keep: impl Fn(usize, usize) -> bool) -> Vec<[u32; 2]> {
    let mut pairs: Vec<[u32; 2]> = candidates(tris, keep)
        .into_iter()
        .filter(|&[i, j]| tri_tri_exact::intersects(&tris[i as usize], &tris[j as usize]))
        .collect();
    pairs.sort_unstable();
    pairs
}

/// The triangles of `mesh`, in order.
pub fn triangles(mesh: &TriMesh) -> Vec<Triangle> {
    (0..mesh.triangles().len())
        .map(|t| mesh.triangle(t))
        .collect()
}

/// Whether triangles `i` and `j` of `mesh` share no vertex index (the pairs self-collision
/// reports).
pub fn share_no_vertex(mesh: &TriMesh, i: usize, j: usize) -> bool {
    let (ti, tj) = (mesh.triangles()[i], mesh.triangles()[j]);
    !ti.iter().any(|v| tj.contains(v))
}

/// Self-collision oracle: intersecting pairs of triangles sharing no vertex index.
pub fn sweep_self(mesh: &TriMesh) -> Vec<[u32; 2]> {
    sweep(&triangles(mesh), |i, j| share_no_vertex(mesh, i, j))
}

/// Two-mesh oracle: pairs `[triangle of a, triangle of b]`, B placed in A's frame exactly as
/// `collide` places it (`pose_a⁻¹ · pose_b`, then `Pose::transform_point`).
pub fn sweep_pair(a: &TriMesh, pose_a: &Pose, b: &TriMesh, pose_b: &Pose) -> Vec<[u32; 2]> {
    let b_in_a = pose_a.inv_mul(pose_b);
    let na = a.triangles().len();
    let tris: Vec<Triangle> = (0..na)
        .map(|t| a.triangle(t))
        .chain((0..b.triangles().len()).map(|t| {
            let t = b.triangle(t);
            Triangle::new(
                b_in_a.transform_point(&t.a),
                b_in_a.transform_point(&t.b),
                b_in_a.transform_point(&t.c),
            )
        }))
        .collect();
    sweep(&tris, |i, j| i < na && j >= na)
        .into_iter()
        .map(|[i, j]| [i, j - na as u32])
        .collect()
}
