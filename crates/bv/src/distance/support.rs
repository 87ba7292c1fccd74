//! Support mappings of convex sets (van den Bergen, *Collision Detection in Interactive 3D
//! Environments* (2003) §4.3): the point of the set farthest along a direction, and a bound
//! on how far it reaches. They drive the closest-point search of [`gjk`] and the
//! certificates of [`certified`](super::certified).
//!
//! Two kinds of sets: the convex hull of a few points ([`Hull`]: a point, a segment, a
//! triangle, a polytope's vertices) and a solid cylinder ([`Cylinder`]: the disc of radius `r`
//! perpendicular to the axis `[a, b]`, swept along it; its support is in closed form, the end
//! farther along `d` moved by `r` along `d`'s part perpendicular to the axis).

use super::{gjk, point_segment, point_triangle};
use crate::{Point, Triangle, Vector};

/// A convex set given by its support mapping.
pub trait Support {
    /// A point of the set (up to rounding) with the largest projection on `d`.
    fn support(&self, d: &Vector) -> Point;
    /// An upper bound on `max d·x` over the set, rounding included: the computed value
    /// plus [`SUPPORT_ROUNDING`]` · |d|₁ · magnitude()`.
    fn reach(&self, d: &Vector) -> f64;
    /// A bound on the set's coordinates' magnitude plus its radius: the scale of the rounding
    /// of its support points.
    fn magnitude(&self) -> f64;
    /// A point inside the set, to start a search from.
    fn centre(&self) -> Point;
    /// Pushes onto `out` the directions near `n` that the set's flat features make likely
    /// optimal for a separating plane (a face's normal, `n` made perpendicular to an edge or
    /// an axis), each signed to point along `n`. Any direction is a valid one to bound with:
    /// these only make the bound tighter.
    fn refine(&self, n: &Vector, out: &mut Vec<Vector>);
    /// The point of the set nearest `p` (`None` when it cannot tell: `p` inside).
    fn closest(&self, p: &Point) -> Option<Point>;
}

/// `n` less its part along `e` (nothing when that leaves nothing).
fn perpendicular(n: &Vector, e: &Vector, out: &mut Vec<Vector>) {
    let ee = e.norm_squared();
    if ee > 0.0 {
        let m = n - e * (n.dot(e) / ee);
        if m != Vector::zeros() {
            out.push(m);
        }
    }
}

/// `m` or `−m`, whichever points along `n`.
fn along(m: Vector, n: &Vector) -> Vector {
    if m.dot(n) < 0.0 {
        -m
    } else {
        m
    }
}

/// Relative bound on the rounding of a support point and of its projection (a few products
/// and sums, a square root and a division, each a unit of rounding of the magnitudes
/// involved; Higham, *Accuracy and Stability of Numerical Algorithms* (2002) §3.1): many times
/// more than they cost, as [`SLACK`](super::SLACK) is for the volume bounds.
pub const SUPPORT_ROUNDING: f64 = 64.0 * f64::EPSILON;

/// The convex hull of a few points (at least one).
#[derive(Clone, Copy, Debug)]
pub struct Hull<'p>(pub &'p [Point]);

impl Support for Hull<'_> {
    fn support(&self, d: &Vector) -> Point {
        *self
            .0
            .iter()
            .max_by(|p, q| p.coords.dot(d).total_cmp(&q.coords.dot(d)))
            .expect("a hull has a point")
    }

    fn reach(&self, d: &Vector) -> f64 {
        let top = self.support(d).coords.dot(d);
        top + SUPPORT_ROUNDING * d.abs().sum() * self.magnitude()
    }

    fn magnitude(&self) -> f64 {
        self.0.iter().map(|p| p.coords.amax()).fold(0.0, f64::max)
    }

    fn refine(&self, n: &Vector, out: &mut Vec<Vector>) {
        match self.0 {
            [a, b] => perpendicular(n, &(b - a), out),
            [a, b, c] => {
                let normal = (b - a).cross(&(c - a));
                if normal != Vector::zeros() {
                    out.push(along(normal, n));
                }
                for (p, q) in [(a, b), (b, c), (c, a)] {
                    perpendicular(n, &(q - p), out);
                }
            }
            _ => {}
        }
    }

    fn closest(&self, p: &Point) -> Option<Point> {
        match self.0 {
            [a] => Some(*a),
            [a, b] => Some(point_segment::closest_point(p, a, b)),
            [a, b, c] => Some(point_triangle::closest_point(p, &Triangle::new(*a, *b, *c))),
            // A polytope: GJK between the point and the hull (finite for polytopes).
            _ => gjk::closest_points(|_| *p, |d| self.support(d), &(p - self.centre()))
                .map(|(_, q)| q),
        }
    }

    fn centre(&self) -> Point {
        let sum = self.0.iter().fold(Vector::zeros(), |s, p| s + p.coords);
        Point::from(sum / self.0.len() as f64)
    }
}

/// The solid cylinder of radius `radius` about the segment `[a, b]` (`a ≠ b`), flat caps.
#[derive(Clone, Copy, Debug)]
pub struct Cylinder {
    /// One end of the axis.
    pub a: Point,
    /// The other.
    pub b: Point,
    /// The radius.
    pub radius: f64,
}

impl Cylinder {
    /// The part of `d` perpendicular to the axis, projected twice (classical Gram–Schmidt
    /// with reorthogonalisation, Giraud, Langou & Rozložník, *Numer. Math.* 101 (2005)): once
    /// leaves a part along the axis of a few units of rounding of `|d|`, which would tilt a
    /// short result (`d` nearly along the axis) off the cap's plane; twice leaves a few units
    /// of rounding of the result.
    fn across(&self, d: &Vector) -> Vector {
        let u = self.b - self.a;
        let uu = u.norm_squared();
        let once = d - u * (d.dot(&u) / uu);
        once - u * (once.dot(&u) / uu)
    }

    /// The end of the axis farther along `d`.
    fn far_end(&self, d: &Vector) -> Point {
        if d.dot(&(self.b - self.a)) >= 0.0 {
            self.b
        } else {
            self.a
        }
    }
}

impl Support for Cylinder {
    fn support(&self, d: &Vector) -> Point {
        let (end, across) = (self.far_end(d), self.across(d));
        let length = across.norm();
        if length == 0.0 {
            end
        } else {
            end + across * (self.radius / length)
        }
    }

    fn reach(&self, d: &Vector) -> f64 {
        let top = self.far_end(d).coords.dot(d) + self.radius * self.across(d).norm();
        top + SUPPORT_ROUNDING * d.abs().sum() * self.magnitude()
    }

    fn magnitude(&self) -> f64 {
        self.a.coords.amax().max(self.b.coords.amax()) + self.radius
    }

    fn refine(&self, n: &Vector, out: &mut Vec<Vector>) {
        let axis = self.b - self.a;
        out.push(along(axis, n));
        perpendicular(n, &axis, out);
    }

    /// The axis's nearest point, moved out to the radius when `p` is farther from the axis
    /// (Ericson (2005) §5.1.2 for the axis; the disc's nearest point across it).
    fn closest(&self, p: &Point) -> Option<Point> {
        let on_axis = point_segment::closest_point(p, &self.a, &self.b);
        let out = self.across(&(p - on_axis));
        let length = out.norm();
        Some(if length <= self.radius {
            on_axis + out
        } else {
            on_axis + out * (self.radius / length)
        })
    }

    fn centre(&self) -> Point {
        Point::from((self.a.coords + self.b.coords) / 2.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cylinders_support_is_on_its_rim_or_cap_centre() {
        let c = Cylinder {
            a: Point::new(0.0, 0.0, -1.0),
            b: Point::new(0.0, 0.0, 1.0),
            radius: 2.0,
        };
        assert_eq!(
            c.support(&Vector::new(1.0, 0.0, 1.0)),
            Point::new(2.0, 0.0, 1.0)
        );
        assert_eq!(
            c.support(&Vector::new(0.0, 0.0, -1.0)),
            Point::new(0.0, 0.0, -1.0)
        );
        assert!(c.reach(&Vector::new(0.0, -3.0, -1.0)) >= 7.0);
        assert!(c.reach(&Vector::new(0.0, -3.0, -1.0)) < 7.0 + 1e-12);
    }
}
