//! The queries users call: dual-tree mesh–mesh collision with exact triangle tests, ray picking
//! and frustum culling.
