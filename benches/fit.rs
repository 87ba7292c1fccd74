//! Fitting speed in points per second: every OBB and sphere fit, the k-DOPs, the convex hull,
//! and parry3d-f64's nearest equivalents (`utils::obb` = vertex covariance, centroid sphere,
//! `transformation::convex_hull`) in the same run.
//!
//! Point sets: a random anisotropic cloud and a finely tessellated torus (generated), and the
//! bundled bunny, differential ring gear and 200k-triangle dragon.
//!
//! `cargo bench --bench fit` (add `-- --quick` for a short run).
#![allow(missing_docs)] // `criterion_main!` defines an undocumented `main`

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use obbtree::bv::fit::hull;
use obbtree::bv::{BoundingVolume, Kdop14, Kdop26, Obb, ObbFit, Point, Sphere, SphereFit};
use parry3d_f64::math::Vector as PVector;

/// A named point set with its triangles.
struct Set {
    name: String,
    points: Vec<Point>,
    triangles: Vec<[Point; 3]>,
}

/// A random cloud in a rotated, stretched box (deterministic LCG), triangles of consecutive
/// points.
fn cloud(n: usize) -> Set {
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    };
    let rot = nalgebra::Rotation3::from_euler_angles(0.3, -0.7, 1.1);
    let points: Vec<Point> = (0..n)
        .map(|_| rot * Point::new(3.0 * next(), next(), 0.2 * next()))
        .collect();
    let triangles = points.chunks_exact(3).map(|c| [c[0], c[1], c[2]]).collect();
    Set {
        name: format!("cloud_{n}"),
        points,
        triangles,
    }
}

/// A torus (radii 2 and 0.5), `u × v` quads split in two.
fn torus(u: usize, v: usize) -> Set {
    let vertex = |i: usize, j: usize| {
        let (a, b) = (
            std::f64::consts::TAU * (i % u) as f64 / u as f64,
            std::f64::consts::TAU * (j % v) as f64 / v as f64,
        );
        Point::new(
            (2.0 + 0.5 * b.cos()) * a.cos(),
            (2.0 + 0.5 * b.cos()) * a.sin(),
            0.5 * b.sin(),
        )
    };
    let points: Vec<Point> = (0..u)
        .flat_map(|i| (0..v).map(move |j| vertex(i, j)))
        .collect();
    let triangles = (0..u)
        .flat_map(|i| {
            (0..v).flat_map(move |j| {
                [
                    [vertex(i, j), vertex(i + 1, j), vertex(i + 1, j + 1)],
                    [vertex(i, j), vertex(i + 1, j + 1), vertex(i, j + 1)],
                ]
            })
        })
        .collect();
    Set {
        name: format!("torus_{}", u * v),
        points,
        triangles,
    }
}

/// Bundled meshes of three sizes (see `assets/README.md`).
fn bundled() -> Vec<Set> {
    [
        "bunny.obj",
        "differential/diff_ring.stl",
        "dragon_res2.ply.gz",
    ]
    .into_iter()
    .map(|name| {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("assets")
            .join(name);
        let mesh = obbtree::load::load_mesh(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
        let triangles = (0..mesh.triangles().len())
            .map(|i| mesh.triangle(i).vertices())
            .collect();
        Set {
            name: name.rsplit('/').next().unwrap_or(name).to_owned(),
            points: mesh.vertices().to_vec(),
            triangles,
        }
    })
    .collect()
}

fn fits(c: &mut Criterion) {
    let mut sets = vec![cloud(10_000), torus(200, 50)];
    sets.extend(bundled());
    for set in &sets {
        let mut group = c.benchmark_group(format!("fit/{}", set.name));
        group.throughput(Throughput::Elements(set.points.len() as u64));
        group.sample_size(10);
        for m in ObbFit::ALL {
            group.bench_function(BenchmarkId::new("obb", format!("{m:?}")), |b| {
                b.iter(|| Obb::fit_triangles(black_box(&set.triangles), m))
            });
        }
        for m in SphereFit::ALL {
            group.bench_function(BenchmarkId::new("sphere", format!("{m:?}")), |b| {
                b.iter(|| Sphere::fit_points(black_box(&set.points), m))
            });
        }
        group.bench_function("kdop14", |b| {
            b.iter(|| Kdop14::fit_points(black_box(&set.points), ()))
        });
        group.bench_function("kdop26", |b| {
            b.iter(|| Kdop26::fit_points(black_box(&set.points), ()))
        });
        group.bench_function("hull", |b| {
            b.iter(|| hull::convex_hull(black_box(&set.points)))
        });

        let parry: Vec<PVector> = set
            .points
            .iter()
            .map(|p| PVector::new(p.x, p.y, p.z))
            .collect();
        group.bench_function("parry/obb", |b| {
            b.iter(|| parry3d_f64::utils::obb(black_box(&parry)))
        });
        group.bench_function("parry/sphere", |b| {
            b.iter(|| {
                parry3d_f64::bounding_volume::details::point_cloud_bounding_sphere(black_box(
                    &parry,
                ))
            })
        });
        group.bench_function("parry/hull", |b| {
            b.iter(|| parry3d_f64::transformation::convex_hull(black_box(&parry)))
        });
        group.finish();
    }
}

criterion_group!(benches, fits);
criterion_main!(benches);
