//! Primitive shapes as exact geometry: sphere, capsule, cylinder, box, convex hull and
//! halfspace, and exact yes/no tests ("do they touch") of each against a triangle and against
//! each other (two conservative ones: capsule–cylinder and cylinder–cylinder, see below).
//!
//! # Exactness model
//!
//! A shape is placed the way a mesh vertex is placed ([`Shape::place`]): its centre, its
//! segment's or axis's ends and its corners (box corners, convex vertices) go through
//! [`Pose::transform_point`] (`R·p + t` in `f64`), and its radius is kept as given. A halfspace's
//! plane is placed by `n' = R·n`, `d' = d + n'·t` in `f64` (at the identity nothing is
//! rounded, so a halfspace given in the world frame is placed by [`Pose::identity`]). The
//! [`PlacedShape`] so obtained *is* the shape from then on, and every yes/no below is decided
//! **exactly** on its `f64` data:
//!
//! * a sphere is the set of points within `radius` of its centre, a capsule the set within
//!   `radius` of its segment (closed: touching counts);
//! * a cylinder is the set within `radius` of the line through its placed axis ends `a`, `b`
//!   and between the planes through `a` and `b` perpendicular to `b − a` (flat caps);
//! * a box or convex shape is the convex hull of its placed corners or points, a
//!   [`Polytope`] (its hull is recomputed exactly after placement, since rounding can move a
//!   vertex inside the hull of the others or make a box's face non-planar);
//! * a halfspace is `{p : n'·p <= d'}`.
//!
//! Every placed coordinate, radius, normal entry and offset is checked to lie in the exact
//! range of [`range`](crate::range), on which the predicates used here
//! ([`orient3d`](crate::predicates::orient3d), [`tri_tri_exact`](crate::intersect::tri_tri_exact),
//! [`tri_tri::within`](crate::distance::tri_tri::within)) are exact; placing out of it is an
//! error ([`ShapeError::PlacedOutOfRange`]).
//!
//! # Pairs
//!
//! One pair per file (parry's layout; the names of Ericson, *Real-Time Collision Detection*
//! (2005), ch. 4–5): `sphere_triangle.rs`, `capsule_triangle.rs`, `cylinder_triangle.rs`,
//! `polytope_triangle.rs`, `halfspace_triangle.rs`, `sphere_sphere.rs`, `sphere_capsule.rs`,
//! `sphere_cylinder.rs`, `capsule_capsule.rs`, `capsule_cylinder.rs`, `cylinder_cylinder.rs`,
//! `sphere_polytope.rs`, `capsule_polytope.rs`, `cylinder_polytope.rs`, `polytope_polytope.rs`,
//! `halfspace_sphere.rs`, `halfspace_capsule.rs`, `halfspace_cylinder.rs`,
//! `halfspace_polytope.rs`, `halfspace_halfspace.rs`; one dispatch, [`touches`] and
//! [`touches_triangle`], here. Rays against each placed shape: `ray_sphere.rs`,
//! `ray_capsule.rs`, `ray_cylinder.rs`, `ray_polytope.rs`, `ray_halfspace.rs`, over the
//! policy and exact decision of [`ray`] (dispatched in the query crate). Two helper files:
//! `plane.rs` (exact halfspace signs) and `field.rs` (the cylinder and ray tests' numbers:
//! rigorous intervals as the float filter, exact rationals behind them, one code path for
//! both).
//!
//! Every pair is exact except two, which are **conservative**: never a false "no", and a
//! "yes" possible for shapes slightly apart. [`capsule_cylinder`] may say yes when the squared
//! distance exceeds the squared radius by at most `2⁻³⁷·M²` (`M` the largest input
//! magnitude); [`cylinder_cylinder`] may say yes when a certified squared distance is at most
//! `2⁻³⁸·M²`, or, in a last step for the rare cases its search does not settle, when both
//! bounding capsules (radius about each axis) touch the other cylinder, a band up to the radii
//! near the rims (see each function). The distances involved reach the rim circles, whose
//! exact tests are quartic.
//!
//! ```
//! use obbtree_bv::shape::{touches, touches_triangle, Shape};
//! use obbtree_bv::{Point, Pose, Triangle};
//!
//! let ball = Shape::sphere(1.0)?.place(&Pose::identity())?;
//! let cube = Shape::cuboid([2.0, 2.0, 2.0])?.place(&Pose::from_translation([2.0, 0.0, 0.0])?)?;
//! // The cube's face x = 1 touches the ball at (1, 0, 0): touching counts.
//! assert!(touches(&ball, &cube));
//! let far = Shape::cuboid([2.0, 2.0, 2.0])?.place(&Pose::from_translation([2.5, 0.0, 0.0])?)?;
//! assert!(!touches(&ball, &far));
//! // A triangle wholly inside the ball touches it (solids).
//! let t = Triangle::new(Point::new(0.1, 0.0, 0.0), Point::new(0.0, 0.1, 0.0), Point::origin());
//! assert!(touches_triangle(&ball, &t));
//! // A cylinder standing on the ball: its cap z = 1 touches it at (0, 0, 1).
//! let can = Shape::cylinder(0.5, 2.0)?.place(&Pose::from_translation([0.0, 0.0, 2.0])?)?;
//! assert!(touches(&ball, &can));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod bounds;
mod capsule_capsule;
mod capsule_cylinder;
mod capsule_polytope;
mod capsule_triangle;
mod cylinder_cylinder;
mod cylinder_polytope;
mod cylinder_triangle;
mod field;
mod halfspace_capsule;
mod halfspace_cylinder;
mod halfspace_halfspace;
mod halfspace_polytope;
mod halfspace_sphere;
mod halfspace_triangle;
mod plane;
mod polytope;
mod polytope_polytope;
mod polytope_triangle;
pub mod ray;
mod ray_capsule;
mod ray_cylinder;
mod ray_halfspace;
mod ray_polytope;
mod ray_sphere;
mod separating_axes;
mod sphere_capsule;
mod sphere_cylinder;
mod sphere_polytope;
mod sphere_sphere;
mod sphere_triangle;

pub use capsule_capsule::capsule_capsule;
pub use capsule_cylinder::capsule_cylinder;
#[doc(hidden)]
pub use capsule_cylinder::capsule_cylinder_wide_enclosures;
pub use capsule_polytope::capsule_polytope;
pub use capsule_triangle::capsule_triangle;
pub use cylinder_cylinder::cylinder_cylinder;
#[doc(hidden)]
pub use cylinder_cylinder::cylinder_cylinder_fallbacks;
pub use cylinder_polytope::cylinder_polytope;
pub use cylinder_triangle::cylinder_triangle;
#[doc(hidden)]
pub use cylinder_triangle::cylinder_triangle_exact_runs;
pub use halfspace_capsule::halfspace_capsule;
pub use halfspace_cylinder::halfspace_cylinder;
pub use halfspace_halfspace::halfspace_halfspace;
pub use halfspace_polytope::halfspace_polytope;
pub use halfspace_sphere::halfspace_sphere;
pub use halfspace_triangle::halfspace_triangle;
pub use polytope::Polytope;
pub use polytope_polytope::polytope_polytope;
pub use polytope_triangle::polytope_triangle;
pub use ray::{ShapeCrossing, ShapeCrossings};
pub use ray_capsule::ray_capsule;
pub use ray_cylinder::ray_cylinder;
pub use ray_halfspace::ray_halfspace;
pub use ray_polytope::ray_polytope;
pub use ray_sphere::ray_sphere;
pub use sphere_capsule::sphere_capsule;
pub use sphere_cylinder::sphere_cylinder;
pub use sphere_polytope::sphere_polytope;
pub use sphere_sphere::sphere_sphere;
pub use sphere_triangle::sphere_triangle;

use crate::range::in_exact_range;
use crate::{Point, Pose, Triangle, Vector};

/// Why a shape or a placement was refused. Each variant names the offending field.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ShapeError {
    /// A size is NaN, infinite, or not positive (`length` of a capsule may be 0, of a cylinder
    /// not).
    #[error(
        "the shape's {field} is {value}: it must be a finite number > 0 (a capsule's length >= 0)"
    )]
    NotPositive {
        /// `"radius"`, `"length"`, `"size x"`, ...
        field: &'static str,
        /// The offending value.
        value: f64,
    },
    /// A value is not in the exact range of [`range`](crate::range) (0 or a multiple of
    /// `2⁻³⁰⁶` of magnitude at most `2³³⁹`; every `f64` in `3.5e-77 ..= 1.1e102` is).
    #[error("the shape's {field} is {value:e}, outside the exact range (0 or 3.5e-77 ..= 1.1e102 in magnitude)")]
    OutOfRange {
        /// `"radius"`, `"length"`, `"size x"`, `"convex points"`, `"normal"` or `"offset"`.
        field: &'static str,
        /// The offending value.
        value: f64,
    },
    /// A halfspace's normal is zero.
    #[error("the halfspace's normal is zero")]
    ZeroNormal,
    /// A cylinder's placed axis ends rounded to the same point (its length is negligible next
    /// to its placed coordinates), leaving no axis direction.
    #[error(
        "placing the cylinder rounds both ends of its axis to the same point; lengthen it or \
         move it closer to the origin"
    )]
    AxisCollapsed,
    /// A convex shape's points do not span three dimensions (fewer than four, or all
    /// coplanar: decided exactly), or a placed box or convex shape became flat by rounding.
    #[error("the {field} do not span three dimensions (fewer than 4 points, or all coplanar)")]
    Flat {
        /// `"convex points"`, `"placed corners"`, `"placed vertices"` or `"points"`.
        field: &'static str,
    },
    /// A placed coordinate, normal entry or offset left the exact range.
    #[error(
        "placing the shape gives {field} {value:e}, outside the exact range (0 or 3.5e-77 ..= \
         1.1e102 in magnitude); move the shape closer to the origin or snap the pose"
    )]
    PlacedOutOfRange {
        /// `"the centre"`, `"a segment end"`, `"an axis end"`, `"a corner"`, `"a vertex"`, `"the normal"` or
        /// `"the offset"`.
        field: &'static str,
        /// The offending value.
        value: f64,
    },
    /// The placed vertices' nonzero coordinate magnitudes span more than about `2²⁰⁰`, beyond
    /// what the exact convex hull accepts even after scaling by a power of two (see
    /// [`Polytope::hull`]).
    #[error(
        "the vertices' nonzero coordinates span a ratio of {span:e}, more than the exact hull \
         accepts (about 2^200)"
    )]
    HullSpan {
        /// Largest over smallest nonzero magnitude.
        span: f64,
    },
}

/// Checks that `value` is finite and positive (or zero if `zero_ok`) and in the exact range.
fn check_size(field: &'static str, value: f64, zero_ok: bool) -> Result<f64, ShapeError> {
    if !value.is_finite() || value < 0.0 || (value == 0.0 && !zero_ok) {
        return Err(ShapeError::NotPositive { field, value });
    }
    if !in_exact_range(value) {
        return Err(ShapeError::OutOfRange { field, value });
    }
    Ok(value)
}

/// Checks every coordinate of a placed point.
fn check_placed(field: &'static str, p: &Point) -> Result<Point, ShapeError> {
    match p.iter().find(|x| !in_exact_range(**x)) {
        Some(&value) => Err(ShapeError::PlacedOutOfRange { field, value }),
        None => Ok(*p),
    }
}

/// A sphere of radius `radius` centred at the origin of its frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sphere {
    radius: f64,
}

impl Sphere {
    /// The radius.
    pub fn radius(&self) -> f64 {
        self.radius
    }
}

/// A capsule: the segment from `(0, 0, -length/2)` to `(0, 0, length/2)` swept by a ball of
/// radius `radius`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Capsule {
    radius: f64,
    length: f64,
}

impl Capsule {
    /// The radius.
    pub fn radius(&self) -> f64 {
        self.radius
    }
    /// The length of the segment (0: a sphere).
    pub fn length(&self) -> f64 {
        self.length
    }
    /// The segment's ends in the capsule's frame ([`axis_ends`]).
    fn ends(&self) -> [Point; 2] {
        axis_ends(self.length)
    }
}

/// A solid cylinder: the disc of radius `radius` about the z axis swept from
/// `z = -length/2` to `z = length/2` (flat caps).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cylinder {
    radius: f64,
    length: f64,
}

impl Cylinder {
    /// The radius.
    pub fn radius(&self) -> f64 {
        self.radius
    }
    /// The length of the axis (> 0).
    pub fn length(&self) -> f64 {
        self.length
    }
    /// The axis's ends in the cylinder's frame ([`axis_ends`]).
    fn ends(&self) -> [Point; 2] {
        axis_ends(self.length)
    }
}

/// The ends of a centred segment of `length` along z, `(0, 0, ∓length/2)` (`length / 2` is
/// exact in the exact range): a capsule's segment, a cylinder's axis.
fn axis_ends(length: f64) -> [Point; 2] {
    let h = length / 2.0;
    [Point::new(0.0, 0.0, -h), Point::new(0.0, 0.0, h)]
}

/// A box of full sizes `sizes`, centred at the origin, edges along the axes of its frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cuboid {
    sizes: Vector,
}

impl Cuboid {
    /// The full sizes along x, y, z.
    pub fn sizes(&self) -> Vector {
        self.sizes
    }
    /// The box's six faces over [`Cuboid::corners`], each a quad in counter-clockwise order
    /// seen from outside.
    pub const FACES: [[u32; 4]; 6] = [
        [0, 4, 6, 2],
        [1, 3, 7, 5],
        [0, 1, 5, 4],
        [2, 6, 7, 3],
        [0, 2, 3, 1],
        [4, 5, 7, 6],
    ];

    /// The eight corners in the box's frame (`±size / 2`, exact in the exact range).
    pub fn corners(&self) -> [Point; 8] {
        let h = self.sizes / 2.0;
        std::array::from_fn(|i| {
            let s = |bit: usize, x: f64| if i >> bit & 1 == 1 { x } else { -x };
            Point::new(s(0, h.x), s(1, h.y), s(2, h.z))
        })
    }
}

/// The convex hull of a point set. All the points are kept, not only the hull's vertices:
/// placing rounds each point, and a point just inside the hull in the shape's frame may end
/// up outside the hull of the others once placed; the placed shape is the hull of all of them.
#[derive(Clone, Debug, PartialEq)]
pub struct Convex {
    points: Vec<Point>,
}

impl Convex {
    /// The points (in the convex shape's frame).
    pub fn points(&self) -> &[Point] {
        &self.points
    }
}

/// The halfspace `{p : normal·p <= offset}` (closed).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Halfspace {
    normal: Vector,
    offset: f64,
}

impl Halfspace {
    /// The outward normal (any nonzero length).
    pub fn normal(&self) -> Vector {
        self.normal
    }
    /// The offset `d` of `normal·p <= d`.
    pub fn offset(&self) -> f64 {
        self.offset
    }
}

/// A primitive shape in its own frame, validated on construction.
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    /// See [`Sphere`].
    Sphere(Sphere),
    /// See [`Capsule`].
    Capsule(Capsule),
    /// See [`Cylinder`].
    Cylinder(Cylinder),
    /// See [`Cuboid`].
    Cuboid(Cuboid),
    /// See [`Convex`].
    Convex(Convex),
    /// See [`Halfspace`].
    Halfspace(Halfspace),
}

impl Shape {
    /// A sphere: `radius` finite, `> 0`, in the exact range.
    pub fn sphere(radius: f64) -> Result<Self, ShapeError> {
        let radius = check_size("radius", radius, false)?;
        Ok(Self::Sphere(Sphere { radius }))
    }

    /// A capsule along z: `radius > 0`, `length >= 0`, both finite and in the exact range (as
    /// is `length / 2`).
    pub fn capsule(radius: f64, length: f64) -> Result<Self, ShapeError> {
        let radius = check_size("radius", radius, false)?;
        let length = check_size("length", length, true)?;
        check_size("length", length / 2.0, true)?;
        Ok(Self::Capsule(Capsule { radius, length }))
    }

    /// A solid cylinder along z, centred: `radius > 0`, `length > 0`, both finite and in the
    /// exact range (as is `length / 2`).
    pub fn cylinder(radius: f64, length: f64) -> Result<Self, ShapeError> {
        let radius = check_size("radius", radius, false)?;
        let length = check_size("length", length, false)?;
        check_size("length", length / 2.0, false)?;
        Ok(Self::Cylinder(Cylinder { radius, length }))
    }

    /// A box of full sizes `sizes` (each finite, `> 0`, its half in the exact range).
    pub fn cuboid(sizes: impl Into<Vector>) -> Result<Self, ShapeError> {
        let sizes = sizes.into();
        for (field, x) in ["size x", "size y", "size z"].into_iter().zip(sizes.iter()) {
            check_size(field, *x, false)?;
            check_size(field, x / 2.0, false)?;
        }
        Ok(Self::Cuboid(Cuboid { sizes }))
    }

    /// The convex hull of `points` (every coordinate in the exact range; at least four points
    /// not all coplanar, decided exactly by
    /// [`convex_hull`](crate::fit::hull::convex_hull)).
    pub fn convex(points: &[Point]) -> Result<Self, ShapeError> {
        for p in points {
            if let Some(&value) = p.iter().find(|x| !in_exact_range(**x)) {
                return Err(ShapeError::OutOfRange {
                    field: "convex points",
                    value,
                });
            }
        }
        Polytope::hull_of(points.to_vec(), "convex points")?;
        Ok(Self::Convex(Convex {
            points: points.to_vec(),
        }))
    }

    /// The halfspace `{p : normal·p <= offset}`: entries finite and in the exact range,
    /// `normal` nonzero (any length).
    pub fn halfspace(normal: impl Into<Vector>, offset: f64) -> Result<Self, ShapeError> {
        let normal = normal.into();
        if let Some(&value) = normal.iter().find(|x| !in_exact_range(**x)) {
            return Err(ShapeError::OutOfRange {
                field: "normal",
                value,
            });
        }
        if !in_exact_range(offset) {
            return Err(ShapeError::OutOfRange {
                field: "offset",
                value: offset,
            });
        }
        if normal == Vector::zeros() {
            return Err(ShapeError::ZeroNormal);
        }
        Ok(Self::Halfspace(Halfspace { normal, offset }))
    }

    /// The shape placed by `pose` (see the module docs): points by
    /// [`Pose::transform_point`], radii unchanged, a box or convex shape as the exact hull of
    /// its placed points. Fails when a placed value leaves the exact range, when a placed
    /// box or convex shape is flat or beyond the hull's span, or when a cylinder's placed axis
    /// ends coincide (see [`ShapeError`]).
    pub fn place(&self, pose: &Pose) -> Result<PlacedShape, ShapeError> {
        let place = |field: &'static str, p: &Point| check_placed(field, &pose.transform_point(p));
        Ok(match self {
            Shape::Sphere(s) => PlacedShape::Sphere {
                center: place("the centre", &Point::origin())?,
                radius: s.radius,
            },
            Shape::Capsule(c) => {
                let [a, b] = c.ends();
                PlacedShape::Capsule {
                    a: place("a segment end", &a)?,
                    b: place("a segment end", &b)?,
                    radius: c.radius,
                }
            }
            Shape::Cylinder(c) => {
                let [a, b] = c.ends();
                let (a, b) = (place("an axis end", &a)?, place("an axis end", &b)?);
                if a == b {
                    return Err(ShapeError::AxisCollapsed);
                }
                PlacedShape::Cylinder {
                    a,
                    b,
                    radius: c.radius,
                }
            }
            Shape::Cuboid(b) => {
                let corners = b
                    .corners()
                    .iter()
                    .map(|p| place("a corner", p))
                    .collect::<Result<Vec<_>, _>>()?;
                PlacedShape::Polytope(Polytope::with_faces(
                    corners,
                    &Cuboid::FACES,
                    "placed corners",
                )?)
            }
            Shape::Convex(c) => {
                let vertices = c
                    .points
                    .iter()
                    .map(|p| place("a vertex", p))
                    .collect::<Result<Vec<_>, _>>()?;
                PlacedShape::Polytope(Polytope::hull_of(vertices, "placed vertices")?)
            }
            Shape::Halfspace(h) => {
                let normal = pose.transform_vector(&h.normal);
                let offset = h.offset + normal.dot(pose.translation());
                if let Some(&value) = normal.iter().find(|x| !in_exact_range(**x)) {
                    return Err(ShapeError::PlacedOutOfRange {
                        field: "the normal",
                        value,
                    });
                }
                if !in_exact_range(offset) {
                    return Err(ShapeError::PlacedOutOfRange {
                        field: "the offset",
                        value: offset,
                    });
                }
                if normal == Vector::zeros() {
                    return Err(ShapeError::ZeroNormal);
                }
                PlacedShape::Halfspace { normal, offset }
            }
        })
    }
}

/// A shape placed in the world: the exact data every test decides on (see the module docs).
/// Made by [`Shape::place`], which checks the exact range; the fields are public for reading
/// and for tests, and a value built by hand must keep every coordinate, radius, normal entry
/// and offset in the exact range, radii `>= 0`, normals nonzero and a cylinder's axis ends
/// distinct.
#[derive(Clone, Debug, PartialEq)]
pub enum PlacedShape {
    /// The points within `radius` of `center`.
    Sphere {
        /// The placed centre.
        center: Point,
        /// The radius (not rounded).
        radius: f64,
    },
    /// The points within `radius` of the segment `[a, b]`.
    Capsule {
        /// One placed end of the segment.
        a: Point,
        /// The other.
        b: Point,
        /// The radius (not rounded).
        radius: f64,
    },
    /// The solid cylinder of radius `radius` about the segment `[a, b]` (`a ≠ b`): the points
    /// within `radius` of the line through `a` and `b` and between the planes through `a` and
    /// `b` perpendicular to `b − a` (flat caps; its length is `|b − a|` as placed).
    Cylinder {
        /// One placed end of the axis.
        a: Point,
        /// The other.
        b: Point,
        /// The radius (not rounded).
        radius: f64,
    },
    /// The convex hull of placed points (a box or a convex shape).
    Polytope(Polytope),
    /// `{p : normal·p <= offset}`.
    Halfspace {
        /// The placed normal.
        normal: Vector,
        /// The placed offset.
        offset: f64,
    },
}

/// Whether the placed solids `a` and `b` share a point, decided exactly (touching counts),
/// except capsule–cylinder and cylinder–cylinder, decided conservatively (never a false "no";
/// see the module docs). One dispatch over the pair files; the pair is symmetric.
pub fn touches(a: &PlacedShape, b: &PlacedShape) -> bool {
    use PlacedShape::*;
    match (a, b) {
        (
            Sphere {
                center: c,
                radius: r,
            },
            Sphere {
                center: d,
                radius: s,
            },
        ) => sphere_sphere(c, *r, d, *s),
        (Sphere { center, radius }, Capsule { a, b, radius: s })
        | (Capsule { a, b, radius: s }, Sphere { center, radius }) => {
            sphere_capsule(center, *radius, [a, b], *s)
        }
        (
            Capsule { a, b, radius: r },
            Capsule {
                a: c,
                b: d,
                radius: s,
            },
        ) => capsule_capsule([a, b], *r, [c, d], *s),
        (Sphere { center, radius }, Polytope(p)) | (Polytope(p), Sphere { center, radius }) => {
            sphere_polytope(center, *radius, p)
        }
        (Capsule { a, b, radius }, Polytope(p)) | (Polytope(p), Capsule { a, b, radius }) => {
            capsule_polytope([a, b], *radius, p)
        }
        (Polytope(p), Polytope(q)) => polytope_polytope(p, q),
        (Sphere { center, radius }, Cylinder { a, b, radius: s })
        | (Cylinder { a, b, radius: s }, Sphere { center, radius }) => {
            sphere_cylinder(center, *radius, [a, b], *s)
        }
        (
            Capsule { a, b, radius },
            Cylinder {
                a: c,
                b: d,
                radius: s,
            },
        )
        | (
            Cylinder {
                a: c,
                b: d,
                radius: s,
            },
            Capsule { a, b, radius },
        ) => capsule_cylinder([a, b], *radius, [c, d], *s),
        (
            Cylinder { a, b, radius: r },
            Cylinder {
                a: c,
                b: d,
                radius: s,
            },
        ) => cylinder_cylinder([a, b], *r, [c, d], *s),
        (Cylinder { a, b, radius }, Polytope(p)) | (Polytope(p), Cylinder { a, b, radius }) => {
            cylinder_polytope([a, b], *radius, p)
        }
        (Halfspace { normal, offset }, Cylinder { a, b, radius })
        | (Cylinder { a, b, radius }, Halfspace { normal, offset }) => {
            halfspace_cylinder(normal, *offset, [a, b], *radius)
        }
        (Halfspace { normal, offset }, Sphere { center, radius })
        | (Sphere { center, radius }, Halfspace { normal, offset }) => {
            halfspace_sphere(normal, *offset, center, *radius)
        }
        (Halfspace { normal, offset }, Capsule { a, b, radius })
        | (Capsule { a, b, radius }, Halfspace { normal, offset }) => {
            halfspace_capsule(normal, *offset, [a, b], *radius)
        }
        (Halfspace { normal, offset }, Polytope(p))
        | (Polytope(p), Halfspace { normal, offset }) => halfspace_polytope(normal, *offset, p),
        (
            Halfspace { normal, offset },
            Halfspace {
                normal: m,
                offset: e,
            },
        ) => halfspace_halfspace(normal, *offset, m, *e),
    }
}

/// Whether the placed solid `shape` and the closed triangle `triangle` share a point, decided
/// exactly (touching counts; a triangle wholly inside the solid touches it). Zero-area
/// triangles are the segment or point they are.
pub fn touches_triangle(shape: &PlacedShape, triangle: &Triangle) -> bool {
    match shape {
        PlacedShape::Sphere { center, radius } => sphere_triangle(center, *radius, triangle),
        PlacedShape::Capsule { a, b, radius } => capsule_triangle([a, b], *radius, triangle),
        PlacedShape::Cylinder { a, b, radius } => cylinder_triangle([a, b], *radius, triangle),
        PlacedShape::Polytope(p) => polytope_triangle(p, triangle),
        PlacedShape::Halfspace { normal, offset } => halfspace_triangle(normal, *offset, triangle),
    }
}
