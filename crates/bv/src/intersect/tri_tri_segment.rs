//! The intersection of two triangles as a segment, for contact geometry.

use crate::Triangle;

/// Placeholder.
pub fn segment(_p: &Triangle, _q: &Triangle) {}
