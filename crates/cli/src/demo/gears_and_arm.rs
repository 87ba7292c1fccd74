//! The demo's URDF-posed collision rows: the differential's gear set meshing at its assembled
//! poses while the side gear turns, and the KUKA arm's self-collision (every pair of links not
//! joined by a joint) at a few joint angles; obbtree beside parry3d-f64 on the same pairs. And
//! the KUKA arm's clearance between those links over a joint sweep, plotted.

use crate::chart::{Bar, Curve};
use crate::Error;
use obbtree::bv::Obb;
use obbtree::urdf::Robot;
use obbtree::{collide, distance, CollisionRequest, DistanceRequest, Mode, Model, Pose};
use obbtree_compare as parry;
use std::io::Write;
use std::path::Path;
use std::time::Instant;

/// One posed part: its model (mesh and OBB tree) and parry copy.
struct Part {
    link: usize,
    origin: Pose,
    model: Model<Obb>,
    parry: parry3d_f64::shape::TriMesh,
}

/// Totals of a batch of pair queries.
#[derive(Default)]
struct Tally {
    hits: usize,
    pairs: usize,
    ours_ms: f64,
    parry_ms: f64,
    differ: usize,
    queries: usize,
    answers_differ: usize,
}

fn parts(robot: &Robot, keep: impl Fn(&str) -> bool) -> Result<Vec<Part>, Error> {
    let mut out = Vec::new();
    for (link, l) in robot
        .links
        .iter()
        .enumerate()
        .filter(|(_, l)| keep(&l.name))
    {
        for v in &l.meshes {
            out.push(Part {
                link,
                origin: v.origin,
                model: Model::new(v.mesh.clone()).map_err(|e| Error::Message(e.to_string()))?,
                parry: parry::trimesh(&v.mesh).map_err(|e| {
                    Error::Message(format!("parry3d-f64 refuses {}: {e}", v.file.display()))
                })?,
            });
        }
    }
    Ok(out)
}

/// `All` on every pair `pairs` of `parts` at joint values `q`, timed, beside parry.
fn collide_pairs(
    robot: &Robot,
    parts: &[Part],
    pairs: &[(usize, usize)],
    q: &[f64],
    tally: &mut Tally,
) -> Result<(), Error> {
    let links = robot
        .link_poses(q)
        .map_err(|e| Error::Message(e.to_string()))?;
    let pose = |p: &Part| links[p.link] * p.origin;
    let request = CollisionRequest::new(Mode::All);
    for &(i, j) in pairs {
        let (a, b) = (&parts[i], &parts[j]);
        let (pa, pb) = (pose(a), pose(b));
        let start = Instant::now();
        let r = collide(&a.model, &pa, &b.model, &pb, &request)
            .map_err(|e| Error::Message(format!("{}: {e}", robot.path.display())))?;
        tally.ours_ms += start.elapsed().as_secs_f64() * 1e3;
        let rel = parry::pose(&pa.inv_mul(&pb));
        let start = Instant::now();
        let theirs = parry::pairs(&a.parry, &b.parry, &rel, false);
        tally.parry_ms += start.elapsed().as_secs_f64() * 1e3;
        tally.hits += usize::from(r.intersects);
        tally.pairs += r.pairs.len();
        tally.differ += usize::from(r.pairs != theirs);
        tally.answers_differ += usize::from(r.intersects == theirs.is_empty());
        tally.queries += 1;
    }
    Ok(())
}

fn row(out: &mut impl Write, label: String, t: &Tally, unit: &str) -> Result<(), Error> {
    writeln!(
        out,
        "{:<42} {:>7} {:>9} {:>11.2} {:>10.2} {:>8}",
        label,
        format!("{} hit", t.hits),
        t.pairs,
        t.ours_ms,
        t.parry_ms,
        format!("{} {unit}", t.differ)
    )?;
    Ok(())
}

/// The gear set of `differential/diff_ring.urdf`: every pair of its parts (quick: the two
/// spider and two side gears only) while side gear A turns over ±0.2 rad.
pub fn gear_rows(
    assets: &Path,
    quick: bool,
    out: &mut impl Write,
    bars: &mut Vec<Bar>,
) -> Result<(), Error> {
    let robot = Robot::from_file(assets.join("differential/diff_ring.urdf"))
        .map_err(|e| Error::Message(e.to_string()))?;
    let parts = parts(&robot, |name| !quick || name != "diff_ring")?;
    let pairs: Vec<(usize, usize)> = (0..parts.len())
        .flat_map(|i| (i + 1..parts.len()).map(move |j| (i, j)))
        .collect();
    let moving: Vec<usize> = robot.moving_joints().map(|j| j.child).collect();
    let side = robot
        .link("diff_sideA")
        .and_then(|l| moving.iter().position(|&c| c == l))
        .ok_or_else(|| Error::Message("diff_ring.urdf has no diff_sideA joint".into()))?;
    let steps = if quick { 4 } else { 24 };
    let mut tally = Tally::default();
    for k in 0..steps {
        let mut q = vec![0.0; moving.len()];
        q[side] = -0.2 + 0.4 * k as f64 / (steps - 1) as f64;
        collide_pairs(&robot, &parts, &pairs, &q, &mut tally)?;
    }
    let label = format!("gear set, {} parts x {steps} side-gear angles", parts.len());
    row(out, label, &tally, "pair")?;
    writeln!(
        out,
        "  gear set: yes/no differs from parry on {} of {} pair queries; the pair sets differ by \
         pairs parry's tolerance decides (touching teeth; the ring's faces lie on the carrier's); \
         tests/collide_gears.rs checks each exactly",
        tally.answers_differ, tally.queries
    )?;
    bars.push(Bar {
        label: "gear set".into(),
        obbtree_ms: tally.ours_ms,
        parry_ms: tally.parry_ms,
    });
    Ok(())
}

/// The KUKA arm of `kuka_iiwa/model.urdf`, its parts, and every pair of them whose links are not
/// joined by a joint.
struct Kuka {
    robot: Robot,
    parts: Vec<Part>,
    pairs: Vec<(usize, usize)>,
}

fn kuka(assets: &Path) -> Result<Kuka, Error> {
    let robot = Robot::from_file(assets.join("kuka_iiwa/model.urdf"))
        .map_err(|e| Error::Message(e.to_string()))?;
    let parts = parts(&robot, |_| true)?;
    let joined = |a: usize, b: usize| {
        robot.joints.iter().any(|j| {
            (j.parent, j.child) == (parts[a].link, parts[b].link)
                || (j.parent, j.child) == (parts[b].link, parts[a].link)
        })
    };
    let pairs: Vec<(usize, usize)> = (0..parts.len())
        .flat_map(|i| (i + 1..parts.len()).map(move |j| (i, j)))
        .filter(|&(i, j)| !joined(i, j))
        .collect();
    Ok(Kuka {
        robot,
        parts,
        pairs,
    })
}

/// The KUKA arm of `kuka_iiwa/model.urdf`: every pair of links not joined by a joint, at a few
/// joint angles (straight up, then folded more and more).
pub fn kuka_rows(
    assets: &Path,
    quick: bool,
    out: &mut impl Write,
    bars: &mut Vec<Bar>,
) -> Result<(), Error> {
    let Kuka {
        robot,
        parts,
        pairs,
    } = kuka(assets)?;
    let angles: &[[f64; 7]] = &[
        [0.0; 7],
        [0.0, 1.0, 0.0, -1.0, 0.0, 1.0, 0.0],
        [0.5, 2.0, 0.0, -2.0, 0.0, 2.0, 0.0],
        [0.0, 2.0, 1.5, 2.0, 1.5, 2.0, 0.0],
        [1.0, -2.0, 2.5, -2.0, -2.5, -2.0, 3.0],
    ];
    let angles = if quick { &angles[..2] } else { angles };
    let mut tally = Tally::default();
    let mut colliding = Vec::new();
    for (k, q) in angles.iter().enumerate() {
        let before = tally.hits;
        collide_pairs(&robot, &parts, &pairs, q, &mut tally)?;
        if tally.hits > before {
            colliding.push(k);
        }
    }
    let label = format!(
        "KUKA self-collision, {} poses x {} pairs",
        angles.len(),
        pairs.len()
    );
    row(out, label, &tally, "pair")?;
    writeln!(
        out,
        "  KUKA poses in self-collision: {colliding:?} of 0..{}",
        angles.len()
    )?;
    bars.push(Bar {
        label: "KUKA self-collision".into(),
        obbtree_ms: tally.ours_ms,
        parry_ms: tally.parry_ms,
    });
    Ok(())
}

/// The KUKA arm folding (joints 2, 4 and 6 from 0 to ±2 rad together): the distance between
/// every pair of links not joined by a joint at each step, each pair's query seeded with its
/// closest pair of the step before; writes the clearance of the nearest pairs and the least
/// over all pairs to `path` (SVG) and a line to `out`.
pub fn kuka_clearance(
    assets: &Path,
    quick: bool,
    path: &Path,
    out: &mut impl Write,
) -> Result<(), Error> {
    let Kuka {
        robot,
        parts,
        pairs,
    } = kuka(assets)?;
    let steps = if quick { 16 } else { 81 };
    let fold: Vec<f64> = (0..steps)
        .map(|k| 2.0 * k as f64 / (steps - 1) as f64)
        .collect();
    let mut clearance = vec![Vec::with_capacity(steps); pairs.len()];
    let mut hints = vec![None; pairs.len()];
    let start = Instant::now();
    for &s in &fold {
        let links = robot
            .link_poses(&[0.0, s, 0.0, -s, 0.0, s, 0.0])
            .map_err(|e| Error::Message(e.to_string()))?;
        let pose = |p: &Part| links[p.link] * p.origin;
        for (k, &(i, j)) in pairs.iter().enumerate() {
            let (a, b) = (&parts[i], &parts[j]);
            let request = DistanceRequest::default().with_hint(hints[k]);
            let r = distance(&a.model, &pose(a), &b.model, &pose(b), &request)
                .map_err(|e| Error::Message(format!("{}: {e}", robot.path.display())))?;
            hints[k] = Some(r.pair);
            clearance[k].push(r.distance);
        }
    }
    let ms = start.elapsed().as_secs_f64() * 1e3;
    let least = |c: &Vec<f64>| c.iter().copied().fold(f64::INFINITY, f64::min);
    let mut order: Vec<usize> = (0..pairs.len()).collect();
    order.sort_by(|&x, &y| least(&clearance[x]).total_cmp(&least(&clearance[y])));
    let name = |k: usize| {
        let (i, j) = pairs[k];
        let link = |p: &Part| robot.links[p.link].name.clone();
        format!("{} – {}", link(&parts[i]), link(&parts[j]))
    };
    let mut curves: Vec<Curve> = order
        .iter()
        .take(4)
        .map(|&k| Curve {
            label: name(k),
            values: clearance[k].clone(),
        })
        .collect();
    curves.push(Curve {
        label: "least over all pairs".into(),
        values: (0..steps)
            .map(|t| clearance.iter().map(|c| c[t]).fold(f64::INFINITY, f64::min))
            .collect(),
    });
    crate::chart::write_clearance_svg(path, &fold, &curves)?;
    writeln!(
        out,
        "KUKA clearance: {} pairs x {steps} fold angles in {ms:.1} ms (hinted); least {:.4} ({})",
        pairs.len(),
        least(&clearance[order[0]]),
        name(order[0])
    )?;
    Ok(())
}
