//! Self-collision of the merged KUKA iiwa arm (its eight links in one mesh), each link at a
//! random pose near the previous one so that neighbouring links interpenetrate, against an
//! independent exact oracle: a sweep over the triangles' bounding boxes (boxes compared exactly,
//! so the sweep drops only pairs that cannot touch) and the exact predicate on what is left.
//! The arm has 14,758 triangles, too many for the all-pairs oracle at every pose.

mod common;

use common::{asset, cases};
use nalgebra::{Rotation3, Translation3, Vector3};
use obbtree::bv::intersect::tri_tri_exact;
use obbtree::bv::{Aabb, Kdop18, Obb, Point, Sphere, TriMesh};
use obbtree::load::load_mesh;
use obbtree::query::collide::{self_collide, Pose};
use obbtree::query::{CollisionRequest, Mode, Model, PosedOverlap};
use obbtree::tree::Bvh;
use rand::{Rng, SeedableRng};

fn centroid(m: &TriMesh) -> Point {
    let n = m.vertices().len() as f64;
    Point::from(m.vertices().iter().map(|p| p.coords).sum::<Vector3<f64>>() / n)
}

/// The eight links in one mesh, link `k` rotated at random with its centroid moved to a random
/// vertex of link `k - 1` (as placed), vertex indices offset per link.
fn arm(links: &[TriMesh], r: &mut rand_pcg::Pcg64) -> TriMesh {
    let (mut vertices, mut triangles) = (Vec::<Point>::new(), Vec::<[u32; 3]>::new());
    let mut previous: Option<std::ops::Range<usize>> = None;
    for link in links {
        let rot = Rotation3::new(Vector3::from_fn(|_, _| r.gen_range(-3.0..3.0)));
        let target = match &previous {
            Some(range) => vertices[r.gen_range(range.clone())],
            None => Point::origin(),
        };
        let pose = Pose::from_parts(Translation3::from(target - rot * centroid(link)), rot);
        let offset = vertices.len();
        vertices.extend(link.vertices().iter().map(|p| pose * p));
        triangles.extend(
            link.triangles()
                .iter()
                .map(|t| t.map(|i| i + offset as u32)),
        );
        previous = Some(offset..vertices.len());
    }
    TriMesh::new(vertices, triangles).unwrap()
}

/// The oracle: pairs `[i, j]`, `i < j`, sharing no vertex index, whose exact bounding boxes
/// meet (found by sorting on the boxes' lower x) and that the exact predicate says intersect.
fn sweep_oracle(mesh: &TriMesh) -> Vec<[u32; 2]> {
    let n = mesh.triangles().len();
    let boxes: Vec<Aabb> = (0..n)
        .map(|t| {
            let tri = mesh.triangle(t);
            Aabb::from_points(&[tri.a, tri.b, tri.c])
        })
        .collect();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&i, &j| boxes[i].mins.x.total_cmp(&boxes[j].mins.x));
    let mut pairs = Vec::new();
    for (k, &i) in order.iter().enumerate() {
        for &j in &order[k + 1..] {
            if boxes[j].mins.x > boxes[i].maxs.x {
                break;
            }
            let (p, q) = (&boxes[i], &boxes[j]);
            let meet = (1..3).all(|d| p.mins[d] <= q.maxs[d] && q.mins[d] <= p.maxs[d]);
            let (ti, tj) = (mesh.triangles()[i], mesh.triangles()[j]);
            if meet
                && !ti.iter().any(|v| tj.contains(v))
                && tri_tri_exact::intersects(&mesh.triangle(i), &mesh.triangle(j))
            {
                pairs.push([i.min(j) as u32, i.max(j) as u32]);
            }
        }
    }
    pairs.sort_unstable();
    pairs
}

fn check<V: PosedOverlap>(mesh: &TriMesh, want: &[[u32; 2]]) {
    let tree = Bvh::<V>::build(mesh, &Default::default()).unwrap();
    let model = Model::new(mesh, &tree).unwrap();
    let all = self_collide(&model, &CollisionRequest::new(Mode::All));
    assert_eq!(all.pairs, want, "{}", std::any::type_name::<V>());
    let first = self_collide(&model, &CollisionRequest::new(Mode::First));
    assert_eq!(first.intersects, !want.is_empty());
    assert!(first.pairs.iter().all(|p| want.contains(p)));
}

/// `OBBTREE_PROPTEST_CASES / 25` arm poses (default 4), every volume type.
#[test]
fn kuka_arm_self_collision_matches_oracle() {
    let links: Vec<TriMesh> = (0..8)
        .map(|k| load_mesh(&asset(&format!("kuka_iiwa/link_{k}.obj"))).unwrap())
        .collect();
    let mut r = rand_pcg::Pcg64::seed_from_u64(11);
    let (n, mut in_contact) = ((cases(100) / 25).max(1), 0);
    for _ in 0..n {
        let mesh = arm(&links, &mut r);
        let want = sweep_oracle(&mesh);
        in_contact += !want.is_empty() as u32;
        check::<Obb>(&mesh, &want);
        check::<obbtree::bv::Aabb>(&mesh, &want);
        check::<Kdop18>(&mesh, &want);
        check::<Sphere>(&mesh, &want);
    }
    println!("{n} arm poses, {in_contact} with intersecting pairs");
    assert!(in_contact * 2 >= n, "too few arm poses in contact");
}
