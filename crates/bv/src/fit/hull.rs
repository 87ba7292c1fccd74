//! 3D convex hull by QuickHull (Barber, Dobkin & Huhdanpaa 1996) with exact orientation
//! predicates, and the OBB frame from the hull's area-weighted covariance (Gottschalk, Lin &
//! Manocha 1996; Ericson, *Real-Time Collision Detection* (2005), §4.4.3; *Real-Time
//! Rendering*, 3rd ed. (2008), §16.3).
//!
//! No crates.io hull fits here: `quickhull` is `f32`-only with `u16` indices and `chull` is
//! unmaintained and builds on `Vec<Vec<T>>` points. This one decides every visibility question
//! with Shewchuk's exact `orient3d` (the `robust` crate), so the visible region from each new
//! point is exactly a disk and the hull is topologically valid for any finite input in the safe range (below); floats only
//! choose which outside point to add next.

use crate::fit::covariance;
use crate::{Point, Vector};
use nalgebra::Matrix3;
use std::collections::HashMap;

/// A convex hull as indices into the input points.
#[derive(Clone, Debug, PartialEq)]
pub struct ConvexHull {
    /// Indices of the hull's vertices (each once, ascending).
    pub vertices: Vec<u32>,
    /// Outward, counter-clockwise (seen from outside) triangles. Coplanar facets are triangulated.
    pub triangles: Vec<[u32; 3]>,
}

impl ConvexHull {
    /// The enclosed volume: the sum of the signed tetrahedra from one hull vertex to each
    /// outward triangle (divergence theorem). `points` are the points the hull was built from.
    pub fn volume(&self, points: &[Point]) -> f64 {
        let Some(&apex) = self.vertices.first() else {
            return 0.0;
        };
        let o = points[apex as usize];
        self.triangles
            .iter()
            .map(|t| {
                let [a, b, c] = t.map(|i| points[i as usize] - o);
                a.dot(&b.cross(&c)) / 6.0
            })
            .sum()
    }
}

struct Face {
    v: [u32; 3],
    /// `adj[k]` is the face across the edge `v[k] → v[k + 1]`.
    adj: [usize; 3],
    outside: Vec<u32>,
    alive: bool,
    /// Float normal `(b - a) × (c - a)` and its magnitude bound `Σ |u_j v_k| + |u_k v_j|`, for
    /// the orientation filter in [`Face::sees`].
    normal: Vector,
    normal_abs: Vector,
}

impl Face {
    fn new(points: &[Point], v: [u32; 3], adj: [usize; 3]) -> Self {
        let [a, b, c] = v.map(|i| points[i as usize]);
        let (u, w) = (b - a, c - a);
        let normal = u.cross(&w);
        let normal_abs = Vector::new(
            (u.y * w.z).abs() + (u.z * w.y).abs(),
            (u.z * w.x).abs() + (u.x * w.z).abs(),
            (u.x * w.y).abs() + (u.y * w.x).abs(),
        );
        Self {
            v,
            adj,
            outside: Vec::new(),
            alive: true,
            normal,
            normal_abs,
        }
    }

    /// Whether `p` is strictly outside this face's plane, exactly: the float value of
    /// `normal · (p - a)` decides when it exceeds its rounding-error bound (first-order error
    /// below `8 ε · normal_abs · |p - a|`; twice that is used), and `orient3d` decides otherwise.
    fn sees(&self, points: &[Point], p: &Point) -> bool {
        let d = p - points[self.v[0] as usize];
        let value = self.normal.dot(&d);
        let bound = 16.0 * f64::EPSILON * self.normal_abs.dot(&d.abs());
        if value > bound && bound > 1e-250 {
            true
        } else if value < -bound && bound > 1e-250 {
            false
        } else {
            exactly_sees(points, self.v, p)
        }
    }
}

fn coord(p: &Point) -> robust::Coord3D<f64> {
    robust::Coord3D {
        x: p.x,
        y: p.y,
        z: p.z,
    }
}

/// Whether `p` is strictly outside the plane of the counter-clockwise face `(a, b, c)`, exactly.
fn exactly_sees(points: &[Point], v: [u32; 3], p: &Point) -> bool {
    let [a, b, c] = v.map(|i| coord(&points[i as usize]));
    robust::orient3d(a, b, c, coord(p)) < 0.0
}

/// The convex hull of `points`, or `None` when they span fewer than three dimensions (empty,
/// repeated, collinear or coplanar points: exactly decided), are not all finite, or have a
/// non-zero coordinate outside `[2^-200, 2^200]`, where the predicates could overflow or
/// underflow and so lose exactness (see [`super::predicate_safe`] for a copy that is safe).
pub fn convex_hull(points: &[Point]) -> Option<ConvexHull> {
    if points.len() < 4
        || u32::try_from(points.len()).is_err()
        || !points.iter().all(|p| p.iter().all(|c| c.is_finite()))
        || super::predicate_safe(points).is_some()
    {
        return None;
    }
    let mut hull = Quickhull::new(points, initial_simplex(points)?);
    while let Some(face) = hull.pending.pop() {
        if hull.faces[face].alive && !hull.faces[face].outside.is_empty() {
            hull.add_furthest_point_of(face);
        }
    }
    Some(hull.into_hull())
}

/// The hull under construction: its faces (dead ones kept, so indices stay valid), the faces
/// whose outside points are still to be added, and the marks of the visibility flood.
struct Quickhull<'p> {
    points: &'p [Point],
    faces: Vec<Face>,
    pending: Vec<usize>,
    /// The round in which each face's visibility was last decided, and that decision.
    stamp: Vec<u32>,
    visible_flag: Vec<bool>,
    round: u32,
}

impl<'p> Quickhull<'p> {
    /// The tetrahedron `simplex`, each face oriented so that the fourth vertex is inside, with
    /// every distinct point outside it assigned to one face that sees it.
    fn new(points: &'p [Point], simplex: [u32; 4]) -> Self {
        let tets = [[0, 1, 2, 3], [0, 3, 1, 2], [1, 3, 2, 0], [2, 3, 0, 1]];
        let mut faces: Vec<Face> = tets
            .iter()
            .map(|t| {
                let [a, b, c, d] = t.map(|i| simplex[i]);
                let v = if exactly_sees(points, [a, b, c], &points[d as usize]) {
                    [a, c, b]
                } else {
                    [a, b, c]
                };
                Face::new(points, v, [usize::MAX; 3])
            })
            .collect();
        link_all(&mut faces);
        for i in distinct_points(points) {
            if let Some(f) = faces
                .iter_mut()
                .find(|f| f.sees(points, &points[i as usize]))
            {
                f.outside.push(i);
            }
        }
        Self {
            points,
            faces,
            pending: (0..4).collect(),
            stamp: vec![0; 4],
            visible_flag: vec![false; 4],
            round: 0,
        }
    }

    /// Adds the outside point of `face` furthest from its plane: the faces that see it are
    /// replaced by a cone from their horizon to it, and their outside points handed on.
    fn add_furthest_point_of(&mut self, face: usize) {
        let eye = furthest(self.points, &self.faces[face]);
        let (visible, horizon) = self.visible_from(face, eye);
        let first_new = self.add_cone(&horizon, eye);
        self.hand_on_outside_points(&visible, first_new, eye);
        self.pending.extend(first_new..self.faces.len());
    }

    /// The faces that see point `eye`, flooded from `start` (a disk, since visibility is
    /// exact), and the horizon: the edges `(a, b)` between a visible face and the face
    /// `outer` across them that does not see it.
    fn visible_from(&mut self, start: usize, eye: u32) -> (Vec<usize>, Vec<(u32, u32, usize)>) {
        self.round += 1;
        let round = self.round;
        let eye = self.points[eye as usize];
        let mut visible = vec![start];
        self.stamp[start] = round;
        self.visible_flag[start] = true;
        let mut horizon = Vec::new();
        let mut k = 0;
        while k < visible.len() {
            let f = visible[k];
            k += 1;
            for e in 0..3 {
                let n = self.faces[f].adj[e];
                if self.stamp[n] != round {
                    self.stamp[n] = round;
                    self.visible_flag[n] = self.faces[n].sees(self.points, &eye);
                    if self.visible_flag[n] {
                        visible.push(n);
                    }
                }
                if !self.visible_flag[n] {
                    let v = self.faces[f].v;
                    horizon.push((v[e], v[(e + 1) % 3], n));
                }
            }
        }
        (visible, horizon)
    }

    /// One new face `(a, b, eye)` per horizon edge, linked to the face across the edge and to
    /// its neighbours in the cone; the index of the first new face.
    fn add_cone(&mut self, horizon: &[(u32, u32, usize)], eye: u32) -> usize {
        let first_new = self.faces.len();
        let mut starts: HashMap<u32, usize> = HashMap::with_capacity(horizon.len());
        for &(a, b, outer) in horizon {
            let id = self.faces.len();
            self.faces.push(Face::new(
                self.points,
                [a, b, eye],
                [outer, usize::MAX, usize::MAX],
            ));
            // The outer face has the edge b → a (consistent orientation), across from `id`.
            if let Some(slot) = (0..3)
                .find(|&e| self.faces[outer].v[e] == b && self.faces[outer].v[(e + 1) % 3] == a)
            {
                self.faces[outer].adj[slot] = id;
            }
            starts.insert(a, id);
        }
        for id in first_new..self.faces.len() {
            let next = starts[&self.faces[id].v[1]];
            self.faces[id].adj[1] = next;
            self.faces[next].adj[2] = id;
        }
        self.stamp.resize(self.faces.len(), 0);
        self.visible_flag.resize(self.faces.len(), false);
        first_new
    }

    /// Retires the `visible` faces and gives each of their outside points (but `eye`) to a new
    /// face (from `first_new` on) that sees it; points no new face sees are inside the hull.
    fn hand_on_outside_points(&mut self, visible: &[usize], first_new: usize, eye: u32) {
        for &f in visible {
            self.faces[f].alive = false;
            for q in std::mem::take(&mut self.faces[f].outside) {
                if q == eye {
                    continue;
                }
                let p = &self.points[q as usize];
                let new_faces = first_new..self.faces.len();
                if let Some(nf) = new_faces
                    .into_iter()
                    .find(|&nf| self.faces[nf].sees(self.points, p))
                {
                    self.faces[nf].outside.push(q);
                }
            }
        }
    }

    /// The live faces and the vertices they use.
    fn into_hull(self) -> ConvexHull {
        let triangles: Vec<[u32; 3]> = self.faces.iter().filter(|f| f.alive).map(|f| f.v).collect();
        let mut vertices: Vec<u32> = triangles.iter().flatten().copied().collect();
        vertices.sort_unstable();
        vertices.dedup();
        ConvexHull {
            vertices,
            triangles,
        }
    }
}

/// One index of each distinct point, in increasing order of coordinates' bits: a triangle soup
/// repeats each vertex about six times, and repeats would be carried through every conflict
/// list.
fn distinct_points(points: &[Point]) -> Vec<u32> {
    let mut unique: Vec<u32> = (0..points.len() as u32).collect();
    let key = |i: &u32| points[*i as usize].coords.map(f64::to_bits);
    unique.sort_unstable_by_key(|i| (key(i).x, key(i).y, key(i).z));
    unique.dedup_by_key(|i| key(i));
    unique
}

/// Four affinely independent points (checked exactly): the farthest pair among the axis
/// extremes, the point farthest from their line, the point farthest from that plane.
fn initial_simplex(points: &[Point]) -> Option<[u32; 4]> {
    let mut extremes = Vec::with_capacity(6);
    for axis in 0..3 {
        let key = |i: &usize| points[*i][axis];
        let idx = 0..points.len();
        extremes.push(idx.clone().min_by(|a, b| key(a).total_cmp(&key(b)))?);
        extremes.push(idx.max_by(|a, b| key(a).total_cmp(&key(b)))?);
    }
    let (mut i0, mut i1, mut best) = (0, 0, 0.0);
    for &a in &extremes {
        for &b in &extremes {
            let d = (points[a] - points[b]).norm_squared();
            if d > best {
                (i0, i1, best) = (a, b, d);
            }
        }
    }
    let (p0, p1) = (points[i0], points[i1]);
    let dir = p1 - p0;
    let i2 = (0..points.len()).max_by(|&a, &b| {
        let da = dir.cross(&(points[a] - p0)).norm_squared();
        let db = dir.cross(&(points[b] - p0)).norm_squared();
        da.total_cmp(&db)
    })?;
    let normal = dir.cross(&(points[i2] - p0));
    let i3 = (0..points.len()).max_by(|&a, &b| {
        let da = normal.dot(&(points[a] - p0)).abs();
        let db = normal.dot(&(points[b] - p0)).abs();
        da.total_cmp(&db)
    })?;
    let o = robust::orient3d(
        coord(&p0),
        coord(&p1),
        coord(&points[i2]),
        coord(&points[i3]),
    );
    (o != 0.0).then_some([i0, i1, i2, i3].map(|i| i as u32))
}

/// Sets `adj` for a closed set of faces by matching each directed edge with its twin.
fn link_all(faces: &mut [Face]) {
    let mut edges = HashMap::new();
    for (fi, f) in faces.iter().enumerate() {
        for e in 0..3 {
            edges.insert((f.v[e], f.v[(e + 1) % 3]), fi);
        }
    }
    for f in faces.iter_mut() {
        for e in 0..3 {
            f.adj[e] = edges[&(f.v[(e + 1) % 3], f.v[e])];
        }
    }
}

/// The outside point of `face` farthest from its plane (floating point; only a choice).
fn furthest(points: &[Point], face: &Face) -> u32 {
    let [a, b, c] = face.v.map(|i| points[i as usize]);
    let n = (b - a).cross(&(c - a));
    *face
        .outside
        .iter()
        .max_by(|&&p, &&q| {
            let dp = n.dot(&(points[p as usize] - a));
            let dq = n.dot(&(points[q as usize] - a));
            dp.total_cmp(&dq)
        })
        .expect("non-empty outside set")
}

/// Gottschalk's frame: the eigenvectors of the area-weighted covariance of the hull's triangles,
/// which, unlike the mesh's own triangles or vertices, does not depend on how the surface is
/// tessellated or on interior detail. `None` when the points span fewer than three dimensions
/// (the caller then uses the vertex covariance, which finds the line or plane exactly).
pub fn hull_frame(points: &[Point], hull: &ConvexHull) -> Option<Matrix3<f64>> {
    let triangles: Vec<[Point; 3]> = hull
        .triangles
        .iter()
        .map(|t| t.map(|i| points[i as usize]))
        .collect();
    covariance::triangle_covariance(&triangles).map(|c| covariance::eigen_frame(&c))
}
