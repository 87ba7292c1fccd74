//! Picking agreement between obbtree and parry3d-f64, for `obbtree compare --rays` and the demo:
//! parry's first hit on a ray, an exact oracle saying whether a ray really crosses a triangle,
//! and the verdict on each ray whose first-hit triangle differs between the two libraries.
//!
//! The oracle ([`crossing`]) works on exact rationals: every `f64` is a dyadic rational, so the
//! ray `o + t·d` (`t >= 0`) and the triangle's vertices are taken exactly as given, with no far
//! point to round. The ray crosses the closed triangle `abc` iff it is not parallel to the
//! triangle's plane, the three triple products `d·((a−o)×(b−o))`, `d·((b−o)×(c−o))`,
//! `d·((c−o)×(a−o))` (orientations of the ray's line against the edges) do not take both signs
//! (how many are zero tells whether it passes through the interior, an edge or a vertex), and
//! the plane's parameter `t = n·(a−o) / n·d` is `>= 0` (`n = (b−a)×(c−a)`). A ray lying in the
//! triangle's plane (or a zero-area triangle) is a miss by obbtree's picking policy and is
//! reported as such.
//!
//! The verdict ([`Judge::judge`]): the same triangle agrees; different triangles at the same `t`
//! within [`TIE`] are a tie (the two sides of a shared edge); otherwise the reference is the
//! nearest exact crossing among the two reported triangles and, for a reported triangle the ray
//! does not cross, the triangles sharing a vertex with it. An answer at the reference's exact
//! `t` is right; a later one or none misses the hit (through the interior, an edge or a vertex,
//! which is where non-watertight tests leak); a triangle the ray does not cross is reported
//! as a rounding error next to the crossed triangle, or as simply not crossed. The search is
//! local, not a brute force over the mesh: a nearer crossing elsewhere that neither library
//! reports is not looked for.

use num_rational::BigRational;
use num_traits::{Signed, ToPrimitive, Zero};
use obbtree_bv::{Ray, TriMesh, Triangle};
use parry3d_f64::math::{Pose as PPose, Vector as PVec};
use parry3d_f64::query::{Ray as PRay, RayCast};
use parry3d_f64::shape::TriMesh as PTriMesh;
use serde::Serialize;
use std::collections::BTreeMap;

/// A first hit: the triangle and the ray parameter.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Hit {
    /// Triangle index (the same in both libraries: [`super::trimesh`] keeps the order).
    pub triangle: u32,
    /// Ray parameter, in units of the ray's direction.
    pub t: f64,
}

/// parry's first hit of `ray` (in the mesh frame) on `mesh`: `cast_ray_and_get_normal`, solid,
/// unlimited.
pub fn parry_cast(mesh: &PTriMesh, ray: &Ray) -> Option<Hit> {
    let v = |x: &obbtree_bv::Vector| PVec::new(x.x, x.y, x.z);
    let r = PRay::new(v(&ray.origin.coords), v(&ray.dir));
    mesh.cast_ray_and_get_normal(&PPose::IDENTITY, &r, f64::MAX, true)
        .map(|h| Hit {
            triangle: h.subshape,
            t: h.time_of_impact,
        })
}

/// Where a ray meets a closed triangle, decided exactly.
#[derive(Clone, Debug, PartialEq)]
pub enum Crossing {
    /// The ray passes through the triangle at the exact parameter `t`.
    Through {
        /// Exact ray parameter of the crossing.
        t: BigRational,
        /// Which part of the triangle the ray passes through.
        at: Place,
    },
    /// The ray does not meet the triangle.
    Misses,
    /// The ray lies in the triangle's plane, or the triangle has zero area (a miss by policy).
    InPlane,
}

/// The part of a triangle a crossing ray passes through.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Place {
    /// Strictly inside.
    Interior,
    /// Through an edge (a shared edge, on a closed mesh).
    Edge,
    /// Through a vertex.
    Vertex,
}

impl Place {
    fn phrase(self) -> &'static str {
        match self {
            Place::Interior => "in a triangle's interior",
            Place::Edge => "through an edge",
            Place::Vertex => "through a vertex",
        }
    }
}

type Q3 = [BigRational; 3];

fn q3(v: &[f64]) -> Q3 {
    // Finite by the callers' validation; a non-finite value would make the oracle meaningless.
    std::array::from_fn(|k| BigRational::from_float(v[k]).expect("finite coordinates"))
}

fn sub(a: &Q3, b: &Q3) -> Q3 {
    std::array::from_fn(|k| &a[k] - &b[k])
}

fn cross(a: &Q3, b: &Q3) -> Q3 {
    std::array::from_fn(|k| {
        let (i, j) = ((k + 1) % 3, (k + 2) % 3);
        &a[i] * &b[j] - &a[j] * &b[i]
    })
}

fn dot(a: &Q3, b: &Q3) -> BigRational {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Exactly where the ray meets the closed triangle (see the module docs). The ray and the
/// triangle must have finite coordinates.
pub fn crossing(ray: &Ray, tri: &Triangle) -> Crossing {
    let (o, d) = (q3(ray.origin.coords.as_slice()), q3(ray.dir.as_slice()));
    let [a, b, c] = [&tri.a, &tri.b, &tri.c].map(|p| q3(p.coords.as_slice()));
    let n = cross(&sub(&b, &a), &sub(&c, &a));
    let (den, num) = (dot(&n, &d), dot(&n, &sub(&a, &o)));
    if den.is_zero() {
        return if num.is_zero() {
            Crossing::InPlane
        } else {
            Crossing::Misses
        };
    }
    let (ao, bo, co) = (sub(&a, &o), sub(&b, &o), sub(&c, &o));
    let sides = [(&ao, &bo), (&bo, &co), (&co, &ao)].map(|(p, q)| dot(&d, &cross(p, q)));
    let t = num / den;
    if (sides.iter().any(Signed::is_positive) && sides.iter().any(Signed::is_negative))
        || t.is_negative()
    {
        return Crossing::Misses;
    }
    let at = match sides.iter().filter(|s| s.is_zero()).count() {
        0 => Place::Interior,
        1 => Place::Edge,
        _ => Place::Vertex,
    };
    Crossing::Through { t, at }
}

/// What is wrong with one library's answer on a ray.
/// Serialized as its sentence, e.g. `"misses a hit through an edge"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Reason {
    /// Misses the first crossing known to the oracle (reports nothing or a farther triangle).
    MissesHit(Place),
    /// Reports a triangle the ray does not cross, next to (sharing a vertex with) the triangle
    /// the ray does cross first: a rounding error near an edge or a vertex.
    ReportsNeighbour,
    /// Reports a triangle the ray does not cross, with no crossed triangle around it.
    ReportsNonCrossing,
    /// Reports a triangle in whose plane the ray lies (a miss by obbtree's policy).
    ReportsInPlane,
}

impl std::fmt::Display for Reason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Reason::MissesHit(at) => write!(f, "misses a hit {}", at.phrase()),
            Reason::ReportsNeighbour => {
                f.write_str("reports a neighbour of the triangle the ray crosses (rounding)")
            }
            Reason::ReportsNonCrossing => f.write_str("reports a triangle the ray does not cross"),
            Reason::ReportsInPlane => f.write_str("reports a triangle in whose plane the ray lies"),
        }
    }
}

impl Serialize for Reason {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// A ray on which the two libraries' first-hit triangles differ (and not by a tie), judged by
/// [`crossing`]: each library's error, `None` where its answer is right.
#[derive(Clone, Debug, Serialize)]
pub struct Difference {
    /// obbtree's first hit.
    pub obbtree: Option<Hit>,
    /// parry's first hit.
    pub parry: Option<Hit>,
    /// What is wrong with obbtree's answer.
    pub obbtree_error: Option<Reason>,
    /// What is wrong with parry's answer.
    pub parry_error: Option<Reason>,
    /// The first crossing the oracle found among the reported triangles and their neighbours.
    pub exact_first: Option<Hit>,
    /// One sentence with the verdicts, triangles and parameters.
    pub detail: String,
}

/// The two libraries' first hits on one ray, compared.
#[derive(Clone, Debug)]
pub enum Agreement {
    /// The same triangle, or both nothing.
    Same,
    /// Different triangles at the same `t` within [`TIE`] (relative to `max(1, t)`), e.g. the
    /// two sides of a shared edge; not judged further.
    Tie,
    /// Anything else.
    Differ(Difference),
}

/// Relative tolerance on `t` under which two different triangles count as a tie.
pub const TIE: f64 = 1e-12;

/// Judges rays on one mesh: the mesh and, per vertex, the triangles around it.
pub struct Judge<'a> {
    mesh: &'a TriMesh,
    around: Vec<Vec<u32>>,
}

/// A crossing found by the oracle: triangle, exact `t`, place.
type Found = (u32, BigRational, Place);

impl<'a> Judge<'a> {
    /// A judge for rays on `mesh`.
    pub fn new(mesh: &'a TriMesh) -> Self {
        let mut around = vec![Vec::new(); mesh.vertices().len()];
        for (i, t) in mesh.triangles().iter().enumerate() {
            for &v in t {
                around[v as usize].push(i as u32);
            }
        }
        Self { mesh, around }
    }

    fn crossing(&self, ray: &Ray, triangle: u32) -> Crossing {
        crossing(ray, &self.mesh.triangle(triangle as usize))
    }

    /// The nearest exact crossing among the triangles sharing a vertex with `triangle`.
    fn nearest_around(&self, ray: &Ray, triangle: u32) -> Option<Found> {
        let mut near: Vec<u32> = self.mesh.triangles()[triangle as usize]
            .iter()
            .flat_map(|&v| self.around[v as usize].iter().copied())
            .collect();
        near.sort_unstable();
        near.dedup();
        near.into_iter()
            .filter_map(|n| match self.crossing(ray, n) {
                Crossing::Through { t, at } => Some((n, t, at)),
                _ => None,
            })
            .min_by(|a, b| a.1.cmp(&b.1).then(a.0.cmp(&b.0)))
    }

    /// Compares obbtree's and parry's first hits of `ray` (in the mesh's frame, finite,
    /// non-zero direction). When the triangles differ and the `t`s are not a [`TIE`], the
    /// oracle decides: the reference is the nearest exact crossing among both reported
    /// triangles and, for a reported triangle the ray does not cross, the triangles around it.
    /// An answer is right when it is a crossed triangle at the reference's exact `t`.
    pub fn judge(&self, ray: &Ray, obbtree: Option<Hit>, parry: Option<Hit>) -> Agreement {
        match (obbtree, parry) {
            (None, None) => return Agreement::Same,
            (Some(o), Some(p)) if o.triangle == p.triangle => return Agreement::Same,
            (Some(o), Some(p)) if (o.t - p.t).abs() <= TIE * o.t.abs().max(p.t.abs()).max(1.0) => {
                return Agreement::Tie
            }
            _ => {}
        }
        // Each answer: its triangle, its exact crossing, and for a triangle the ray does not
        // cross, the nearest crossing around it.
        let look = |h: Option<Hit>| {
            h.map(|h| {
                let c = self.crossing(ray, h.triangle);
                let around = match c {
                    Crossing::Through { .. } => None,
                    _ => self.nearest_around(ray, h.triangle),
                };
                (h.triangle, c, around)
            })
        };
        let (ours, theirs) = (look(obbtree), look(parry));
        let candidates =
            [&ours, &theirs]
                .into_iter()
                .flatten()
                .flat_map(|(triangle, c, around)| {
                    let direct = match c {
                        Crossing::Through { t, at } => Some((*triangle, t.clone(), *at)),
                        _ => None,
                    };
                    direct.into_iter().chain(around.clone())
                });
        let first: Option<Found> = candidates.min_by(|a, b| a.1.cmp(&b.1).then(a.0.cmp(&b.0)));
        // An answer is right iff it is a crossed triangle at the reference's exact t (a crossed
        // triangle is itself a candidate, so `first` exists whenever one is reported).
        let verdict = |l: &Option<(u32, Crossing, Option<Found>)>| -> Option<Reason> {
            let first_t = first.as_ref().map(|f| &f.1);
            let missed = first.as_ref().map(|f| Reason::MissesHit(f.2));
            match l {
                None => missed,
                Some((_, Crossing::Through { t, .. }, _)) if Some(t) == first_t => None,
                Some((_, Crossing::Through { .. }, _)) => missed,
                Some((_, _, Some(a))) if Some(&a.1) == first_t => Some(Reason::ReportsNeighbour),
                Some((_, Crossing::InPlane, _)) => Some(Reason::ReportsInPlane),
                Some((_, Crossing::Misses, _)) => Some(Reason::ReportsNonCrossing),
            }
        };
        let (obbtree_error, parry_error) = (verdict(&ours), verdict(&theirs));
        if obbtree_error.is_none() && parry_error.is_none() {
            return Agreement::Tie; // both cross at the same exact t
        }
        let exact_first = first.map(|f| Hit {
            triangle: f.0,
            t: f.1.to_f64().unwrap_or(f64::NAN),
        });
        let show = |h: Option<Hit>| match h {
            Some(h) => format!("triangle {} at t = {}", h.triangle, h.t),
            None => "nothing".into(),
        };
        let says = |name: &str, e: Option<Reason>| match e {
            Some(r) => format!("{name} {r}"),
            None => format!("{name} right"),
        };
        Agreement::Differ(Difference {
            obbtree,
            parry,
            obbtree_error,
            parry_error,
            exact_first,
            detail: format!(
                "{}; {} (obbtree: {}; parry: {}; exact first crossing: {})",
                says("obbtree", obbtree_error),
                says("parry", parry_error),
                show(obbtree),
                show(parry),
                show(exact_first)
            ),
        })
    }
}

/// Counts of rays by agreement, and of errors by library and reason.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    /// Rays on which every comparison is [`Agreement::Same`].
    pub same: usize,
    /// Rays with a tie and no difference.
    pub ties: usize,
    /// Rays with at least one difference.
    pub differ: usize,
    errors: BTreeMap<(&'static str, Reason), usize>,
}

/// How many times one library's answer was wrong for one reason.
#[derive(Clone, Debug, Serialize)]
pub struct ReasonCount {
    /// `"obbtree"` or `"parry"`.
    pub wrong: &'static str,
    /// What was wrong.
    pub reason: Reason,
    /// On how many rays.
    pub count: usize,
}

impl Tally {
    /// Adds one ray, compared on one mesh or on each mesh of a scene.
    pub fn add(&mut self, ray: &[Agreement]) {
        let mut tie = false;
        let mut differ = false;
        for a in ray {
            match a {
                Agreement::Same => {}
                Agreement::Tie => tie = true,
                Agreement::Differ(d) => {
                    differ = true;
                    for (who, e) in [("obbtree", d.obbtree_error), ("parry", d.parry_error)] {
                        if let Some(r) = e {
                            *self.errors.entry((who, r)).or_default() += 1;
                        }
                    }
                }
            }
        }
        match (differ, tie) {
            (true, _) => self.differ += 1,
            (false, true) => self.ties += 1,
            (false, false) => self.same += 1,
        }
    }

    /// The errors grouped by library and reason, most frequent first.
    pub fn reasons(&self) -> Vec<ReasonCount> {
        let mut v: Vec<ReasonCount> = self
            .errors
            .iter()
            .map(|(&(wrong, reason), &count)| ReasonCount {
                wrong,
                reason,
                count,
            })
            .collect();
        v.sort_by_key(|r| std::cmp::Reverse(r.count));
        v
    }
}
