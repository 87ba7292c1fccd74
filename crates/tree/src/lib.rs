//! Bounding-volume hierarchies over a [`TriMesh`](obbtree_bv::TriMesh)'s triangles, generic over
//! the volume: OBBTree (`Bvh<Obb>`), AABB tree, k-DOP tree, sphere tree.
