//! The demo's second half: trees, a collision sweep, self-collision and picking on the bundled
//! meshes, each timed beside parry3d-f64 where parry has the same query, and the pictures.

use crate::chart::{self, Bar};
use crate::render::{self, Shape};
use crate::{tree, Error};
use obbtree::bv::{Aabb, Obb};
use obbtree::load::load_mesh;
use obbtree::pick::MeshRay;
use obbtree::tree::VolumeKind;
use obbtree::{
    cast_ray, collide, pick_pixel, self_collide, Camera, CollisionRequest, Mode, Model, Pose, Ray,
    TriMesh, Vector,
};
use obbtree_compare as parry;
use obbtree_compare::rays::{self, Hit};
use parry3d_f64::shape::TriMesh as PTriMesh;
use std::collections::HashSet;
use std::io::Write;
use std::path::Path;
use std::time::Instant;

fn ms(start: Instant) -> f64 {
    start.elapsed().as_secs_f64() * 1e3
}

fn model(mesh: TriMesh) -> Result<Model<Obb>, Error> {
    Model::new(mesh).map_err(|e| Error::Message(e.to_string()))
}

/// The parry copy of a mesh.
fn parry_mesh(mesh: &TriMesh) -> Result<PTriMesh, Error> {
    parry::trimesh(mesh).map_err(|e| Error::Message(format!("parry3d-f64 refuses the mesh: {e}")))
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
    tree_table(&[("bunny", &bunny), ("dragon_res4", &dragon)], out)?;
    let sweep = collision_sweep(bunny, dragon, quick, out, &mut bars)?;
    self_collision_row(&sweep.b, out)?;
    super::gears_and_arm::gear_rows(assets, quick, out, &mut bars)?;
    super::gears_and_arm::kuka_rows(assets, quick, out, &mut bars)?;
    let clearance_svg = out_dir.join("kuka_clearance.svg");
    super::gears_and_arm::kuka_clearance(assets, quick, &clearance_svg, out)?;
    super::scene_frames::demo_rows(assets, quick, out, &mut bars)?;
    let (shapes, camera) = contact_scene(&sweep, quick);
    bars.push(pick_beside_parry(
        &shapes,
        [&sweep.parry_a, &sweep.parry_b],
        &camera,
        out,
    )?);
    let pictures = [
        write_scene(&out_dir.join("collision.png"), &shapes, &camera)?,
        pick_picture(&sweep.a, camera.width, &out_dir.join("pick.png"), out)?,
        super::robot_path::path_picture(assets, quick, out_dir, out)?,
        super::panda_contact::contact_picture(assets, quick, out_dir, out)?,
        super::tunnelling::tunnelling_picture(&sweep.a, quick, out_dir, out)?,
        super::distance_picture::closest_points_picture(
            &sweep.a,
            &sweep.b,
            &sweep.deepest,
            quick,
            out_dir,
            out,
        )?,
        {
            let chart_svg = out_dir.join("times.svg");
            chart::write_svg(&chart_svg, &bars)?;
            chart_svg
        },
        clearance_svg,
    ];
    writeln!(out)?;
    writeln!(
        out,
        "pictures in {}: {}",
        out_dir.display(),
        pictures.map(|p| name(&p)).join(", ")
    )?;
    Ok(())
}

/// The tree table: each volume type's tree over each mesh.
fn tree_table(meshes: &[(&str, &TriMesh)], out: &mut impl Write) -> Result<(), Error> {
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
    for (name, mesh) in meshes {
        for kind in [VolumeKind::Obb, VolumeKind::Aabb, VolumeKind::Kdop18] {
            let r = tree::Report::build(mesh, kind);
            writeln!(
                out,
                "{name:<14} {:<7} {:>9.1} {:>7} {:>7} {:>6} {:>8.1}",
                r.tree, r.build_ms, r.nodes, r.leaves, r.depth, r.bytes_per_triangle
            )?;
        }
    }
    Ok(())
}

/// The collision sweep's models, parry copies, and its deepest pose with that pose's pairs.
struct Sweep {
    a: Model<Obb>,
    b: Model<Obb>,
    parry_a: PTriMesh,
    parry_b: PTriMesh,
    deepest: Pose,
    contact: Vec<[u32; 2]>,
}

/// The dragon (`b`) passes through the bunny (`a`) along a line: every pose through both
/// libraries, timed; prints the collision row.
fn collision_sweep(
    a: TriMesh,
    b: TriMesh,
    quick: bool,
    out: &mut impl Write,
    bars: &mut Vec<Bar>,
) -> Result<Sweep, Error> {
    let start = Instant::now();
    let (ma, mb) = (model(a)?, model(b)?);
    let obb_build = ms(start);
    let start = Instant::now();
    let (pa, pb) = (
        parry_mesh(crate::mesh_of(&ma, "the comparison")?)?,
        parry_mesh(crate::mesh_of(&mb, "the comparison")?)?,
    );
    bars.push(Bar {
        label: "build both trees".into(),
        obbtree_ms: obb_build,
        parry_ms: ms(start),
    });
    let poses = sweep(ma.bounds(), mb.bounds(), if quick { 12 } else { 60 })?;
    let request = CollisionRequest::new(Mode::All);
    let (mut ours_ms, mut parry_ms) = (0.0, 0.0);
    let (mut hits, mut pairs, mut differ) = (0, 0, 0);
    let mut deepest: (Pose, Vec<[u32; 2]>) = (poses[0], Vec::new());
    for pose in &poses {
        let start = Instant::now();
        let r = collide(&ma, &Pose::identity(), &mb, pose, &request)
            .map_err(|e| Error::Message(e.to_string()))?;
        ours_ms += ms(start);
        let start = Instant::now();
        let theirs = parry::pairs(&pa, &pb, &parry::pose(pose), false);
        parry_ms += ms(start);
        differ += usize::from(r.pairs != theirs);
        hits += usize::from(r.intersects);
        pairs += r.pairs.len();
        if deepest.1.len() < r.pairs.len() {
            deepest = (*pose, r.pairs);
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
    Ok(Sweep {
        a: ma,
        b: mb,
        parry_a: pa,
        parry_b: pb,
        deepest: deepest.0,
        contact: deepest.1,
    })
}

/// Self-collision of the dragon (parry has no such query).
fn self_collision_row(b: &Model<Obb>, out: &mut impl Write) -> Result<(), Error> {
    let start = Instant::now();
    let selfish = self_collide(b, &Pose::identity(), &CollisionRequest::new(Mode::All))
        .map_err(|e| Error::Message(e.to_string()))?;
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
    Ok(())
}

/// Both meshes at the sweep's deepest pose, the touching triangles highlighted, and a camera
/// framing them.
fn contact_scene(sweep: &Sweep, quick: bool) -> ([Shape<Obb>; 2], Camera) {
    let shapes = [
        Shape {
            model: sweep.a.clone(),
            pose: Pose::identity(),
            color: [0.85, 0.8, 0.7],
            highlight: sweep.contact.iter().map(|p| p[0]).collect(),
        },
        Shape {
            model: sweep.b.clone(),
            pose: sweep.deepest,
            color: [0.45, 0.7, 0.5],
            highlight: sweep.contact.iter().map(|p| p[1]).collect(),
        },
    ];
    let side = if quick { 160 } else { 480 };
    let camera = Camera::framing(&render::world_bounds(&shapes), side, side);
    (shapes, camera)
}

/// Renders `shapes` seen by `camera` into the PNG file `path`.
fn write_scene(
    path: &Path,
    shapes: &[Shape<Obb>],
    camera: &Camera,
) -> Result<std::path::PathBuf, Error> {
    let rgb = render::render(shapes, camera, &indicatif::ProgressBar::hidden())?;
    render::write_png(path, camera.width, camera.height, &rgb)?;
    Ok(path.to_path_buf())
}

/// The bunny alone with the triangle under the centre pixel picked and highlighted.
fn pick_picture(
    bunny: &Model<Obb>,
    side: u32,
    path: &Path,
    out: &mut impl Write,
) -> Result<std::path::PathBuf, Error> {
    let mut alone = Shape {
        model: bunny.clone(),
        pose: Pose::identity(),
        color: [0.85, 0.8, 0.7],
        highlight: HashSet::new(),
    };
    let camera = Camera::framing(
        &render::world_bounds(std::slice::from_ref(&alone)),
        side,
        side,
    );
    let picked = pick_pixel(bunny, &alone.pose, &camera, side / 2, side / 2)
        .map_err(|e| Error::Message(e.to_string()))?;
    alone.highlight = picked.iter().map(|h| h.triangle).collect();
    let written = write_scene(path, std::slice::from_ref(&alone), &camera)?;
    if let Some(h) = picked {
        writeln!(
            out,
            "picked bunny triangle {} at t = {:.4} under the centre pixel",
            h.triangle, h.t
        )?;
    }
    Ok(written)
}

/// Casts a ray through every pixel of `camera` at every shape through obbtree and parry3d-f64,
/// one thread each,
/// and compares each ray's first-hit triangle on each mesh ([`rays::Judge`]: differences judged
/// by the exact oracle and labelled); prints the picking row and the labelled reasons, and
/// returns the chart's bar. Each ray is moved into each mesh's frame once, outside the timings,
/// so that both libraries (and the oracle) see the same rays bit for bit.
fn pick_beside_parry(
    shapes: &[Shape<Obb>; 2],
    parry_meshes: [&PTriMesh; 2],
    camera: &Camera,
    out: &mut impl Write,
) -> Result<Bar, Error> {
    let rays: Vec<Ray> = (0..camera.height)
        .flat_map(|y| (0..camera.width).map(move |x| (x, y)))
        .filter_map(|(x, y)| camera.pixel_ray(x, y).ok())
        .collect();
    shapes.iter().for_each(|s| s.model.prepare_rays());
    let local: Vec<Vec<Ray>> = shapes
        .iter()
        .map(|s| rays.iter().map(|r| MeshRay::new(&s.pose, r).ray).collect())
        .collect();
    let cast = |k: usize, i: usize| -> Result<Option<Hit>, Error> {
        let s = &shapes[k];
        let hit = cast_ray(&s.model, &Pose::identity(), &local[k][i], f64::INFINITY)
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
    let meshes = [
        crate::mesh_of(&shapes[0].model, "the ray comparison")?,
        crate::mesh_of(&shapes[1].model, "the ray comparison")?,
    ];
    let judges = meshes.map(rays::Judge::new);
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
fn sweep(a: &Aabb, b: &Aabb, n: usize) -> Result<Vec<Pose>, Error> {
    let rotation = [0.3, 0.6, 0.1];
    let tilt = nalgebra::Rotation3::new(rotation.into());
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
            Pose::new(t, rotation).map_err(|e| Error::Message(e.to_string()))
        })
        .collect()
}
