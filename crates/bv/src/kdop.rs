//! Discrete oriented polytopes (k-DOPs) with fixed slab normals.
//!
//! `Kdop<A>` has `A` slab axes, i.e. `K = 2A` faces: [`Kdop6`] (A = 3), [`Kdop14`] (A = 7),
//! [`Kdop18`] (A = 9) and [`Kdop26`] (A = 13). The axes are integer, unnormalised directions
//! (see [`Kdop::axes`]); `min[i]`/`max[i]` are extremes of `axes[i] · p` over the contents.

use crate::Vector;
use serde::{Deserialize, Serialize};

/// A k-DOP with `A` slab axes (closed: the intersection of its `A` slabs).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Kdop<const A: usize> {
    /// Lower bound of `axes[i] · p` for each slab.
    #[serde(with = "serde_arrays")]
    pub min: [f64; A],
    /// Upper bound of `axes[i] · p` for each slab.
    #[serde(with = "serde_arrays")]
    pub max: [f64; A],
}

/// 6-DOP (an AABB expressed as slabs).
pub type Kdop6 = Kdop<3>;
/// 14-DOP: the coordinate axes and the 4 cube diagonals.
pub type Kdop14 = Kdop<7>;
/// 18-DOP: the coordinate axes and the 6 face diagonals.
pub type Kdop18 = Kdop<9>;
/// 26-DOP: coordinate axes, cube diagonals and face diagonals.
pub type Kdop26 = Kdop<13>;

const COORD: [[f64; 3]; 3] = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
const CORNER: [[f64; 3]; 4] = [
    [1.0, 1.0, 1.0],
    [1.0, 1.0, -1.0],
    [1.0, -1.0, 1.0],
    [1.0, -1.0, -1.0],
];
const EDGE: [[f64; 3]; 6] = [
    [1.0, 1.0, 0.0],
    [1.0, -1.0, 0.0],
    [1.0, 0.0, 1.0],
    [1.0, 0.0, -1.0],
    [0.0, 1.0, 1.0],
    [0.0, 1.0, -1.0],
];

impl<const A: usize> Kdop<A> {
    /// The slab directions of this k-DOP type (unnormalised, integer components).
    ///
    /// Panics at compile-time-like speed for an unsupported `A` (only 3, 7, 9, 13 exist).
    pub fn axes() -> [Vector; A] {
        let table: Vec<[f64; 3]> = match A {
            3 => COORD.to_vec(),
            7 => COORD.iter().chain(CORNER.iter()).copied().collect(),
            9 => COORD.iter().chain(EDGE.iter()).copied().collect(),
            13 => COORD
                .iter()
                .chain(CORNER.iter())
                .chain(EDGE.iter())
                .copied()
                .collect(),
            _ => panic!("Kdop<{A}> is not a supported k-DOP (use 3, 7, 9 or 13 axes)"),
        };
        std::array::from_fn(|i| Vector::new(table[i][0], table[i][1], table[i][2]))
    }
}

mod serde_arrays {
    //! serde for `[f64; A]` with a const-generic length (serde derives only up to 32 and not
    //! for generic lengths).
    use serde::{de::Error, Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer, const A: usize>(v: &[f64; A], s: S) -> Result<S::Ok, S::Error> {
        v.as_slice().serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>, const A: usize>(
        d: D,
    ) -> Result<[f64; A], D::Error> {
        let v = Vec::<f64>::deserialize(d)?;
        v.try_into()
            .map_err(|v: Vec<f64>| D::Error::invalid_length(v.len(), &"one value per k-DOP axis"))
    }
}
