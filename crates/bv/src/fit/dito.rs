//! The ditetrahedron OBB frame (Larsson & Källberg, "Fast Computation of Tight-Fitting Oriented
//! Bounding Boxes", *Game Engine Gems 2*, 2011, the DiTO-14 variant): a box orientation close to
//! the minimum-area one in time linear in the points, with no eigen decomposition.
//!
//! 1. The extreme points along seven fixed directions (the coordinate axes and the four cube
//!    diagonals): fourteen points that stand for the set.
//! 2. The farthest-apart pair along one direction is the first edge of a base triangle; the
//!    extreme point farthest from that edge's line is its third corner.
//! 3. The extreme points lowest and highest along the base triangle's normal make two
//!    tetrahedra with it (the ditetrahedron).
//! 4. Every face of the ditetrahedron, with each of its edges, gives a candidate frame (the
//!    edge, the face normal, and their cross product); the candidate whose box around the
//!    fourteen points has the least surface area wins.
//!
//! Only the orientation comes from here: the box itself is sized to every point afterwards, so
//! it contains them all whatever the rounding of these steps.

use crate::{Point, Vector};
use nalgebra::Matrix3;

/// The fewest triangles for which a hierarchy's node takes the ditetrahedron frame; smaller
/// nodes take the triangle covariance frame, which costs less there for boxes about as tight.
pub const MIN_TRIANGLES: usize = 20;

/// The ditetrahedron frame of `points` (orthonormal, right-handed columns, to rounding), or
/// `None` when the extreme points are all equal or collinear (the caller's fallback then finds
/// the line exactly).
pub fn dito_frame(points: &[Point]) -> Option<Matrix3<f64>> {
    dito_frame_sampled(points, 1)
}

/// [`dito_frame`] with the extreme points sought among every `stride`-th point only: a mesh's
/// triangles list each vertex about six times, so one corner per triangle (`stride` 3 over
/// their flattened corners) meets nearly every vertex at a third of the cost.
pub fn dito_frame_sampled(points: &[Point], stride: usize) -> Option<Matrix3<f64>> {
    let extremes = extreme_points(points.iter().step_by(stride.max(1)))?;
    let (p0, p1) = farthest_pair(&extremes);
    let edge = p1 - p0;
    let p2 = farthest_from_line(&extremes.points, &p0, &edge)?;
    let normal = unit(&edge.cross(&(p2 - p0)))?;
    let base = [p0, p1, p2];
    let mut best = Candidate::worst();
    best.consider_face(&base, &normal, &extremes.points);
    for apex in apexes(&extremes.points, &p0, &normal) {
        for k in 0..3 {
            let face = [base[k], base[(k + 1) % 3], apex];
            if let Some(n) = unit(&(face[1] - face[0]).cross(&(face[2] - face[0]))) {
                best.consider_face(&face, &n, &extremes.points);
            }
        }
    }
    best.axes
}

/// The fourteen extreme points: the low points of the seven directions, then their high points.
struct Extremes {
    points: [Point; 14],
}

/// Step 1: the lowest and highest point along each of the seven directions `x`, `y`, `z`,
/// `x + y + z`, `x + y − z`, `x − y + z` and `x − y − z` (`None` for no points). They are left
/// unnormalised (only the order of the projections matters), so no products are needed.
fn extreme_points<'a>(points: impl Iterator<Item = &'a Point> + Clone) -> Option<Extremes> {
    let first = points.clone().next()?;
    let project = |p: &Point| {
        let (xy, x_y) = (p.x + p.y, p.x - p.y);
        [p.x, p.y, p.z, xy + p.z, xy - p.z, x_y + p.z, x_y - p.z]
    };
    let start = project(first);
    let (mut low, mut high) = (start, start);
    let (mut low_at, mut high_at) = ([first; 7], [first; 7]);
    for p in points.skip(1) {
        let l = project(p);
        for k in 0..7 {
            if l[k] < low[k] {
                (low[k], low_at[k]) = (l[k], p);
            }
            if l[k] > high[k] {
                (high[k], high_at[k]) = (l[k], p);
            }
        }
    }
    Some(Extremes {
        points: std::array::from_fn(|i| *if i < 7 { low_at[i] } else { high_at[i - 7] }),
    })
}

/// Step 2's first edge: of the seven low–high pairs, the one farthest apart.
fn farthest_pair(extremes: &Extremes) -> (Point, Point) {
    (0..7)
        .map(|k| (extremes.points[k], extremes.points[k + 7]))
        .max_by(|a, b| {
            (a.1 - a.0)
                .norm_squared()
                .total_cmp(&(b.1 - b.0).norm_squared())
        })
        .expect("seven pairs")
}

/// Step 2's third corner: the point farthest from the line through `origin` along `edge`
/// (`None` when every point lies on it, to rounding).
fn farthest_from_line(points: &[Point], origin: &Point, edge: &Vector) -> Option<Point> {
    let (far, d2) = points
        .iter()
        .map(|p| (*p, (p - origin).cross(edge).norm_squared()))
        .max_by(|a, b| a.1.total_cmp(&b.1))?;
    (d2 > 0.0).then_some(far)
}

/// Step 3: the lowest and highest points along `normal` that lie off the base plane.
fn apexes<'a>(
    points: &'a [Point],
    origin: &'a Point,
    normal: &'a Vector,
) -> impl Iterator<Item = Point> + 'a {
    let height = move |p: &Point| (p - origin).dot(normal);
    let by_height = |a: &&Point, b: &&Point| height(a).total_cmp(&height(b));
    let low = points.iter().min_by(by_height).expect("fourteen points");
    let high = points.iter().max_by(by_height).expect("fourteen points");
    [low, high]
        .into_iter()
        .filter(move |p| height(p) != 0.0)
        .copied()
}

/// `v / |v|`, or `None` for a zero (or non-finite) vector.
fn unit(v: &Vector) -> Option<Vector> {
    let n = v.norm();
    (n > 0.0 && n.is_finite()).then(|| v / n)
}

/// Step 4's best frame so far and the surface measure of its box around the extreme points.
struct Candidate {
    axes: Option<Matrix3<f64>>,
    area: f64,
}

impl Candidate {
    fn worst() -> Self {
        Self {
            axes: None,
            area: f64::INFINITY,
        }
    }

    /// The frames of `face` (unit `normal`): each edge with the normal and their cross product.
    /// The spread along the normal is shared by the three.
    fn consider_face(&mut self, face: &[Point; 3], normal: &Vector, points: &[Point]) {
        let height = spread(normal, points);
        for k in 0..3 {
            let Some(edge) = unit(&(face[(k + 1) % 3] - face[k])) else {
                continue;
            };
            let Some(side) = unit(&normal.cross(&edge)) else {
                continue;
            };
            let (length, width) = (spread(&edge, points), spread(&side, points));
            let area = length * width + (length + width) * height;
            if area < self.area {
                let axes = Matrix3::from_columns(&[edge, side, edge.cross(&side)]);
                *self = Self {
                    axes: Some(axes),
                    area,
                };
            }
        }
    }
}

/// The length of the projection of `points` on `axis`: a box's side along it. Half the surface
/// area of the box, `Σ` of the products of two sides, is Larsson & Källberg's ranking measure.
fn spread(axis: &Vector, points: &[Point]) -> f64 {
    let (lo, hi) = points
        .iter()
        .map(|p| axis.dot(&p.coords))
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), l| {
            (lo.min(l), hi.max(l))
        });
    hi - lo
}
