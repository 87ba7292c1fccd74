// Throwaway: measure build options on ASCII PLY files (uncommitted).
use obbtree_bv::{
    fit::{ObbFit, SphereFit},
    Aabb, BoundingVolume, Kdop18, Obb, Point, Sphere, TriMesh,
};
use obbtree_tree::{BuildOptions, Bvh, SplitRule};
use std::time::Instant;

fn load(path: &str) -> TriMesh {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let (mut nv, mut nf) = (0, 0);
    for l in lines.by_ref() {
        let w: Vec<_> = l.split_whitespace().collect();
        if w.len() == 3 && w[0] == "element" {
            if w[1] == "vertex" {
                nv = w[2].parse().unwrap()
            } else {
                nf = w[2].parse().unwrap()
            }
        }
        if l == "end_header" {
            break;
        }
    }
    let mut v = Vec::new();
    for _ in 0..nv {
        let c: Vec<f64> = lines
            .next()
            .unwrap()
            .split_whitespace()
            .take(3)
            .map(|x| x.parse().unwrap())
            .collect();
        v.push(Point::new(c[0], c[1], c[2]));
    }
    let mut t = Vec::new();
    for _ in 0..nf {
        let c: Vec<u32> = lines
            .next()
            .unwrap()
            .split_whitespace()
            .skip(1)
            .take(3)
            .map(|x| x.parse().unwrap())
            .collect();
        t.push([c[0], c[1], c[2]]);
    }
    TriMesh::new(v, t).unwrap()
}

fn sah<V: BoundingVolume>(b: &Bvh<V>) -> f64 {
    let root = b.root().bv().surface_area();
    b.nodes()
        .iter()
        .map(|n| {
            n.bv().surface_area() / root
                * if n.is_leaf() {
                    n.triangle_range().unwrap().len() as f64
                } else {
                    1.0
                }
        })
        .sum::<f64>()
}

fn run<V: BoundingVolume>(name: &str, mesh: &TriMesh, method: V::Method, leaves: &[usize]) {
    for split in [SplitRule::Gottschalk, SplitRule::Median, SplitRule::Sah] {
        for &leaf_size in leaves {
            let mut t = [0.0; 2];
            let mut bvh = None;
            for (k, parallel) in [false, true].into_iter().enumerate() {
                let o = BuildOptions::<V> {
                    leaf_size,
                    split,
                    method,
                    parallel,
                };
                let s = Instant::now();
                let b = Bvh::<V>::build(mesh, &o).unwrap();
                t[k] = s.elapsed().as_secs_f64() * 1e3;
                bvh = Some(b);
            }
            let b = bvh.unwrap();
            let st = b.stats();
            println!("{name} {split:?} leaf {leaf_size}: serial {:.1} ms par {:.1} ms nodes {} depth {} B/tri {:.1} avgleaf {:.2} sah {:.2} sumvol {:.4e}",
                t[0], t[1], st.nodes, st.depth, st.bytes_per_triangle, st.triangles as f64 / st.leaves as f64, sah(&b), st.levels.iter().map(|l| l.volume).sum::<f64>());
        }
    }
}

fn collide(mesh: &TriMesh, leaves: &[usize]) {
    use obbtree_bv::{Isometry, Vector};
    let probe = Bvh::<Obb>::build(
        mesh,
        &BuildOptions {
            leaf_size: 8,
            split: SplitRule::Gottschalk,
            method: ObbFit::TriangleCovariance,
            parallel: true,
        },
    )
    .unwrap();
    let ext = probe.root().bv().half_extents.norm();
    let poses: Vec<Isometry> = (0..24)
        .map(|k| {
            let a = k as f64 * 0.7;
            Isometry::new(
                Vector::new(a.cos(), a.sin(), (2.0 * a).cos()) * ext * 0.8 * ((k % 4) as f64 + 1.0)
                    / 4.0,
                Vector::new(0.3 * a.sin(), 0.5, a.cos()) * 0.8,
            )
        })
        .collect();
    for method in [ObbFit::TriangleCovariance, ObbFit::VertexCovariance] {
        for split in [SplitRule::Gottschalk, SplitRule::Median, SplitRule::Sah] {
            for &leaf_size in leaves {
                let b = Bvh::<Obb>::build(
                    mesh,
                    &BuildOptions {
                        leaf_size,
                        split,
                        method,
                        parallel: true,
                    },
                )
                .unwrap();
                let (mut bv, mut tp) = (0, 0);
                for m in &poses {
                    let (x, y) = collide_cost(&b, &b, m);
                    bv += x;
                    tp += y;
                }
                println!("{method:?} {split:?} leaf {leaf_size}: B/tri {:.1} bv tests {bv} tri pairs {tp} total {}", b.stats().bytes_per_triangle, bv + tp);
            }
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mesh = load(&args[1]);
    println!("{} triangles", mesh.triangles().len());
    let leaves: Vec<usize> = args[3].split(',').map(|x| x.parse().unwrap()).collect();
    for what in args[2].split(',') {
        match what {
            "aabb" => run::<Aabb>("aabb", &mesh, (), &leaves),
            "obb-tri" => run::<Obb>("obb-tri", &mesh, ObbFit::TriangleCovariance, &leaves),
            "obb-hull" => run::<Obb>("obb-hull", &mesh, ObbFit::HullCovariance, &leaves),
            "obb-vert" => run::<Obb>("obb-vert", &mesh, ObbFit::VertexCovariance, &leaves),
            "sphere" => run::<Sphere>("sphere", &mesh, SphereFit::default(), &leaves),
            "sphere-ritter" => run::<Sphere>("sphere-ritter", &mesh, SphereFit::Ritter, &leaves),
            "prof" => {
                for _ in 0..5 {
                    let b = Bvh::<Obb>::build(
                        &mesh,
                        &BuildOptions {
                            leaf_size: leaves[0],
                            split: SplitRule::Gottschalk,
                            method: ObbFit::TriangleCovariance,
                            parallel: false,
                        },
                    )
                    .unwrap();
                    std::hint::black_box(b);
                }
            }
            "time" => {
                let cfgs = [
                    (SplitRule::Gottschalk, 6),
                    (SplitRule::Gottschalk, 7),
                    (SplitRule::Gottschalk, 8),
                    (SplitRule::Sah, 7),
                    (SplitRule::Sah, 8),
                ];
                let mut best = vec![f64::INFINITY; cfgs.len() * 2];
                for _ in 0..5 {
                    for (k, &(split, leaf_size)) in cfgs.iter().enumerate() {
                        for (p, parallel) in [false, true].into_iter().enumerate() {
                            let s = Instant::now();
                            let b = Bvh::<Obb>::build(
                                &mesh,
                                &BuildOptions {
                                    leaf_size,
                                    split,
                                    method: ObbFit::TriangleCovariance,
                                    parallel,
                                },
                            )
                            .unwrap();
                            std::hint::black_box(b);
                            let t = s.elapsed().as_secs_f64() * 1e3;
                            best[2 * k + p] = best[2 * k + p].min(t);
                        }
                    }
                }
                for (k, c) in cfgs.iter().enumerate() {
                    println!(
                        "{c:?}: serial {:.1} ms parallel {:.1} ms",
                        best[2 * k],
                        best[2 * k + 1]
                    );
                }
            }
            "collide" => collide(&mesh, &leaves),
            "kdop18" => run::<Kdop18>("kdop18", &mesh, (), &leaves),
            _ => panic!(),
        }
    }
}

// ---- collision cost proxy: dual traversal of OBB trees, counting BV tests and triangle pairs.
fn obb_overlap(a: &Obb, b: &Obb, m: &obbtree_bv::Isometry) -> bool {
    let bc = m * b.center;
    let bax = m.rotation.to_rotation_matrix().into_inner() * b.axes;
    let r = a.axes.transpose() * bax; // B axes in A frame
    let t = a.axes.transpose() * (bc - a.center);
    let ar = r.abs().add_scalar(1e-12);
    let ha = a.half_extents;
    let hb = b.half_extents;
    for i in 0..3 {
        if t[i].abs() > ha[i] + (ar.row(i) * hb)[0] {
            return false;
        }
    }
    for j in 0..3 {
        let tj = (r.column(j).transpose() * t)[0];
        if tj.abs() > (ar.column(j).transpose() * ha)[0] + hb[j] {
            return false;
        }
    }
    for i in 0..3 {
        for j in 0..3 {
            let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
            let (j1, j2) = ((j + 1) % 3, (j + 2) % 3);
            let tt = (t[i2] * r[(i1, j)] - t[i1] * r[(i2, j)]).abs();
            let ra = ha[i1] * ar[(i2, j)] + ha[i2] * ar[(i1, j)];
            let rb = hb[j1] * ar[(i, j2)] + hb[j2] * ar[(i, j1)];
            if tt > ra + rb {
                return false;
            }
        }
    }
    true
}

pub fn collide_cost(a: &Bvh<Obb>, b: &Bvh<Obb>, m: &obbtree_bv::Isometry) -> (usize, usize) {
    let (mut bv_tests, mut tri_pairs) = (0, 0);
    let mut stack = vec![(0usize, 0usize)];
    while let Some((i, j)) = stack.pop() {
        bv_tests += 1;
        let (na, nb) = (a.node(i), b.node(j));
        if !obb_overlap(na.bv(), nb.bv(), m) {
            continue;
        }
        match (na.children(), nb.children()) {
            (None, None) => tri_pairs += a.leaf_triangles(i).len() * b.leaf_triangles(j).len(),
            (Some([l, r]), None) => {
                stack.push((l, j));
                stack.push((r, j));
            }
            (None, Some([l, r])) => {
                stack.push((i, l));
                stack.push((i, r));
            }
            (Some([l, r]), Some([l2, r2])) => {
                if na.bv().volume() >= nb.bv().volume() {
                    stack.push((l, j));
                    stack.push((r, j));
                } else {
                    stack.push((i, l2));
                    stack.push((i, r2));
                }
            }
        }
    }
    (bv_tests, tri_pairs)
}
