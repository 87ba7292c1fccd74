//! Shape statistics: the numbers that predict a tree's memory and query cost.

use crate::{Bvh, Node, NodeKind};
use obbtree_bv::BoundingVolume;
use serde::Serialize;
use std::fmt;

/// Statistics of one tree ([`Bvh::stats`]).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Stats {
    /// Number of nodes.
    pub nodes: usize,
    /// Number of leaves.
    pub leaves: usize,
    /// Number of triangles.
    pub triangles: usize,
    /// Depth of the deepest leaf (root = 0).
    pub depth: usize,
    /// `leaf_sizes[k]` leaves hold exactly `k` triangles.
    pub leaf_sizes: Vec<usize>,
    /// Heap bytes of the tree: the node array and the triangle order (the mesh not included).
    pub bytes: usize,
    /// `bytes / triangles`.
    pub bytes_per_triangle: f64,
    /// Size of one node in bytes.
    pub node_bytes: usize,
    /// Per depth, from the root down.
    pub levels: Vec<Level>,
}

/// Statistics of the nodes at one depth.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Level {
    /// Nodes at this depth.
    pub nodes: usize,
    /// Leaves among them.
    pub leaves: usize,
    /// Sum of their volumes' [`volume`](BoundingVolume::volume).
    pub volume: f64,
    /// Sum of their volumes' [`surface_area`](BoundingVolume::surface_area).
    pub surface_area: f64,
}

impl<V: BoundingVolume> Bvh<V> {
    /// Node count, depth, leaf-size histogram, memory, and per-level sums of volume and area.
    pub fn stats(&self) -> Stats {
        let mut depth_of = vec![0u8; self.nodes.len()];
        let mut levels: Vec<Level> = Vec::new();
        let mut leaf_sizes = Vec::new();
        // Parents precede children, so each node's depth is known when it is reached.
        for (i, node) in self.nodes.iter().enumerate() {
            let d = depth_of[i] as usize;
            if levels.len() <= d {
                levels.resize(d + 1, Level::default());
            }
            let level = &mut levels[d];
            level.nodes += 1;
            level.volume += node.bv.volume();
            level.surface_area += node.bv.surface_area();
            match node.kind() {
                NodeKind::Internal { left, right } => {
                    depth_of[left] = depth_of[i] + 1;
                    depth_of[right] = depth_of[i] + 1;
                }
                NodeKind::Leaf(range) => {
                    level.leaves += 1;
                    if leaf_sizes.len() <= range.len() {
                        leaf_sizes.resize(range.len() + 1, 0);
                    }
                    leaf_sizes[range.len()] += 1;
                }
            }
        }
        let node_bytes = std::mem::size_of::<Node<V>>();
        let bytes = self.nodes.len() * node_bytes + std::mem::size_of_val(self.order.as_slice());
        Stats {
            nodes: self.nodes.len(),
            leaves: leaf_sizes.iter().sum(),
            triangles: self.order.len(),
            depth: levels.len() - 1,
            leaf_sizes,
            bytes,
            bytes_per_triangle: bytes as f64 / self.order.len() as f64,
            node_bytes,
            levels,
        }
    }
}

impl fmt::Display for Stats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "triangles           {}", self.triangles)?;
        writeln!(
            f,
            "nodes               {} ({} leaves, {} B each)",
            self.nodes, self.leaves, self.node_bytes
        )?;
        writeln!(f, "depth               {}", self.depth)?;
        writeln!(
            f,
            "bytes per triangle  {:.1} ({} B in all)",
            self.bytes_per_triangle, self.bytes
        )?;
        let histogram: Vec<String> = self
            .leaf_sizes
            .iter()
            .enumerate()
            .filter(|(_, &n)| n > 0)
            .map(|(size, n)| format!("{size}:{n}"))
            .collect();
        writeln!(f, "leaf sizes          {}", histogram.join(" "))?;
        writeln!(
            f,
            "{:>5} {:>9} {:>9} {:>14} {:>14}",
            "depth", "nodes", "leaves", "sum volume", "sum area"
        )?;
        for (d, level) in self.levels.iter().enumerate() {
            writeln!(
                f,
                "{d:>5} {:>9} {:>9} {:>14.6e} {:>14.6e}",
                level.nodes, level.leaves, level.volume, level.surface_area
            )?;
        }
        Ok(())
    }
}
