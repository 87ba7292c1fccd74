//! `obbtree.Camera` and picking from it: the engine's [`obbtree::Camera`] (view and projection
//! matrices, image size), the ray through a pixel, and the first triangle under a pixel
//! ([`obbtree::pick_pixel`]). Every camera is checked when it is made, so that its pixels have
//! rays; pixels are checked against the image.

use crate::arrays::{check_shape, finite_array, float_array, point, pose};
use crate::distance::point_array;
use crate::errors::{camera_error, query_error, Area};
use crate::model::Model;
use crate::volumes::with_model;
use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray1, PyArray2};
use obbtree::bv::nalgebra::{Matrix4, Vector3};
use obbtree::bv::{Aabb, Point};
use obbtree::{CameraError, Ray};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;

/// A ray as Python sees it: `(origin, direction)`, `(3,)` float64 each.
type RayArrays<'py> = (Bound<'py, PyArray1<f64>>, Bound<'py, PyArray1<f64>>);

/// A pick's hit as Python sees it: `(triangle, t, point)`.
type PickTuple<'py> = (i64, f64, Bound<'py, PyArray1<f64>>);

/// A camera: a view matrix (world to eye), a projection matrix (eye to clip space, OpenGL's
/// convention `-w <= x, y, z <= w`) and the image size in pixels; pixel `(0, 0)` is the
/// top-left one. What `pick_pixel` picks through and what `cull` can take as its frustum.
///
/// `Camera(view, projection, width, height)` takes the matrices as `(4, 4)` arrays;
/// `Camera.look_at` and `Camera.framing` make them as `gluLookAt` and `gluPerspective` do.
/// `obbtree.CameraError` (naming the argument) for matrices that are not finite or whose
/// product is singular, and an image of no pixels.
///
/// >>> import numpy as np, obbtree
/// >>> camera = obbtree.Camera.look_at([0, 0, 5], [0, 0, 0], [0, 1, 0], np.pi / 4, 1, 10, 65, 49)
/// >>> origin, direction = camera.pixel_ray(32, 24)  # the centre pixel
/// >>> np.allclose(origin, [0, 0, 4]), np.allclose(direction, [0, 0, -1])
/// (True, True)
#[pyclass(name = "Camera", module = "obbtree", frozen)]
pub struct PyCamera {
    pub(crate) inner: obbtree::Camera,
}

/// A `(4, 4)` matrix argument of a camera, finite.
fn matrix(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<Matrix4<f64>> {
    let array = finite_array(obj, name, Area::Camera)?;
    let view = array.as_array();
    check_shape(&view, name, &[Some(4), Some(4)], "(4, 4)", Area::Camera)?;
    Ok(Matrix4::from_fn(|i, j| view[[i, j]]))
}

/// A `(3,)` point or vector argument of a camera, finite.
fn finite_point(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<Point> {
    let p = point(obj, name, Area::Camera)?;
    if p.iter().all(|c| c.is_finite()) {
        Ok(p)
    } else {
        Err(camera_error(
            name,
            format!("coordinates must be finite, not {:?}", p.coords.as_slice()),
        ))
    }
}

/// An integer argument (a Python or NumPy integer): a `TypeError` naming it for anything else.
fn integer(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<i64> {
    obj.extract::<i64>().map_err(|e| {
        if e.is_instance_of::<PyTypeError>(obj.py()) {
            let got = obj
                .get_type()
                .fully_qualified_name()
                .map(|n| n.to_string())
                .unwrap_or_else(|_| "another type".to_owned());
            PyTypeError::new_err(format!("{name}: expected an integer, got {got}"))
        } else {
            camera_error(name, format!("{obj} is out of range"))
        }
    })
}

/// An image side in pixels: at least 1, at most 2³² - 1.
fn pixels(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<u32> {
    let n = integer(obj, name)?;
    u32::try_from(n)
        .ok()
        .filter(|&n| n >= 1)
        .ok_or_else(|| camera_error(name, format!("must be from 1 to 2^32 - 1 pixels, not {n}")))
}

/// A finite positive number argument.
fn positive(value: f64, name: &str) -> PyResult<f64> {
    if value.is_finite() && value > 0.0 {
        Ok(value)
    } else {
        Err(camera_error(
            name,
            format!("must be a positive finite number, not {value}"),
        ))
    }
}

impl PyCamera {
    /// The camera, once its pixels are known to have rays: a finite, invertible view-projection
    /// and a ray through the image's centre (`name` is the argument blamed otherwise).
    fn checked(inner: obbtree::Camera, name: &str) -> PyResult<Self> {
        let finite = inner
            .view
            .iter()
            .chain(inner.projection.iter())
            .all(|v| v.is_finite());
        let inverse = (inner.projection * inner.view).try_inverse();
        let usable = finite
            && inverse.is_some_and(|m| m.iter().all(|v| v.is_finite()))
            && inner.pixel_ray(inner.width / 2, inner.height / 2).is_ok();
        if usable {
            Ok(Self { inner })
        } else {
            Err(camera_error(name, CameraError::Degenerate))
        }
    }

    /// Pixel `(x, y)` of the image, checked.
    fn pixel(&self, x: &Bound<'_, PyAny>, y: &Bound<'_, PyAny>) -> PyResult<(u32, u32)> {
        let (x, y) = (integer(x, "x")?, integer(y, "y")?);
        let (width, height) = (self.inner.width, self.inner.height);
        let outside = |name| {
            camera_error(
                name,
                format!("pixel ({x}, {y}) is outside the {width}x{height} image"),
            )
        };
        let x = u32::try_from(x)
            .ok()
            .filter(|&x| x < width)
            .ok_or_else(|| outside("x"))?;
        let y = u32::try_from(y)
            .ok()
            .filter(|&y| y < height)
            .ok_or_else(|| outside("y"))?;
        Ok((x, y))
    }

    /// The ray through pixel `(x, y)`, checked.
    fn ray(&self, x: &Bound<'_, PyAny>, y: &Bound<'_, PyAny>) -> PyResult<Ray> {
        let (x, y) = self.pixel(x, y)?;
        self.inner
            .pixel_ray(x, y)
            .map_err(|e| camera_error("camera", e))
    }

    /// `projection · view`, the matrix from world to clip space.
    pub(crate) fn view_projection_matrix(&self) -> Matrix4<f64> {
        self.inner.projection * self.inner.view
    }
}

fn matrix_array<'py>(py: Python<'py>, m: &Matrix4<f64>) -> Bound<'py, PyArray2<f64>> {
    Array2::from_shape_fn((4, 4), |(i, j)| m[(i, j)]).into_pyarray(py)
}

#[pymethods]
impl PyCamera {
    #[new]
    fn new(
        view: &Bound<'_, PyAny>,
        projection: &Bound<'_, PyAny>,
        width: &Bound<'_, PyAny>,
        height: &Bound<'_, PyAny>,
    ) -> PyResult<Self> {
        let inner = obbtree::Camera {
            view: matrix(view, "view")?,
            projection: matrix(projection, "projection")?,
            width: pixels(width, "width")?,
            height: pixels(height, "height")?,
        };
        Self::checked(inner, "view/projection")
    }

    /// A perspective camera at `eye` looking at `target` with `up` roughly up (`(3,)` each),
    /// vertical field of view `fov_y` (radians, between 0 and π), clip planes at `near` and
    /// `far` (`0 < near < far`), and an image of `width` × `height` pixels: right-handed,
    /// looking down `-z` in eye space, like `gluLookAt` and `gluPerspective`.
    #[staticmethod]
    #[allow(clippy::too_many_arguments)]
    fn look_at(
        eye: &Bound<'_, PyAny>,
        target: &Bound<'_, PyAny>,
        up: &Bound<'_, PyAny>,
        fov_y: f64,
        near: f64,
        far: f64,
        width: &Bound<'_, PyAny>,
        height: &Bound<'_, PyAny>,
    ) -> PyResult<Self> {
        let (eye, target) = (finite_point(eye, "eye")?, finite_point(target, "target")?);
        let up: Vector3<f64> = finite_point(up, "up")?.coords;
        let (width, height) = (pixels(width, "width")?, pixels(height, "height")?);
        if eye == target {
            return Err(camera_error(
                "target",
                "equals eye: the camera looks nowhere",
            ));
        }
        if up.cross(&(target - eye)) == Vector3::zeros() {
            return Err(camera_error(
                "up",
                "is zero or parallel to the viewing direction",
            ));
        }
        if !(fov_y > 0.0 && fov_y < std::f64::consts::PI) {
            return Err(camera_error(
                "fov_y",
                format!("must be between 0 and pi radians, not {fov_y}"),
            ));
        }
        positive(near, "near")?;
        positive(far, "far")?;
        // nalgebra's perspective refuses (panics on) planes it takes for one. Both are finite.
        if far - near <= f64::EPSILON * far.max(1.0) {
            return Err(camera_error(
                "far",
                format!("must lie beyond near ({near}) by more than its rounding, not {far}"),
            ));
        }
        let inner = obbtree::Camera::look_at(&eye, &target, &up, fov_y, near, far, width, height);
        Self::checked(inner, "eye")
    }

    /// A camera that frames the box `bounds` (`(2, 3)`: its least and greatest corner, e.g.
    /// `[vertices.min(0), vertices.max(0)]`): 45° vertical field of view, looking at the box's
    /// centre from the `+z` side, a little from the right and above, far enough that the box's
    /// bounding sphere fits the narrower side of the image.
    #[staticmethod]
    fn framing(
        bounds: &Bound<'_, PyAny>,
        width: &Bound<'_, PyAny>,
        height: &Bound<'_, PyAny>,
    ) -> PyResult<Self> {
        let array = float_array(bounds, "bounds", Area::Camera)?;
        let view = array.as_array();
        check_shape(&view, "bounds", &[Some(2), Some(3)], "(2, 3)", Area::Camera)?;
        let corner = |i: usize| Point::new(view[[i, 0]], view[[i, 1]], view[[i, 2]]);
        let (mins, maxs) = (corner(0), corner(1));
        if !mins.iter().chain(maxs.iter()).all(|c| c.is_finite())
            || (0..3).any(|k| mins[k] > maxs[k])
        {
            return Err(camera_error(
                "bounds",
                "expected finite corners [least, greatest] with least <= greatest on each axis",
            ));
        }
        // The clip planes are about the box's half-diagonal apart: nalgebra's perspective
        // refuses (panics on) planes closer than its rounding.
        let radius = (maxs - mins).norm() * 0.5;
        if !(radius >= 1e-15 && radius.is_finite()) {
            return Err(camera_error(
                "bounds",
                format!(
                    "the box's half-diagonal must be from 1e-15 to a finite size, not {radius:e}"
                ),
            ));
        }
        let (width, height) = (pixels(width, "width")?, pixels(height, "height")?);
        let inner = obbtree::Camera::framing(&Aabb::new(mins, maxs), width, height);
        Self::checked(inner, "bounds")
    }

    /// The view matrix (world to eye), `(4, 4)`.
    #[getter]
    fn view<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f64>> {
        matrix_array(py, &self.inner.view)
    }

    /// The projection matrix (eye to clip space), `(4, 4)`.
    #[getter]
    fn projection<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f64>> {
        matrix_array(py, &self.inner.projection)
    }

    /// `projection @ view` (world to clip space), `(4, 4)`: the frustum `cull` uses.
    #[getter]
    fn view_projection<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f64>> {
        matrix_array(py, &self.view_projection_matrix())
    }

    /// The image width in pixels.
    #[getter]
    fn width(&self) -> u32 {
        self.inner.width
    }

    /// The image height in pixels.
    #[getter]
    fn height(&self) -> u32 {
        self.inner.height
    }

    /// The ray through the centre of pixel `(x, y)` (column, row from the top), from the near
    /// plane towards the far plane: `(origin, direction)`, `(3,)` float64 each, the direction
    /// of unit length. `obbtree.CameraError` for a pixel outside the image.
    fn pixel_ray<'py>(
        &self,
        py: Python<'py>,
        x: &Bound<'py, PyAny>,
        y: &Bound<'py, PyAny>,
    ) -> PyResult<RayArrays<'py>> {
        let ray = self.ray(x, y)?;
        Ok((
            point_array(py, &ray.origin),
            point_array(py, &Point::from(ray.dir)),
        ))
    }

    fn __repr__(&self) -> String {
        format!(
            "obbtree.Camera({}x{} pixels)",
            self.inner.width, self.inner.height
        )
    }

    /// Pickles as its matrices and image size.
    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(
        Bound<'py, PyAny>,
        (
            Bound<'py, PyArray2<f64>>,
            Bound<'py, PyArray2<f64>>,
            u32,
            u32,
        ),
    )> {
        let py = slf.py();
        let this = slf.get();
        Ok((
            py.get_type::<PyCamera>().into_any(),
            (
                this.view(py),
                this.projection(py),
                this.inner.width,
                this.inner.height,
            ),
        ))
    }
}

/// The first triangle of the model's mesh at `pose` under pixel `(x, y)` of `camera`: the
/// engine's `pick_pixel`, which casts `camera.pixel_ray(x, y)` without a distance limit.
/// `None` for a miss, else `(triangle, t, point)`, `t` the distance from the near plane along
/// the ray and `point` `(3,)` in the world frame. The cast runs without the GIL.
///
/// >>> import numpy as np, obbtree
/// >>> square = obbtree.Model(obbtree.Mesh([[-1, -1, 0], [1, -1, 0], [1, 1, 0], [-1, 1, 0]],
/// ...                                     [[0, 1, 2], [0, 2, 3]]))
/// >>> camera = obbtree.Camera.look_at([0, 0, 5], [0, 0, 0], [0, 1, 0], np.pi / 4, 1, 10, 65, 49)
/// >>> triangle, t, point = obbtree.pick_pixel(square, camera, 40, 20)
/// >>> triangle, bool(abs(point[2]) < 1e-12)
/// (0, True)
/// >>> obbtree.pick_pixel(square, camera, 0, 0) is None
/// True
#[pyfunction]
#[pyo3(signature = (model, camera, x, y, pose = None))]
pub fn pick_pixel<'py>(
    py: Python<'py>,
    model: PyRef<'py, Model>,
    camera: PyRef<'py, PyCamera>,
    x: &Bound<'py, PyAny>,
    y: &Bound<'py, PyAny>,
    pose: Option<&Bound<'py, PyAny>>,
) -> PyResult<Option<PickTuple<'py>>> {
    let placed = self::pose(pose, "pose")?;
    let (x, y) = camera.pixel(x, y)?;
    let (m, cam) = (&model.inner, &camera.inner);
    let hit = py
        .detach(|| with_model!(m, |model| obbtree::pick_pixel(model, &placed, cam, x, y)))
        .map_err(|e| match e {
            CameraError::Query(source) => query_error("pose", source),
            other => camera_error("camera", other),
        })?;
    Ok(hit.map(|h| (i64::from(h.triangle), h.t, point_array(py, &h.point))))
}
