//! ns per call of the primitive tests of `obbtree_bv::intersect` (part A: rays, segments,
//! planes, culling, 2D, dynamic), with ray–AABB and ray–triangle beside parry3d-f64's
//! equivalents. Each benchmark cycles through 1024 pre-generated random inputs.
#![allow(missing_docs)] // `criterion_main!` defines an undocumented `main`

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use nalgebra::{Point2, Rotation3, Unit, Vector2};
use obbtree_bv::intersect::*;
use obbtree_bv::{Aabb, Kdop14, Obb, Point, Ray, Sphere, Triangle, Vector};
use parry3d_f64::query::RayCast;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;

const N: usize = 1024;

struct Gen(Pcg64);
impl Gen {
    fn f(&mut self, lo: f64, hi: f64) -> f64 {
        self.0.gen_range(lo..hi)
    }
    fn p(&mut self) -> Point {
        Point::new(
            self.f(-10.0, 10.0),
            self.f(-10.0, 10.0),
            self.f(-10.0, 10.0),
        )
    }
    fn v(&mut self) -> Vector {
        self.p().coords
    }
    fn ray(&mut self) -> Ray {
        // Aimed roughly at the origin so about half the casts hit.
        let o = self.p();
        let d = (Point::origin() - o) + self.v() * 0.5;
        Ray::new(o, d)
    }
    fn aabb(&mut self) -> Aabb {
        let c = Point::from(self.v() * 0.3);
        let h = Vector::new(self.f(0.5, 4.0), self.f(0.5, 4.0), self.f(0.5, 4.0));
        Aabb::new(c - h, c + h)
    }
    fn obb(&mut self) -> Obb {
        let b = self.aabb();
        let axes = Rotation3::from_axis_angle(&Unit::new_normalize(self.v()), self.f(-3.0, 3.0))
            .into_inner();
        Obb {
            center: nalgebra::center(&b.mins, &b.maxs),
            axes,
            half_extents: (b.maxs - b.mins) * 0.5,
        }
    }
    fn sphere(&mut self) -> Sphere {
        Sphere {
            center: Point::from(self.v() * 0.3),
            radius: self.f(0.5, 4.0),
        }
    }
    fn tri(&mut self) -> Triangle {
        let c = Point::from(self.v() * 0.1);
        Triangle::new(c + self.v() * 0.4, c + self.v() * 0.4, c + self.v() * 0.4)
    }
    fn plane(&mut self) -> plane::Plane {
        plane::Plane::new(self.v(), self.f(-5.0, 5.0))
    }
    fn p2(&mut self) -> Point2<f64> {
        Point2::new(self.f(-10.0, 10.0), self.f(-10.0, 10.0))
    }
}

/// Benchmarks `f` over `N` inputs made by `make`, one input per call.
fn bench<T, R>(c: &mut Criterion, name: &str, make: impl Fn(&mut Gen) -> T, f: impl Fn(&T) -> R) {
    let mut g = Gen(Pcg64::seed_from_u64(7));
    let inputs: Vec<T> = (0..N).map(|_| make(&mut g)).collect();
    let mut i = 0;
    c.bench_function(name, |b| {
        b.iter(|| {
            i = (i + 1) % N;
            black_box(f(black_box(&inputs[i])))
        })
    });
}

fn pv(v: &Vector) -> parry3d_f64::math::Vector {
    parry3d_f64::math::Vector::new(v.x, v.y, v.z)
}
fn pray(r: &Ray) -> parry3d_f64::query::Ray {
    parry3d_f64::query::Ray::new(pv(&r.origin.coords), pv(&r.dir))
}

fn rays(c: &mut Criterion) {
    bench(
        c,
        "ray_aabb/slab",
        |g| (g.ray(), g.aabb()),
        |(r, b)| ray_aabb::cast(r, b),
    );
    bench(
        c,
        "ray_aabb/woo",
        |g| (g.ray(), g.aabb()),
        |(r, b)| ray_aabb::cast_woo(r, b),
    );
    bench(
        c,
        "ray_aabb/parry3d",
        |g| {
            let (r, b) = (g.ray(), g.aabb());
            (
                pray(&r),
                parry3d_f64::bounding_volume::Aabb::new(pv(&b.mins.coords), pv(&b.maxs.coords)),
            )
        },
        |(r, b)| b.cast_local_ray(r, f64::MAX, true),
    );
    bench(
        c,
        "ray_obb/slab",
        |g| (g.ray(), g.obb()),
        |(r, o)| ray_obb::cast(r, o),
    );
    bench(
        c,
        "ray_sphere/cast",
        |g| (g.ray(), g.sphere()),
        |(r, s)| ray_sphere::cast(r, s),
    );
    bench(
        c,
        "ray_sphere/intersects",
        |g| (g.ray(), g.sphere()),
        |(r, s)| ray_sphere::intersects(r, s),
    );
    bench(
        c,
        "ray_triangle/moller_trumbore",
        |g| (g.ray(), g.tri()),
        |(r, t)| ray_triangle::cast(r, t),
    );
    bench(
        c,
        "ray_triangle/watertight",
        |g| (g.ray(), g.tri()),
        |(r, t)| ray_triangle::cast_watertight(r, t),
    );
    bench(
        c,
        "ray_triangle/parry3d",
        |g| {
            let (r, t) = (g.ray(), g.tri());
            (
                pray(&r),
                parry3d_f64::shape::Triangle::new(
                    pv(&t.a.coords),
                    pv(&t.b.coords),
                    pv(&t.c.coords),
                ),
            )
        },
        |(r, t)| t.cast_local_ray(r, f64::MAX, true),
    );
    bench(
        c,
        "ray_polygon/hexagon",
        |g| {
            let (c0, r) = (g.v() * 0.1, g.f(1.0, 5.0));
            let rot = Rotation3::from_axis_angle(&Unit::new_normalize(g.v()), g.f(-3.0, 3.0));
            let poly: Vec<Point> = (0..6)
                .map(|k| {
                    let a = k as f64 * std::f64::consts::TAU / 6.0;
                    Point::from(rot * Vector::new(a.cos(), a.sin(), 0.0) * r + c0)
                })
                .collect();
            (g.ray(), poly)
        },
        |(r, p)| ray_polygon::cast(r, p),
    );
    bench(
        c,
        "ray_kdop/14dop",
        |g| {
            let pts: Vec<Point> = (0..8).map(|_| Point::from(g.v() * 0.3)).collect();
            let axes = Kdop14::axes();
            let k = Kdop14 {
                min: std::array::from_fn(|i| {
                    pts.iter()
                        .map(|p| axes[i].dot(&p.coords))
                        .fold(f64::INFINITY, f64::min)
                }),
                max: std::array::from_fn(|i| {
                    pts.iter()
                        .map(|p| axes[i].dot(&p.coords))
                        .fold(f64::NEG_INFINITY, f64::max)
                }),
            };
            (g.ray(), k)
        },
        |(r, k)| ray_kdop::cast(r, k),
    );
}

fn others(c: &mut Criterion) {
    bench(
        c,
        "segment_aabb/overlaps",
        |g| (g.p(), g.p(), g.aabb()),
        |(p, q, b)| segment_aabb::overlaps(p, q, b),
    );
    bench(
        c,
        "segment_obb/overlaps",
        |g| (g.p(), g.p(), g.obb()),
        |(p, q, o)| segment_obb::overlaps(p, q, o),
    );
    bench(
        c,
        "plane_aabb/radius",
        |g| (g.plane(), g.aabb()),
        |(p, b)| plane_aabb::classify(p, b),
    );
    bench(
        c,
        "plane_aabb/diagonal",
        |g| (g.plane(), g.aabb()),
        |(p, b)| plane_aabb::classify_diagonal(p, b),
    );
    bench(
        c,
        "plane_aabb/vertices",
        |g| (g.plane(), g.aabb()),
        |(p, b)| plane_aabb::classify_vertices(p, b),
    );
    bench(
        c,
        "plane_obb/radius",
        |g| (g.plane(), g.obb()),
        |(p, o)| plane_obb::classify(p, o),
    );
    bench(
        c,
        "plane_obb/transformed_normal",
        |g| (g.plane(), g.obb()),
        |(p, o)| plane_obb::classify_transformed_normal(p, o),
    );
    bench(
        c,
        "plane_obb/vertices",
        |g| (g.plane(), g.obb()),
        |(p, o)| plane_obb::classify_vertices(p, o),
    );
    let view = nalgebra::Isometry3::look_at_rh(
        &Point::new(0.0, 0.0, 15.0),
        &Point::origin(),
        &Vector::y(),
    )
    .to_homogeneous();
    let m = nalgebra::Perspective3::new(1.5, 1.0, 1.0, 40.0).to_homogeneous() * view;
    let f = frustum::Frustum::from_view_projection(&m).unwrap();
    let big = |g: &mut Gen| Point::new(g.f(-30.0, 30.0), g.f(-30.0, 30.0), g.f(-30.0, 30.0));
    c.bench_function("frustum/from_view_projection", |b| {
        b.iter(|| frustum::Frustum::from_view_projection(black_box(&m)))
    });
    bench(
        c,
        "frustum_sphere/six_planes",
        |g| Sphere {
            center: big(g),
            radius: g.f(0.5, 4.0),
        },
        |s| frustum_sphere::classify(&f, s),
    );
    bench(
        c,
        "frustum_sphere/octant",
        |g| Sphere {
            center: big(g),
            radius: g.f(0.5, 4.0),
        },
        |s| frustum_sphere::classify_octant(&f, s),
    );
    bench(
        c,
        "frustum_aabb/two_vertex",
        |g| {
            let c0 = big(g);
            let b = g.aabb();
            Aabb::new(b.mins + c0.coords, b.maxs + c0.coords)
        },
        |b| frustum_aabb::classify(&f, b),
    );
    bench(
        c,
        "frustum_obb/two_vertex",
        |g| {
            let c0 = big(g);
            let o = g.obb();
            Obb {
                center: o.center + c0.coords,
                ..o
            }
        },
        |o| frustum_obb::classify(&f, o),
    );
    let shaft = shaft::Shaft::new(
        &Aabb::new(Point::new(-8.0, -8.0, -1.0), Point::new(-6.0, -5.0, 1.0)),
        &Aabb::new(Point::new(5.0, 6.0, -2.0), Point::new(8.0, 7.0, 0.5)),
    );
    bench(
        c,
        "shaft/aabb",
        |g| g.aabb(),
        |b| shaft::classify_aabb(&shaft, b),
    );
    bench(
        c,
        "shaft/sphere",
        |g| g.sphere(),
        |s| shaft::classify_sphere(&shaft, s),
    );
    bench(
        c,
        "line2d/intersect",
        |g| {
            (
                g.p2(),
                Vector2::new(g.f(-1.0, 1.0), g.f(-1.0, 1.0)),
                g.p2(),
                Vector2::new(g.f(-1.0, 1.0), g.f(-1.0, 1.0)),
            )
        },
        |(a, b, c0, d)| line2d::intersect(a, b, c0, d),
    );
    bench(
        c,
        "segment2d/intersect",
        |g| (g.p2(), g.p2(), g.p2(), g.p2()),
        |(a, b, c0, d)| segment2d::intersect(a, b, c0, d),
    );
    bench(
        c,
        "segment2d/overlaps_exact",
        |g| (g.p2(), g.p2(), g.p2(), g.p2()),
        |(a, b, c0, d)| segment2d::overlaps(a, b, c0, d),
    );
    bench(
        c,
        "three_planes/point",
        |g| (g.plane(), g.plane(), g.plane()),
        |(a, b, c0)| three_planes::point(a, b, c0),
    );
    bench(
        c,
        "moving_sphere_plane",
        |g| (g.sphere(), g.v(), g.plane()),
        |(s, v, p)| moving_sphere_plane::time_of_contact(s, v, p),
    );
    bench(
        c,
        "moving_sphere_sphere",
        |g| (g.sphere(), g.v(), g.sphere(), g.v()),
        |(a, va, b, vb)| moving_sphere_sphere::time_of_contact(a, va, b, vb),
    );
    bench(
        c,
        "moving_sphere_polygon/square",
        |g| {
            let c0 = g.v() * 0.2;
            let sq: Vec<Point> = [(-2.0, -2.0), (2.0, -2.0), (2.0, 2.0), (-2.0, 2.0)]
                .iter()
                .map(|&(x, y)| Point::new(x, y, 0.0) + c0)
                .collect();
            (g.sphere(), g.v(), sq)
        },
        |(s, v, p)| moving_sphere_polygon::time_of_contact(s, v, p),
    );
    bench(
        c,
        "moving_obb_obb",
        |g| (g.obb(), g.v(), g.obb(), g.v()),
        |(a, va, b, vb)| moving_obb_obb::time_of_contact(a, va, b, vb),
    );
}

criterion_group!(benches, rays, others);
criterion_main!(benches);
