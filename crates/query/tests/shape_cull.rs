//! Frustum culling of primitive shapes: the shape's one feature 0 in `inside`, `outside` or
//! `intersecting`. Hand-made cases against a box-shaped frustum (touching counts as
//! intersecting, never outside), and random shapes against random boxes checked by sampling
//! points of the solid (its own containment test, written here): a shape called inside has
//! every sample in the frustum, one called outside none.

mod common;

use common::{float_segment_distance, rng};
use obbtree_bv::intersect::frustum::Frustum;
use obbtree_bv::intersect::plane::Plane;
use obbtree_bv::shape::{PlacedShape, Shape};
use obbtree_bv::{Point, Pose, Vector};
use obbtree_query::{cull, Culled, Model};
use rand::Rng;

/// The box `lo <= x <= hi` as a frustum (left, right, bottom, top, near, far).
fn box_frustum(lo: [f64; 3], hi: [f64; 3]) -> Frustum {
    let axis = |i: usize| Vector::ith(i, 1.0);
    let planes = std::array::from_fn(|k| {
        let i = k / 2;
        if k % 2 == 0 {
            Plane::new(-axis(i), lo[i])
        } else {
            Plane::new(axis(i), -hi[i])
        }
    });
    Frustum::from_planes(planes).unwrap()
}

/// Which list holds feature 0.
fn place(culled: &Culled) -> &'static str {
    assert_eq!(
        culled.inside.len() + culled.outside.len() + culled.intersecting.len(),
        1,
        "{culled:?}"
    );
    if culled.inside == [0] {
        "inside"
    } else if culled.outside == [0] {
        "outside"
    } else {
        assert_eq!(culled.intersecting, [0]);
        "intersecting"
    }
}

fn culled(shape: Shape, at: [f64; 3], frustum: &Frustum) -> &'static str {
    let model: Model = Model::from_shape(shape);
    place(&cull(&model, &Pose::from_translation(at).unwrap(), frustum).unwrap())
}

#[test]
fn shapes_inside_touching_crossing_and_outside_a_box() {
    let f = box_frustum([-1.0; 3], [1.0; 3]);
    let ball = |r: f64| Shape::sphere(r).unwrap();
    assert_eq!(culled(ball(0.5), [0.0; 3], &f), "inside");
    assert_eq!(culled(ball(1.0), [0.0; 3], &f), "inside");
    assert_eq!(culled(ball(1.5), [0.0; 3], &f), "intersecting");
    assert_eq!(culled(ball(1.0), [2.0, 0.0, 0.0], &f), "intersecting");
    assert_eq!(
        culled(ball(1.0), [2.0f64.next_up(), 0.0, 0.0], &f),
        "outside"
    );
    let pill = Shape::capsule(0.5, 1.0).unwrap();
    assert_eq!(culled(pill.clone(), [0.0; 3], &f), "inside");
    assert_eq!(culled(pill.clone(), [0.0, 0.0, 1.5], &f), "intersecting");
    assert_eq!(culled(pill, [0.0, 0.0, 2.5], &f), "outside");
    let can = Shape::cylinder(1.0, 2.0).unwrap();
    assert_eq!(culled(can.clone(), [0.0; 3], &f), "inside");
    assert_eq!(culled(can.clone(), [2.0, 0.0, 0.0], &f), "intersecting");
    assert_eq!(culled(can, [0.0, 0.0, 3.5], &f), "outside");
    let cube = Shape::cuboid([2.0, 2.0, 2.0]).unwrap();
    assert_eq!(culled(cube.clone(), [0.0; 3], &f), "inside");
    assert_eq!(culled(cube.clone(), [2.0, 2.0, 0.0], &f), "intersecting");
    assert_eq!(culled(cube, [0.0, 0.0, 2.5], &f), "outside");
    // Halfspaces: never inside a bounded frustum; outside only when a plane faces them.
    let below = |d: f64| Shape::halfspace([0.0, 0.0, 1.0], d).unwrap();
    assert_eq!(culled(below(-2.0), [0.0; 3], &f), "outside");
    assert_eq!(culled(below(-1.0), [0.0; 3], &f), "intersecting");
    assert_eq!(culled(below(5.0), [0.0; 3], &f), "intersecting");
    let tilted = Shape::halfspace([0.0, 1e-70, 1.0], -2.0).unwrap();
    assert_eq!(culled(tilted, [0.0; 3], &f), "intersecting");
    // A shape that cannot be placed is an error, as for rays.
    let model: Model = Model::from_shape(Shape::sphere(1.0).unwrap());
    let far = Pose::from_translation([1e200, 0.0, 0.0]).unwrap();
    assert!(cull(&model, &far, &f).is_err());
}

/// Whether `p` lies in the placed solid (floating point; the samples keep away from the
/// surface by a relative margin).
fn contains(shape: &PlacedShape, p: &Point, margin: f64) -> bool {
    match shape {
        PlacedShape::Sphere { center, radius } => (p - center).norm() <= radius - margin,
        PlacedShape::Capsule { a, b, radius } => float_segment_distance(p, a, b) <= radius - margin,
        PlacedShape::Cylinder { a, b, radius } => {
            let w = b - a;
            let g = (p - a).dot(&w.normalize());
            let radial = ((p - a) - w.normalize() * g).norm();
            radial <= radius - margin && g >= margin && g <= w.norm() - margin
        }
        // Polytopes are sampled by convex combinations of their vertices, no test needed.
        PlacedShape::Polytope(_) | PlacedShape::Halfspace { .. } => unreachable!(),
    }
}

/// Points of the solid: for a polytope, random convex combinations of its vertices; else
/// rejection samples from its box.
fn samples(shape: &PlacedShape, r: &mut impl Rng) -> Vec<Point> {
    if let PlacedShape::Polytope(p) = shape {
        let v = p.vertices();
        return (0..400)
            .map(|_| {
                let w: Vec<f64> = v.iter().map(|_| r.gen_range(0.0..1.0f64).powi(8)).collect();
                let total: f64 = w.iter().sum();
                Point::from(
                    v.iter()
                        .zip(&w)
                        .map(|(p, w)| p.coords * (w / total))
                        .sum::<Vector>(),
                )
            })
            .collect();
    }
    let bounds = shape.aabb().unwrap();
    let mut out = Vec::new();
    while out.len() < 400 {
        let p = Point::from(Vector::from_fn(|i, _| {
            r.gen_range(bounds.mins[i]..=bounds.maxs[i])
        }));
        if contains(shape, &p, 1e-9) {
            out.push(p);
        }
    }
    out
}

#[test]
fn random_shapes_inside_or_outside_agree_with_samples() {
    let mut r = rng(5);
    let (mut inside, mut outside, mut crossing) = (0, 0, 0);
    for _ in 0..300 {
        let size = |r: &mut dyn rand::RngCore| r.gen_range(0.1..1.0);
        let shape = match r.gen_range(0..4) {
            0 => Shape::sphere(size(&mut r)).unwrap(),
            1 => Shape::capsule(size(&mut r), size(&mut r)).unwrap(),
            2 => Shape::cylinder(size(&mut r), size(&mut r)).unwrap(),
            _ => Shape::cuboid([size(&mut r), size(&mut r), size(&mut r)]).unwrap(),
        };
        let pose = Pose::new(
            Vector::from_fn(|_, _| r.gen_range(-1.0..1.0)),
            Vector::from_fn(|_, _| r.gen_range(-3.0..3.0)),
        )
        .unwrap();
        let lo = [
            r.gen_range(-3.0..0.0),
            r.gen_range(-3.0..0.0),
            r.gen_range(-3.0..0.0),
        ];
        let hi = lo.map(|x| x + r.gen_range(1.0..5.0));
        let f = box_frustum(lo, hi);
        let model: Model = Model::from_shape(shape.clone());
        let placed = shape.place(&pose).unwrap();
        let points = samples(&placed, &mut r);
        let within = points.iter().filter(|p| f.contains_point(p)).count();
        match place(&cull(&model, &pose, &f).unwrap()) {
            "inside" => {
                assert_eq!(within, points.len(), "{placed:?}");
                inside += 1;
            }
            "outside" => {
                assert_eq!(within, 0, "{placed:?}");
                outside += 1;
            }
            _ => crossing += 1,
        }
    }
    assert!(
        inside > 10 && outside > 10 && crossing > 10,
        "{inside} {outside} {crossing}"
    );
}
