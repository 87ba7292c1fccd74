//! Discrete oriented polytopes (k-DOPs) with fixed slab normals.
//!
//! `Kdop<A>` has `A` slab axes, i.e. `K = 2A` faces: [`Kdop6`] (A = 3), [`Kdop14`] (A = 7),
//! [`Kdop18`] (A = 9) and [`Kdop26`] (A = 13). The axes are integer, unnormalised directions
//! (see [`Kdop::axes`]); `min[i]`/`max[i]` are extremes of `axes[i] · p` over the contents.

use crate::{Aabb, BoundingVolume, Point, Pose, Vector};
use serde::{Deserialize, Serialize};

/// A k-DOP with `A` slab axes (closed: the intersection of its `A` slabs).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Kdop<const A: usize> {
    /// Lower bound of `axes[i] · p` for each slab.
    #[serde(with = "serde_arrays")]
    pub min: [f64; A],
    /// Upper bound of `axes[i] · p` for each slab.
    #[serde(with = "serde_arrays")]
    pub max: [f64; A],
}

/// 6-DOP (an AABB expressed as slabs).
pub type Kdop6 = Kdop<3>;
/// 14-DOP: the coordinate axes and the 4 cube diagonals.
pub type Kdop14 = Kdop<7>;
/// 18-DOP: the coordinate axes and the 6 face diagonals.
pub type Kdop18 = Kdop<9>;
/// 26-DOP: coordinate axes, cube diagonals and face diagonals.
pub type Kdop26 = Kdop<13>;

/// Every slab direction in use: the 3 coordinate axes, the 4 cube diagonals, the 6 face
/// diagonals. 6-, 14- and 26-DOPs take a prefix; the 18-DOP skips the cube diagonals.
const ALL_AXES: [[f64; 3]; 13] = [
    [1.0, 0.0, 0.0],
    [0.0, 1.0, 0.0],
    [0.0, 0.0, 1.0],
    [1.0, 1.0, 1.0],
    [1.0, 1.0, -1.0],
    [1.0, -1.0, 1.0],
    [1.0, -1.0, -1.0],
    [1.0, 1.0, 0.0],
    [1.0, -1.0, 0.0],
    [1.0, 0.0, 1.0],
    [1.0, 0.0, -1.0],
    [0.0, 1.0, 1.0],
    [0.0, 1.0, -1.0],
];

impl<const A: usize> Kdop<A> {
    /// The slab directions of this k-DOP type (unnormalised, integer components). No allocation:
    /// with `A` known at compile time this folds to constants.
    ///
    /// Panics for an unsupported `A` (only 3, 7, 9, 13 exist).
    pub fn axes() -> [Vector; A] {
        let index = |i: usize| match A {
            3 | 7 | 13 => i,
            9 if i < 3 => i,
            9 => i + 4,
            _ => panic!("Kdop<{A}> is not a supported k-DOP (use 3, 7, 9 or 13 axes)"),
        };
        std::array::from_fn(|i| Vector::from(ALL_AXES[index(i)]))
    }
    /// The k-DOP's AABB: its first three slabs are always the coordinate axes.
    pub fn aabb(&self) -> Aabb {
        Aabb::new(
            Point::new(self.min[0], self.min[1], self.min[2]),
            Point::new(self.max[0], self.max[1], self.max[2]),
        )
    }

    /// The smallest k-DOP of this type containing `points` (non-empty): the extremes of
    /// `axes[i] · p` (*Real-Time Rendering*, 3rd ed. (2008), §16.3).
    pub fn from_points<'a>(points: impl IntoIterator<Item = &'a Point>) -> Self {
        let axes = Self::axes();
        let mut kdop = Self {
            min: [f64::INFINITY; A],
            max: [f64::NEG_INFINITY; A],
        };
        for p in points {
            for (i, axis) in axes.iter().enumerate() {
                let d = axis.dot(&p.coords);
                kdop.min[i] = kdop.min[i].min(d);
                kdop.max[i] = kdop.max[i].max(d);
            }
        }
        kdop
    }

    /// The faces of the polytope as polygons: each of the `2A` planes' square (larger than the
    /// AABB) clipped by every other half-space (Sutherland–Hodgman). Used for the measures; an
    /// empty list for a flat or empty polytope's missing faces is fine.
    fn faces(&self) -> Vec<(Vector, f64, Vec<Point>)> {
        let axes = Self::axes();
        let aabb = self.aabb();
        let center = nalgebra::center(&aabb.mins, &aabb.maxs);
        let reach = (aabb.maxs - aabb.mins).norm() + 1.0e-300;
        // Outward half-spaces n·x <= d.
        let planes: Vec<(Vector, f64)> = (0..A)
            .flat_map(|i| {
                let len = axes[i].norm();
                [
                    (axes[i] / len, self.max[i] / len),
                    (-axes[i] / len, -self.min[i] / len),
                ]
            })
            .collect();
        planes
            .iter()
            .enumerate()
            .map(|(fi, &(n, d))| {
                let on_plane = center + n * (d - n.dot(&center.coords));
                let u = n.cross(&Vector::ith(n.iamin(), 1.0)).normalize() * reach;
                let v = n.cross(&u);
                let mut poly = vec![
                    on_plane - u - v,
                    on_plane + u - v,
                    on_plane + u + v,
                    on_plane - u + v,
                ];
                for (pj, &(m, e)) in planes.iter().enumerate() {
                    if pj != fi && !poly.is_empty() {
                        poly = clip(&poly, &m, e);
                    }
                }
                (n, d, poly)
            })
            .collect()
    }
}

/// The part of the polygon `poly` with `n·x <= d`.
fn clip(poly: &[Point], n: &Vector, d: f64) -> Vec<Point> {
    let mut out = Vec::with_capacity(poly.len() + 1);
    for (i, a) in poly.iter().enumerate() {
        let b = &poly[(i + 1) % poly.len()];
        let (da, db) = (n.dot(&a.coords) - d, n.dot(&b.coords) - d);
        if da <= 0.0 {
            out.push(*a);
        }
        if (da < 0.0 && db > 0.0) || (da > 0.0 && db < 0.0) {
            out.push(a + (b - a) * (da / (da - db)));
        }
    }
    out
}

/// Area of a planar polygon.
fn polygon_area(poly: &[Point]) -> f64 {
    let Some(o) = poly.first() else { return 0.0 };
    let twice: Vector = poly.windows(2).map(|w| (w[0] - o).cross(&(w[1] - o))).sum();
    0.5 * twice.norm()
}

impl<const A: usize> BoundingVolume for Kdop<A> {
    /// A k-DOP has one fit: the extremes along each slab axis.
    type Method = ();

    fn fit_points(points: &[Point], _: ()) -> Self {
        Self::from_points(points)
    }

    fn fit_triangles(triangles: &[[Point; 3]], _: ()) -> Self {
        Self::from_points(triangles.as_flattened())
    }

    fn merge(&self, other: &Self) -> Self {
        Self {
            min: std::array::from_fn(|i| self.min[i].min(other.min[i])),
            max: std::array::from_fn(|i| self.max[i].max(other.max[i])),
        }
    }

    /// Slab normals are fixed, so a moved k-DOP is re-bounded: the k-DOP of the moved corners of
    /// its AABB. Conservative (it contains the moved polytope) but looser than re-fitting the
    /// moved contents, which callers with the contents at hand should prefer.
    fn transformed(&self, motion: &Pose) -> Self {
        let aabb = self.aabb();
        let corners: Vec<Point> = (0..8)
            .map(|i| {
                let pick = |bit: usize, k: usize| {
                    if i & bit == 0 {
                        aabb.mins[k]
                    } else {
                        aabb.maxs[k]
                    }
                };
                motion.transform_point(&Point::new(pick(1, 0), pick(2, 1), pick(4, 2)))
            })
            .collect();
        Self::from_points(&corners)
    }

    /// `min_i - tolerance·|axes_i| <= axes_i · p <= max_i + tolerance·|axes_i|` for every slab
    /// (the tolerance is a distance; the axes are unnormalised).
    fn contains_point(&self, p: &Point, tolerance: f64) -> bool {
        Self::axes().iter().enumerate().all(|(i, axis)| {
            let d = axis.dot(&p.coords);
            let slack = tolerance * axis.norm();
            d >= self.min[i] - slack && d <= self.max[i] + slack
        })
    }

    /// Volume of the polytope: `Σ area_f · h_f / 3` over its faces, the pyramids from the AABB
    /// centre (`h_f` its distance to face `f`), each face found by clipping its plane by the others.
    fn volume(&self) -> f64 {
        if A == 3 {
            return self.aabb().volume();
        }
        let c = self.center();
        self.faces()
            .iter()
            .map(|(n, d, poly)| polygon_area(poly) * (d - n.dot(&c.coords)) / 3.0)
            .sum::<f64>()
            .max(0.0)
    }

    /// Total area of the clipped faces (for a flat polytope, both sides count).
    fn surface_area(&self) -> f64 {
        if A == 3 {
            return self.aabb().surface_area();
        }
        self.faces()
            .iter()
            .map(|(_, _, poly)| polygon_area(poly))
            .sum()
    }

    /// The centre of the k-DOP's AABB.
    fn center(&self) -> Point {
        self.aabb().center()
    }
}

mod serde_arrays {
    //! serde for `[f64; A]` with a const-generic length (serde derives only up to 32 and not
    //! for generic lengths).
    use serde::{de::Error, Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer, const A: usize>(v: &[f64; A], s: S) -> Result<S::Ok, S::Error> {
        v.as_slice().serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>, const A: usize>(
        d: D,
    ) -> Result<[f64; A], D::Error> {
        let v = Vec::<f64>::deserialize(d)?;
        v.try_into()
            .map_err(|v: Vec<f64>| D::Error::invalid_length(v.len(), &"one value per k-DOP axis"))
    }
}
