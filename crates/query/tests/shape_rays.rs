//! Ray picking of primitive shapes (sphere, capsule, cylinder, box, convex hull, halfspace)
//! through `cast_ray`, `cast_ray_all`, `any_hit` and `cast_rays`.
//!
//! The oracles here share no code with the engine: a point's side of each solid and whether a
//! segment of the ray meets it are written out again in exact rationals (a convex hull's
//! planes found by brute force over every triple of its points), and the surface policy (entry
//! from outside or on the surface, exit when the far end is not in the interior) is checked
//! hit by hit. Hand-made cases pin tangent rays, rays missing by an ulp-scale offset on a
//! dyadic grid, corners, edges, faces, rays parallel to a cylinder's axis at its radius,
//! origins inside, `max_t` on the surface, and large and small scales.

mod common;

use common::{config, float_segment_distance, rng};
use num_rational::BigRational;
use num_traits::{Signed, Zero};
use obbtree_bv::shape::{PlacedShape, Shape};
use obbtree_bv::{Point, Pose, Ray, Vector};
use obbtree_query::{any_hit, cast_ray, cast_ray_all, cast_rays, Model, RayHit};
use proptest::prelude::*;
use rand::Rng;
use std::cmp::Ordering;

// ---- Exact oracle ----

type Q = BigRational;
type Q3 = [Q; 3];

fn q(x: f64) -> Q {
    Q::from_float(x).expect("finite")
}
fn q3(p: &[f64; 3]) -> Q3 {
    [q(p[0]), q(p[1]), q(p[2])]
}
fn pq(p: &Point) -> Q3 {
    q3(&[p.x, p.y, p.z])
}
fn vq(v: &Vector) -> Q3 {
    q3(&[v.x, v.y, v.z])
}
fn sub(a: &Q3, b: &Q3) -> Q3 {
    [&a[0] - &b[0], &a[1] - &b[1], &a[2] - &b[2]]
}
fn dot(a: &Q3, b: &Q3) -> Q {
    &a[0] * &b[0] + &a[1] * &b[1] + &a[2] * &b[2]
}
fn cross(a: &Q3, b: &Q3) -> Q3 {
    [
        &a[1] * &b[2] - &a[2] * &b[1],
        &a[2] * &b[0] - &a[0] * &b[2],
        &a[0] * &b[1] - &a[1] * &b[0],
    ]
}
fn along(o: &Q3, d: &Q3, t: &Q) -> Q3 {
    [&o[0] + t * &d[0], &o[1] + t * &d[1], &o[2] + t * &d[2]]
}
fn sign(x: &Q) -> Ordering {
    if x.is_positive() {
        Ordering::Greater
    } else if x.is_negative() {
        Ordering::Less
    } else {
        Ordering::Equal
    }
}
fn clamp(x: Q, lo: &Q, hi: Option<&Q>) -> Q {
    let x = if &x < lo { lo.clone() } else { x };
    match hi {
        Some(h) if &x > h => h.clone(),
        _ => x,
    }
}

/// A placed shape as the oracle sees it.
enum Solid {
    Ball(Q3, Q),
    Capsule(Q3, Q3, Q),
    Cylinder(Q3, Q3, Q),
    /// Supporting planes `n·(x − v) <= 0`, found by brute force over every triple of points.
    Hull(Vec<(Q3, Q3)>),
    Half(Q3, Q),
}

fn solid(placed: &PlacedShape) -> Solid {
    match placed {
        PlacedShape::Sphere { center, radius } => Solid::Ball(pq(center), q(*radius)),
        PlacedShape::Capsule { a, b, radius } => Solid::Capsule(pq(a), pq(b), q(*radius)),
        PlacedShape::Cylinder { a, b, radius } => Solid::Cylinder(pq(a), pq(b), q(*radius)),
        PlacedShape::Polytope(p) => Solid::Hull(brute_planes(p.vertices())),
        PlacedShape::Halfspace { normal, offset } => Solid::Half(vq(normal), q(*offset)),
    }
}

fn brute_planes(points: &[Point]) -> Vec<(Q3, Q3)> {
    let v: Vec<Q3> = points.iter().map(pq).collect();
    let mut planes = Vec::new();
    for i in 0..v.len() {
        for j in i + 1..v.len() {
            for k in j + 1..v.len() {
                let n = cross(&sub(&v[j], &v[i]), &sub(&v[k], &v[i]));
                if n.iter().all(Zero::is_zero) {
                    continue;
                }
                let signs: Vec<Ordering> =
                    v.iter().map(|p| sign(&dot(&n, &sub(p, &v[i])))).collect();
                if signs.iter().all(|s| *s != Ordering::Greater) {
                    planes.push((n, v[i].clone()));
                } else if signs.iter().all(|s| *s != Ordering::Less) {
                    planes.push((n.map(|x| -x), v[i].clone()));
                }
            }
        }
    }
    planes
}

/// Squared distance from `p` to the segment `[a, b]`.
fn dist2_segment(p: &Q3, a: &Q3, b: &Q3) -> Q {
    let (w, m) = (sub(b, a), sub(p, a));
    let ww = dot(&w, &w);
    if ww.is_zero() {
        return dot(&m, &m);
    }
    let s = clamp(
        dot(&m, &w) / &ww,
        &Q::zero(),
        Some(&Q::from_integer(1.into())),
    );
    let e = sub(&m, &w.clone().map(|x| x * &s));
    dot(&e, &e)
}

impl Solid {
    fn side(&self, p: &Q3) -> Ordering {
        match self {
            Solid::Ball(c, r) => {
                let m = sub(p, c);
                sign(&(dot(&m, &m) - r * r))
            }
            Solid::Capsule(a, b, r) => sign(&(dist2_segment(p, a, b) - r * r)),
            Solid::Cylinder(a, b, r) => {
                let (w, m) = (sub(b, a), sub(p, a));
                let (g, ww) = (dot(&m, &w), dot(&w, &w));
                let c = cross(&m, &w);
                let h = dot(&c, &c) - r * r * &ww;
                sign(&-g.clone()).max(sign(&(g - ww))).max(sign(&h))
            }
            Solid::Hull(planes) => planes
                .iter()
                .map(|(n, v)| sign(&dot(n, &sub(p, v))))
                .max()
                .unwrap(),
            Solid::Half(n, d) => sign(&(dot(n, p) - d)),
        }
    }

    /// Whether the segment `o + t·d`, `t ∈ [0, end]` (a ray for `None`) meets the closed solid.
    fn meets(&self, o: &Q3, d: &Q3, end: Option<&Q>) -> bool {
        let zero = Q::zero();
        match self {
            Solid::Ball(c, r) => {
                let m = sub(o, c);
                let t = clamp(-dot(&m, d) / dot(d, d), &zero, end);
                let _ = r;
                self.side(&along(o, d, &t)) != Ordering::Greater
            }
            // The union of its end balls and the cylinder between them.
            Solid::Capsule(a, b, r) => {
                Solid::Ball(a.clone(), r.clone()).meets(o, d, end)
                    || Solid::Ball(b.clone(), r.clone()).meets(o, d, end)
                    || (sub(b, a).iter().any(|x| !x.is_zero())
                        && Solid::Cylinder(a.clone(), b.clone(), r.clone()).meets(o, d, end))
            }
            Solid::Cylinder(a, b, r) => {
                let (w, m) = (sub(b, a), sub(o, a));
                let (ww, g0, gd) = (dot(&w, &w), dot(&m, &w), dot(d, &w));
                let (lo, hi) = if gd.is_zero() {
                    if g0.is_negative() || g0 > ww {
                        return false;
                    }
                    (zero.clone(), end.cloned())
                } else {
                    let (x, y) = (-&g0 / &gd, (&ww - &g0) / &gd);
                    let (x, y) = if x < y { (x, y) } else { (y, x) };
                    let lo = if x > zero { x } else { zero.clone() };
                    let hi = match end {
                        Some(e) if e < &y => e.clone(),
                        _ => y,
                    };
                    (lo, Some(hi))
                };
                if let Some(hi) = &hi {
                    if hi < &lo {
                        return false;
                    }
                }
                // Radial excess |(m + t d) × w|² − r² ww: least at its vertex, clamped.
                let (mc, e) = (cross(&m, &w), cross(d, &w));
                let ee = dot(&e, &e);
                let t = if ee.is_zero() {
                    lo.clone()
                } else {
                    clamp(-dot(&mc, &e) / &ee, &lo, hi.as_ref())
                };
                let c = cross(&sub(&along(o, d, &t), a), &w);
                dot(&c, &c) <= r * r * ww
            }
            Solid::Hull(planes) => {
                let (mut lo, mut hi) = (zero.clone(), end.cloned());
                for (n, v) in planes {
                    let (num, den) = (dot(n, &sub(v, o)), dot(n, d));
                    if den.is_zero() {
                        if num.is_negative() {
                            return false;
                        }
                    } else if den.is_negative() {
                        lo = lo.max(num / den);
                    } else {
                        let t = num / den;
                        hi = Some(hi.map_or(t.clone(), |h| h.min(t)));
                    }
                }
                hi.is_none_or(|h| lo <= h)
            }
            Solid::Half(n, c) => {
                dot(n, o) <= *c
                    || match end {
                        Some(e) => dot(n, &along(o, d, e)) <= *c,
                        None => dot(n, d).is_negative(),
                    }
            }
        }
    }

    /// Whether a ray from a point of the closed solid along `d` leaves it eventually.
    fn leaves(&self, d: &Q3) -> bool {
        match self {
            Solid::Half(n, _) => dot(n, d).is_positive(),
            _ => true,
        }
    }

    /// The crossings the surface policy predicts: (entry, exit).
    fn expected(&self, ray: &Ray, max_t: f64) -> (bool, bool) {
        let (o, d) = (pq(&ray.origin), vq(&ray.dir));
        let end = max_t.is_finite().then(|| q(max_t));
        let origin = self.side(&o);
        let enter = match origin {
            Ordering::Less => false,
            Ordering::Equal => true,
            Ordering::Greater => self.meets(&o, &d, end.as_ref()),
        };
        // A far end on the surface is the exit when a step of 2⁻⁴⁰⁰ further is outside: far
        // below any first- or second-order term of the test's dyadic inputs.
        let epsilon = q(2f64.powi(-400));
        let exit = (origin != Ordering::Greater || enter)
            && self.leaves(&d)
            && end
                .as_ref()
                .is_none_or(|e| match self.side(&along(&o, &d, e)) {
                    Ordering::Equal => {
                        self.side(&along(&o, &d, &(e + &epsilon))) == Ordering::Greater
                    }
                    side => side == Ordering::Greater,
                });
        (enter, exit)
    }

    fn side_at(&self, ray: &Ray, t: f64) -> Ordering {
        self.side(&along(&pq(&ray.origin), &vq(&ray.dir), &q(t)))
    }
}

// ---- Float distance to the surface, for the accuracy of the hit point ----

/// The distance from `p` to the surface of `placed` (a lower bound for a polytope near an edge).
fn surface_distance(placed: &PlacedShape, p: &Point) -> f64 {
    match placed {
        PlacedShape::Sphere { center, radius } => ((p - center).norm() - radius).abs(),
        PlacedShape::Capsule { a, b, radius } => (float_segment_distance(p, a, b) - radius).abs(),
        PlacedShape::Cylinder { a, b, radius } => {
            let w = b - a;
            let (len, axis) = (w.norm(), w.normalize());
            let g = (p - a).dot(&axis);
            let radial = ((p - a) - axis * g).norm();
            let (out_r, out_g) = ((radial - radius).max(0.0), (-g).max(g - len).max(0.0));
            if out_r > 0.0 || out_g > 0.0 {
                out_r.hypot(out_g)
            } else {
                (radius - radial).min(g).min(len - g)
            }
        }
        PlacedShape::Polytope(poly) => {
            let v = poly.vertices();
            brute_planes(v)
                .iter()
                .map(|(n, base)| {
                    let n = Vector::new(f(&n[0]), f(&n[1]), f(&n[2])).normalize();
                    let base = Point::new(f(&base[0]), f(&base[1]), f(&base[2]));
                    n.dot(&(p - base))
                })
                .fold(f64::NEG_INFINITY, f64::max)
                .abs()
        }
        PlacedShape::Halfspace { normal, offset } => {
            ((normal.dot(&p.coords) - offset) / normal.norm()).abs()
        }
    }
}

fn f(x: &Q) -> f64 {
    use num_traits::ToPrimitive;
    x.to_f64().unwrap()
}

/// A point of the solid well inside (for the outward check of a normal), or `None`.
fn inner_point(placed: &PlacedShape) -> Option<Point> {
    match placed {
        PlacedShape::Sphere { center, .. } => Some(*center),
        PlacedShape::Capsule { a, b, .. } | PlacedShape::Cylinder { a, b, .. } => {
            Some(Point::from((a.coords + b.coords) / 2.0))
        }
        PlacedShape::Polytope(p) => {
            let v = p.vertices();
            Some(Point::from(
                v.iter().map(|x| x.coords).sum::<Vector>() / v.len() as f64,
            ))
        }
        PlacedShape::Halfspace { .. } => None,
    }
}

/// `2⁻⁴⁰`, the relative accuracy of `t` and of the hit point stated in `shape::ray`.
const ACCURACY: f64 = 9.094947017729282e-13;

/// The size of a query, `L` of the stated bound.
fn scale(placed: &PlacedShape, ray: &Ray, t: f64) -> f64 {
    let (centre, size) = match placed {
        PlacedShape::Sphere { center, radius } => (*center, *radius),
        PlacedShape::Capsule { a, b, radius } | PlacedShape::Cylinder { a, b, radius } => (
            Point::from((a.coords + b.coords) / 2.0),
            (b - a).norm() + radius,
        ),
        PlacedShape::Polytope(p) => {
            let bounds = p.bounds();
            (
                Point::from((bounds.mins.coords + bounds.maxs.coords) / 2.0),
                (bounds.maxs - bounds.mins).norm(),
            )
        }
        PlacedShape::Halfspace { offset, normal } => {
            (Point::origin(), offset.abs() / normal.norm())
        }
    };
    (ray.origin - centre).norm() + size + t * ray.dir.norm()
}

/// Checks every hit of `ray` on the shape `placed` (`model` placed at `pose`) against the
/// oracle: the crossings that exist, their order and faces, `t` within the stated bound, the
/// point on the surface, the normal unit and outward, and the other queries' agreement.
fn check(model: &Model, pose: &Pose, ray: &Ray, max_t: f64) -> Vec<RayHit> {
    let placed = model.as_shape().unwrap().place(pose).unwrap();
    let oracle = solid(&placed);
    let all = cast_ray_all(model, pose, ray, max_t).unwrap();
    let (enter, exit) = oracle.expected(ray, max_t);
    let faces: Vec<bool> = all.iter().map(|h| h.front_face).collect();
    let want: Vec<bool> = [(enter, true), (exit, false)]
        .iter()
        .filter(|(present, _)| *present)
        .map(|(_, face)| *face)
        .collect();
    assert_eq!(faces, want, "{placed:?} {ray:?} max_t {max_t}: {all:?}");
    assert_eq!(
        cast_ray(model, pose, ray, max_t).unwrap(),
        all.first().copied()
    );
    assert_eq!(any_hit(model, pose, ray, max_t).unwrap(), !all.is_empty());
    assert_eq!(
        cast_rays(model, pose, &[*ray, *ray], max_t).unwrap(),
        vec![all.first().copied(); 2]
    );
    for (i, h) in all.iter().enumerate() {
        let context = format!("{placed:?} {ray:?} max_t {max_t}: hit {i} of {all:?}");
        assert!(h.t >= 0.0 && h.t <= max_t, "{context}");
        assert_eq!(h.triangle, 0);
        assert_eq!(h.point, ray.point_at(h.t), "{context}");
        assert!((h.normal.norm() - 1.0).abs() < 1e-12, "{context}");
        let size = scale(&placed, ray, h.t);
        assert!(
            surface_distance(&placed, &h.point) <= ACCURACY * size,
            "{context}: {} from the surface",
            surface_distance(&placed, &h.point)
        );
        match inner_point(&placed) {
            Some(c) => {
                let lateral = h.normal.dot(&(h.point - c));
                assert!(lateral >= -ACCURACY * size, "{context}: normal inward");
            }
            None => {
                let PlacedShape::Halfspace { normal, .. } = &placed else {
                    unreachable!()
                };
                assert!((h.normal - normal.normalize()).norm() < 1e-12, "{context}");
            }
        }
        if i == 1 {
            assert!(all[0].t <= h.t, "{context}");
        }
    }
    check_parameters(&oracle, &all, ray, max_t, &placed);
    all
}

/// Where the ray crosses at an angle (`cos θ >= 1/16` between the ray and the normal) and the
/// chord is longer than the bound, the exact side just before and after each reported `t`
/// proves the true crossing within `2⁻⁴⁰·L / cos θ` of it.
fn check_parameters(oracle: &Solid, all: &[RayHit], ray: &Ray, max_t: f64, placed: &PlacedShape) {
    let norm = ray.dir.norm();
    let band = |h: &RayHit| {
        let cos = h.normal.dot(&ray.dir).abs() / norm;
        (cos >= 1.0 / 16.0).then(|| ACCURACY * scale(placed, ray, h.t) / cos / norm)
    };
    let chord_ok = |delta: f64| all.len() < 2 || all[1].t - all[0].t > 4.0 * delta;
    for h in all {
        let Some(delta) = band(h) else { continue };
        if !chord_ok(delta) || h.t == 0.0 {
            continue;
        }
        let (before, after) = (h.t - delta, h.t + delta);
        let context = format!("{placed:?} {ray:?} max_t {max_t}: {h:?}, band {delta:e}");
        if h.front_face {
            if before > 0.0 {
                assert_eq!(oracle.side_at(ray, before), Ordering::Greater, "{context}");
            }
            if all.len() == 2 {
                assert_ne!(oracle.side_at(ray, after), Ordering::Greater, "{context}");
            }
        } else {
            if before > 0.0 && (all.len() == 2 || oracle.side_at(ray, 0.0) == Ordering::Less) {
                assert_ne!(oracle.side_at(ray, before), Ordering::Greater, "{context}");
            }
            assert_eq!(oracle.side_at(ray, after), Ordering::Greater, "{context}");
        }
    }
}

fn shape_model(shape: Shape) -> Model {
    Model::from_shape(shape)
}

fn ray(o: [f64; 3], d: [f64; 3]) -> Ray {
    Ray::new(Point::from(o), Vector::from(d))
}

const ULP: f64 = f64::EPSILON; // 2⁻⁵², one ulp of 1

// ---- Hand-made cases ----

#[test]
fn sphere_tangent_hits_and_an_ulp_off_misses() {
    let ball = shape_model(Shape::sphere(1.0).unwrap());
    let id = Pose::identity();
    let hits = check(
        &ball,
        &id,
        &ray([-2.0, 1.0, 0.0], [1.0, 0.0, 0.0]),
        f64::INFINITY,
    );
    assert_eq!(hits.len(), 2);
    assert_eq!(hits[0].t, 2.0);
    assert!((hits[0].normal - Vector::y()).norm() < 1e-12);
    assert!(check(
        &ball,
        &id,
        &ray([-2.0, 1.0 + ULP, 0.0], [1.0, 0.0, 0.0]),
        f64::INFINITY
    )
    .is_empty());
    // Entry and exit through the middle; the tangent in a skew direction.
    let hits = check(
        &ball,
        &id,
        &ray([-3.0, 0.0, 0.0], [2.0, 0.0, 0.0]),
        f64::INFINITY,
    );
    assert_eq!((hits[0].t, hits[1].t), (1.0, 2.0));
    assert!(hits[0].front_face && !hits[1].front_face);
    assert_eq!(hits[0].normal, -Vector::x());
    // x = 3 + t·(−3), y = 4·t − 1... distance from the centre of the line 3x + 4y = 5 is 1.
    let skew = ray([3.0, -1.0, 0.0], [-4.0, 3.0, 0.0]);
    assert_eq!(check(&ball, &id, &skew, f64::INFINITY).len(), 2);
    let off = ray([3.0, -1.0 + 2.0 * ULP, 0.0], [-4.0, 3.0, 0.0]);
    assert!(check(&ball, &id, &off, f64::INFINITY).is_empty());
}

#[test]
fn max_t_exactly_at_the_surface_hits() {
    let ball = shape_model(Shape::sphere(1.0).unwrap());
    let id = Pose::identity();
    let r = ray([-3.0, 0.0, 0.0], [1.0, 0.0, 0.0]);
    let hits = check(&ball, &id, &r, 2.0);
    assert_eq!(hits.len(), 1);
    assert_eq!(hits[0].t, 2.0);
    assert!(check(&ball, &id, &r, 2.0f64.next_down()).is_empty());
    // Ending exactly on the far side: the exit counts too.
    assert_eq!(check(&ball, &id, &r, 4.0).len(), 2);
    assert_eq!(check(&ball, &id, &r, 4.0f64.next_down()).len(), 1);
    // From inside, likewise.
    let from_centre = ray([0.0, 0.0, 0.0], [1.0, 0.0, 0.0]);
    assert_eq!(check(&ball, &id, &from_centre, 1.0).len(), 1);
    assert!(check(&ball, &id, &from_centre, 1.0f64.next_down()).is_empty());
    // Along a face of a box from outside: the exit is where the face ends, not before.
    let cube = shape_model(Shape::cuboid([2.0, 2.0, 2.0]).unwrap());
    let face = ray([-3.0, 1.0, 0.0], [1.0, 0.0, 0.0]);
    assert_eq!(check(&cube, &id, &face, 3.0).len(), 1);
    assert_eq!(check(&cube, &id, &face, 4.0).len(), 2);
    assert_eq!(check(&cube, &id, &face, 4.0f64.next_down()).len(), 1);
    // Along a cylinder's side and a capsule's: the same.
    let can = shape_model(Shape::cylinder(1.0, 2.0).unwrap());
    let pill = shape_model(Shape::capsule(1.0, 2.0).unwrap());
    let side = ray([1.0, 0.0, -3.0], [0.0, 0.0, 1.0]);
    assert_eq!(check(&can, &id, &side, 3.0).len(), 1);
    assert_eq!(check(&can, &id, &side, 4.0).len(), 2);
    assert_eq!(check(&pill, &id, &side, 3.0).len(), 1);
    assert_eq!(check(&pill, &id, &side, 4.0).len(), 2);
    assert_eq!(check(&pill, &id, &side, 4.0f64.next_down()).len(), 1);
    // A box face at exactly max_t.
    let cube = shape_model(Shape::cuboid([2.0, 2.0, 2.0]).unwrap());
    assert_eq!(check(&cube, &id, &r, 2.0).len(), 1);
    assert!(check(&cube, &id, &r, 2.0f64.next_down()).is_empty());
}

#[test]
fn box_corners_edges_and_faces() {
    let cube = shape_model(Shape::cuboid([2.0, 2.0, 2.0]).unwrap());
    let id = Pose::identity();
    // Through the corner (−1, −1, −1) and out through (1, 1, 1).
    let hits = check(
        &cube,
        &id,
        &ray([-2.0, -2.0, -2.0], [1.0, 1.0, 1.0]),
        f64::INFINITY,
    );
    assert_eq!((hits[0].t, hits[1].t), (1.0, 3.0));
    // Touching only the corner (1, 1, 1), from outside, along (1, 1, −2)⊥... grazing: hit.
    let corner = check(
        &cube,
        &id,
        &ray([0.0, 2.0, 1.0], [1.0, -1.0, 0.0]),
        f64::INFINITY,
    );
    assert_eq!(corner.len(), 2);
    assert_eq!(corner[0].t, 1.0);
    assert!(check(
        &cube,
        &id,
        &ray([0.0, 2.0 + 2.0 * ULP, 1.0], [1.0, -1.0, 0.0]),
        f64::INFINITY
    )
    .is_empty());
    // Along the face y = 1, and along the edge y = z = 1.
    let face = check(
        &cube,
        &id,
        &ray([-2.0, 1.0, 0.0], [1.0, 0.0, 0.0]),
        f64::INFINITY,
    );
    assert_eq!((face[0].t, face[1].t), (1.0, 3.0));
    assert_eq!(
        check(
            &cube,
            &id,
            &ray([-2.0, 1.0, 1.0], [1.0, 0.0, 0.0]),
            f64::INFINITY
        )
        .len(),
        2
    );
    assert!(check(
        &cube,
        &id,
        &ray([-2.0, 1.0 + ULP, 0.0], [1.0, 0.0, 0.0]),
        f64::INFINITY
    )
    .is_empty());
    // A turned box: the ray along its rotated x axis enters at the face 1 from its centre.
    let turned = Pose::new([5.0, 0.0, 0.0], [0.0, 0.0, 0.5]).unwrap();
    let axis = turned.transform_vector(&Vector::x());
    let r = Ray::new(Point::from(turned.translation() - axis * 4.0), axis);
    let hits = check(&cube, &turned, &r, f64::INFINITY);
    assert!((hits[0].t - 3.0).abs() < 1e-12 && (hits[1].t - 5.0).abs() < 1e-12);
    assert!((hits[0].normal + axis).norm() < 1e-12);
}

#[test]
fn cylinder_side_caps_and_axis_parallel_rays() {
    let can = shape_model(Shape::cylinder(1.0, 2.0).unwrap());
    let id = Pose::identity();
    // Parallel to the axis at exactly the radius: enters the bottom cap's rim.
    let hits = check(
        &can,
        &id,
        &ray([1.0, 0.0, -5.0], [0.0, 0.0, 1.0]),
        f64::INFINITY,
    );
    assert_eq!((hits[0].t, hits[1].t), (4.0, 6.0));
    assert_eq!(hits[0].normal, -Vector::z());
    assert!(check(
        &can,
        &id,
        &ray([1.0 + ULP, 0.0, -5.0], [0.0, 0.0, 1.0]),
        f64::INFINITY
    )
    .is_empty());
    let wide = shape_model(Shape::cylinder(5.0, 2.0).unwrap());
    assert_eq!(
        check(
            &wide,
            &id,
            &ray([3.0, 4.0, -5.0], [0.0, 0.0, 1.0]),
            f64::INFINITY
        )
        .len(),
        2
    );
    assert!(check(
        &wide,
        &id,
        &ray([3.0, 4.0 + 4.0 * ULP, -5.0], [0.0, 0.0, 1.0]),
        f64::INFINITY
    )
    .is_empty());
    // Tangent to the side, and an ulp outside it.
    let side = check(
        &can,
        &id,
        &ray([-5.0, 1.0, 0.0], [1.0, 0.0, 0.0]),
        f64::INFINITY,
    );
    assert_eq!(side[0].t, 5.0);
    assert!(check(
        &can,
        &id,
        &ray([-5.0, 1.0 + ULP, 0.0], [1.0, 0.0, 0.0]),
        f64::INFINITY
    )
    .is_empty());
    // Along the rim circle's plane: grazing the top cap's rim at (0, 1, 1).
    assert_eq!(
        check(
            &can,
            &id,
            &ray([-5.0, 1.0, 1.0], [1.0, 0.0, 0.0]),
            f64::INFINITY
        )
        .len(),
        2
    );
    assert!(check(
        &can,
        &id,
        &ray([-5.0, 1.0, 1.0 + 2.0 * ULP], [1.0, 0.0, 0.0]),
        f64::INFINITY
    )
    .is_empty());
    // Through the side: the normal is radial.
    let through = check(
        &can,
        &id,
        &ray([-5.0, 0.0, 0.5], [1.0, 0.0, 0.0]),
        f64::INFINITY,
    );
    assert_eq!(through[0].normal, -Vector::x());
    assert_eq!(through[1].normal, Vector::x());
}

#[test]
fn capsule_tangents() {
    let pill = shape_model(Shape::capsule(1.0, 2.0).unwrap());
    let id = Pose::identity();
    // The segment runs from z = −1 to 1; tangent to the side, and over the top at z = 2.
    assert_eq!(
        check(
            &pill,
            &id,
            &ray([-5.0, 1.0, 0.0], [1.0, 0.0, 0.0]),
            f64::INFINITY
        )[0]
        .t,
        5.0
    );
    assert!(check(
        &pill,
        &id,
        &ray([-5.0, 1.0 + ULP, 0.0], [1.0, 0.0, 0.0]),
        f64::INFINITY
    )
    .is_empty());
    assert_eq!(
        check(
            &pill,
            &id,
            &ray([-5.0, 0.0, 2.0], [1.0, 0.0, 0.0]),
            f64::INFINITY
        )[0]
        .t,
        5.0
    );
    assert!(check(
        &pill,
        &id,
        &ray([-5.0, 0.0, 2.0 + 2.0 * ULP], [1.0, 0.0, 0.0]),
        f64::INFINITY
    )
    .is_empty());
    // Along the axis: enters the bottom ball at z = −2.
    let hits = check(
        &pill,
        &id,
        &ray([0.0, 0.0, -5.0], [0.0, 0.0, 1.0]),
        f64::INFINITY,
    );
    assert_eq!((hits[0].t, hits[1].t), (3.0, 7.0));
    assert_eq!(hits[0].normal, -Vector::z());
}

#[test]
fn origins_inside_report_the_exit_only() {
    let id = Pose::identity();
    let convex = Shape::convex(&[
        Point::new(-1.0, -1.0, -1.0),
        Point::new(3.0, -1.0, -1.0),
        Point::new(-1.0, 3.0, -1.0),
        Point::new(-1.0, -1.0, 3.0),
    ])
    .unwrap();
    for shape in [
        Shape::sphere(1.0).unwrap(),
        Shape::capsule(1.0, 1.0).unwrap(),
        Shape::cylinder(1.0, 1.0).unwrap(),
        Shape::cuboid([1.0, 1.0, 1.0]).unwrap(),
        convex,
    ] {
        let model = shape_model(shape);
        let r = ray([0.0, 0.0, 0.0], [0.0, 1.0, 0.0]);
        let hits = check(&model, &id, &r, f64::INFINITY);
        assert_eq!(hits.len(), 1, "{model:?}");
        assert!(!hits[0].front_face && hits[0].t > 0.0);
        assert!(hits[0].normal.dot(&r.dir) > 0.0);
        // Short of the surface: nothing.
        assert!(!any_hit(&model, &id, &r, 0.25).unwrap());
        assert!(check(&model, &id, &r, 0.25).is_empty());
    }
    // On the surface: an entry at t = 0 exactly, then the exit.
    let ball = shape_model(Shape::sphere(1.0).unwrap());
    let hits = check(
        &ball,
        &id,
        &ray([-1.0, 0.0, 0.0], [1.0, 0.0, 0.0]),
        f64::INFINITY,
    );
    assert_eq!((hits[0].t, hits[1].t), (0.0, 2.0));
    assert!(hits[0].front_face);
}

/// Each hit's `t` and whether it enters (`front_face`), in order.
fn times_and_sides(hits: &[RayHit]) -> Vec<(f64, bool)> {
    hits.iter().map(|h| (h.t, h.front_face)).collect()
}

/// Rays whose far end (`max_t`) lies exactly on a capsule's side: one that reaches the side
/// there and runs on inside (towards the far end of the axis: an entry, no exit), one
/// tangent to the side there (an entry and an exit at `max_t`), and two along the axis on the
/// side (no exit at `max_t`). The side's "runs on inside"
/// test must use the axis point nearest the far end, not the axis's start.
#[test]
fn capsule_rays_ending_exactly_on_the_side() {
    let capsule = shape_model(Shape::capsule(1.0, 2.0).unwrap());
    let id = Pose::identity();
    let inward = check(&capsule, &id, &ray([3.0, 0.0, -1.5], [-1.0, 0.0, 1.0]), 2.0);
    assert_eq!(inward.len(), 1, "{inward:?}");
    assert!(inward[0].front_face && inward[0].t == 2.0, "{inward:?}");
    let tangent = check(&capsule, &id, &ray([1.0, -2.0, 0.5], [0.0, 1.0, 0.0]), 2.0);
    assert_eq!(tangent.len(), 2, "{tangent:?}");
    // Along the axis on the side: from the surface, no exit at the far end; from below and
    // from above, onto an end's equator and on along the side.
    let along = check(&capsule, &id, &ray([1.0, 0.0, -0.5], [0.0, 0.0, 1.0]), 1.0);
    assert_eq!(times_and_sides(&along), [(0.0, true)]);
    for (origin, up) in [([1.0, 0.0, -2.0], 1.0), ([1.0, 0.0, 2.0], -1.0)] {
        let onto = check(&capsule, &id, &ray(origin, [0.0, 0.0, up]), 1.0);
        assert_eq!(onto.len(), 1, "{onto:?}");
        assert!(onto[0].front_face, "{onto:?}");
    }
    // Leaving through an end's hemisphere at the far end, from a short chord inside it (radius
    // 5, the end at z = −1, the far end (3, 0, −5) = that end + (3, 0, −4)): the exit is there,
    // though the side's formula (the distance to the infinite axis) would call it a way in.
    let wide = shape_model(Shape::capsule(5.0, 2.0).unwrap());
    let leaving = check(&wide, &id, &ray([3.5, 0.0, -4.5], [-1.0, 0.0, -1.0]), 0.5);
    assert_eq!(times_and_sides(&leaving), [(0.5, false)]);
}

/// Rays whose far end lies exactly on a cylinder's surface, where only the exact "runs on
/// inside" test (`stays`) tells an exit there from none: on the side arriving inward or running
/// along it, going down the axis as well as up (an entry or nothing); on the side leaving from
/// inside or touching it tangentially (an exit there); on either cap from outside, into the can
/// (an entry, no exit).
#[test]
fn cylinder_rays_ending_exactly_on_the_surface() {
    let can = shape_model(Shape::cylinder(1.0, 2.0).unwrap());
    let id = Pose::identity();
    let crossings = |o: [f64; 3], d: [f64; 3], max_t: f64| {
        times_and_sides(&check(&can, &id, &ray(o, d), max_t))
    };
    for up in [1.0, -1.0] {
        let inward = crossings([3.0, 0.0, 0.5 * up], [-1.0, 0.0, -0.25 * up], 2.0);
        assert_eq!(inward, [(2.0, true)]);
        let along = crossings([1.0, 0.0, -3.0 * up], [0.0, 0.0, up], 3.0);
        assert_eq!(along, [(2.0, true)]);
        let leaving = crossings([0.0, 0.0, 0.0], [1.0, 0.0, 0.25 * up], 1.0);
        assert_eq!(leaving, [(1.0, false)]);
        let onto_cap = crossings([0.25, 0.0, -2.0 * up], [0.25, 0.0, up], 1.0);
        assert_eq!(onto_cap, [(1.0, true)]);
    }
    let tangent = crossings([1.0, -2.0, 0.5], [0.0, 1.0, 0.0], 2.0);
    assert_eq!(tangent, [(2.0, true), (2.0, false)]);
}

/// Rays whose far end lies exactly on a halfspace's plane: up out of it, an exit there; down
/// into it, an entry there and no exit (the ray runs on inside).
#[test]
fn halfspace_rays_ending_exactly_on_the_plane() {
    let ground = shape_model(Shape::halfspace([0.0, 0.0, 1.0], 0.0).unwrap());
    let id = Pose::identity();
    let up = check(&ground, &id, &ray([0.0, 0.0, -1.0], [0.0, 0.0, 1.0]), 1.0);
    assert_eq!(
        up.iter().map(|h| (h.t, h.front_face)).collect::<Vec<_>>(),
        [(1.0, false)]
    );
    let down = check(&ground, &id, &ray([0.0, 0.0, 1.0], [0.0, 0.0, -1.0]), 1.0);
    assert_eq!(
        down.iter().map(|h| (h.t, h.front_face)).collect::<Vec<_>>(),
        [(1.0, true)]
    );
}

/// A ray whose float slope against the plane cancels to 0 (`n·dir = 1 + 10⁻²⁰ − 1`) but is
/// not 0: the crossing comes from the exact quotient, at `t = 2` in both directions, an entry
/// coming down and an exit going up.
#[test]
fn halfspace_crossing_when_the_float_slope_cancels() {
    let plane = shape_model(Shape::halfspace([1.0, 1e-20, -1.0], 1e-20).unwrap());
    let id = Pose::identity();
    let down = check(
        &plane,
        &id,
        &ray([3.0, 3.0, 3.0], [-1.0, -1.0, -1.0]),
        f64::INFINITY,
    );
    assert_eq!(down.len(), 1);
    assert_eq!((down[0].t, down[0].front_face), (2.0, true));
    let up = check(
        &plane,
        &id,
        &ray([-1.0, -1.0, -1.0], [1.0, 1.0, 1.0]),
        f64::INFINITY,
    );
    assert_eq!(up.len(), 1);
    assert_eq!((up[0].t, up[0].front_face), (2.0, false));
}

#[test]
fn halfspace_parallel_rays_above_below_and_in_the_plane() {
    let ground = shape_model(Shape::halfspace([0.0, 0.0, 1.0], 0.0).unwrap());
    let id = Pose::identity();
    let along = |z: f64| ray([0.0, 0.0, z], [1.0, 0.0, 0.0]);
    assert!(check(&ground, &id, &along(1.0), f64::INFINITY).is_empty());
    assert!(check(&ground, &id, &along(f64::MIN_POSITIVE), f64::INFINITY).is_empty());
    // Below: inside, and never leaves.
    assert!(check(&ground, &id, &along(-1.0), f64::INFINITY).is_empty());
    assert!(check(&ground, &id, &along(-1.0), 10.0).is_empty());
    // In the plane: on the surface, an entry at 0.
    let hits = check(&ground, &id, &along(0.0), f64::INFINITY);
    assert_eq!(hits.len(), 1);
    assert_eq!((hits[0].t, hits[0].front_face), (0.0, true));
    assert_eq!(check(&ground, &id, &along(0.0), 3.0).len(), 1);
    // Down onto it, and up out of it.
    let down = check(
        &ground,
        &id,
        &ray([0.0, 0.0, 2.0], [0.0, 0.0, -1.0]),
        f64::INFINITY,
    );
    assert_eq!(down.len(), 1);
    assert_eq!(
        (down[0].t, down[0].front_face, down[0].normal),
        (2.0, true, Vector::z())
    );
    let up = check(
        &ground,
        &id,
        &ray([0.0, 0.0, -2.0], [0.0, 0.0, 1.0]),
        f64::INFINITY,
    );
    assert_eq!((up.len(), up[0].t, up[0].front_face), (1, 2.0, false));
    assert!(check(
        &ground,
        &id,
        &ray([0.0, 0.0, -2.0], [0.0, 0.0, 1.0]),
        2.0f64.next_down()
    )
    .is_empty());
    // A tilted plane placed by a pose.
    let tilted = Pose::new([0.0, 0.0, 1.0], [0.3, 0.0, 0.0]).unwrap();
    assert_eq!(
        check(
            &ground,
            &tilted,
            &ray([0.0, 0.0, 5.0], [0.0, 0.0, -1.0]),
            f64::INFINITY
        )
        .len(),
        1
    );
}

#[test]
fn huge_and_tiny_scales() {
    for scale in [1e6, 1e-6, 2f64.powi(-20), 2f64.powi(30)] {
        let ball = shape_model(Shape::sphere(scale).unwrap());
        let cube = shape_model(Shape::cuboid([2.0 * scale; 3]).unwrap());
        let can = shape_model(Shape::cylinder(scale, 2.0 * scale).unwrap());
        let pill = shape_model(Shape::capsule(scale, 2.0 * scale).unwrap());
        let away = Pose::from_translation([3.0 * scale, 0.0, 0.0]).unwrap();
        for model in [&ball, &cube, &can, &pill] {
            let r = ray([0.0, 0.0, 0.0], [1.0, 0.0, 0.0]);
            let hits = check(model, &away, &r, f64::INFINITY);
            assert_eq!(hits.len(), 2, "{model:?} at {scale}");
            assert!((hits[0].t - 2.0 * scale).abs() <= 1e-12 * scale, "{hits:?}");
            // Tangent at y = scale (the capsule's and the can's side, the box's face), and
            // just outside.
            let graze = ray([0.0, scale, 0.0], [1.0, 0.0, 0.0]);
            assert_eq!(
                check(model, &away, &graze, f64::INFINITY).len(),
                2,
                "{model:?}"
            );
            let miss = ray([0.0, scale.next_up(), 0.0], [1.0, 0.0, 0.0]);
            assert!(
                check(model, &away, &miss, f64::INFINITY).is_empty(),
                "{model:?}"
            );
            // Short directions and long ones scale t, not the answer.
            let slow = ray([0.0, 0.0, 0.0], [1e-200, 0.0, 0.0]);
            let hits = check(model, &away, &slow, f64::INFINITY);
            assert!((hits[0].t / 2e200 / scale - 1.0).abs() < 1e-12);
        }
    }
}

#[test]
fn bad_input_and_unplaceable_shapes_are_errors() {
    let ball = shape_model(Shape::sphere(1.0).unwrap());
    let id = Pose::identity();
    assert!(cast_ray(&ball, &id, &ray([0.0; 3], [0.0; 3]), 1.0).is_err());
    assert!(cast_ray(&ball, &id, &ray([0.0; 3], [1.0, 0.0, 0.0]), -1.0).is_err());
    assert!(cast_ray_all(&ball, &id, &ray([f64::NAN, 0.0, 0.0], [1.0, 0.0, 0.0]), 1.0).is_err());
    let far = Pose::from_translation([1e200, 0.0, 0.0]).unwrap();
    assert!(any_hit(&ball, &far, &ray([0.0; 3], [1.0, 0.0, 0.0]), 1.0).is_err());
    let err = cast_rays(
        &ball,
        &id,
        &[ray([0.0; 3], [1.0, 0.0, 0.0]), ray([0.0; 3], [0.0; 3])],
        1.0,
    )
    .unwrap_err();
    assert_eq!(err.index, 1);
}

// ---- Random cases against the oracle ----

/// A dyadic value `k / 8` with `|k| <= 8·limit`: tangencies and touching are frequent.
fn grid(r: &mut impl Rng, limit: i32) -> f64 {
    r.gen_range(-8 * limit..=8 * limit) as f64 / 8.0
}

fn random_shape(r: &mut impl Rng) -> Shape {
    let size = |r: &mut dyn rand::RngCore| r.gen_range(1..=16) as f64 / 8.0;
    match r.gen_range(0..6) {
        0 => Shape::sphere(size(r)).unwrap(),
        1 => Shape::capsule(size(r), size(r) - 0.125).unwrap(),
        2 => Shape::cylinder(size(r), size(r)).unwrap(),
        3 => Shape::cuboid([size(r), size(r), size(r)]).unwrap(),
        4 => loop {
            let points: Vec<Point> = (0..r.gen_range(4..8))
                .map(|_| Point::new(grid(r, 1), grid(r, 1), grid(r, 1)))
                .collect();
            if let Ok(s) = Shape::convex(&points) {
                break s;
            }
        },
        _ => loop {
            let n = [grid(r, 1), grid(r, 1), grid(r, 1)];
            if let Ok(s) = Shape::halfspace(n, grid(r, 1)) {
                break s;
            }
        },
    }
}

fn random_case(seed: u64) -> (Model, Pose, Ray, f64) {
    let mut r = rng(seed);
    let model = shape_model(random_shape(&mut r));
    let t = [grid(&mut r, 2), grid(&mut r, 2), grid(&mut r, 2)];
    let pose = if r.gen_bool(0.7) {
        Pose::from_translation(t).unwrap()
    } else {
        Pose::new(
            t,
            [
                r.gen_range(-2.0..2.0),
                r.gen_range(-2.0..2.0),
                r.gen_range(-2.0..2.0),
            ],
        )
        .unwrap()
    };
    let origin = Point::new(grid(&mut r, 4), grid(&mut r, 4), grid(&mut r, 4));
    // Aimed at a grid point near the shape, often along an axis (grazing a face or a side
    // exactly), sometimes anywhere.
    let dir = loop {
        let target =
            Vector::new(grid(&mut r, 1), grid(&mut r, 1), grid(&mut r, 1)) + Vector::from(t);
        let mut d = match r.gen_range(0..4) {
            0 => Vector::new(
                r.gen_range(-3..=3) as f64,
                r.gen_range(-3..=3) as f64,
                r.gen_range(-3..=3) as f64,
            ),
            _ => target - origin.coords,
        };
        if r.gen_bool(0.4) {
            let keep = r.gen_range(0..3);
            (0..3).filter(|&i| i != keep).for_each(|i| d[i] = 0.0);
        }
        if d != Vector::zeros() {
            break if r.gen_bool(0.2) {
                d * r.gen_range(0.1..3.0)
            } else {
                d
            };
        }
    };
    let max_t = match r.gen_range(0..3) {
        0 => f64::INFINITY,
        1 => r.gen_range(0..=32) as f64 / 8.0,
        _ => r.gen_range(0.0..4.0),
    };
    (model, pose, Ray::new(origin, dir), max_t)
}

proptest! {
    #![proptest_config(config(512))]

    /// Hit or miss, entry and exit exactly as the rational oracle says; `t`, the point and the
    /// normal within the stated bounds.
    #[test]
    fn random_rays_agree_with_the_exact_oracle(seed in any::<u64>()) {
        let (model, pose, ray, max_t) = random_case(seed);
        check(&model, &pose, &ray, max_t);
    }
}

/// Enough of the random cases are tangent or touching, hit and miss, for the comparison to
/// mean something.
#[test]
fn random_cases_cover_hits_misses_and_touching() {
    let (mut hits, mut misses, mut touching, mut inside) = (0, 0, 0, 0);
    for seed in 0..2000u64 {
        let (model, pose, ray, max_t) = random_case(seed);
        let placed = model.as_shape().unwrap().place(&pose).unwrap();
        let oracle = solid(&placed);
        let all = check(&model, &pose, &ray, max_t);
        match all.len() {
            0 => misses += 1,
            _ => hits += 1,
        }
        if all.len() == 2 && all[1].t - all[0].t <= 1e-9 * (1.0 + all[0].t) {
            touching += 1;
        }
        if oracle.side(&pq(&ray.origin)) != Ordering::Greater {
            inside += 1;
        }
    }
    assert!(
        hits > 300 && misses > 300 && touching >= 5 && inside > 50,
        "{hits} {misses} {touching} {inside}"
    );
}
