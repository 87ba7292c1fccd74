//! Result of classifying a volume against a convex region bounded by planes (frustum, shaft).

/// Where a volume lies relative to a closed convex region.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RegionRelation {
    /// Provably disjoint from the region (outside one of its bounding planes).
    Outside,
    /// Contained in the closed region.
    Inside,
    /// Neither proven: overlaps the boundary (or lies outside near an edge; the tests are
    /// conservative).
    Intersecting,
}

impl RegionRelation {
    /// Classifies a volume against the region `{x : plane_i(x) <= 0 for all i}` from the
    /// ranges `[lo_i, hi_i]` of each plane function over the volume: some `lo_i > 0` →
    /// outside (stops there); all `hi_i <= 0` → inside; otherwise intersecting (*Real-Time
    /// Rendering*, 3rd ed. (2008), §16.14 and §16.15).
    pub fn from_plane_ranges(ranges: impl IntoIterator<Item = (f64, f64)>) -> Self {
        let mut inside = true;
        for (lo, hi) in ranges {
            if lo > 0.0 {
                return Self::Outside;
            }
            inside &= hi <= 0.0;
        }
        if inside {
            Self::Inside
        } else {
            Self::Intersecting
        }
    }
}
