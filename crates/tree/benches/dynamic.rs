//! Broad-phase frames on the dynamic tree: `n` unit cubes scattered in a cube sized so that
//! about 5% of them touch another, a tenth of them oscillating by ±0.5 along a random
//! direction over a cycle of 100 frames (at most ~0.03 per frame; the default margin is 0.1).
//! One iteration is one frame: the moving boxes' new positions, then
//!
//! * `incremental`: `update` for each moving cube, then the pairs of moved proxies
//!   (`for_each_moved_pair`) and `clear_moved`: what a scene keeping its pair set does;
//! * `incremental_all_pairs`: the same updates, then every pair of the tree (`for_each_pair`);
//! * `rebuild`: a tree built afresh from all boxes (`from_boxes`), then every pair;
//! * `brute_force`: every pair of boxes tested, O(n²).
//!
//! Each variant counts the pairs whose tight boxes meet, so all do the same filtering work.
//! Before timing, prints for each `n` the fraction of cubes touching another, the pair count,
//! the share of updates that touched the tree, and the height and surface-area cost of the tree
//! built by insertion and by `from_boxes`.
//!
//! The measured times and tree statistics are in `docs/performance.md`.
#![allow(missing_docs)] // `criterion_main!` defines an undocumented `main`

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use obbtree_bv::intersect::aabb_aabb;
use obbtree_bv::{Aabb, Point, Vector};
use obbtree_tree::{DynamicOptions, DynamicTree, ProxyId};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;
use std::f64::consts::TAU;
use std::hint::black_box;
use std::ops::ControlFlow;
use std::time::Duration;

/// Frames in one cycle of the oscillation.
const FRAMES: usize = 100;
/// Amplitude of the moving cubes' oscillation (cube side 1).
const AMPLITUDE: f64 = 0.5;
/// Expected number of other cubes a cube meets: `P(touching) = 1 - exp(-λ)` = 5%.
const EXPECTED_NEIGHBOURS: f64 = 0.0513;

struct Scene {
    rest: Vec<Point>,
    /// Moving cubes: index, direction of oscillation, phase.
    moving: Vec<(usize, Vector, f64)>,
}

impl Scene {
    fn new(n: usize, seed: u64) -> Self {
        let mut rng = Pcg64::seed_from_u64(seed);
        // Two unit cubes meet when their corners are within 1 on every axis (volume 8).
        let side = (8.0 * n as f64 / EXPECTED_NEIGHBOURS).cbrt();
        let rest = (0..n)
            .map(|_| Point::from([(); 3].map(|_| rng.gen_range(0.0..side))))
            .collect();
        let moving = (0..n)
            .step_by(10)
            .map(|i| {
                let direction = Vector::from([(); 3].map(|_| rng.gen_range(-1.0..1.0)));
                (i, direction.normalize(), rng.gen_range(0.0..TAU))
            })
            .collect();
        Self { rest, moving }
    }

    fn cube(corner: Point) -> Aabb {
        Aabb::new(corner, corner + Vector::repeat(1.0))
    }

    fn boxes(&self) -> Vec<Aabb> {
        self.rest.iter().map(|&p| Self::cube(p)).collect()
    }

    /// Moves the moving cubes of `boxes` to `frame` and calls `moved(i, box)` for each.
    fn step(&self, boxes: &mut [Aabb], frame: usize, mut moved: impl FnMut(usize, &Aabb)) {
        let angle = TAU * frame as f64 / FRAMES as f64;
        for &(i, direction, phase) in &self.moving {
            let offset = direction * (AMPLITUDE * (angle + phase).sin());
            boxes[i] = Self::cube(self.rest[i] + offset);
            moved(i, &boxes[i]);
        }
    }
}

fn brute_force_pairs(boxes: &[Aabb]) -> usize {
    let mut count = 0;
    for (i, a) in boxes.iter().enumerate() {
        for b in &boxes[i + 1..] {
            count += usize::from(aabb_aabb::overlaps(a, b));
        }
    }
    count
}

/// Counts the reported pairs whose tight boxes meet.
fn tight_counter<'a>(
    tree: &'a DynamicTree<usize>,
    count: &'a mut usize,
) -> impl FnMut(ProxyId, ProxyId) -> ControlFlow<()> + 'a {
    move |a, b| {
        let (a, b) = (tree.tight_aabb(a).unwrap(), tree.tight_aabb(b).unwrap());
        *count += usize::from(aabb_aabb::overlaps(a, b));
        ControlFlow::Continue(())
    }
}

fn inserted_tree(boxes: &[Aabb]) -> (DynamicTree<usize>, Vec<ProxyId>) {
    let mut tree = DynamicTree::new();
    let ids = boxes
        .iter()
        .enumerate()
        .map(|(i, b)| tree.insert(*b, i).unwrap())
        .collect();
    (tree, ids)
}

fn describe(n: usize, scene: &Scene) {
    let boxes = scene.boxes();
    let touching = boxes
        .iter()
        .enumerate()
        .filter(|(i, a)| {
            boxes
                .iter()
                .enumerate()
                .any(|(j, b)| *i != j && aabb_aabb::overlaps(a, b))
        })
        .count();
    let (mut tree, ids) = inserted_tree(&boxes);
    let inserted = (tree.height(), tree.sah_cost());
    let (rebuilt, _) =
        DynamicTree::from_boxes(boxes.iter().copied().zip(0..), DynamicOptions::default()).unwrap();
    let mut current = boxes.clone();
    let (mut updates, mut reinserted) = (0, 0);
    for frame in 1..=FRAMES {
        scene.step(&mut current, frame, |i, b| {
            updates += 1;
            reinserted += usize::from(tree.update(ids[i], *b).unwrap());
        });
        tree.clear_moved();
    }
    eprintln!(
        "n = {n}: {:.1}% of cubes touch another, {} pairs; {:.1}% of updates reinsert; \
         inserted tree height {} SAH cost {:.1}, from_boxes height {} SAH cost {:.1}, \
         after 100 frames height {} SAH cost {:.1}",
        100.0 * touching as f64 / n as f64,
        brute_force_pairs(&boxes),
        100.0 * reinserted as f64 / updates as f64,
        inserted.0,
        inserted.1,
        rebuilt.height(),
        rebuilt.sah_cost(),
        tree.height(),
        tree.sah_cost(),
    );
}

fn frames(c: &mut Criterion) {
    let mut group = c.benchmark_group("dynamic_frame");
    group
        .sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    for n in [100, 1_000, 10_000] {
        let scene = Scene::new(n, 2024 + n as u64);
        describe(n, &scene);

        group.bench_function(BenchmarkId::new("incremental", n), |bench| {
            let mut boxes = scene.boxes();
            let (mut tree, ids) = inserted_tree(&boxes);
            tree.clear_moved();
            let mut frame = 0;
            bench.iter(|| {
                frame = (frame + 1) % FRAMES;
                scene.step(&mut boxes, frame, |i, b| {
                    tree.update(ids[i], *b).unwrap();
                });
                let mut count = 0;
                let _ = tree.for_each_moved_pair(tight_counter(&tree, &mut count));
                tree.clear_moved();
                black_box(count)
            });
        });

        group.bench_function(BenchmarkId::new("incremental_all_pairs", n), |bench| {
            let mut boxes = scene.boxes();
            let (mut tree, ids) = inserted_tree(&boxes);
            let mut frame = 0;
            bench.iter(|| {
                frame = (frame + 1) % FRAMES;
                scene.step(&mut boxes, frame, |i, b| {
                    tree.update(ids[i], *b).unwrap();
                });
                let mut count = 0;
                let _ = tree.for_each_pair(tight_counter(&tree, &mut count));
                tree.clear_moved();
                black_box(count)
            });
        });

        group.bench_function(BenchmarkId::new("rebuild", n), |bench| {
            let mut boxes = scene.boxes();
            let mut frame = 0;
            bench.iter(|| {
                frame = (frame + 1) % FRAMES;
                scene.step(&mut boxes, frame, |_, _| {});
                let (tree, _) = DynamicTree::from_boxes(
                    boxes.iter().copied().zip(0..),
                    DynamicOptions::default(),
                )
                .unwrap();
                let mut count = 0;
                let _ = tree.for_each_pair(tight_counter(&tree, &mut count));
                black_box(count)
            });
        });

        group.bench_function(BenchmarkId::new("brute_force", n), |bench| {
            let mut boxes = scene.boxes();
            let mut frame = 0;
            bench.iter(|| {
                frame = (frame + 1) % FRAMES;
                scene.step(&mut boxes, frame, |_, _| {});
                black_box(brute_force_pairs(&boxes))
            });
        });
    }
    group.finish();
}

criterion_group!(benches, frames);
criterion_main!(benches);
