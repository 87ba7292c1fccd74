//! Rigid motions written out from their textbook formulas, independently of nalgebra's and of
//! the library's own constructors: the oracle of the URDF forward-kinematics tests.

#![allow(dead_code)] // each test binary uses a different part

use nalgebra::{Matrix3, Matrix4, Vector3};

/// The 4×4 homogeneous matrix `[r t; 0 0 0 1]`.
pub fn homogeneous(r: Matrix3<f64>, t: Vector3<f64>) -> Matrix4<f64> {
    let mut m = Matrix4::identity();
    m.fixed_view_mut::<3, 3>(0, 0).copy_from(&r);
    m.fixed_view_mut::<3, 1>(0, 3).copy_from(&t);
    m
}

/// `Rz(yaw) · Ry(pitch) · Rx(roll)` from the URDF specification, each factor written out.
pub fn rpy(r: f64, p: f64, y: f64) -> Matrix3<f64> {
    let rx = Matrix3::new(1.0, 0.0, 0.0, 0.0, r.cos(), -r.sin(), 0.0, r.sin(), r.cos());
    let ry = Matrix3::new(p.cos(), 0.0, p.sin(), 0.0, 1.0, 0.0, -p.sin(), 0.0, p.cos());
    let rz = Matrix3::new(y.cos(), -y.sin(), 0.0, y.sin(), y.cos(), 0.0, 0.0, 0.0, 1.0);
    rz * ry * rx
}

/// Rodrigues: rotation by `angle` about the unit `k`.
pub fn rodrigues(k: Vector3<f64>, angle: f64) -> Matrix3<f64> {
    let kx = k.cross_matrix();
    Matrix3::identity() + kx * angle.sin() + kx * kx * (1.0 - angle.cos())
}

/// The rotation of the unit quaternion `w + x·i + y·j + z·k`, given as `[x, y, z, w]`: the
/// matrix of Shoemake (1985) / the "Quaternions and spatial rotation" conversion, written out.
pub fn quaternion_matrix([x, y, z, w]: [f64; 4]) -> Matrix3<f64> {
    Matrix3::new(
        1.0 - 2.0 * (y * y + z * z),
        2.0 * (x * y - z * w),
        2.0 * (x * z + y * w),
        2.0 * (x * y + z * w),
        1.0 - 2.0 * (x * x + z * z),
        2.0 * (y * z - x * w),
        2.0 * (x * z - y * w),
        2.0 * (y * z + x * w),
        1.0 - 2.0 * (x * x + y * y),
    )
}
