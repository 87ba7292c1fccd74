//! Exact oracles for the integration tests and the fuzz bodies (`fuzz/src/lib.rs` includes this
//! module too), each sharing no code and no method with the engine:
//!
//! * [`sat`]: whether two closed triangles (degenerate ones included) share a point, by
//!   separating axes in big integers (the bv tests' oracle, included from there);
//! * [`exact`]: exact dyadic and rational arithmetic (the bv tests' helpers);
//! * [`distance`]: the exact squared distance between two triangles (degenerate ones
//!   included), a convex quadratic programme over every support pair solved by Cramer's rule
//!   in big integers (the bv tests' oracle);
//! * [`planes`]: the side of each exactly placed vertex of a mesh for each plane of a frustum,
//!   and the classification culling documents;
//! * [`rays`]: the exact crossings of a ray with a mesh's triangles, in rationals;
//! * [`parity`]: whether a point lies in the solid bounded by a closed mesh, by the parity of
//!   exact crossings.
#![allow(dead_code)] // each test binary uses a part

#[path = "../../crates/bv/tests/common/distance.rs"]
pub mod distance;
#[path = "../../crates/bv/tests/common/exact.rs"]
pub mod exact;
pub mod parity;
pub mod planes;
pub mod rays;
#[path = "../../crates/bv/tests/common/sat.rs"]
pub mod sat;
