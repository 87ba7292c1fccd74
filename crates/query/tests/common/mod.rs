//! Helpers shared by the collision tests: case count (the one knob of every crate, [`knob`]),
//! small generated meshes, poses, a runner over every volume type, and the bv tests' exact
//! oracles ([`sat`], [`exact`]).
#![allow(dead_code)] // each test binary uses a subset

use obbtree_bv::{Obb, ObbFit, Point, Pose, TriMesh};
use obbtree_query::{Model, ModelOptions, PosedOverlap};
use obbtree_tree::{with_volume, BuildOptions, VolumeKind};
use rand::{Rng, SeedableRng};

/// The closed-form distance from a point to a solid cylinder (radial and axial excess).
#[path = "../../../bv/tests/common/cylinder.rs"]
pub mod cylinder;
/// The bv tests' exact distance oracle (a convex quadratic programme over every support pair,
/// solved by Cramer's rule over the integers; shares no code with the engine).
#[path = "../../../bv/tests/common/distance.rs"]
pub mod distance;
#[path = "../../../bv/tests/common/exact.rs"]
pub mod exact;
#[path = "../../../../tests/common/knob.rs"]
pub mod knob;
/// The big-integer separating-axis oracle of the bv tests (exact, shares no code with the
/// engine's orientation-predicate test).
#[path = "../../../bv/tests/common/sat.rs"]
pub mod sat;

#[allow(unused_imports)] // each test binary uses a part
pub use knob::{cases, config, runner};

pub fn rng(seed: u64) -> rand_pcg::Pcg64 {
    rand_pcg::Pcg64::seed_from_u64(seed)
}

/// A closed, consistently oriented "blob": a UV sphere (`rings` latitude rings of `segments`
/// vertices plus two poles) whose vertex radii vary by up to `bump` (relative), so it is not
/// convex for `bump > 0`.
pub fn blob(seed: u64, rings: usize, segments: usize, radius: f64, bump: f64) -> TriMesh {
    let mut r = rng(seed);
    let mut v = vec![Point::new(0.0, 0.0, radius)];
    for i in 1..=rings {
        let th = std::f64::consts::PI * i as f64 / (rings + 1) as f64;
        for j in 0..segments {
            let ph = 2.0 * std::f64::consts::PI * j as f64 / segments as f64;
            let rr = radius * (1.0 + bump * r.gen_range(-1.0..1.0));
            v.push(Point::new(
                rr * th.sin() * ph.cos(),
                rr * th.sin() * ph.sin(),
                rr * th.cos(),
            ));
        }
    }
    v.push(Point::new(0.0, 0.0, -radius));
    let south = (v.len() - 1) as u32;
    let at = |i: usize, j: usize| (1 + (i * segments) + (j % segments)) as u32;
    let mut t = Vec::new();
    for j in 0..segments {
        t.push([0, at(0, j), at(0, j + 1)]);
        t.push([south, at(rings - 1, j + 1), at(rings - 1, j)]);
        for i in 0..rings - 1 {
            t.push([at(i, j), at(i + 1, j), at(i + 1, j + 1)]);
            t.push([at(i, j), at(i + 1, j + 1), at(i, j + 1)]);
        }
    }
    TriMesh::new(v, t).expect("valid blob")
}

/// An open height field over `[0, n]²` with integer x, y and random heights in `[-h, h]`.
pub fn terrain(seed: u64, n: usize, h: f64) -> TriMesh {
    let mut r = rng(seed);
    let mut v = Vec::new();
    for i in 0..=n {
        for j in 0..=n {
            v.push(Point::new(i as f64, j as f64, r.gen_range(-h..=h)));
        }
    }
    let at = |i: usize, j: usize| (i * (n + 1) + j) as u32;
    let mut t = Vec::new();
    for i in 0..n {
        for j in 0..n {
            t.push([at(i, j), at(i + 1, j), at(i + 1, j + 1)]);
            t.push([at(i, j), at(i + 1, j + 1), at(i, j + 1)]);
        }
    }
    TriMesh::new(v, t).expect("valid terrain")
}

/// The closed box `[0, s]³` cut into `n × n` squares per face (two triangles each), outward
/// oriented, scaled by `scale`: integer grid coordinates times `scale` are exact.
pub fn cube(n: usize, scale: f64) -> TriMesh {
    let mut v: Vec<Point> = Vec::new();
    let mut index = std::collections::HashMap::new();
    let mut t = Vec::new();
    let mut id = |p: [i64; 3], v: &mut Vec<Point>| -> u32 {
        *index.entry(p).or_insert_with(|| {
            v.push(Point::new(p[0] as f64, p[1] as f64, p[2] as f64) * scale);
            (v.len() - 1) as u32
        })
    };
    let n = n as i64;
    for axis in 0..3 {
        for side in [0, n] {
            let (u, w) = ((axis + 1) % 3, (axis + 2) % 3);
            for a in 0..n {
                for b in 0..n {
                    let corner = |da: i64, db: i64| {
                        let mut p = [0; 3];
                        p[axis] = side;
                        p[u] = a + da;
                        p[w] = b + db;
                        p
                    };
                    let q = [corner(0, 0), corner(1, 0), corner(1, 1), corner(0, 1)]
                        .map(|c| id(c, &mut v));
                    if side == n {
                        t.push([q[0], q[1], q[2]]);
                        t.push([q[0], q[2], q[3]]);
                    } else {
                        t.push([q[0], q[2], q[1]]);
                        t.push([q[0], q[3], q[2]]);
                    }
                }
            }
        }
    }
    TriMesh::new(v, t).expect("valid cube")
}

/// The distance from `p` to the segment `ab` in floating point (the clamped projection; a
/// point for `a == b`): the tests' float reference, sharing no code with the engine.
pub fn float_segment_distance(p: &Point, a: &Point, b: &Point) -> f64 {
    let w = b - a;
    let s = if w.norm_squared() == 0.0 {
        0.0
    } else {
        ((p - a).dot(&w) / w.norm_squared()).clamp(0.0, 1.0)
    };
    (p - (a + w * s)).norm()
}

/// A random pose: rotation vector uniform in the ball of radius π, translation uniform in the
/// cube of half-side `reach`.
pub fn random_pose(r: &mut impl Rng, reach: f64) -> Pose {
    let rot = loop {
        let v = [0; 3].map(|_| r.gen_range(-1.0..1.0));
        if v.iter().map(|x: &f64| x * x).sum::<f64>() <= 1.0 {
            break v.map(|x| x * std::f64::consts::PI);
        }
    };
    Pose::new([0; 3].map(|_| r.gen_range(-reach..reach)), rot).expect("finite pose")
}

/// Builds a model of volume `V` over `mesh` with default options and a small leaf size (so
/// the small test meshes still have deep trees).
pub fn model<V: PosedOverlap>(mesh: &TriMesh) -> Model<V> {
    fitted_model(mesh, Default::default())
}

/// [`model`] with the volumes fitted by `method`.
pub fn fitted_model<V: PosedOverlap>(mesh: &TriMesh, method: V::Method) -> Model<V> {
    let options = BuildOptions::<V> {
        leaf_size: 2,
        method,
        ..BuildOptions::default()
    };
    Model::build(mesh.clone(), &ModelOptions::from(options)).expect("model")
}

/// Runs `f` with models of `a` and `b` for every volume kind of the registry
/// ([`VolumeKind::ALL`]), and for OBBs fitted by minimum volume, naming each.
pub fn for_each_volume(a: &TriMesh, b: &TriMesh, mut f: impl FnMut(&str, Models)) {
    for kind in VolumeKind::ALL {
        with_volume!(kind, |V| f(
            kind.name(),
            Models::from((model::<V>(a), model::<V>(b)))
        ));
    }
    // Minimum-volume boxes: the same partition (split along the covariance axes), other boxes.
    let fit = |m: &TriMesh| fitted_model::<Obb>(m, ObbFit::MinVolume);
    f("obb_minvol", Models::from((fit(a), fit(b))));
}

/// Declares [`Models`] and [`with_models!`] over the registry's list of volume kinds.
macro_rules! declare_models {
    ($($variant:ident($volume:ty) = $name:literal,)+) => {
        /// A pair of models of one volume type, of any kind of the registry.
        pub enum Models {
            $($variant((Model<$volume>, Model<$volume>)),)+
        }

        $(impl From<(Model<$volume>, Model<$volume>)> for Models {
            fn from(models: (Model<$volume>, Model<$volume>)) -> Self {
                Models::$variant(models)
            }
        })+

        /// Calls a generic expression on the models, whatever their volume type.
        #[allow(unused_macros)] // each test binary uses a part
        macro_rules! with_models {
            ($models:expr, |$a:ident, $b:ident| $body:expr) => {
                match $models {
                    $(Models::$variant((ref $a, ref $b)) => $body,)+
                }
            };
        }
    };
}

obbtree_tree::volume_kinds!([declare_models]);

// Makes the macro, defined by `declare_models!`, reachable by path from the test files (clippy
// takes the re-export of a textually scoped macro for a redundant import).
#[allow(unused_imports, clippy::single_component_path_imports)] // each test binary uses a part
pub(crate) use with_models;
