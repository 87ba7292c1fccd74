//! The independent pick oracle: exact crossings of a ray with a mesh's triangles, and a check
//! of the pick queries' answers against them.

use num_rational::BigRational;
use num_traits::ToPrimitive;
use obbtree::bv::{Aabb, Pose, Ray, TriMesh, Triangle};
use obbtree::RayHit;

/// One exact crossing of a ray with a triangle ([`ExactHits`]).
#[derive(Clone, Debug)]
pub struct ExactHit {
    /// The triangle.
    pub triangle: u32,
    /// The exact ray parameter.
    pub t: BigRational,
    /// `t` rounded to `f64` (infinite when beyond its range).
    pub t_f64: f64,
    /// How far a computed `t` may be from the exact one: 1e-9 of `t` plus 1e-9 of the
    /// triangle's distance from the origin in units of the direction (a `t` rounded in floating
    /// point is a few ulps of its terms off, not of itself, on a ray grazing the plane).
    pub tolerance: f64,
}

/// The independent pick oracle: the ray moved into the mesh frame as the queries move it
/// (`Pose::inverse_transform_point` and `inverse_transform_vector`), then each triangle decided
/// in exact rational arithmetic by [`obbtree_compare::rays::crossing`] (the triple products of
/// the ray's line with the edges and the plane's `t`, no code shared with the picking queries or
/// the triangle test `cast_watertight`). A ray in a triangle's plane, or a zero-area triangle,
/// is a miss, as the picking policy says. Triangles whose box the ray's line passes far from (a
/// slab test padded by a millionth of the magnitudes, conservative) are misses without the
/// rational test, and triangles with the same vertices are decided once, so meshes of 100,000
/// copies stay cheap.
#[derive(Clone, Debug)]
pub struct ExactHits {
    /// Every crossing, sorted by exact `t` (then triangle).
    pub hits: Vec<ExactHit>,
    /// The position in `hits` of each triangle's crossing (a ray through 100,000 copies of one
    /// triangle would make a search per reported hit quadratic).
    by_triangle: std::collections::HashMap<u32, usize>,
}

impl ExactHits {
    /// The exact crossings of `ray` (world frame) with `mesh` placed by `pose`.
    pub fn new(mesh: &TriMesh, pose: &Pose, ray: &Ray) -> Self {
        use obbtree_compare::rays::{crossing, Crossing};
        let local = Ray::new(
            pose.inverse_transform_point(&ray.origin),
            pose.inverse_transform_vector(&ray.dir),
        );
        let mut decided: std::collections::HashMap<[u64; 9], Option<BigRational>> =
            Default::default();
        let mut hits = Vec::new();
        for (i, tri) in mesh.triangles().iter().enumerate() {
            let v = tri.map(|k| mesh.vertices()[k as usize]);
            if !line_may_meet_box(&local, &Aabb::from_points(&v)) {
                continue;
            }
            let key: [u64; 9] = std::array::from_fn(|k| v[k / 3][k % 3].to_bits());
            let t = decided.entry(key).or_insert_with(|| {
                match crossing(&local, &Triangle::new(v[0], v[1], v[2])) {
                    Crossing::Through { t, .. } => Some(t),
                    Crossing::Misses | Crossing::InPlane => None,
                }
            });
            let Some(t) = t.clone() else { continue };
            let t_f64 = t.to_f64().unwrap_or(f64::INFINITY);
            // |d| scaled first: a direction of 1e200 must not overflow to ∞ (a zero tolerance).
            let dir = local.dir.amax() * (local.dir / local.dir.amax()).norm();
            let distance = v
                .iter()
                .map(|p| (p - local.origin).norm())
                .fold(0.0, f64::max);
            hits.push(ExactHit {
                triangle: i as u32,
                t,
                t_f64,
                tolerance: 1e-9 * (t_f64 + distance / dir),
            });
        }
        hits.sort_by(|a, b| a.t.cmp(&b.t).then(a.triangle.cmp(&b.triangle)));
        let by_triangle = hits
            .iter()
            .enumerate()
            .map(|(k, h)| (h.triangle, k))
            .collect();
        Self { hits, by_triangle }
    }

    /// The exact hit on `triangle`.
    fn on(&self, triangle: u32) -> Option<&ExactHit> {
        self.by_triangle.get(&triangle).map(|&k| &self.hits[k])
    }

    /// Checks the answers of the pick queries for `max_t` against the exact crossings: every hit
    /// reported is a crossing at its exact `t` (up to [`ExactHit::tolerance`]) not beyond
    /// `max_t`; every crossing within `max_t` (by more than the tolerance, with a `t`
    /// representable in `f64`, which the policy requires) is reported by `cast_ray_all`; `any_hit`
    /// says whether there is one; `cast_ray`'s hit is a crossing no later than the first one.
    pub fn check(
        &self,
        max_t: f64,
        first: &Option<RayHit>,
        all: &[RayHit],
        any: bool,
        what: &dyn Fn() -> String,
    ) {
        // Compared exactly: a crossing at a positive `t` that rounds to 0 is beyond `max_t = 0`.
        let within = |h: &ExactHit| {
            h.t_f64 < 1e300
                && (max_t == f64::INFINITY || {
                    let tolerance = BigRational::from_float(h.tolerance).expect("finite");
                    let max_t = BigRational::from_float(max_t).expect("finite");
                    &h.t + tolerance <= max_t
                })
        };
        let reported = |h: &RayHit| {
            let exact = self.on(h.triangle).unwrap_or_else(|| {
                panic!(
                    "triangle {} reported at t {}, the exact oracle has no crossing ({:?}): {}",
                    h.triangle,
                    h.t,
                    self.hits,
                    what()
                )
            });
            assert!(
                (h.t - exact.t_f64).abs() <= exact.tolerance
                    && exact.t_f64 - exact.tolerance <= max_t,
                "triangle {} reported at t {}, exactly at {} (max_t {max_t}): {}",
                h.triangle,
                h.t,
                exact.t_f64,
                what()
            );
            exact
        };
        for h in all {
            reported(h);
        }
        // A set of the reported triangles, for the same reason as `by_triangle`.
        let reported_triangles: std::collections::HashSet<u32> =
            all.iter().map(|a| a.triangle).collect();
        for h in self.hits.iter().filter(|h| within(h)) {
            assert!(
                reported_triangles.contains(&h.triangle),
                "cast_ray_all misses the exact crossing {h:?}: {}",
                what()
            );
        }
        let first_within = self.hits.iter().find(|h| within(h));
        assert!(
            any || first_within.is_none(),
            "any_hit misses the exact crossing {first_within:?}: {}",
            what()
        );
        match (first, first_within) {
            (Some(h), _) => {
                let exact = reported(h);
                let earliest = self
                    .hits
                    .iter()
                    .filter(|x| within(x))
                    .map(|x| x.t_f64 + x.tolerance)
                    .fold(f64::INFINITY, f64::min);
                assert!(
                    exact.t_f64 - exact.tolerance <= earliest,
                    "cast_ray reports triangle {} at t {}, an exact crossing comes earlier \
                     ({:?}): {}",
                    h.triangle,
                    h.t,
                    self.hits,
                    what()
                );
            }
            (None, Some(x)) => panic!("cast_ray misses the exact crossing {x:?}: {}", what()),
            (None, None) => {}
        }
    }
}

/// Whether the line of `ray` (parameters from a little below 0 up) may meet `b` grown by a
/// millionth of the magnitudes: a slab test in floating point whose padding dwarfs its rounding,
/// so `false` proves the ray misses every triangle inside `b`.
fn line_may_meet_box(ray: &Ray, b: &Aabb) -> bool {
    let magnitude = ray
        .origin
        .coords
        .amax()
        .max(b.mins.coords.amax())
        .max(b.maxs.coords.amax());
    let pad = 1e-6 * magnitude + f64::MIN_POSITIVE;
    let (mut lo, mut hi) = (-f64::INFINITY, f64::INFINITY);
    for i in 0..3 {
        let (min, max) = (b.mins[i] - pad, b.maxs[i] + pad);
        let (o, d) = (ray.origin[i], ray.dir[i]);
        if d == 0.0 {
            if o < min || o > max {
                return false;
            }
            continue;
        }
        let (t0, t1) = ((min - o) / d, (max - o) / d);
        lo = lo.max(t0.min(t1));
        hi = hi.min(t0.max(t1));
    }
    // The interval with its own rounding allowed for; the ray's part (t >= 0) is what counts.
    lo <= hi + 1e-9 * hi.abs() && hi >= -1e-9 * lo.abs()
}
