//! µs per continuous-collision query (`obbtree::bv::ccd`): the handcrafted sample queries of
//! Wang et al. 2021 (`crates/bv/tests/data/ccd`, every set of one kind in one run), and random
//! near misses as a cloth simulation produces them (primitives of size about 1 within a few
//! hundredths of each other, each point moving a few hundredths per step; about one in twelve
//! meets). Throughput is queries per second; the number of hits is printed first.
#![allow(missing_docs)] // `criterion_main!` defines an undocumented `main`

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use obbtree::bv::ccd::{edge_edge, vertex_face, TimeOfImpact};
use obbtree::bv::{Point, Vector};
use obbtree_cli::ccd_queries::read_queries;
use rand::{Rng as _, SeedableRng};
use rand_pcg::Pcg64;
use std::path::Path;

/// A query: the four points at `t = 0` and at `t = 1`.
type Query = ([Point; 4], [Point; 4]);
type Ccd = fn([Point; 4], [Point; 4]) -> Option<TimeOfImpact>;

/// Every sample query of `kind` (`vertex-face` or `edge-edge`).
fn sample_queries(kind: &str) -> Vec<Query> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/bv/tests/data/ccd");
    let mut sets: Vec<_> = std::fs::read_dir(root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    sets.sort();
    let files = sets
        .iter()
        .filter(|p| p.is_dir())
        .map(|p| p.join(format!("{kind}.csv")));
    files
        .flat_map(|f| read_queries(&f).unwrap())
        .map(|q| (q.start, q.end))
        .collect()
}

/// Seeded uniform numbers in [-1, 1), vectors of them and cloth steps.
struct Rng(Pcg64);

impl Rng {
    fn next(&mut self) -> f64 {
        self.0.gen_range(-1.0..1.0)
    }
    fn vector(&mut self) -> Vector {
        Vector::new(self.next(), self.next(), self.next())
    }
    /// A step of a cloth vertex: up to `STEP` per coordinate.
    fn step(&mut self) -> Vector {
        self.vector() * STEP
    }
}

/// The largest motion per coordinate in one step, and the largest gap between the primitives
/// at the start (their sizes are about 1).
const STEP: f64 = 0.02;
const GAP: f64 = 0.05;

/// A vertex near a face (within `GAP` of its plane, over or a little beside it), all four
/// points taking one small step.
fn near_vertex_face(rng: &mut Rng) -> Query {
    let face = [rng.vector(), rng.vector(), rng.vector()];
    let normal = (face[1] - face[0]).cross(&(face[2] - face[0])).normalize();
    let w = [rng.next() * 0.7 + 0.4, rng.next() * 0.7 + 0.4];
    let over = face[0] + (face[1] - face[0]) * w[0] * 0.6 + (face[2] - face[0]) * w[1] * 0.6;
    let v = over + normal * rng.next() * GAP;
    let start = [v, face[0], face[1], face[2]].map(Point::from);
    let end = start.map(|p| p + rng.step());
    (start, end)
}

/// Two edges passing within `GAP` of each other, all four ends taking one small step.
fn near_edge_edge(rng: &mut Rng) -> Query {
    let (a0, a1, b) = (rng.vector(), rng.vector(), rng.vector());
    let near = a0 + (a1 - a0) * (0.5 + 0.6 * rng.next());
    let across = (a1 - a0).cross(&b).normalize() * rng.next() * GAP;
    let (b0, b1) = (near + across - b * 0.5, near + across + b * 0.5);
    let start = [a0, a1, b0, b1].map(Point::from);
    let end = start.map(|p| p + rng.step());
    (start, end)
}

fn per_query(c: &mut Criterion, name: &str, queries: &[Query], ccd: Ccd) {
    let hits = queries
        .iter()
        .filter(|(s, e)| ccd(*s, *e).is_some())
        .count();
    eprintln!("{name}: {} queries, {hits} hits", queries.len());
    let mut g = c.benchmark_group("ccd");
    g.throughput(Throughput::Elements(queries.len() as u64));
    g.bench_function(name, |b| {
        b.iter(|| {
            for (s, e) in queries {
                black_box(ccd(black_box(*s), black_box(*e)));
            }
        })
    });
    g.finish();
}

fn ccd(c: &mut Criterion) {
    let mut rng = Rng(Pcg64::seed_from_u64(0x9e37_79b9_7f4a_7c15));
    let vf: Vec<Query> = (0..4096).map(|_| near_vertex_face(&mut rng)).collect();
    let ee: Vec<Query> = (0..4096).map(|_| near_edge_edge(&mut rng)).collect();
    per_query(c, "near_miss/vertex_face", &vf, vertex_face);
    per_query(c, "near_miss/edge_edge", &ee, edge_edge);
    per_query(
        c,
        "sample/vertex_face",
        &sample_queries("vertex-face"),
        vertex_face,
    );
    per_query(
        c,
        "sample/edge_edge",
        &sample_queries("edge-edge"),
        edge_edge,
    );
}

criterion_group!(benches, ccd);
criterion_main!(benches);
