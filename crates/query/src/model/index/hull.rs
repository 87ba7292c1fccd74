//! A model's convex hull, kept once for every query that needs one: the distance screen of
//! meshes far apart and the separating planes of scenes.
//!
//! It holds two things. The first is every vertex of the hull, from the exact QuickHull
//! ([`convex_hull`]). It is a complete support set: the largest projection of these points on
//! any direction is the mesh's, so a plane certified against them is certified against the
//! whole mesh. The second is a sample: the extreme vertex along a few thousand directions.
//! GJK runs over the sample as a guide, because a support search over a small set that stays in
//! cache finds the same candidate pairs as one over the whole hull, for less (measured in
//! `docs/performance.md`). Every answer is then certified against the complete set or the
//! whole mesh.

use super::support::{farthest, highest};
use crate::MeshModel;
use obbtree_bv::fit::hull::{convex_hull, ConvexHull};
use obbtree_bv::{Point, Vector};
use rayon::prelude::*;

/// How many directions the hull sample takes the extreme vertex along: enough that GJK over the
/// sample leads to the same certified pairs as over the whole mesh, where fewer directions
/// certify fewer (the counts are in `docs/performance.md`).
pub(crate) const HULL_DIRECTIONS: usize = 2562;

/// A flat mesh has no hull polytope. Its vertices serve as the complete support set up to this
/// many; a bigger flat mesh has none.
const MAX_FLAT_VERTICES: usize = 256;

/// The convex hull of a model's mesh, in the mesh's frame.
#[derive(Clone, Debug)]
pub(crate) struct Hull {
    /// Every vertex of the hull. A flat mesh with few vertices has all its vertices here. `None`
    /// for a bigger flat mesh or one outside the exact predicates' range.
    pub vertices: Option<Vec<Point>>,
    /// The largest coordinate magnitude of `vertices` (0 when there are none).
    pub reach: f64,
    /// The vertex farthest along each of [`HULL_DIRECTIONS`] directions, each vertex once, in the
    /// order first found: vertices of the hull whose own hull approximates it from inside.
    pub sample: Vec<Point>,
}

impl Hull {
    /// The hull of `model`'s mesh.
    pub fn of<V: Send + Sync>(model: &MeshModel<V>) -> Self {
        let mesh_vertices = model.mesh().vertices();
        let (vertices, sample) = match convex_hull(mesh_vertices) {
            Some(hull) => {
                let points: Vec<Point> = hull
                    .vertices
                    .iter()
                    .map(|&i| mesh_vertices[i as usize])
                    .collect();
                let sample = climbed_sample(&points, &hull);
                (Some(points), sample)
            }
            None if mesh_vertices.len() <= MAX_FLAT_VERTICES => (
                Some(mesh_vertices.to_vec()),
                sample(|d| farthest(mesh_vertices, d).vertex),
            ),
            None => (None, sample(|d| highest(model, d).vertex)),
        };
        let reach = vertices
            .iter()
            .flatten()
            .map(|p| p.coords.amax())
            .fold(0.0, f64::max);
        Self {
            vertices,
            reach,
            sample,
        }
    }

    /// Bytes held.
    pub fn memory_bytes(&self) -> usize {
        self.vertices.as_deref().map_or(0, std::mem::size_of_val)
            + std::mem::size_of_val(&self.sample[..])
    }
}

/// The sample of a hull polytope: each direction's extreme vertex found by climbing the hull's
/// edges from the last direction's (on a convex polytope, a vertex no neighbour of which lies
/// higher is the highest: Ericson, *Real-Time Collision Detection* (2005) §9.5.3, "hill
/// climbing"), so a direction costs a few steps rather than a pass over every vertex. A guide
/// only: rounding may stop a climb one vertex short of the top, which no certificate relies on.
/// `points` are the hull's vertices in the order of `hull.vertices`.
fn climbed_sample(points: &[Point], hull: &ConvexHull) -> Vec<Point> {
    let neighbours = neighbours(hull);
    let mut at = 0;
    let mut taken = vec![false; points.len()];
    let mut sample = Vec::new();
    for k in 0..HULL_DIRECTIONS {
        at = climb(
            points,
            &neighbours,
            at,
            &fibonacci_direction(k, HULL_DIRECTIONS),
        );
        if !std::mem::replace(&mut taken[at], true) {
            sample.push(points[at]);
        }
    }
    sample
}

/// The vertex reached from `start` by moving to the highest neighbour along `d` while one lies
/// higher.
fn climb(points: &[Point], neighbours: &[Vec<usize>], start: usize, d: &Vector) -> usize {
    let (mut at, mut height) = (start, d.dot(&points[start].coords));
    loop {
        let higher = neighbours[at]
            .iter()
            .map(|&n| (n, d.dot(&points[n].coords)))
            .filter(|&(_, h)| h > height)
            .max_by(|x, y| x.1.total_cmp(&y.1));
        match higher {
            Some((n, h)) => (at, height) = (n, h),
            None => return at,
        }
    }
}

/// Each hull vertex's neighbours along the hull's edges, by position in `hull.vertices`.
fn neighbours(hull: &ConvexHull) -> Vec<Vec<usize>> {
    let position = |i: u32| {
        hull.vertices
            .binary_search(&i)
            .expect("a hull triangle's corner is a hull vertex")
    };
    let mut neighbours = vec![Vec::new(); hull.vertices.len()];
    for triangle in &hull.triangles {
        let corners = triangle.map(position);
        for (from, to) in [(0, 1), (1, 2), (2, 0)] {
            let (p, q) = (corners[from], corners[to]);
            if !neighbours[p].contains(&q) {
                neighbours[p].push(q);
                neighbours[q].push(p);
            }
        }
    }
    neighbours
}

/// The point `extreme` gives along each of [`HULL_DIRECTIONS`] directions of a Fibonacci lattice
/// on the sphere (nearly uniform: González, "Measurement of areas on a sphere using Fibonacci
/// and latitude–longitude lattices", Mathematical Geosciences 42, 2010), each once, in the order
/// first found.
fn sample(extreme: impl Fn(&Vector) -> Point + Sync) -> Vec<Point> {
    let found: Vec<Point> = (0..HULL_DIRECTIONS)
        .into_par_iter()
        .map(|k| extreme(&fibonacci_direction(k, HULL_DIRECTIONS)))
        .collect();
    let mut sample: Vec<Point> = Vec::new();
    for v in found {
        if !sample.contains(&v) {
            sample.push(v);
        }
    }
    sample
}

/// The `k`-th of `n` points of the Fibonacci lattice on the unit sphere.
pub(crate) fn fibonacci_direction(k: usize, n: usize) -> Vector {
    let golden_angle = std::f64::consts::PI * (3.0 - 5f64.sqrt());
    let y = 1.0 - (2 * k + 1) as f64 / n as f64;
    let radius = (1.0 - y * y).sqrt();
    let angle = golden_angle * k as f64;
    Vector::new(radius * angle.cos(), y, radius * angle.sin())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_meshes::closed_box;

    fn sorted(mut points: Vec<Point>) -> Vec<Point> {
        points.sort_by(|p, q| {
            p.coords
                .as_slice()
                .partial_cmp(q.coords.as_slice())
                .unwrap()
        });
        points
    }

    /// The hull of a convex polytope is its vertex set, and so is its sample (each vertex is
    /// the farthest along a cone of directions); the directions are unit vectors.
    #[test]
    fn the_hull_of_a_box_is_its_corners() {
        let mesh = closed_box([1.0, 2.0, 3.0]);
        let corners = sorted(mesh.vertices().to_vec());
        let model: MeshModel = MeshModel::new(mesh).unwrap();
        let hull = Hull::of(&model);
        assert_eq!(sorted(hull.sample.clone()), corners);
        assert_eq!(sorted(hull.vertices.clone().unwrap()), corners);
        assert_eq!(hull.reach, 3.0);
        for k in 0..HULL_DIRECTIONS {
            assert!((fibonacci_direction(k, HULL_DIRECTIONS).norm() - 1.0).abs() < 1e-12);
        }
    }

    /// Climbing the hull's edges finds the same extreme vertex as a pass over every hull vertex,
    /// on 400 pseudo-random points of a sphere (no ties) and along every lattice direction.
    #[test]
    fn climbing_finds_what_a_full_pass_finds() {
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 11) as f64 / (1u64 << 53) as f64 - 0.5
        };
        // On a sphere, so that every point is a hull vertex.
        let cloud: Vec<Point> = (0..400)
            .map(|_| Point::from(Vector::new(next(), next(), next()).normalize()))
            .collect();
        let triangles = (0..398).map(|i| [i, i + 1, i + 2]).collect();
        let model: MeshModel =
            MeshModel::new(obbtree_bv::TriMesh::new(cloud, triangles).unwrap()).unwrap();
        let hull = Hull::of(&model);
        let complete = hull.vertices.clone().unwrap();
        let mut want: Vec<Point> = Vec::new();
        for k in 0..HULL_DIRECTIONS {
            let top = farthest(&complete, &fibonacci_direction(k, HULL_DIRECTIONS)).vertex;
            if !want.contains(&top) {
                want.push(top);
            }
        }
        assert_eq!(complete.len(), 400);
        assert!(want.len() > 200, "{} extreme vertices", want.len());
        assert_eq!(sorted(hull.sample), sorted(want));
    }

    /// Every mesh vertex lies on the inner side of every direction's support plane through the
    /// complete set, on a mesh with interior vertices.
    #[test]
    fn the_hull_vertices_support_every_direction() {
        let mut mesh_vertices = closed_box([2.0, 2.0, 2.0]).vertices().to_vec();
        mesh_vertices.push(Point::new(0.1, 0.2, 0.3));
        mesh_vertices.push(Point::new(0.5, 0.9, 1.0));
        let triangles = vec![[0, 1, 2], [8, 9, 0], [3, 4, 5], [6, 7, 1]];
        let mesh = obbtree_bv::TriMesh::new(mesh_vertices.clone(), triangles).unwrap();
        let model: MeshModel = MeshModel::new(mesh).unwrap();
        let hull = Hull::of(&model);
        let complete = hull.vertices.unwrap();
        assert_eq!(complete.len(), 8);
        for k in 0..200 {
            let d = fibonacci_direction(k, 200);
            let top = farthest(&complete, &d).projection;
            assert!(mesh_vertices.iter().all(|v| d.dot(&v.coords) <= top));
        }
    }
}
