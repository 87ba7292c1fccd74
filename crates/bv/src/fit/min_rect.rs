//! Minimum-area enclosing rectangle of planar points: Andrew's monotone-chain hull (exact
//! `orient2d` turns) and rotating calipers (Toussaint 1983; the optimal rectangle has a side
//! flush with a hull edge, Freeman & Shapira 1975). The inner step of [`super::eberly`].

use nalgebra::Vector2;

/// The direction (unit vector) of one side of a minimum-area rectangle around `points`, and that
/// rectangle's area. Fewer than three hull vertices (one point, a segment) give the segment's
/// direction (or the x axis) and area zero. `None` for empty or non-finite input.
pub fn min_area_rectangle(points: &[Vector2<f64>]) -> Option<(Vector2<f64>, f64)> {
    let hull = convex_hull_2d(points)?;
    let m = hull.len();
    if m < 3 {
        let dir = (hull[m - 1] - hull[0])
            .try_normalize(0.0)
            .unwrap_or_else(Vector2::x);
        return Some((dir, 0.0));
    }
    let at = |i: usize| hull[i % m];
    let (mut far, mut top, mut near) = (1, 1, 1);
    let mut best: Option<(Vector2<f64>, f64)> = None;
    for i in 0..m {
        let e = (at(i + 1) - at(i)).normalize();
        let n = Vector2::new(-e.y, e.x); // inward: the hull is counter-clockwise
        let origin = at(i);
        let along = |j: usize| e.dot(&(at(j) - origin));
        let up = |j: usize| n.dot(&(at(j) - origin));
        // Each caliper only ever moves forward; a bound keeps float ties from looping.
        far = far.max(i + 1);
        for _ in 0..m {
            if along(far + 1) > along(far) {
                far += 1
            } else {
                break;
            }
        }
        top = top.max(far);
        for _ in 0..m {
            if up(top + 1) > up(top) {
                top += 1
            } else {
                break;
            }
        }
        near = near.max(top);
        for _ in 0..m {
            if along(near + 1) < along(near) {
                near += 1
            } else {
                break;
            }
        }
        let area = (along(far) - along(near)) * up(top);
        if best.is_none_or(|(_, a)| area < a) {
            best = Some((e, area));
        }
    }
    best
}

/// Counter-clockwise convex hull without collinear vertices (Andrew 1979), turns decided exactly.
fn convex_hull_2d(points: &[Vector2<f64>]) -> Option<Vec<Vector2<f64>>> {
    if points.is_empty() || !points.iter().all(|p| p.x.is_finite() && p.y.is_finite()) {
        return None;
    }
    let mut sorted = points.to_vec();
    sorted.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    sorted.dedup();
    if sorted.len() < 3 {
        return Some(sorted);
    }
    let turn = |o: &Vector2<f64>, a: &Vector2<f64>, b: &Vector2<f64>| {
        robust::orient2d(
            robust::Coord { x: o.x, y: o.y },
            robust::Coord { x: a.x, y: a.y },
            robust::Coord { x: b.x, y: b.y },
        )
    };
    let mut hull: Vec<Vector2<f64>> = Vec::with_capacity(sorted.len() + 1);
    for pass in [
        sorted.iter().collect::<Vec<_>>(),
        sorted.iter().rev().collect(),
    ] {
        let floor = hull.len();
        for p in pass {
            while hull.len() >= floor + 2
                && turn(&hull[hull.len() - 2], &hull[hull.len() - 1], p) <= 0.0
            {
                hull.pop();
            }
            hull.push(*p);
        }
        hull.pop();
    }
    if hull.len() < 3 {
        // All collinear: the two ends.
        return Some(vec![sorted[0], sorted[sorted.len() - 1]]);
    }
    Some(hull)
}
