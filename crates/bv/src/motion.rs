//! A rigid motion over `t ∈ [0, 1]` from one [`Pose`] to another, and a bound on how fast any
//! point of a body moves under it: what continuous collision queries follow.

use crate::{Aabb, Point, Pose, Vector};
use nalgebra::Rotation3;

/// The rigid motion from `start` (at `t = 0`) to `end` (at `t = 1`): the translation is
/// interpolated linearly, and the rotation turns at constant angular velocity about a fixed
/// axis by the shortest arc, `R(t) = R₀ · exp(t · log(R₀ᵀ R₁))` (the screw-free interpolation
/// of Schwarzer, Saha & Latombe 2005 and of FCL's interpolating motion). A point `p` of the
/// body is at `R(t)·p + T(t)`.
///
/// Seen from another fixed frame ([`Motion::seen_from`]) a motion is again a motion of this
/// kind, with the same rotation vector: `(F⁻¹·P(t))` rotates by `F_Rᵀ R₀ exp(t ω)` and
/// translates linearly. So a query may follow the motion of B in A's frame.
///
/// ```
/// use obbtree_bv::motion::Motion;
/// use obbtree_bv::{Point, Pose};
///
/// let start = Pose::new([0.0, 0.0, 0.0], [0.0, 0.0, 0.0])?;
/// let end = Pose::new([2.0, 0.0, 0.0], [0.0, 0.0, std::f64::consts::FRAC_PI_2])?;
/// let motion = Motion::new(start, end);
/// let half = motion.pose_at(0.5);
/// let p = half.transform_point(&Point::new(1.0, 0.0, 0.0));
/// let s = std::f64::consts::FRAC_1_SQRT_2;
/// assert!((p - Point::new(1.0 + s, s, 0.0)).norm() < 1e-15);
/// assert_eq!(motion.pose_at(1.0), end);
/// # Ok::<(), obbtree_bv::PoseError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Motion {
    start: Pose,
    end: Pose,
    /// `log(R₀ᵀ R₁)`: the rotation vector, in the body's frame, turned through over `[0, 1]`
    /// (angle in `[0, π]`).
    rotation_vector: Vector,
}

impl Motion {
    /// The motion from `start` to `end`.
    pub fn new(start: Pose, end: Pose) -> Self {
        let relative = start.rotation().transpose() * end.rotation();
        let rotation_vector = if start.rotation() == end.rotation() {
            Vector::zeros()
        } else {
            Rotation3::from_matrix_unchecked(relative).scaled_axis()
        };
        Self {
            start,
            end,
            rotation_vector,
        }
    }

    /// The motion that stays at `pose`.
    pub fn stay(pose: Pose) -> Self {
        Self::new(pose, pose)
    }

    /// The pose at `t = 0`.
    pub fn start(&self) -> &Pose {
        &self.start
    }

    /// The pose at `t = 1`.
    pub fn end(&self) -> &Pose {
        &self.end
    }

    /// Whether the motion is a pure translation: the two rotations are the same matrix, bit
    /// for bit, so every point moves along a straight line at constant speed.
    pub fn is_translation(&self) -> bool {
        self.start.rotation() == self.end.rotation()
    }

    /// The angle turned through over `[0, 1]`, in `[0, π]`.
    pub fn angle(&self) -> f64 {
        self.rotation_vector.norm()
    }

    /// `T₁ − T₀`: the translation's velocity.
    pub fn velocity(&self) -> Vector {
        self.end.translation() - self.start.translation()
    }

    /// The pose at `t` (`t` in `[0, 1]`): exactly `start` at 0 and `end` at 1; in between the
    /// rotation `R₀ · exp(t·ω)` and translation `T₀ + t·(T₁ − T₀)` rounded to `f64`, and for a
    /// pure translation the rotation `R₀` itself.
    pub fn pose_at(&self, t: f64) -> Pose {
        if t <= 0.0 {
            return self.start;
        }
        if t >= 1.0 {
            return self.end;
        }
        let translation = self.start.translation() + self.velocity() * t;
        let rotation = if self.is_translation() {
            *self.start.rotation()
        } else {
            self.start.rotation() * Rotation3::new(self.rotation_vector * t).matrix()
        };
        Pose::from_parts_unchecked(translation, rotation)
    }

    /// The same motion seen from the fixed frame `frame`: `frame⁻¹ · P(t)` at every `t` (see
    /// [`Motion`]).
    pub fn seen_from(&self, frame: &Pose) -> Motion {
        Motion::new(frame.inv_mul(&self.start), frame.inv_mul(&self.end))
    }

    /// An upper bound on the speed `|d/dt (R(t)·p + T(t))|` of every point `p` of `body`
    /// (in the body's frame): `|T₁ − T₀| + θ · max |k × p|`, the angular speed `θ` times the
    /// largest distance of a point of the box from the axis `k` through the body's origin
    /// (largest at a corner, the distance to a line being convex). A point then moves at most
    /// `speed · |t − s|` between times `s` and `t`.
    pub fn speed_bound(&self, body: &Aabb) -> f64 {
        self.speed_bound_of_points(&body.corners())
    }

    /// [`Motion::speed_bound`] of the convex hull of `points` (in the body's frame).
    pub fn speed_bound_of_points(&self, points: &[Point]) -> f64 {
        let linear = self.velocity().norm();
        let angle = self.angle();
        if angle == 0.0 {
            return linear;
        }
        let axis = self.rotation_vector / angle;
        let reach = points
            .iter()
            .map(|c| axis.cross(&c.coords).norm())
            .fold(0.0, f64::max);
        linear + angle * reach
    }
}
