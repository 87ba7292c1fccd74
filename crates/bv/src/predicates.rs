//! Exact signs of Shewchuk's adaptive orientation predicates (the `robust` crate) on this
//! crate's types: the one place the workspace's exact decisions go through. Exact as long as no
//! intermediate overflows or underflows, which [`TriMesh`](crate::TriMesh)'s coordinate range
//! guarantees (see [`MAX_COORDINATE`](crate::MAX_COORDINATE)).

use crate::Point;
use robust::{Coord, Coord3D};

/// Sign of `x`: `1`, `0` or `-1`.
pub fn sign(x: f64) -> i8 {
    (x > 0.0) as i8 - (x < 0.0) as i8
}

/// Exact sign of `orient3d(a, b, c, d)` in Shewchuk's convention: positive when `d` lies below
/// the plane through `a, b, c`, which appear counter-clockwise seen from above.
pub fn orient3d(a: &Point, b: &Point, c: &Point, d: &Point) -> i8 {
    let c3 = |p: &Point| Coord3D {
        x: p.x,
        y: p.y,
        z: p.z,
    };
    sign(robust::orient3d(c3(a), c3(b), c3(c), c3(d)))
}

/// Exact sign of the 2D orientation of `a, b, c`: positive when counter-clockwise.
pub fn orient2d(a: &Coord<f64>, b: &Coord<f64>, c: &Coord<f64>) -> i8 {
    sign(robust::orient2d(*a, *b, *c))
}
