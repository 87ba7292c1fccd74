//! The one pose type of the whole API: a rigid motion `p ↦ R·p + t`, checked when it is made.

use crate::{Point, Vector};
use nalgebra::{IsometryMatrix3, Matrix3, Matrix4, Rotation3, Translation3};
use serde::{Deserialize, Serialize};

/// How far `RᵀR` may be from the identity (largest entry of `RᵀR − I`) for `R` to count as a
/// rotation. A rotation computed in `f64` (from a rotation vector, a quaternion, Euler angles, or
/// a product of a few thousand such) is orthonormal to about `1e-15`; the conservative volume
/// tests of the queries absorb deviations far larger than this bound, so a matrix that passes
/// moves every bounding volume the way the tests assume. A matrix from single-precision data is
/// refused: orthonormalise it first (e.g. `nalgebra::Rotation3::from_matrix`).
pub const ORTHONORMAL_TOLERANCE: f64 = 1e-10;

/// Why a pose was refused.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum PoseError {
    /// An entry is NaN or infinite.
    #[error(
        "the pose has a non-finite {part} entry ({value}): every entry must be a finite number"
    )]
    NonFinite {
        /// `"rotation"` or `"translation"`.
        part: &'static str,
        /// The offending value.
        value: f64,
    },
    /// The rotation matrix is not orthonormal within [`ORTHONORMAL_TOLERANCE`].
    #[error(
        "the rotation is not orthonormal (largest entry of RᵀR − I is {deviation:e}, more than \
         {ORTHONORMAL_TOLERANCE:e}); orthonormalise it, e.g. with nalgebra's Rotation3::from_matrix"
    )]
    NotOrthonormal {
        /// Largest entry of `|RᵀR − I|`.
        deviation: f64,
    },
    /// The matrix is orthonormal but mirrors (determinant −1): a pose is a proper rotation.
    #[error("the rotation is a reflection (determinant {determinant}); a pose must be a proper rotation (determinant +1)")]
    Reflection {
        /// The determinant.
        determinant: f64,
    },
    /// A homogeneous matrix whose last row is not `[0, 0, 0, 1]`.
    #[error("the last row of a homogeneous pose matrix must be [0, 0, 0, 1], not {row:?}")]
    NotRigid {
        /// The last row as given.
        row: [f64; 4],
    },
}

/// A rigid motion: a rotation matrix `R` and a translation `t`, mapping a point `p` of a mesh's
/// own frame to `R·p + t` in `f64` ([`Pose::transform_point`]): the one placement every query
/// uses, so that all of them see the same coordinates.
///
/// Every constructor checks its input: entries finite, `R` orthonormal within
/// [`ORTHONORMAL_TOLERANCE`] with determinant `+1`. A `Pose` therefore always is a rotation and
/// a translation; whether a mesh placed by it stays within the coordinate range in which the
/// queries are exact depends on the mesh too, and is checked by each query.
///
/// ```
/// use obbtree_bv::{Point, Pose};
/// // Translate by (1, 2, 3), then turn a quarter about z (rotation vector: axis × angle).
/// let pose = Pose::new([1.0, 2.0, 3.0], [0.0, 0.0, std::f64::consts::FRAC_PI_2])?;
/// let p = pose.transform_point(&Point::new(1.0, 0.0, 0.0));
/// assert!((p - Point::new(1.0, 3.0, 3.0)).norm() < 1e-15);
/// assert!(Pose::new([f64::NAN, 0.0, 0.0], [0.0; 3]).is_err());
/// # Ok::<(), obbtree_bv::PoseError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(into = "PoseFields", try_from = "PoseFields")]
pub struct Pose {
    isometry: IsometryMatrix3<f64>,
}

impl Default for Pose {
    fn default() -> Self {
        Self::identity()
    }
}

impl Pose {
    /// The identity: no rotation, no translation.
    pub fn identity() -> Self {
        Self {
            isometry: IsometryMatrix3::identity(),
        }
    }

    /// The pose with translation `translation` and rotation vector `rotation_vector` (axis ×
    /// angle in radians; nalgebra's `Rotation3::new`): `p ↦ R·p + t`. This is the pose format of
    /// the command line and of pose files, `"tx ty tz rx ry rz"`.
    pub fn new(
        translation: impl Into<Vector>,
        rotation_vector: impl Into<Vector>,
    ) -> Result<Self, PoseError> {
        let (translation, rotation_vector) = (translation.into(), rotation_vector.into());
        check_finite("rotation", rotation_vector.iter())?;
        Self::from_parts(translation, *Rotation3::new(rotation_vector).matrix())
    }

    /// The pure translation by `translation`.
    pub fn from_translation(translation: impl Into<Vector>) -> Result<Self, PoseError> {
        Self::from_parts(translation.into(), Matrix3::identity())
    }

    /// The pose `p ↦ rotation·p + translation`, checked (see [`Pose`]).
    pub fn from_parts(translation: Vector, rotation: Matrix3<f64>) -> Result<Self, PoseError> {
        check_finite("translation", translation.iter())?;
        check_rotation(&rotation)?;
        Ok(Self::from_parts_unchecked(translation, rotation))
    }

    /// The pose of a 4×4 homogeneous matrix `[R t; 0 0 0 1]` (the convention of trimesh and
    /// most scene formats), checked (see [`Pose`]).
    pub fn from_homogeneous(matrix: &Matrix4<f64>) -> Result<Self, PoseError> {
        let row = [
            matrix[(3, 0)],
            matrix[(3, 1)],
            matrix[(3, 2)],
            matrix[(3, 3)],
        ];
        if row != [0.0, 0.0, 0.0, 1.0] {
            return Err(PoseError::NotRigid { row });
        }
        Self::from_parts(
            matrix.fixed_view::<3, 1>(0, 3).into_owned(),
            matrix.fixed_view::<3, 3>(0, 0).into_owned(),
        )
    }

    /// A pose from parts known to be valid (a product of valid poses, a pose's inverse).
    pub(crate) fn from_parts_unchecked(translation: Vector, rotation: Matrix3<f64>) -> Self {
        Self {
            isometry: IsometryMatrix3::from_parts(
                Translation3::from(translation),
                Rotation3::from_matrix_unchecked(rotation),
            ),
        }
    }

    /// The rotation matrix `R`.
    #[inline]
    pub fn rotation(&self) -> &Matrix3<f64> {
        self.isometry.rotation.matrix()
    }

    /// The translation `t`.
    #[inline]
    pub fn translation(&self) -> &Vector {
        &self.isometry.translation.vector
    }

    /// The rotation as a rotation vector (axis × angle in radians, the angle in `[0, π]`): the
    /// inverse of the rotation part of [`Pose::new`], up to rounding.
    pub fn rotation_vector(&self) -> Vector {
        self.isometry.rotation.scaled_axis()
    }

    /// The pose as nalgebra's isometry (rotation matrix and translation).
    #[inline]
    pub fn isometry(&self) -> &IsometryMatrix3<f64> {
        &self.isometry
    }

    /// The 4×4 homogeneous matrix `[R t; 0 0 0 1]`.
    pub fn to_homogeneous(&self) -> Matrix4<f64> {
        self.isometry.to_homogeneous()
    }

    /// `R·p + t` in `f64`: the placement every query uses.
    #[inline]
    pub fn transform_point(&self, p: &Point) -> Point {
        self.isometry * p
    }

    /// `R·v`.
    #[inline]
    pub fn transform_vector(&self, v: &Vector) -> Vector {
        self.isometry * v
    }

    /// `Rᵀ·(p − t)`: a point of the world in the posed frame.
    #[inline]
    pub fn inverse_transform_point(&self, p: &Point) -> Point {
        self.isometry.inverse_transform_point(p)
    }

    /// `Rᵀ·v`.
    #[inline]
    pub fn inverse_transform_vector(&self, v: &Vector) -> Vector {
        self.isometry.inverse_transform_vector(v)
    }

    /// The inverse motion `p ↦ Rᵀ·p − Rᵀ·t`.
    pub fn inverse(&self) -> Self {
        Self {
            isometry: self.isometry.inverse(),
        }
    }

    /// `self⁻¹ · other`: `other` seen from the frame `self` places (the pose of B in A's frame
    /// is `pose_a.inv_mul(&pose_b)`), computed without forming the inverse.
    pub fn inv_mul(&self, other: &Pose) -> Self {
        Self {
            isometry: self.isometry.inv_mul(&other.isometry),
        }
    }
}

/// Composition: `(a * b)·p = a·(b·p)`. The product's rotation is orthonormal to within the
/// rounding of one matrix product. Translations add up: composing translations near `f64::MAX`
/// can overflow to a non-finite translation, which every query then refuses
/// ([`QueryError::OutOfRange`](../obbtree_query/enum.QueryError.html)) rather than answers.
impl std::ops::Mul for Pose {
    type Output = Pose;

    fn mul(self, rhs: Pose) -> Pose {
        Pose {
            isometry: self.isometry * rhs.isometry,
        }
    }
}

impl std::ops::Mul<&Pose> for Pose {
    type Output = Pose;

    fn mul(self, rhs: &Pose) -> Pose {
        self * *rhs
    }
}

impl std::ops::Mul<Pose> for &Pose {
    type Output = Pose;

    fn mul(self, rhs: Pose) -> Pose {
        *self * rhs
    }
}

impl std::ops::Mul<&Pose> for &Pose {
    type Output = Pose;

    fn mul(self, rhs: &Pose) -> Pose {
        *self * *rhs
    }
}

impl TryFrom<IsometryMatrix3<f64>> for Pose {
    type Error = PoseError;

    fn try_from(isometry: IsometryMatrix3<f64>) -> Result<Self, PoseError> {
        Self::from_parts(isometry.translation.vector, *isometry.rotation.matrix())
    }
}

impl TryFrom<nalgebra::Isometry3<f64>> for Pose {
    type Error = PoseError;

    /// Through the quaternion's rotation matrix; the quaternion must be finite (nalgebra's
    /// `UnitQuaternion` is normalised up to rounding, so its matrix is orthonormal).
    fn try_from(isometry: nalgebra::Isometry3<f64>) -> Result<Self, PoseError> {
        check_finite("rotation", isometry.rotation.coords.iter())?;
        Self::from_parts(
            isometry.translation.vector,
            *isometry.rotation.to_rotation_matrix().matrix(),
        )
    }
}

impl From<Pose> for IsometryMatrix3<f64> {
    fn from(pose: Pose) -> Self {
        pose.isometry
    }
}

/// Fails on the first non-finite value of `values`.
fn check_finite<'a>(
    part: &'static str,
    mut values: impl Iterator<Item = &'a f64>,
) -> Result<(), PoseError> {
    match values.find(|x| !x.is_finite()) {
        Some(&value) => Err(PoseError::NonFinite { part, value }),
        None => Ok(()),
    }
}

/// Whether `r` is a proper rotation within [`ORTHONORMAL_TOLERANCE`].
fn check_rotation(r: &Matrix3<f64>) -> Result<(), PoseError> {
    check_finite("rotation", r.iter())?;
    // `RᵀR − I` from the six distinct dot products of the columns (it is symmetric).
    let [c0, c1, c2] = [r.column(0), r.column(1), r.column(2)];
    let terms = [
        c0.dot(&c0) - 1.0,
        c1.dot(&c1) - 1.0,
        c2.dot(&c2) - 1.0,
        c0.dot(&c1),
        c0.dot(&c2),
        c1.dot(&c2),
    ];
    // NaN (∞ − ∞ from entries near `f64::MAX`) is the largest deviation of all.
    let deviation = terms.into_iter().fold(0.0, |largest: f64, x| {
        if x.is_nan() || largest.is_nan() {
            f64::NAN
        } else {
            largest.max(x.abs())
        }
    });
    if deviation.is_nan() || deviation > ORTHONORMAL_TOLERANCE {
        return Err(PoseError::NotOrthonormal { deviation });
    }
    let determinant = c0.dot(&c1.cross(&c2));
    if determinant < 0.0 {
        return Err(PoseError::Reflection { determinant });
    }
    Ok(())
}

/// The serialised form: the rotation matrix's rows and the translation, checked on reading.
#[derive(Serialize, Deserialize)]
struct PoseFields {
    rotation: [[f64; 3]; 3],
    translation: [f64; 3],
}

impl From<Pose> for PoseFields {
    fn from(pose: Pose) -> Self {
        let r = pose.rotation();
        Self {
            rotation: [0, 1, 2].map(|i| [r[(i, 0)], r[(i, 1)], r[(i, 2)]]),
            translation: (*pose.translation()).into(),
        }
    }
}

impl TryFrom<PoseFields> for Pose {
    type Error = PoseError;

    fn try_from(fields: PoseFields) -> Result<Self, PoseError> {
        let r = fields.rotation;
        Pose::from_parts(fields.translation.into(), Matrix3::from_fn(|i, j| r[i][j]))
    }
}
