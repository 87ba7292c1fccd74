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
    let simplex = initial_simplex(points)?;
    let mut faces: Vec<Face> = Vec::new();
    // The four faces of the tetrahedron, each oriented so that the fourth vertex is inside.
    let tets = [[0, 1, 2, 3], [0, 3, 1, 2], [1, 3, 2, 0], [2, 3, 0, 1]];
    for t in tets {
        let [a, b, c, d] = t.map(|i| simplex[i]);
        let v = if exactly_sees(points, [a, b, c], &points[d as usize]) {
            [a, c, b]
        } else {
            [a, b, c]
        };
        faces.push(Face::new(points, v, [usize::MAX; 3]));
    }
    link_all(&mut faces);
    // Repeated points (a triangle soup repeats each vertex about six times) would be carried
    // through every conflict list: keep one of each.
    let mut unique: Vec<u32> = (0..points.len() as u32).collect();
    let key = |i: &u32| points[*i as usize].coords.map(f64::to_bits);
    unique.sort_unstable_by_key(|i| (key(i).x, key(i).y, key(i).z));
    unique.dedup_by_key(|i| key(i));
    for i in unique {
        if let Some(f) = faces
            .iter_mut()
            .find(|f| f.sees(points, &points[i as usize]))
        {
            f.outside.push(i);
        }
    }

    let mut pending: Vec<usize> = (0..4).collect();
    let mut stamp = vec![0u32; 4];
    let mut visible_flag = vec![false; 4];
    let mut round = 0u32;
    let mut starts: HashMap<u32, usize> = HashMap::new();
    while let Some(fi) = pending.pop() {
        if !faces[fi].alive || faces[fi].outside.is_empty() {
            continue;
        }
        round += 1;
        let eye_index = furthest(points, &faces[fi]);
        let eye = points[eye_index as usize];

        // Flood the faces that see the eye (a disk, since visibility is exact).
        let mut visible = vec![fi];
        stamp[fi] = round;
        visible_flag[fi] = true;
        let mut horizon = Vec::new();
        let mut k = 0;
        while k < visible.len() {
            let f = visible[k];
            k += 1;
            for e in 0..3 {
                let n = faces[f].adj[e];
                if stamp[n] != round {
                    stamp[n] = round;
                    visible_flag[n] = faces[n].sees(points, &eye);
                    if visible_flag[n] {
                        visible.push(n);
                    }
                }
                if !visible_flag[n] {
                    horizon.push((faces[f].v[e], faces[f].v[(e + 1) % 3], n));
                }
            }
        }

        // Cone from the horizon to the eye.
        starts.clear();
        let first_new = faces.len();
        for &(a, b, outer) in &horizon {
            let id = faces.len();
            faces.push(Face::new(
                points,
                [a, b, eye_index],
                [outer, usize::MAX, usize::MAX],
            ));
            let slot = (0..3)
                .find(|&e| faces[outer].v[e] == b && faces[outer].v[(e + 1) % 3] == a)
                .expect("twin edge");
            faces[outer].adj[slot] = id;
            starts.insert(a, id);
        }
        for id in first_new..faces.len() {
            let next = starts[&faces[id].v[1]];
            faces[id].adj[1] = next;
            faces[next].adj[2] = id;
        }
        stamp.resize(faces.len(), 0);
        visible_flag.resize(faces.len(), false);

        // Hand the orphaned outside points to the new faces that see them.
        for &f in &visible {
            faces[f].alive = false;
            for q in std::mem::take(&mut faces[f].outside) {
                if q == eye_index {
                    continue;
                }
                let p = &points[q as usize];
                if let Some(nf) = (first_new..faces.len()).find(|&nf| faces[nf].sees(points, p)) {
                    faces[nf].outside.push(q);
                }
            }
        }
        pending.extend(first_new..faces.len());
    }

    let triangles: Vec<[u32; 3]> = faces.iter().filter(|f| f.alive).map(|f| f.v).collect();
    let mut vertices: Vec<u32> = triangles.iter().flatten().copied().collect();
    vertices.sort_unstable();
    vertices.dedup();
    Some(ConvexHull {
        vertices,
        triangles,
    })
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
