//! Welzl's exact minimum enclosing sphere (Welzl 1991, "Smallest enclosing disks (balls and
//! ellipsoids)", LNCS 555; Ericson, *Real-Time Collision Detection* (2005), §4.3.5; *Real-Time
//! Rendering*, 3rd ed. (2008), §16.3), in Gärtner's move-to-front form (1999, "Fast and robust
//! smallest enclosing balls"), which recurses at most four deep instead of once per point.
//!
//! Expected linear time needs the points in random order: they are shuffled by a seeded PCG, so
//! the same input and seed always give the same sphere.

use crate::sphere::distance;
use crate::{Point, Sphere, Vector};
use nalgebra::{Matrix3, Vector3};
use rand::seq::SliceRandom;
use rand::SeedableRng;

/// The seed [`crate::fit::SphereFit::Welzl`] uses.
pub const DEFAULT_SEED: u64 = 0x5eed_ba11;

/// Relative slack with which a point counts as inside the current ball during the recursion
/// (keeps points on the sphere from entering the support and making it affinely dependent).
const SLACK: f64 = 1e-12;

/// The smallest sphere containing `points` (non-empty), to within a relative `1e-12`; a last pass
/// makes the radius reach the farthest point exactly as
/// [`contains_point`](crate::BoundingVolume::contains_point) measures it.
pub fn minimum_sphere(points: &[Point], seed: u64) -> Sphere {
    let mut shuffled = points.to_vec();
    shuffled.shuffle(&mut rand_pcg::Pcg64Mcg::seed_from_u64(seed));
    let end = shuffled.len();
    let mut support = Vec::with_capacity(4);
    let ball =
        move_to_front(&mut shuffled, end, &mut support).unwrap_or(Sphere::new(points[0], 0.0));
    Sphere::around(ball.center, points)
}

/// The smallest ball containing `points[..end]` with `support` on its boundary (`None`: no
/// points and no support, the empty ball).
fn move_to_front(points: &mut [Point], end: usize, support: &mut Vec<Point>) -> Option<Sphere> {
    let mut ball = circumball(support);
    if support.len() == 4 {
        return ball;
    }
    for i in 0..end {
        let p = points[i];
        let inside = ball.is_some_and(|b| {
            distance(&b.center, &p)
                <= b.radius * (1.0 + SLACK) + 8.0 * f64::EPSILON * b.center.coords.amax()
        });
        if !inside {
            support.push(p);
            ball = move_to_front(points, i, support);
            support.pop();
            points[..=i].rotate_right(1);
        }
    }
    ball
}

/// The smallest ball with all of `support` (up to four points) on its boundary: its centre is
/// `p0 + Σ λ_j (p_j − p0)` with `2 (p_j − p0)·(c − p0) = |p_j − p0|²`, a Gram system. A nearly
/// singular system (affinely dependent support, only possible through rounding) falls back to the
/// ball around the farthest pair's midpoint that reaches every support point.
fn circumball(support: &[Point]) -> Option<Sphere> {
    let p0 = *support.first()?;
    let v: Vec<Vector> = support[1..].iter().map(|p| p - p0).collect();
    let k = v.len();
    let mut gram = Matrix3::identity();
    let mut rhs = Vector3::zeros();
    for i in 0..k {
        for j in 0..k {
            gram[(i, j)] = 2.0 * v[i].dot(&v[j]);
        }
        rhs[i] = v[i].norm_squared();
    }
    let scale: f64 = (0..k).map(|i| gram[(i, i)]).product();
    let solved = gram
        .lu()
        .solve(&rhs)
        .filter(|_| k == 0 || gram.determinant().abs() > 1e-12 * scale)
        .map(|lambda| p0 + (0..k).map(|i| v[i] * lambda[i]).sum::<Vector>());
    let center = solved.unwrap_or_else(|| {
        let pairs = support
            .iter()
            .flat_map(|a| support.iter().map(move |b| (a, b)));
        let (a, b) = pairs
            .max_by(|(a, b), (c, d)| {
                (*a - *b)
                    .norm_squared()
                    .total_cmp(&(*c - *d).norm_squared())
            })
            .expect("non-empty");
        nalgebra::center(a, b)
    });
    Some(Sphere::around(center, support))
}
