//! obbtree: exact mesh–mesh collision and ray picking over bounding-volume hierarchies.
//!
//! This facade re-exports the workspace crates and adds mesh loading ([`load`]), pose files
//! ([`poses`]) and ray files ([`rays`]).

#![forbid(unsafe_code)]

pub use obbtree_bv as bv;
pub use obbtree_query as query;
pub use obbtree_tree as tree;

#[cfg(feature = "load")]
pub mod load;
#[cfg(feature = "urdf")]
pub mod urdf;
