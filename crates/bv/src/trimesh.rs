//! The validated triangle mesh that trees and queries are built over.

use crate::{Point, Triangle, Vector};
use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};

/// Why a vertex/index set is not a usable mesh. Loaders wrap this with the file name.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum MeshError {
    /// The mesh has no triangle.
    #[error("the mesh has no triangles")]
    Empty,
    /// A vertex coordinate is NaN or infinite.
    #[error("vertex {vertex} has a non-finite coordinate ({x}, {y}, {z})")]
    NonFiniteVertex {
        /// Index of the vertex.
        vertex: usize,
        /// Its coordinates.
        x: f64,
        /// Its coordinates.
        y: f64,
        /// Its coordinates.
        z: f64,
    },
    /// A triangle refers to a vertex that does not exist.
    #[error(
        "triangle {triangle} refers to vertex {index}, but there are only {vertex_count} vertices"
    )]
    IndexOutOfRange {
        /// Index of the triangle.
        triangle: usize,
        /// The offending vertex index.
        index: u32,
        /// Number of vertices.
        vertex_count: usize,
    },
    /// A coordinate is finite but outside the range in which the exact predicates cannot
    /// overflow or underflow (see [`MAX_COORDINATE`] and [`MIN_NONZERO_COORDINATE`]).
    #[error(
        "vertex {vertex} has coordinate {value:e}, outside the supported range (0, or a magnitude \
         from {MIN_NONZERO_COORDINATE:e} to {MAX_COORDINATE:e}); rescale the mesh"
    )]
    CoordinateOutOfRange {
        /// Index of the vertex.
        vertex: usize,
        /// The offending coordinate.
        value: f64,
    },
    /// More vertices than a `u32` index can address.
    #[error("{0} vertices is more than a u32 index can address")]
    TooManyVertices(usize),
}

/// Largest coordinate magnitude a mesh may have: inside the range on which the exact
/// predicates are exact, up to [`EXACT_MAX_COORDINATE`](crate::range::EXACT_MAX_COORDINATE)
/// `= 2³³⁹ ≈ 1.1e102` (see [`range`](crate::range) for the overflow argument), with a factor of
/// 11 to spare for placement: a vertex of a mesh within `1e100` placed by a rotation and a
/// translation within `1e100` stays below `(√3 + 1)·1e100`.
pub const MAX_COORDINATE: f64 = 1e100;

/// Smallest non-zero coordinate magnitude a mesh may have: inside the range on which the exact
/// predicates are exact, down to [`EXACT_MIN_NONZERO`](crate::range::EXACT_MIN_NONZERO) `=
/// 2⁻²⁵⁴ ≈ 3.5e-77` (every `f64` that large is a multiple of `2⁻³⁰⁶`, which keeps every product
/// the predicates form above the smallest normal `f64`; see [`range`](crate::range)). The
/// factor of about `3e6` to spare lets a rotation scale a coordinate down before it leaves the
/// range ([`range::placed_in_exact_range`](crate::range::placed_in_exact_range)). Exact zeros
/// are always allowed.
pub const MIN_NONZERO_COORDINATE: f64 = 1e-70;

/// Vertex positions and triangles as index triples, validated on construction: every coordinate
/// finite and either 0 or of magnitude in [[`MIN_NONZERO_COORDINATE`], [`MAX_COORDINATE`]], every
/// index in range, at least one triangle. Degenerate (zero-area) triangles are kept
/// and counted ([`TriMesh::degenerate_triangles`]), never dropped, so triangle indices always match
/// the input file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TriMesh {
    vertices: Vec<Point>,
    triangles: Vec<[u32; 3]>,
}

impl TriMesh {
    /// The closed box `[mins, maxs]` as 12 triangles turned outwards: vertex `i` takes the
    /// `maxs` coordinate on axis `k` when bit `k` of `i` is set, else the `mins` one; faces
    /// `z = min` (0, 1), `z = max` (2, 3), `y = min` (4, 5), `y = max` (6, 7), `x = min`
    /// (8, 9), `x = max` (10, 11). The same checks as [`TriMesh::new`] (a box of zero width
    /// is accepted; its triangles are then degenerate).
    ///
    /// ```
    /// use obbtree_bv::{Point, TriMesh};
    /// let unit = TriMesh::cuboid(Point::origin(), Point::new(1.0, 1.0, 1.0))?;
    /// assert_eq!((unit.vertices().len(), unit.triangles().len()), (8, 12));
    /// assert!(unit.is_closed());
    /// # Ok::<(), obbtree_bv::MeshError>(())
    /// ```
    pub fn cuboid(mins: Point, maxs: Point) -> Result<Self, MeshError> {
        let corner = |i: usize| {
            Point::from(Vector::from_fn(|k, _| {
                if i >> k & 1 == 0 {
                    mins[k]
                } else {
                    maxs[k]
                }
            }))
        };
        let triangles = vec![
            [0, 2, 1],
            [1, 2, 3],
            [4, 5, 6],
            [5, 7, 6],
            [0, 1, 4],
            [1, 5, 4],
            [2, 6, 3],
            [3, 6, 7],
            [0, 4, 2],
            [2, 4, 6],
            [1, 3, 5],
            [3, 7, 5],
        ];
        Self::new((0..8).map(corner).collect(), triangles)
    }

    /// Validates and wraps `vertices` and `triangles`.
    pub fn new(vertices: Vec<Point>, triangles: Vec<[u32; 3]>) -> Result<Self, MeshError> {
        if triangles.is_empty() {
            return Err(MeshError::Empty);
        }
        if u32::try_from(vertices.len()).is_err() {
            return Err(MeshError::TooManyVertices(vertices.len()));
        }
        if let Some((vertex, p)) = vertices
            .iter()
            .enumerate()
            .find(|(_, p)| !p.iter().all(|c| c.is_finite()))
        {
            return Err(MeshError::NonFiniteVertex {
                vertex,
                x: p.x,
                y: p.y,
                z: p.z,
            });
        }
        let in_range =
            |c: f64| c == 0.0 || (MIN_NONZERO_COORDINATE..=MAX_COORDINATE).contains(&c.abs());
        if let Some((vertex, value)) = vertices
            .iter()
            .enumerate()
            .find_map(|(i, p)| p.iter().find(|&&c| !in_range(c)).map(|&c| (i, c)))
        {
            return Err(MeshError::CoordinateOutOfRange { vertex, value });
        }
        for (triangle, t) in triangles.iter().enumerate() {
            if let Some(&index) = t.iter().find(|&&i| i as usize >= vertices.len()) {
                return Err(MeshError::IndexOutOfRange {
                    triangle,
                    index,
                    vertex_count: vertices.len(),
                });
            }
        }
        Ok(Self {
            vertices,
            triangles,
        })
    }

    /// Vertex positions.
    pub fn vertices(&self) -> &[Point] {
        &self.vertices
    }

    /// Triangles as vertex index triples.
    pub fn triangles(&self) -> &[[u32; 3]] {
        &self.triangles
    }

    /// The `i`-th triangle's geometry.
    pub fn triangle(&self, i: usize) -> Triangle {
        let [a, b, c] = self.triangles[i];
        Triangle::new(
            self.vertices[a as usize],
            self.vertices[b as usize],
            self.vertices[c as usize],
        )
    }

    /// The smallest nonzero absolute value among the vertex coordinates (`None` if every
    /// coordinate is 0): what [`placed_in_exact_range`](crate::range::placed_in_exact_range)
    /// needs besides the bounds and the pose. One pass over the vertices; callers cache it.
    pub fn smallest_nonzero_coordinate(&self) -> Option<f64> {
        self.vertices
            .iter()
            .flat_map(|p| p.iter().map(|c| c.abs()))
            .filter(|&c| c > 0.0)
            .min_by(f64::total_cmp)
    }

    /// Indices of triangles whose area is exactly zero (collinear or repeated vertices), decided
    /// exactly with orientation predicates on the three coordinate projections.
    pub fn degenerate_triangles(&self) -> Vec<usize> {
        (0..self.triangles.len())
            .filter(|&i| self.is_degenerate(i))
            .collect()
    }

    /// Whether triangle `i` has exactly zero area.
    pub fn is_degenerate(&self, i: usize) -> bool {
        let t = self.triangle(i);
        // Zero area iff all three coordinate-plane projections have zero signed area.
        let proj = |p: &Point, u: usize, v: usize| robust::Coord { x: p[u], y: p[v] };
        [(0, 1), (1, 2), (2, 0)].iter().all(|&(u, v)| {
            robust::orient2d(proj(&t.a, u, v), proj(&t.b, u, v), proj(&t.c, u, v)) == 0.0
        })
    }

    /// For each vertex, the first vertex at the same coordinates (`-0.0` and `0.0` alike): the
    /// vertex it is welded to where only positions matter. (This and [`TriMesh::is_closed`]
    /// hash with `rustc-hash`'s Fx hash rather than the standard library's SipHash: much
    /// faster, and a mesh's own coordinates need no defence against hash flooding.)
    pub fn first_at_same_coordinates(&self) -> Vec<u32> {
        let mut first = FxHashMap::default();
        first.reserve(self.vertices.len());
        (self.vertices.iter().enumerate())
            .map(|(i, p)| {
                *first
                    .entry(p.map(|c| (c + 0.0).to_bits()))
                    .or_insert(i as u32)
            })
            .collect()
    }

    /// Whether the surface has no boundary: every edge is used as often in one direction as
    /// in the other by the triangles around it (each pair of positions `{a, b}` appears as
    /// many times as `a → b` as `b → a`; vertices at equal coordinates count as one, so seams
    /// where a file repeats vertices, as texture seams leave them, are not boundary). A closed,
    /// consistently oriented 2-manifold is one; so is a surface whose edges are shared by four
    /// or more triangles that pair up in opposite directions, such as two boxes meeting along
    /// an edge. On such a surface the winding
    /// number is an integer off the surface, counted exactly by the signed crossings of a ray
    /// (Jacobson, Kavan & Sorkine-Hornung, "Robust inside-outside segmentation using
    /// generalized winding numbers", 2013, §3: the winding number of a closed, possibly
    /// non-manifold surface is integer-valued), which containment and a closed mesh's signs
    /// need. A degenerate triangle with a repeated vertex index adds an edge from a vertex to
    /// itself, which is its own reverse.
    pub fn is_closed(&self) -> bool {
        let same = self.first_at_same_coordinates();
        let mut net = FxHashMap::default();
        net.reserve(self.triangles.len() * 2);
        for t in &self.triangles {
            let t = t.map(|v| same[v as usize]);
            for k in 0..3 {
                let (a, b) = (t[k], t[(k + 1) % 3]);
                if a != b {
                    *net.entry((a.min(b), a.max(b))).or_insert(0i64) += if a < b { 1 } else { -1 };
                }
            }
        }
        net.values().all(|&n| n == 0)
    }
}

#[cfg(test)]
mod tests {
    use super::TriMesh;
    use crate::Point;

    /// The box's signed volume (the divergence theorem over its triangles, `Σ a·(b × c) / 6`,
    /// exact on these dyadic corners) is its volume: every face is turned outwards; and each
    /// face lies in the plane its documentation names.
    #[test]
    fn cuboid_is_closed_outward_and_in_its_planes() {
        let (mins, maxs) = (Point::new(-1.0, 0.5, 2.0), Point::new(3.0, 0.75, 4.0));
        let mesh = TriMesh::cuboid(mins, maxs).unwrap();
        assert!(mesh.is_closed());
        let volume: f64 = (0..12)
            .map(|t| {
                let tri = mesh.triangle(t);
                tri.a.coords.dot(&tri.b.coords.cross(&tri.c.coords)) / 6.0
            })
            .sum();
        assert_eq!(volume, 4.0 * 0.25 * 2.0);
        let planes = [
            (2, mins.z),
            (2, maxs.z),
            (1, mins.y),
            (1, maxs.y),
            (0, mins.x),
            (0, maxs.x),
        ];
        for (t, (axis, value)) in (0..12).map(|t| (t, planes[t / 2])) {
            let tri = mesh.triangle(t);
            assert!(
                [tri.a, tri.b, tri.c].iter().all(|p| p[axis] == value),
                "triangle {t}"
            );
        }
    }

    /// Two unit boxes meeting along one edge (the second box's corners welded onto the first's
    /// along it): that edge bounds four triangles, two in each direction, so the surface has
    /// no boundary. A face taken away, or one face added in reverse, leaves a boundary.
    #[test]
    fn closed_means_every_edge_used_as_often_each_way() {
        let first = TriMesh::cuboid(Point::origin(), Point::new(1.0, 1.0, 1.0)).unwrap();
        let second = TriMesh::cuboid(Point::new(1.0, 1.0, 0.0), Point::new(2.0, 2.0, 1.0)).unwrap();
        let mut vertices = first.vertices().to_vec();
        let index =
            |p: &Point, vertices: &mut Vec<Point>| match vertices.iter().position(|v| v == p) {
                Some(i) => i as u32,
                None => {
                    vertices.push(*p);
                    vertices.len() as u32 - 1
                }
            };
        let mut triangles = first.triangles().to_vec();
        for t in second.triangles() {
            let corners = t.map(|v| second.vertices()[v as usize]);
            triangles.push(corners.map(|p| index(&p, &mut vertices)));
        }
        assert_eq!(
            vertices.len(),
            14,
            "the shared edge's two corners are welded"
        );
        let both = TriMesh::new(vertices.clone(), triangles.clone()).unwrap();
        assert!(both.is_closed());
        let without_one = TriMesh::new(vertices.clone(), triangles[1..].to_vec()).unwrap();
        assert!(!without_one.is_closed());
        let mut with_reversed = triangles.clone();
        let [a, b, c] = triangles[0];
        with_reversed.push([a, c, b]);
        assert!(!TriMesh::new(vertices.clone(), with_reversed)
            .unwrap()
            .is_closed());
        let mut with_collapsed = triangles;
        with_collapsed.push([a, a, b]);
        assert!(TriMesh::new(vertices, with_collapsed).unwrap().is_closed());
    }

    /// A box whose top face has vertices of its own (at the same coordinates as the sides'
    /// corners, as a texture seam leaves them) is closed; moving one of those copies off its
    /// corner opens it; a bottom corner replaced by a copy at `-0.0` where it is at `0.0`
    /// keeps it closed (the two zeros are one position).
    #[test]
    fn vertices_at_equal_coordinates_count_as_one() {
        let cube = TriMesh::cuboid(Point::new(0.0, 0.0, 0.0), Point::new(1.0, 1.0, 1.0)).unwrap();
        let mut vertices = cube.vertices().to_vec();
        let copy_of = |v: u32, vertices: &mut Vec<Point>| {
            vertices.push(vertices[v as usize]);
            vertices.len() as u32 - 1
        };
        let mut triangles = cube.triangles().to_vec();
        for t in &mut triangles[2..4] {
            *t = t.map(|v| copy_of(v, &mut vertices));
        }
        assert!(TriMesh::new(vertices.clone(), triangles.clone())
            .unwrap()
            .is_closed());
        let moved = triangles[2][0] as usize;
        let mut off = vertices.clone();
        off[moved].z += 0.5;
        assert!(!TriMesh::new(off, triangles.clone()).unwrap().is_closed());
        let mut negative_zero = vertices;
        let origin_copy = negative_zero.len();
        negative_zero.push(Point::new(-0.0, -0.0, -0.0));
        let mut on_it = triangles;
        let zero_corner = on_it[0].iter().position(|&v| v == 0).unwrap();
        on_it[0][zero_corner] = origin_copy as u32;
        assert!(TriMesh::new(negative_zero, on_it).unwrap().is_closed());
    }
}
