//! The demo's scene row: objects drawn from the bundled meshes (each scaled to a bounding
//! radius of 1), scattered so that about 5% of them meet another, a tenth moving a little in
//! every frame; every frame's touching object pairs and triangle pairs through a [`Scene`]
//! kept across frames, beside parry3d-f64's BVH broad phase (rebuilt per frame) and its
//! mesh–mesh pairs on every pair whose boxes meet. One thread each.

use crate::Error;
use obbtree::bv::Obb;
use obbtree::load::load_mesh;
use obbtree::scene::{ObjectContact, ObjectId, Scene};
use obbtree::{CollisionRequest, Mode, Model, Pose, TriMesh};
use obbtree_compare as parry;
use parry3d_f64::bounding_volume::BoundingVolume;
use parry3d_f64::partitioning::{Bvh, BvhBuildStrategy, BvhWorkspace};
use parry3d_f64::shape::TriMesh as ParryMesh;
use rand::{Rng, SeedableRng};
use std::io::Write;
use std::path::Path;
use std::time::Instant;

const FILES: [&str; 8] = [
    "bunny.obj",
    "duck/duck.obj",
    "teapot.obj",
    "kuka_iiwa/link_1.obj",
    "kuka_iiwa/link_3.obj",
    "kuka_iiwa/link_5.obj",
    "differential/diff_spider.stl",
    "differential/diff_side.stl",
];

/// A touching object pair by object number (smaller first) and its triangle-pair count.
type Touching = (usize, usize, usize);

fn message(e: impl std::fmt::Display) -> Error {
    Error::Message(e.to_string())
}

fn ms(start: Instant) -> f64 {
    start.elapsed().as_secs_f64() * 1e3
}

/// The row, its note, and its bar of the demo's chart.
pub(crate) fn demo_rows(
    assets: &Path,
    quick: bool,
    out: &mut impl Write,
    bars: &mut Vec<crate::chart::Bar>,
) -> Result<(), Error> {
    let (n, frames) = if quick { (200, 10) } else { (1000, 50) };
    let mut demo = DemoScene::new(assets, n)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .map_err(message)?;
    let (mut ours_ms, mut parry_ms, mut touching, mut pairs, mut differ) = (0.0, 0.0, 0, 0, 0);
    for _ in 0..frames {
        let moves = demo.move_a_tenth()?;
        let start = Instant::now();
        let contacts = pool.install(|| demo.scene.frame(&moves, &CollisionRequest::new(Mode::All)));
        let contacts = contacts.map_err(message)?;
        ours_ms += ms(start);
        let start = Instant::now();
        let theirs = demo.parry_frame();
        parry_ms += ms(start);
        differ += usize::from(demo.numbered(&contacts) != theirs);
        touching += contacts.len();
        pairs += contacts.iter().map(|c| c.result.pairs.len()).sum::<usize>();
    }
    writeln!(
        out,
        "{:<42} {:>7} {:>9} {:>11.2} {:>10.2} {:>8}",
        format!("scene, {n} objects x {frames} frames (10% move)"),
        format!("{touching} hit"),
        pairs,
        ours_ms,
        parry_ms,
        format!("{differ} frame")
    )?;
    writeln!(
        out,
        "  scene: touching object pairs summed over the frames; parry's broad phase rebuilt per \
         frame and every touching pair re-tested, obbtree's kept and unmoved pairs reused; one thread"
    )?;
    bars.push(crate::chart::Bar {
        label: format!("scene {n} objects"),
        obbtree_ms: ours_ms,
        parry_ms,
    });
    Ok(())
}

/// The objects, their poses, and both engines' view of them.
struct DemoScene {
    poses: Vec<Pose>,
    ids: Vec<ObjectId>,
    scene: Scene<Obb>,
    parry_meshes: Vec<ParryMesh>,
    workspace: BvhWorkspace,
    rng: rand_pcg::Pcg64,
}

impl DemoScene {
    /// `n` objects, object `i` of mesh `i mod 8`, scattered in a cube sized so that about 5%
    /// of their unit bounding spheres meet another's.
    fn new(assets: &Path, n: usize) -> Result<Self, Error> {
        let meshes = FILES
            .iter()
            .map(|f| unit_radius(&load_mesh(&assets.join(f))?))
            .collect::<Result<Vec<_>, Error>>()?;
        let models = meshes
            .iter()
            .map(|m| Model::<Obb>::new(m.clone()).map_err(message))
            .collect::<Result<Vec<_>, _>>()?;
        let parry_meshes = meshes
            .iter()
            .map(|m| parry::trimesh(m).map_err(|e| message(format!("{e:?}"))))
            .collect::<Result<Vec<_>, _>>()?;
        let mut rng = rand_pcg::Pcg64::seed_from_u64(1);
        // Spheres of radius 1 meet within 2 (volume 32π/3); 0.0513 expected neighbours: 5% meet.
        let side = (n as f64 * 32.0 * std::f64::consts::PI / 3.0 / 0.0513).cbrt();
        let poses: Vec<Pose> = (0..n)
            .map(|_| {
                let t: [f64; 3] = std::array::from_fn(|_| rng.gen_range(0.0..side));
                let r: [f64; 3] = std::array::from_fn(|_| rng.gen_range(-2.0..2.0));
                Pose::new(t, r).map_err(message)
            })
            .collect::<Result<_, _>>()?;
        let mut scene = Scene::new();
        let ids = poses
            .iter()
            .enumerate()
            .map(|(i, p)| scene.insert(format!("o{i:04}"), models[i % models.len()].clone(), *p))
            .collect::<Result<Vec<_>, _>>()
            .map_err(message)?;
        Ok(Self {
            poses,
            ids,
            scene,
            parry_meshes,
            workspace: BvhWorkspace::default(),
            rng,
        })
    }

    /// Every tenth object moved by up to 0.05 along each axis and turned 1% further.
    fn move_a_tenth(&mut self) -> Result<Vec<(ObjectId, Pose)>, Error> {
        (0..self.poses.len())
            .step_by(10)
            .map(|i| {
                let step: [f64; 3] = std::array::from_fn(|_| self.rng.gen_range(-0.05..0.05));
                let t = self.poses[i].translation() + nalgebra::Vector3::from(step);
                let pose = Pose::new(t, self.poses[i].rotation_vector() * 1.01).map_err(message)?;
                self.poses[i] = pose;
                Ok((self.ids[i], pose))
            })
            .collect()
    }

    /// What a manager without coherence does each frame, in parry: a BVH over the placed
    /// boxes, every overlapping leaf pair, parry's mesh–mesh pairs on each. Sorted.
    fn parry_frame(&mut self) -> Vec<Touching> {
        let meshes = &self.parry_meshes;
        let placed: Vec<_> = self.poses.iter().map(parry::pose).collect();
        let boxes: Vec<_> = (0..placed.len())
            .map(|i| meshes[i % meshes.len()].aabb(&placed[i]))
            .collect();
        let bvh = Bvh::from_leaves(BvhBuildStrategy::default(), &boxes);
        let mut theirs = Vec::new();
        bvh.traverse_bvtt_single_tree::<false>(&mut self.workspace, &mut |a, b| {
            let (a, b) = (a.min(b) as usize, a.max(b) as usize);
            if boxes[a].intersects(&boxes[b]) {
                let relative = parry::pose(&self.poses[a].inv_mul(&self.poses[b]));
                let (ma, mb) = (&meshes[a % meshes.len()], &meshes[b % meshes.len()]);
                let found = parry::pairs(ma, mb, &relative, false).len();
                if found > 0 {
                    theirs.push((a, b, found));
                }
            }
        });
        theirs.sort_unstable();
        theirs
    }

    /// The scene's contacts by object number, sorted as [`DemoScene::parry_frame`]'s.
    fn numbered(&self, contacts: &[ObjectContact]) -> Vec<Touching> {
        let index = |id| self.ids.iter().position(|&x| x == id).unwrap_or_default();
        let mut ours: Vec<Touching> = contacts
            .iter()
            .map(|c| {
                let (a, b) = (index(c.a), index(c.b));
                (a.min(b), a.max(b), c.result.pairs.len())
            })
            .collect();
        ours.sort_unstable();
        ours
    }
}

/// `mesh` moved to put its vertices' centroid at the origin and scaled to bounding radius 1.
fn unit_radius(mesh: &TriMesh) -> Result<TriMesh, Error> {
    let v = mesh.vertices();
    let c = v
        .iter()
        .fold(nalgebra::Vector3::zeros(), |s, p| s + p.coords)
        / v.len() as f64;
    let r = v
        .iter()
        .map(|p| (p.coords - c).norm())
        .fold(f64::MIN_POSITIVE, f64::max);
    let vertices = v.iter().map(|p| ((p.coords - c) / r).into()).collect();
    TriMesh::new(vertices, mesh.triangles().to_vec()).map_err(message)
}
