//! A ray moved into the mesh frame once per query, with what every volume test reuses.

use obbtree_bv::intersect::ray_triangle::WatertightRay;
use obbtree_bv::range::{binary_exponent, power_of_two_factors};
use obbtree_bv::{Point, Pose, Ray, Vector};

/// The query ray in the frame of the mesh (and of its tree), with the per-ray constants of the
/// slab tests: the reciprocal direction and its signs (Williams et al., "An efficient and robust
/// ray-box intersection algorithm", JGT 2005), and the origin's magnitude for the padding of
/// [`super::RayVolume`].
#[derive(Clone, Copy, Debug)]
pub struct MeshRay {
    /// The ray in the mesh frame (`t` is the same parameter as in the world frame: the pose is
    /// rigid).
    pub ray: Ray,
    /// `1 / dir` componentwise (`±inf` for a zero component, signed like the zero).
    pub inv_dir: Vector,
    /// Whether each component of `inv_dir` is negative (sign bit, so `-0.0` counts).
    pub negative: [bool; 3],
    /// `max |origin_i|`, the scale of the rounding errors of the slab tests.
    pub origin_scale: f64,
    /// The ray prepared for the watertight triangle test.
    pub watertight: WatertightRay,
    /// The same ray with its direction multiplied by `2⁻ᵉ` (exact) so that its largest
    /// component lies in `[1, 2)`: the volume tests that square or project the direction run
    /// on it, so a valid direction of 1e-300 or 1e300 neither underflows nor overflows there.
    pub unit: Ray,
    /// `e`: a parameter `s` along [`Self::unit`] is `s·2⁻ᵉ` along the ray.
    pub unit_exponent: i32,
}

impl MeshRay {
    /// The world ray `ray` seen from the mesh placed at `pose`: `pose⁻¹` applied to the origin
    /// and the direction (never to the mesh).
    pub fn new(pose: &Pose, ray: &Ray) -> Self {
        let local = Ray::new(
            pose.inverse_transform_point(&ray.origin),
            pose.inverse_transform_vector(&ray.dir),
        );
        Self::in_mesh_frame(local)
    }

    /// A ray already in the mesh frame.
    pub fn in_mesh_frame(ray: Ray) -> Self {
        let inv_dir = ray.dir.map(|d| 1.0 / d);
        let amax = ray.dir.amax();
        let unit_exponent = if amax > 0.0 && amax.is_finite() {
            binary_exponent(amax)
        } else {
            0
        };
        Self {
            unit: Ray::new(
                ray.origin,
                ray.dir.map(|d| times_power_of_two(d, -unit_exponent)),
            ),
            unit_exponent,
            ray,
            inv_dir,
            negative: [0, 1, 2].map(|i| inv_dir[i].is_sign_negative()),
            origin_scale: ray.origin.coords.amax(),
            watertight: WatertightRay::new(&ray),
        }
    }

    /// The ray parameter of the parameter `s` along [`Self::unit`].
    pub fn from_unit(&self, s: f64) -> f64 {
        times_power_of_two(s, -self.unit_exponent)
    }

    /// The point at parameter `t` (mesh frame).
    pub fn point_at(&self, t: f64) -> Point {
        self.ray.point_at(t)
    }
}

/// `x·2ᵉ`, exact unless the result leaves the normal range.
fn times_power_of_two(x: f64, e: i32) -> f64 {
    let [f0, f1] = power_of_two_factors(e);
    x * f0 * f1
}
