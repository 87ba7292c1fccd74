//! Moving OBB vs. moving OBB: dynamic separating-axis test.

use super::slab;
use crate::{Obb, Vector};

/// Time `t ∈ [0, 1]` at which `a` translated by `t·motion_a` first touches `b` translated by
/// `t·motion_b`, or `None` (the dynamic separating-axis test: *Real-Time Rendering*, 3rd ed.
/// (2008), §16.18; Ericson, *Real-Time Collision Detection* (2005), §5.5.2; Eberly, "Dynamic
/// collision detection using oriented bounding boxes", Geometric Tools, 2002): on each of the
/// 15 candidate axes `L` (`a`'s and `b`'s axes and their cross products) the projected
/// intervals overlap for `t` in a slab interval of the centre separation
/// `L·(c_b - c_a) + t L·(v_b - v_a)` against `r_a + r_b`; the boxes touch on the intersection
/// of these intervals, and the first contact is its start. Touching at the start gives `t = 0`.
///
/// Axes are used unnormalised and the radii are computed for the very same vector, so any
/// rounded axis is a valid separating direction: near-parallel edge pairs cannot create a
/// false separation. An exactly zero cross product (parallel edges) is skipped: the face
/// axes then bound the configuration-space box.
pub fn time_of_contact(a: &Obb, motion_a: &Vector, b: &Obb, motion_b: &Vector) -> Option<f64> {
    let (c, v) = (b.center - a.center, motion_b - motion_a);
    let radius = |obb: &Obb, axis: &Vector| obb.half_extents.dot(&obb.axes.tr_mul(axis).abs());
    let face_axes = (0..6).map(|k| {
        if k < 3 {
            a.axes.column(k)
        } else {
            b.axes.column(k - 3)
        }
        .into_owned()
    });
    let edge_axes = (0..9).map(|k| a.axes.column(k / 3).cross(&b.axes.column(k % 3)));
    let (t_first, _) = face_axes
        .chain(edge_axes)
        .filter(|l| *l != Vector::zeros())
        .try_fold((0.0, 1.0), |iv, l| {
            let r = radius(a, &l) + radius(b, &l);
            slab::clip(iv, l.dot(&c), l.dot(&v), -r, r)
        })?;
    Some(t_first)
}
