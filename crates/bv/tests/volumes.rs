//! Triangle–AABB / triangle–OBB against an exact separating-axis evaluation; AABB–AABB,
//! sphere–sphere, sphere–AABB, sphere–OBB against exact closest-point distances; k-DOP–k-DOP
//! against exact slab comparison on fitted k-DOPs.

mod common;

use common::config_with;
use common::exact::*;
use nalgebra::Matrix3;
use num_rational::BigRational;
use num_traits::Zero;
use obbtree_bv::intersect::{
    aabb_aabb, kdop_kdop, sphere_aabb, sphere_obb, sphere_sphere, tri_aabb, tri_obb,
};
use obbtree_bv::{Aabb, Kdop14, Kdop26, Obb, Point, Sphere, Triangle, Vector};
use proptest::prelude::*;

/// Exact triangle vs. box (the box as centre plus half-axis generators with the given float
/// axes): the complete candidate set is the box's face normals, the triangle normal and the
/// nine box-axis × edge products, plus the in-plane edge normals for zero-area triangles.
fn exact_tri_box(t: &Triangle, center: &Point, axes: &Matrix3<f64>, half: &Vector) -> (bool, f64) {
    let col = |i: usize| d3(&[axes[(0, i)], axes[(1, i)], axes[(2, i)]]);
    let u = [col(0), col(1), col(2)];
    let tri = ExactBody {
        points: t.vertices().iter().map(|p| d3(&[p.x, p.y, p.z])).collect(),
        generators: vec![],
    };
    let bx = ExactBody {
        points: vec![d3(&[center.x, center.y, center.z])],
        generators: (0..3)
            .map(|i| u[i].clone().map(|x| x.mul(&Dy::new(half[i]))))
            .collect(),
    };
    let v = &tri.points;
    let e = [0, 1, 2].map(|i| [0, 1, 2].map(|k| v[(i + 1) % 3][k].sub(&v[i][k])));
    let mut axes_list = vec![
        d_cross(&u[1], &u[2]),
        d_cross(&u[2], &u[0]),
        d_cross(&u[0], &u[1]),
    ];
    axes_list.push(d_cross(&e[0], &e[1]));
    for a in &u {
        for f in &e {
            axes_list.push(d_cross(a, f));
        }
    }
    let (sep, gap) = exact_sat(&tri, &bx, &axes_list);
    (!sep, gap)
}

fn tri_box_pair() -> impl Strategy<Value = (Triangle, Point, Matrix3<f64>, Vector)> {
    let quat = [-1.0..1.0f64, -1.0..1.0f64, -1.0..1.0f64, -1.0..1.0f64];
    (
        prop_oneof![
            (grid_pair(), grid_scale())
                .prop_map(|((p, _, _), s)| (place(&p, (s.0 * 0.25, s.1)), s)),
            (float_triangle(), grid_scale()).prop_map(|(p, s)| (place_f(&p, s), s)),
        ],
        quat,
        any::<bool>(),
        [0.0..1.0f64, 0.0..1.0f64, 0.0..1.0f64],
        [-1.0..1.0f64, -1.0..1.0f64, -1.0..1.0f64],
        prop_oneof![
            Just([0.5, 0.5, 0.5]),
            [0.0..1.0f64, 0.0..1.0f64, 0.0..1.0f64]
        ],
    )
        .prop_map(|((t, (scale, shift)), q, aligned, h, c, grid_h)| {
            // Half the cases use grid-aligned boxes, so faces and edges touch the grid triangles.
            let half = if aligned {
                Vector::from(grid_h) * scale
            } else {
                Vector::from(h) * scale
            };
            let center = Point::from(
                Vector::from(c).map(|x| if aligned { (x * 2.0).round() * 0.5 } else { x }) * scale
                    + Vector::repeat(shift),
            );
            (t, center, common::quaternion_rotation(q), half)
        })
}

fn magnitude(t: &Triangle, c: &Point) -> f64 {
    t.vertices()
        .iter()
        .map(|p| p.coords.amax())
        .fold(c.coords.amax(), f64::max)
}

proptest! {
    #![proptest_config(config_with(5000))]

    /// Conservative (never misses) and tight (false overlaps only within rounding).
    #[test]
    fn tri_aabb_against_exact_sat((t, c, _, h) in tri_box_pair()) {
        let b = Aabb::new(c - h, c + h);
        // The exact body is the box [mins, maxs] as stored.
        let (meet, gap) = exact_tri_box(&t, &nalgebra::center(&b.mins, &b.maxs), &Matrix3::identity(), &((b.maxs - b.mins) * 0.5));
        let got = tri_aabb::overlaps(&t, &b);
        prop_assert!(!meet || got, "missed: {t:?} {b:?}");
        let tol = 1e-12 * h.amax().max(1e-300) + 64.0 * f64::EPSILON * magnitude(&t, &c);
        prop_assert!(!got || meet || gap <= tol, "false overlap, gap {gap:e}");
    }

    #[test]
    fn tri_obb_against_exact_sat((t, c, r, h) in tri_box_pair()) {
        let b = Obb { center: c, axes: r, half_extents: h };
        let (meet, gap) = exact_tri_box(&t, &c, &r, &h);
        let got = tri_obb::overlaps(&t, &b);
        prop_assert!(!meet || got, "missed: {t:?} {b:?}");
        let tol = 1e-12 * h.amax().max(1e-300) + 64.0 * f64::EPSILON * magnitude(&t, &c);
        prop_assert!(!got || meet || gap <= tol, "false overlap, gap {gap:e}");
    }
}

/// Exact squared distance from `p` to the box `[lo, hi]` (closest point by clamping).
fn exact_dist2_box(p: &Point, lo: &Point, hi: &Point) -> BigRational {
    (0..3).fold(BigRational::zero(), |acc, k| {
        let (x, l, u) = (q(p[k]), q(lo[k]), q(hi[k]));
        let e = if x < l {
            l - x
        } else if x > u {
            x - u
        } else {
            BigRational::zero()
        };
        acc + &e * &e
    })
}

fn sphere_strategy() -> impl Strategy<Value = (Point, f64)> {
    (
        [-2i32..=2, -2..=2, -2..=2],
        0i32..=3,
        [-1.0..1.0f64, -1.0..1.0f64, -1.0..1.0f64],
        0.0..2.0f64,
        any::<bool>(),
        grid_scale(),
    )
        .prop_map(|(g, r, f, rf, on_grid, (scale, shift))| {
            // Grid centres with integer radii make exact tangency common.
            let (c, r) = if on_grid {
                (Vector::new(g[0] as f64, g[1] as f64, g[2] as f64), r as f64)
            } else {
                (Vector::from(f), rf)
            };
            (Point::from(c * scale + Vector::repeat(shift)), r * scale)
        })
}

proptest! {
    #![proptest_config(config_with(10000))]

    #[test]
    fn aabb_aabb_exact(a in [-3i32..=3, -3..=3, -3..=3, 0..=2, 0..=2, 0..=2], b in [-3i32..=3, -3..=3, -3..=3, 0..=2, 0..=2, 0..=2], s in grid_scale()) {
        let mk = |v: [i32; 6]| {
            let lo = Point::new(v[0] as f64, v[1] as f64, v[2] as f64) * s.0 + Vector::repeat(s.1);
            Aabb::new(lo, lo + Vector::new(v[3] as f64, v[4] as f64, v[5] as f64) * s.0)
        };
        let (a, b) = (mk(a), mk(b));
        // Oracle: the exact distance between the boxes is zero.
        let gap = (0..3).map(|k| {
            let d = (q(b.mins[k]) - q(a.maxs[k])).max(q(a.mins[k]) - q(b.maxs[k]));
            if d > BigRational::zero() { d } else { BigRational::zero() }
        }).fold(BigRational::zero(), |x, y| x + y);
        prop_assert_eq!(aabb_aabb::overlaps(&a, &b), gap.is_zero());
    }

    /// Conservative against the exact distance; tight to a few ulps.
    #[test]
    fn sphere_sphere_exact((ca, ra) in sphere_strategy(), (cb, rb) in sphere_strategy()) {
        let (a, b) = (Sphere { center: ca, radius: ra }, Sphere { center: cb, radius: rb });
        let d2 = (0..3).fold(BigRational::zero(), |acc, k| { let d = q(cb[k]) - q(ca[k]); acc + &d * &d });
        let rr = q(ra) + q(rb);
        let meet = d2 <= &rr * &rr;
        let got = sphere_sphere::overlaps(&a, &b);
        prop_assert!(!meet || got);
        if got && !meet {
            let gap = approx(&d2).sqrt() - (ra + rb);
            prop_assert!(gap <= 1e-14 * (ra + rb + ca.coords.amax() + cb.coords.amax()), "gap {gap:e}");
        }
    }

    #[test]
    fn sphere_aabb_exact((c, r) in sphere_strategy(), lo in [-3i32..=3, -3..=3, -3..=3], ext in [0i32..=3, 0..=3, 0..=3], s in grid_scale()) {
        let lo = Point::new(lo[0] as f64, lo[1] as f64, lo[2] as f64) * s.0 + Vector::repeat(s.1);
        let b = Aabb::new(lo, lo + Vector::new(ext[0] as f64, ext[1] as f64, ext[2] as f64) * s.0);
        let sp = Sphere { center: c, radius: r };
        let d2 = exact_dist2_box(&c, &b.mins, &b.maxs);
        let meet = d2 <= q(r) * q(r);
        let got = sphere_aabb::overlaps(&sp, &b);
        prop_assert!(!meet || got);
        if got && !meet {
            prop_assert!(approx(&d2).sqrt() - r <= 1e-14 * (r + c.coords.amax() + b.maxs.coords.amax()));
        }
    }

    /// Sphere–OBB: conservative against the exact distance to the box frame's AABB, for OBBs
    /// whose axes are exact (quarter turns), and against a dense sampling for rotated boxes.
    #[test]
    fn sphere_obb_conservative((c, r) in sphere_strategy(), quat in [-1.0..1.0f64, -1.0..1.0f64, -1.0..1.0f64, -1.0..1.0f64], h in [0.0..1.5f64, 0.0..1.5f64, 0.0..1.5f64], s in grid_scale()) {
        let center = Point::from(Vector::repeat(s.1));
        let b = Obb { center, axes: common::quaternion_rotation(quat), half_extents: Vector::from(h) * s.0 };
        let sp = Sphere { center: c, radius: r };
        let got = sphere_obb::overlaps(&sp, &b);
        // Oracle: distance from the centre to the closest point of the box (Ericson §5.1.4),
        // computed independently in world coordinates by clamping along each axis.
        let d = c - b.center;
        // (Relative to the box centre, so that positions near 1e8 do not round the distance.)
        let closest = (0..3).fold(Vector::zeros(), |acc, i| {
            let u = b.axes.column(i);
            acc + u * u.dot(&d).clamp(-b.half_extents[i], b.half_extents[i])
        });
        let dist = (d - closest).norm();
        let tol = 1e-12 * (r + d.norm() + b.half_extents.amax());
        prop_assert!(dist > r + tol || got, "missed: dist {dist} r {r}");
        prop_assert!(dist < r - tol || !got || dist <= r + tol, "false overlap: dist {dist} r {r}");
    }

    /// k-DOPs fitted exactly around grid points (integer axes make the extremes exact): the
    /// test equals the exact slab comparison, and it is never false for intersecting hulls.
    #[test]
    fn kdop_kdop_slabs(a in prop::collection::vec([-4i32..=4, -4..=4, -4..=4], 1..5), b in prop::collection::vec([-4i32..=4, -4..=4, -4..=4], 1..5)) {
        fn fit<const A: usize>(pts: &[[i32; 3]]) -> obbtree_bv::Kdop<A> {
            let axes = obbtree_bv::Kdop::<A>::axes();
            let proj = |i: usize| pts.iter().map(move |p| axes[i].dot(&Vector::new(p[0] as f64, p[1] as f64, p[2] as f64)));
            obbtree_bv::Kdop { min: std::array::from_fn(|i| proj(i).fold(f64::MAX, f64::min)), max: std::array::from_fn(|i| proj(i).fold(f64::MIN, f64::max)) }
        }
        let pts = |v: &Vec<[i32; 3]>| v.iter().map(|p| Point::new(p[0] as f64, p[1] as f64, p[2] as f64)).collect::<Vec<_>>();
        let hulls_meet = hulls_meet_exact(&pts(&a), &pts(&b));
        let (a14, b14): (Kdop14, Kdop14) = (fit(&a), fit(&b));
        let (a26, b26): (Kdop26, Kdop26) = (fit(&a), fit(&b));
        prop_assert!(!hulls_meet || kdop_kdop::overlaps(&a14, &b14));
        prop_assert!(!hulls_meet || kdop_kdop::overlaps(&a26, &b26));
        // Exact slab comparison (the k-DOP test is exactly that).
        let slabs = |x: &Kdop26, y: &Kdop26| (0..13).all(|i| x.min[i] <= y.max[i] && y.min[i] <= x.max[i]);
        prop_assert_eq!(kdop_kdop::overlaps(&a26, &b26), slabs(&a26, &b26));
        // A 26-DOP is at least as tight as a 14-DOP.
        prop_assert!(!kdop_kdop::overlaps(&a26, &b26) || kdop_kdop::overlaps(&a14, &b14));
    }
}

#[test]
fn adversarial_tri_box_and_spheres() {
    for scale in [1.0, 1e-8, 1e8] {
        for shift in [0.0, 1e8] {
            let p = |x: f64, y: f64, z: f64| {
                Point::new(x * scale + shift, y * scale + shift, z * scale + shift)
            };
            let b = Aabb::new(p(0.0, 0.0, 0.0), p(1.0, 1.0, 1.0));
            let t = |a: Point, b2: Point, c: Point| Triangle::new(a, b2, c);
            // Triangle touching a face, an edge, a vertex; zero-area triangles.
            assert!(tri_aabb::overlaps(
                &t(p(1.0, 0.2, 0.2), p(2.0, 0.2, 0.2), p(2.0, 0.8, 0.8)),
                &b
            ));
            assert!(tri_aabb::overlaps(
                &t(p(1.0, 1.0, 0.5), p(2.0, 2.0, 0.5), p(1.0, 2.0, 0.5)),
                &b
            ));
            assert!(tri_aabb::overlaps(
                &t(p(1.0, 1.0, 1.0), p(2.0, 1.0, 1.0), p(1.0, 2.0, 1.0)),
                &b
            ));
            assert!(tri_aabb::overlaps(
                &t(p(0.5, 0.5, 2.0), p(0.5, 0.5, -1.0), p(0.5, 0.5, 0.5)),
                &b
            ));
            assert!(tri_aabb::overlaps(
                &t(p(1.0, 1.0, 1.0), p(1.0, 1.0, 1.0), p(1.0, 1.0, 1.0)),
                &b
            ));
            if shift == 0.0 {
                assert!(!tri_aabb::overlaps(
                    &t(p(1.5, 0.2, 0.2), p(2.0, 0.2, 0.2), p(2.0, 0.8, 0.8)),
                    &b
                ));
                // Plane cuts past the corner: only the triangle normal separates.
                assert!(!tri_aabb::overlaps(
                    &t(p(1.6, 0.0, 0.0), p(0.0, 1.6, 0.0), p(0.0, 0.0, 3.2)),
                    &Aabb::new(p(-1.0, -1.0, -1.0), p(0.5, 0.5, 0.5))
                ));
            }
            let s = |c: Point, r: f64| Sphere {
                center: c,
                radius: r * scale,
            };
            assert!(sphere_sphere::overlaps(
                &s(p(0.0, 0.0, 0.0), 1.0),
                &s(p(2.0, 0.0, 0.0), 1.0)
            ));
            assert!(sphere_aabb::overlaps(&s(p(2.0, 0.5, 0.5), 1.0), &b));
            assert!(sphere_aabb::overlaps(&s(p(1.0, 1.0, 2.0), 1.0), &b));
            let o = Obb {
                center: p(0.5, 0.5, 0.5),
                axes: Matrix3::identity(),
                half_extents: Vector::repeat(0.5 * scale),
            };
            // The box centre p(0.5, 0.5, 0.5) is representable except at scale 1e-8 shifted by 1e8.
            if (0.5 * scale + shift) - shift == 0.5 * scale {
                assert!(sphere_obb::overlaps(&s(p(2.0, 0.5, 0.5), 1.0), &o));
                assert!(tri_obb::overlaps(
                    &t(p(1.0, 1.0, 1.0), p(2.0, 1.0, 1.0), p(1.0, 2.0, 1.0)),
                    &o
                ));
            }
            if shift == 0.0 {
                assert!(!sphere_sphere::overlaps(
                    &s(p(0.0, 0.0, 0.0), 1.0),
                    &s(p(2.000001, 0.0, 0.0), 1.0)
                ));
                assert!(!sphere_aabb::overlaps(&s(p(2.000001, 0.5, 0.5), 1.0), &b));
                assert!(!sphere_obb::overlaps(&s(p(2.000001, 0.5, 0.5), 1.0), &o));
            }
        }
    }
}
