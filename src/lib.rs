//! obbtree: exact mesh–mesh collision and ray picking over bounding-volume hierarchies.
//!
//! This facade re-exports the workspace crates and adds mesh loading ([`load`]) and pose files
//! ([`poses`]).

pub use obbtree_bv as bv;
pub use obbtree_query as query;
pub use obbtree_tree as tree;

pub mod compare;
pub mod load;
pub mod poses;
pub mod urdf;
