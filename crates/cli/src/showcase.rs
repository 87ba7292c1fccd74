//! The demo's second half: trees, a collision sweep, self-collision and picking on the bundled
//! meshes, each timed beside parry3d-f64 where parry has the same query, and the pictures.

use super::chart::{self, Bar};
use super::pick::pick_tree;
use super::render::{self, Shape};
use super::{tree, Error};
use obbtree::bv::{Aabb, Isometry, Obb, Ray, TriMesh, Vector};
use obbtree_compare as parry;
use obbtree_compare::rays::{self, Hit};
use obbtree::load::load_mesh;
use obbtree::query::collide::{collide, pose_from_rotation_vector, self_collide, Pose};
use obbtree::query::pick::camera::Camera;
use obbtree::query::pick::{MeshRay, RayTree};
use obbtree::query::{cast_ray, CollisionRequest, Mode, Model};
use obbtree::tree::{BuildOptions, Bvh};
use parry3d_f64::shape::TriMesh as PTriMesh;
use std::collections::HashSet;
use std::io::Write;
use std::path::Path;
use std::time::Instant;

fn ms(start: Instant) -> f64 {
    start.elapsed().as_secs_f64() * 1e3
}

fn build<V: obbtree::tree::TreeVolume>(mesh: &TriMesh) -> Result<Bvh<V>, Error> {
    Bvh::<V>::build(mesh, &BuildOptions::default()).map_err(|e| Error::Message(e.to_string()))
}

fn model<'a, V: obbtree::query::PosedOverlap>(
    mesh: &'a TriMesh,
    tree: &'a Bvh<V>,
) -> Result<Model<'a, V>, Error> {
    Model::new(mesh, tree).map_err(|e| Error::Message(e.to_string()))
}

/// Runs the showcase on the meshes of `assets`, writing pictures into `out_dir`.
pub fn run(assets: &Path, out_dir: &Path, quick: bool, out: &mut impl Write) -> Result<(), Error> {
    std::fs::create_dir_all(out_dir).map_err(|e| {
        Error::Message(format!(
            "cannot create {}: {e}; pass --out DIR",
            out_dir.display()
        ))
    })?;
    let bunny = load_mesh(&assets.join("bunny.obj"))?;
    let dragon = scaled_like(&load_mesh(&assets.join("dragon_res4.ply.gz"))?, &bunny)?;
    let mut bars = Vec::new();

    // Trees.
    writeln!(out)?;
    writeln!(
        out,
        "{}",
        console::style(format!(
            "{:<14} {:<7} {:>9} {:>7} {:>7} {:>6} {:>8}",
            "tree", "volume", "build ms", "nodes", "leaves", "depth", "B/tri"
        ))
        .bold()
    )?;
    for (name, mesh) in [("bunny", &bunny), ("dragon_res4", &dragon)] {
        for kind in [tree::Kind::Obb, tree::Kind::Aabb, tree::Kind::Kdop18] {
            let r = tree::Report::build(mesh, kind);
            writeln!(
                out,
                "{name:<14} {:<7} {:>9.1} {:>7} {:>7} {:>6} {:>8.1}",
                r.tree, r.build_ms, r.nodes, r.leaves, r.depth, r.bytes_per_triangle
            )?;
        }
    }

    // Collision: the dragon passes through the bunny along a line.
    let start = Instant::now();
    let (tree_a, tree_b) = (build::<Obb>(&bunny)?, build::<Obb>(&dragon)?);
    let obb_build = ms(start);
    let (ma, mb) = (model(&bunny, &tree_a)?, model(&dragon, &tree_b)?);
    let start = Instant::now();
    let refused = |e: parry3d_f64::shape::TriMeshBuilderError| {
        Error::Message(format!("parry3d-f64 refuses the mesh: {e}"))
    };
    let (pa, pb) = (
        parry::trimesh(&bunny).map_err(refused)?,
        parry::trimesh(&dragon).map_err(refused)?,
    );
    let parry_build = ms(start);
    bars.push(Bar {
        label: "build both trees".into(),
        obbtree_ms: obb_build,
        parry_ms: parry_build,
    });
    let poses = sweep(ma.bounds(), mb.bounds(), if quick { 12 } else { 60 });
    let request = CollisionRequest::new(Mode::All);
    let (mut ours_ms, mut parry_ms) = (0.0, 0.0);
    let (mut hits, mut pairs, mut differ) = (0, 0, 0);
    let mut deepest: Option<(Pose, Vec<[u32; 2]>)> = None;
    for pose in &poses {
        let start = Instant::now();
        let mut r = collide(&ma, &Pose::identity(), &mb, pose, &request);
        ours_ms += ms(start);
        let start = Instant::now();
        let theirs = parry::pairs(&pa, &pb, &parry::pose(pose), false);
        parry_ms += ms(start);
        r.pairs.sort_unstable();
        differ += usize::from(r.pairs != theirs);
        hits += usize::from(r.intersects);
        pairs += r.pairs.len();
        if deepest
            .as_ref()
            .is_none_or(|(_, p)| p.len() < r.pairs.len())
        {
            deepest = Some((*pose, r.pairs));
        }
    }
    bars.push(Bar {
        label: format!("collide {} poses", poses.len()),
        obbtree_ms: ours_ms,
        parry_ms,
    });
    writeln!(out)?;
    writeln!(
        out,
        "{}",
        console::style(format!(
            "{:<42} {:>7} {:>9} {:>11} {:>10} {:>8}",
            "query", "answers", "pairs", "obbtree ms", "parry ms", "differ"
        ))
        .bold()
    )?;
    writeln!(
        out,
        "{:<42} {:>7} {:>9} {:>11.2} {:>10.2} {:>8}",
        format!("bunny x dragon_res4 (scaled), {} poses", poses.len()),
        format!("{hits} hit"),
        pairs,
        ours_ms,
        parry_ms,
        format!("{differ} pose")
    )?;

    // Self-collision of the dragon (parry has no such query).
    let start = Instant::now();
    let selfish = self_collide(&mb, &request);
    writeln!(
        out,
        "{:<42} {:>7} {:>9} {:>11.2} {:>10} {:>8}",
        "dragon_res4 self-collision",
        if selfish.intersects { "yes" } else { "no" },
        selfish.pairs.len(),
        ms(start),
        "-",
        "-"
    )?;

    // URDF-posed collision: the gear set and the KUKA arm.
    super::robots::gear_rows(assets, quick, out, &mut bars)?;
    super::robots::kuka_rows(assets, quick, out, &mut bars)?;

    // Picking: every pixel of the collision picture, one thread, beside parry, ray by ray.
    let (pose, contact) = deepest.unwrap_or((poses[0], Vec::new()));
    let (pick_a, pick_b) = (pick_tree(&bunny)?, pick_tree(&dragon)?);
    let shapes = [
        Shape {
            mesh: &bunny,
            tree: &pick_a,
            pose: Default::default(),
            color: [0.85, 0.8, 0.7],
            highlight: contact.iter().map(|p| p[0]).collect(),
        },
        Shape {
            mesh: &dragon,
            tree: &pick_b,
            pose: render::isometry(&pose),
            color: [0.45, 0.7, 0.5],
            highlight: contact.iter().map(|p| p[1]).collect(),
        },
    ];
    let side = if quick { 160 } else { 480 };
    let camera = Camera::framing(&render::world_bounds(&shapes), side, side);
    let rays: Vec<Ray> = (0..side)
        .flat_map(|y| (0..side).map(move |x| (x, y)))
        .filter_map(|(x, y)| camera.pixel_ray(x, y).ok())
        .collect();
    bars.push(pick_beside_parry(&shapes, [&pa, &pb], &rays, out)?);

    // Pictures.
    let collision_png = out_dir.join("collision.png");
    render::write_png(
        &collision_png,
        side,
        side,
        &render::render(&shapes, &camera)?,
    )?;
    let alone = Shape {
        mesh: &bunny,
        tree: &pick_a,
        pose: Default::default(),
        color: [0.85, 0.8, 0.7],
        highlight: HashSet::new(),
    };
    let camera = Camera::framing(
        &render::world_bounds(std::slice::from_ref(&alone)),
        side,
        side,
    );
    let picked = obbtree::query::pick::camera::pick(
        alone.mesh,
        alone.tree,
        &alone.pose,
        &camera,
        side / 2,
        side / 2,
    )
    .map_err(|e| Error::Message(e.to_string()))?;
    let alone = Shape {
        highlight: picked.iter().map(|h| h.triangle).collect(),
        ..alone
    };
    let pick_png = out_dir.join("pick.png");
    render::write_png(
        &pick_png,
        side,
        side,
        &render::render(std::slice::from_ref(&alone), &camera)?,
    )?;
    if let Some(h) = picked {
        writeln!(
            out,
            "picked bunny triangle {} at t = {:.4} under the centre pixel",
            h.triangle, h.t
        )?;
    }
    let chart_svg = out_dir.join("times.svg");
    chart::write_svg(&chart_svg, &bars)?;
    writeln!(out)?;
    writeln!(
        out,
        "pictures in {}: {}, {}, {}",
        out_dir.display(),
        name(&collision_png),
        name(&pick_png),
        name(&chart_svg)
    )?;
    Ok(())
}

/// Casts `rays` (world frame) at every shape through obbtree and parry3d-f64, one thread each,
/// and compares each ray's first-hit triangle on each mesh ([`rays::Judge`]: differences judged
/// by the exact oracle and labelled); prints the picking row and the labelled reasons, and
/// returns the chart's bar. Each ray is moved into each mesh's frame once, outside the timings,
/// so that both libraries (and the oracle) see the same rays bit for bit.
fn pick_beside_parry<T: RayTree>(
    shapes: &[Shape<T>; 2],
    parry_meshes: [&PTriMesh; 2],
    rays: &[Ray],
    out: &mut impl Write,
) -> Result<Bar, Error> {
    let local: Vec<Vec<Ray>> = shapes
        .iter()
        .map(|s| rays.iter().map(|r| MeshRay::new(&s.pose, r).ray).collect())
        .collect();
    let cast = |k: usize, i: usize| -> Result<Option<Hit>, Error> {
        let s = &shapes[k];
        let hit = cast_ray(
            s.mesh,
            s.tree,
            &Isometry::identity(),
            &local[k][i],
            f64::INFINITY,
        )
        .map_err(|e| Error::Message(e.to_string()))?;
        Ok(hit.map(|h| Hit {
            triangle: h.triangle,
            t: h.t,
        }))
    };
    let start = Instant::now();
    let ours: Vec<[Option<Hit>; 2]> = (0..rays.len())
        .map(|i| Ok([cast(0, i)?, cast(1, i)?]))
        .collect::<Result<_, Error>>()?;
    let ours_ms = ms(start);
    let start = Instant::now();
    let theirs: Vec<[Option<Hit>; 2]> = (0..rays.len())
        .map(|i| [0, 1].map(|k| rays::parry_cast(parry_meshes[k], &local[k][i])))
        .collect();
    let parry_ms = ms(start);
    let judges = shapes.each_ref().map(|s| rays::Judge::new(s.mesh));
    let mut tally = rays::Tally::default();
    for i in 0..rays.len() {
        let agreements = [0, 1].map(|k| judges[k].judge(&local[k][i], ours[i][k], theirs[i][k]));
        tally.add(&agreements);
    }
    let hits = ours
        .iter()
        .filter(|h| h.iter().any(Option::is_some))
        .count();
    writeln!(
        out,
        "{:<42} {:>7} {:>9} {:>11.2} {:>10.2} {:>8}",
        format!("pick {} rays (2 meshes)", rays.len()),
        format!("{hits} hit"),
        "-",
        ours_ms,
        parry_ms,
        format!("{} ray", tally.differ)
    )?;
    if tally.ties > 0 {
        writeln!(
            out,
            "  {} rays hit different triangles at the same t (ties, e.g. a shared edge)",
            tally.ties
        )?;
    }
    for r in tally.reasons() {
        writeln!(out, "  {:>5} × {}: {}", r.count, r.wrong, r.reason)?;
    }
    Ok(Bar {
        label: format!("pick {} rays", rays.len()),
        obbtree_ms: ours_ms,
        parry_ms,
    })
}

/// `mesh` scaled about the origin so that its box's diagonal is 0.8 of `like`'s: the bundled
/// dragon is ~0.2 units long and the bunny ~10, and they should meet at similar sizes.
fn scaled_like(mesh: &TriMesh, like: &TriMesh) -> Result<TriMesh, Error> {
    let diagonal = |m: &TriMesh| {
        let b = Aabb::from_points(m.vertices());
        (b.maxs - b.mins).norm()
    };
    let s = 0.8 * diagonal(like) / diagonal(mesh).max(f64::MIN_POSITIVE);
    let vertices = mesh.vertices().iter().map(|p| p * s).collect();
    TriMesh::new(vertices, mesh.triangles().to_vec()).map_err(|e| Error::Message(e.to_string()))
}

fn name(p: &Path) -> String {
    p.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// `n` poses of B (bounds `b`) moving along x through A (bounds `a`), tilted a little, from
/// well clear on one side to well clear on the other.
fn sweep(a: &Aabb, b: &Aabb, n: usize) -> Vec<Pose> {
    let rotation = [0.3, 0.6, 0.1];
    let tilt = pose_from_rotation_vector([0.0; 3], rotation);
    let ca = nalgebra::center(&a.mins, &a.maxs);
    let cb = tilt * nalgebra::center(&b.mins, &b.maxs);
    let reach = 0.5 * ((a.maxs - a.mins).norm() + (b.maxs - b.mins).norm());
    (0..n)
        .map(|i| {
            let s = if n > 1 {
                i as f64 / (n - 1) as f64
            } else {
                0.5
            };
            let t = ca - cb + Vector::x() * reach * (2.0 * s - 1.0);
            pose_from_rotation_vector(t.into(), rotation)
        })
        .collect()
}
