//! Helpers shared by the integration tests: bundled asset paths, their independently counted
//! sizes, and the property-test case count (the one knob of every crate, [`knob`]).
#![allow(dead_code)] // each test binary uses a different part

pub mod knob;
pub mod shapes;

use std::path::{Path, PathBuf};

/// The repository's root: the nearest folder above the test's package that holds `assets/`.
pub fn repo_root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .find(|dir| dir.join("assets").is_dir())
        .expect("the repository's assets/ folder")
}

/// Path of a bundled mesh, e.g. `asset("kuka_iiwa/link_0.obj")`.
pub fn asset(name: &str) -> PathBuf {
    repo_root().join("assets").join(name)
}

/// The case count of a property test whose CI count is `ci`, scaled by the one knob
/// `OBBTREE_PROPTEST_CASES` (see [`knob`]).
pub fn cases(ci: u32) -> u32 {
    knob::cases(ci)
}

/// A bundled mesh and what loading it must give.
pub struct Bundled {
    /// Path under `assets/`.
    pub name: &'static str,
    /// Vertices as loaded (OBJ: every `v` entry; STL: distinct corners; PLY: all).
    pub vertices: usize,
    /// Triangles (every bundled file holds triangles only).
    pub triangles: usize,
    /// No boundary edge: every edge used as often in each direction.
    pub closed: bool,
    /// Exactly zero-area triangles.
    pub degenerate: usize,
}

const fn b(
    name: &'static str,
    vertices: usize,
    triangles: usize,
    closed: bool,
    degenerate: usize,
) -> Bundled {
    Bundled {
        name,
        vertices,
        triangles,
        closed,
        degenerate,
    }
}

/// Every bundled mesh, counted independently by `assets/count.py` (Python, exact rationals for
/// degeneracy; its output, `python3 assets/count.py`, is this table, one line per mesh).
#[rustfmt::skip]
pub const BUNDLED: [Bundled; 35] = [
    b("bunny.obj", 1839, 3674, true, 0),
    b("teapot.obj", 792, 992, false, 0),
    b("dragon_res4.ply.gz", 5205, 11102, true, 0),
    b("dragon_res3.ply.gz", 22998, 47794, true, 0),
    b("dragon_res2.ply.gz", 100250, 202520, true, 0),
    b("duck/duck.obj", 2108, 4212, true, 0),
    b("kuka_iiwa/link_0.obj", 1512, 3038, false, 0),
    b("kuka_iiwa/link_1.obj", 1407, 2759, false, 0),
    b("kuka_iiwa/link_2.obj", 737, 1449, false, 0),
    b("kuka_iiwa/link_3.obj", 984, 1938, false, 1),
    b("kuka_iiwa/link_4.obj", 801, 1547, false, 0),
    b("kuka_iiwa/link_5.obj", 684, 1358, false, 0),
    b("kuka_iiwa/link_6.obj", 584, 1157, false, 0),
    b("kuka_iiwa/link_7.obj", 862, 1512, false, 0),
    b("differential/diff_arm.stl", 1238, 2476, true, 1),
    b("differential/diff_carrier.stl", 1396, 2808, true, 2),
    b("differential/diff_carrier_cover.stl", 1108, 2224, true, 0),
    b("differential/diff_leftshaft.stl", 450, 904, true, 0),
    b("differential/diff_motor_cover.stl", 304, 612, true, 3),
    b("differential/diff_pinion.stl", 7402, 14800, true, 0),
    b("differential/diff_rightshaft.stl", 453, 910, true, 0),
    b("differential/diff_ring.stl", 28816, 57640, true, 0),
    b("differential/diff_side.stl", 5857, 11722, true, 0),
    b("differential/diff_spider.stl", 5920, 11840, true, 0),
    b("differential/diff_spider_shaft.stl", 384, 768, true, 0),
    b("differential/diff_stand.stl", 1655, 3338, true, 4),
    b("panda/example-robot-data/robots/panda_description/meshes/collision/hand.stl", 102, 200, true, 0),
    b("panda/example-robot-data/robots/panda_description/meshes/collision/link0.stl", 102, 200, true, 0),
    b("panda/example-robot-data/robots/panda_description/meshes/collision/link1.stl", 152, 300, true, 0),
    b("panda/example-robot-data/robots/panda_description/meshes/collision/link2.stl", 152, 300, true, 0),
    b("panda/example-robot-data/robots/panda_description/meshes/collision/link3.stl", 152, 300, true, 0),
    b("panda/example-robot-data/robots/panda_description/meshes/collision/link4.stl", 152, 300, true, 0),
    b("panda/example-robot-data/robots/panda_description/meshes/collision/link5.stl", 152, 300, true, 0),
    b("panda/example-robot-data/robots/panda_description/meshes/collision/link6.stl", 102, 200, true, 0),
    b("panda/example-robot-data/robots/panda_description/meshes/collision/link7.stl", 102, 200, true, 0),
];
pub mod sweep;
