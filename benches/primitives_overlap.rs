//! ns per call of every primitive overlap test, with OBB–OBB and triangle–triangle also run
//! through parry3d-f64's equivalents in the same run. Each iteration runs the test over a fixed
//! set of random pairs (about half of them intersecting); throughput is pairs per second.
#![allow(missing_docs)] // `criterion_main!` defines an undocumented `main`

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use obbtree::bv::intersect::obb_obb::RelativePose;
use obbtree::bv::intersect::*;
use obbtree::bv::nalgebra::{Matrix3, UnitQuaternion, Vector3};
use obbtree::bv::{Aabb, Kdop26, Obb, Point, Sphere, Triangle, Vector};
use parry3d_f64::math::{Pose, Rotation, Vector as PVector};

const PAIRS: usize = 1024;

/// Deterministic uniform numbers in [-1, 1) (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> f64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        ((self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 11) as f64 / (1u64 << 52) as f64) - 1.0
    }
    fn vector(&mut self) -> Vector {
        Vector::new(self.next(), self.next(), self.next())
    }
    fn rotation(&mut self) -> Matrix3<f64> {
        let q = obbtree::bv::nalgebra::Quaternion::new(
            self.next(),
            self.next(),
            self.next(),
            self.next() + 2.0,
        );
        UnitQuaternion::from_quaternion(q)
            .to_rotation_matrix()
            .into_inner()
    }
    fn obb(&mut self) -> Obb {
        Obb {
            center: Point::from(self.vector() * 1.5),
            axes: self.rotation(),
            half_extents: self.vector().abs() * 0.6 + Vector::repeat(0.1),
        }
    }
    fn triangle(&mut self) -> Triangle {
        let c = self.vector() * 0.5;
        Triangle::new(
            Point::from(c + self.vector()),
            Point::from(c + self.vector()),
            Point::from(c + self.vector()),
        )
    }
}

/// Named tests of one pair type.
type Cases<'a, T> = [(&'a str, &'a dyn Fn(&T) -> bool)];

fn per_pair<T>(c: &mut Criterion, group: &str, pairs: &[T], cases: &Cases<T>) {
    let mut g = c.benchmark_group(group);
    g.throughput(Throughput::Elements(pairs.len() as u64));
    for (name, f) in cases {
        g.bench_function(*name, |b| {
            b.iter(|| pairs.iter().filter(|p| f(black_box(p))).count())
        });
    }
    g.finish();
}

fn pose(o: &Obb) -> Pose {
    let q = UnitQuaternion::from_matrix(&o.axes);
    Pose::from_parts(
        PVector::new(o.center.x, o.center.y, o.center.z),
        Rotation::from_xyzw(q.i, q.j, q.k, q.w),
    )
}

fn boxes(c: &mut Criterion) {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let obbs: Vec<(Obb, Obb)> = (0..PAIRS).map(|_| (rng.obb(), rng.obb())).collect();
    let posed: Vec<(Vector, Vector, RelativePose)> = obbs
        .iter()
        .map(|(a, b)| (a.half_extents, b.half_extents, RelativePose::between(a, b)))
        .collect();
    let parry: Vec<_> = obbs
        .iter()
        .map(|(a, b)| {
            let h = |o: &Obb| {
                parry3d_f64::shape::Cuboid::new(PVector::new(
                    o.half_extents.x,
                    o.half_extents.y,
                    o.half_extents.z,
                ))
            };
            (pose(a), h(a), pose(b), h(b))
        })
        .collect();
    per_pair(
        c,
        "obb_obb",
        &obbs,
        &[("overlaps", &|(a, b)| obb_obb::overlaps(a, b))],
    );
    per_pair(
        c,
        "obb_obb",
        &posed,
        &[
            ("overlaps_posed", &|(a, b, p)| {
                obb_obb::overlaps_posed(a, b, p)
            }),
            ("spheres_disjoint+overlaps_posed", &|(a, b, p)| {
                !obb_obb::spheres_disjoint(a, b, p) && obb_obb::overlaps_posed(a, b, p)
            }),
        ],
    );
    per_pair(
        c,
        "obb_obb",
        &parry,
        &[("parry3d_f64::intersection_test(cuboids)", &|(
            pa,
            a,
            pb,
            b,
        )| {
            parry3d_f64::query::intersection_test(pa, a, pb, b)
                .unwrap()
                .intersecting
        })],
    );

    let aabb = |o: &Obb| Aabb::new(o.center - o.half_extents, o.center + o.half_extents);
    let aabbs: Vec<(Aabb, Aabb)> = obbs.iter().map(|(a, b)| (aabb(a), aabb(b))).collect();
    per_pair(
        c,
        "aabb_aabb",
        &aabbs,
        &[("overlaps", &|(a, b)| aabb_aabb::overlaps(a, b))],
    );
    let sphere = |o: &Obb| Sphere {
        center: o.center,
        radius: o.half_extents.norm() * 0.7,
    };
    let spheres: Vec<(Sphere, Sphere, Aabb, Obb)> = obbs
        .iter()
        .map(|(a, b)| (sphere(a), sphere(b), aabb(b), *b))
        .collect();
    per_pair(
        c,
        "sphere",
        &spheres,
        &[
            ("sphere_sphere", &|(a, b, _, _)| {
                sphere_sphere::overlaps(a, b)
            }),
            ("sphere_aabb", &|(a, _, b, _)| sphere_aabb::overlaps(a, b)),
            ("sphere_obb", &|(a, _, _, b)| sphere_obb::overlaps(a, b)),
        ],
    );
    let kdop = |o: &Obb| {
        let axes = Kdop26::axes();
        let corners: Vec<Point> = (0..8)
            .map(|i| {
                o.center
                    + o.axes
                        * Vector3::new(
                            [-1.0, 1.0][i & 1],
                            [-1.0, 1.0][i >> 1 & 1],
                            [-1.0, 1.0][i >> 2],
                        )
                        .component_mul(&o.half_extents)
            })
            .collect();
        let proj = |k: usize| corners.iter().map(move |p| axes[k].dot(&p.coords));
        Kdop26 {
            min: std::array::from_fn(|k| proj(k).fold(f64::MAX, f64::min)),
            max: std::array::from_fn(|k| proj(k).fold(f64::MIN, f64::max)),
        }
    };
    let kdops: Vec<(Kdop26, Kdop26)> = obbs.iter().map(|(a, b)| (kdop(a), kdop(b))).collect();
    per_pair(
        c,
        "kdop_kdop",
        &kdops,
        &[("overlaps_26", &|(a, b)| kdop_kdop::overlaps(a, b))],
    );
    let rect = |o: &Obb| obb2d_obb2d::Obb2 {
        center: o.center.xy(),
        axes: obbtree::bv::nalgebra::Rotation2::new(o.axes[(0, 0)].atan2(o.axes[(1, 0)]))
            .into_inner(),
        half_extents: o.half_extents.xy(),
    };
    let rects: Vec<_> = obbs.iter().map(|(a, b)| (rect(a), rect(b))).collect();
    per_pair(
        c,
        "obb2d_obb2d",
        &rects,
        &[("overlaps", &|(a, b)| obb2d_obb2d::overlaps(a, b))],
    );
}

fn triangles(c: &mut Criterion) {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let tris: Vec<(Triangle, Triangle)> = (0..PAIRS)
        .map(|_| (rng.triangle(), rng.triangle()))
        .collect();
    let parry: Vec<_> = tris
        .iter()
        .map(|(p, q)| {
            let t = |t: &Triangle| {
                let v = t.vertices().map(|p| PVector::new(p.x, p.y, p.z));
                parry3d_f64::shape::Triangle::new(v[0], v[1], v[2])
            };
            (t(p), t(q))
        })
        .collect();
    per_pair(
        c,
        "tri_tri",
        &tris,
        &[
            ("exact", &|(p, q)| tri_tri_exact::intersects(p, q)),
            ("moller", &|(p, q)| tri_tri_moller::intersects(p, q)),
            ("erit", &|(p, q)| tri_tri_erit::intersects(p, q)),
            ("segment", &|(p, q)| {
                tri_tri_segment::intersection(p, q) != tri_tri_segment::Intersection::Disjoint
            }),
        ],
    );
    let id = Pose::IDENTITY;
    per_pair(
        c,
        "tri_tri",
        &parry,
        &[("parry3d_f64::intersection_test(triangles)", &|(p, q)| {
            parry3d_f64::query::intersection_test(&id, p, &id, q)
                .unwrap()
                .intersecting
        })],
    );
    // Coplanar pairs (a mesh resting on a flat floor): the exact test's 2D branch.
    let coplanar: Vec<(Triangle, Triangle)> = tris
        .iter()
        .map(|(p, q)| {
            let flat = |t: &Triangle| {
                Triangle::new(
                    Point::new(t.a.x, t.a.y, 0.0),
                    Point::new(t.b.x, t.b.y, 0.0),
                    Point::new(t.c.x, t.c.y, 0.0),
                )
            };
            (flat(p), flat(q))
        })
        .collect();
    per_pair(
        c,
        "tri_tri_coplanar",
        &coplanar,
        &[
            ("exact", &|(p, q)| tri_tri_exact::intersects(p, q)),
            ("moller", &|(p, q)| tri_tri_moller::intersects(p, q)),
        ],
    );

    let boxes: Vec<(Triangle, Obb, Aabb)> = tris
        .iter()
        .map(|(t, _)| {
            let o = rng.obb();
            (
                *t,
                o,
                Aabb::new(o.center - o.half_extents, o.center + o.half_extents),
            )
        })
        .collect();
    per_pair(
        c,
        "tri_box",
        &boxes,
        &[
            ("tri_aabb", &|(t, _, b)| tri_aabb::overlaps(t, b)),
            ("tri_obb", &|(t, o, _)| tri_obb::overlaps(t, o)),
        ],
    );
}

criterion_group!(benches, boxes, triangles);
criterion_main!(benches);
