//! Picking from a camera: the ray through a pixel, as an application builds it for a click.

use super::{cast_ray, RayHit, RayVolume};
use crate::error::check_ray;
use crate::Model;
use crate::QueryError;
use nalgebra::{Matrix4, Perspective3, Point3, Vector4};
use obbtree_bv::{Aabb, Point, Pose, Ray, Vector};

/// Why a pixel ray could not be built.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum CameraError {
    /// The pixel is not in the image.
    #[error("pixel ({x}, {y}) is outside the {width}x{height} image")]
    PixelOutside {
        /// Column.
        x: u32,
        /// Row.
        y: u32,
        /// Image width.
        width: u32,
        /// Image height.
        height: u32,
    },
    /// `projection · view` is singular or not finite, or the image has zero size.
    #[error(
        "the camera is degenerate (singular or non-finite view-projection matrix, or empty image)"
    )]
    Degenerate,
    /// The pick itself failed.
    #[error(transparent)]
    Query(#[from] QueryError),
}

/// A camera: view matrix (world → eye), projection matrix (eye → clip space, OpenGL
/// convention `-w <= x, y, z <= w`, as [`Frustum`](obbtree_bv::intersect::frustum::Frustum)
/// expects) and the image size in pixels. Pixel `(0, 0)` is the top-left one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Camera {
    /// World to eye coordinates.
    pub view: Matrix4<f64>,
    /// Eye to clip coordinates.
    pub projection: Matrix4<f64>,
    /// Image width in pixels.
    pub width: u32,
    /// Image height in pixels.
    pub height: u32,
}

impl Camera {
    /// A perspective camera at `eye` looking at `target` with `up` roughly up, vertical field of
    /// view `fov_y` (radians), clip planes at `near` and `far` (right-handed, looking down `-z`
    /// in eye space, like `gluLookAt` and `gluPerspective`).
    #[allow(clippy::too_many_arguments)]
    pub fn look_at(
        eye: &Point,
        target: &Point,
        up: &Vector,
        fov_y: f64,
        near: f64,
        far: f64,
        width: u32,
        height: u32,
    ) -> Self {
        let aspect = f64::from(width) / f64::from(height.max(1));
        Self {
            view: Matrix4::look_at_rh(eye, target, up),
            projection: Perspective3::new(aspect, fov_y, near, far).to_homogeneous(),
            width,
            height,
        }
    }

    /// A camera that frames `bounds` (e.g. a mesh's AABB): 45° vertical field of view, looking
    /// at the box's centre from the `+z` side, a little from the right and above (`+x`, `+y`;
    /// `+y` up), far enough that the box's bounding sphere fits the narrower image side.
    pub fn framing(bounds: &Aabb, width: u32, height: u32) -> Self {
        let center = nalgebra::center(&bounds.mins, &bounds.maxs);
        let radius = ((bounds.maxs - bounds.mins).norm() * 0.5).max(f64::MIN_POSITIVE);
        let fov_y = 45f64.to_radians();
        let aspect = f64::from(width) / f64::from(height.max(1));
        let half = (fov_y * 0.5).min((aspect * (fov_y * 0.5).tan()).atan());
        let distance = radius / half.sin() * 1.05;
        let eye = center + Vector::new(0.35, 0.3, 1.0).normalize() * distance;
        Self::look_at(
            &eye,
            &center,
            &Vector::y(),
            fov_y,
            (distance - radius) * 0.5,
            distance + 2.0 * radius,
            width,
            height,
        )
    }

    /// The ray through the centre of pixel `(x, y)` (column, row from the top): from the point
    /// on the near plane to the point on the far plane, both found by inverting
    /// `projection · view` (the picking ray of Akenine-Möller, Haines & Hoffman, *Real-Time
    /// Rendering*, 3rd ed. 2008, §16.1: unproject the pixel at the near and far depths). The direction has unit length, so `t` is a distance from the near plane.
    pub fn pixel_ray(&self, x: u32, y: u32) -> Result<Ray, CameraError> {
        if x >= self.width || y >= self.height {
            return Err(CameraError::PixelOutside {
                x,
                y,
                width: self.width,
                height: self.height,
            });
        }
        let inverse = (self.projection * self.view)
            .try_inverse()
            .ok_or(CameraError::Degenerate)?;
        let ndc_x = 2.0 * (f64::from(x) + 0.5) / f64::from(self.width) - 1.0;
        let ndc_y = 1.0 - 2.0 * (f64::from(y) + 0.5) / f64::from(self.height);
        let unproject = |z: f64| {
            let p = inverse * Vector4::new(ndc_x, ndc_y, z, 1.0);
            Point3::new(p.x / p.w, p.y / p.w, p.z / p.w)
        };
        let (near, far) = (unproject(-1.0), unproject(1.0));
        let dir = (far - near)
            .try_normalize(0.0)
            .ok_or(CameraError::Degenerate)?;
        let ray = Ray::new(near, dir);
        if check_ray(&ray).is_ok() && near.iter().all(|c| c.is_finite()) {
            Ok(ray)
        } else {
            Err(CameraError::Degenerate)
        }
    }
}

/// The first triangle under pixel `(x, y)` of `camera`: [`Camera::pixel_ray`] then
/// [`cast_ray`] without a distance limit (the far plane is not a limit either).
pub fn pick_pixel<V: RayVolume>(
    model: &Model<V>,
    pose: &Pose,
    camera: &Camera,
    x: u32,
    y: u32,
) -> Result<Option<RayHit>, CameraError> {
    let ray = camera.pixel_ray(x, y)?;
    Ok(cast_ray(model, pose, &ray, f64::INFINITY)?)
}
