//! Replays every committed fuzz corpus file (`fuzz/corpus/<target>/*`, including the inputs of
//! every crash found, kept there as regressions) through the same target bodies that cargo-fuzz
//! runs, so CI checks them without a fuzzing engine. See `fuzz/README.md`.

#[path = "../fuzz/src/lib.rs"]
mod targets;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

fn corpus_dir(target: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/corpus")
        .join(target)
}

/// Runs every corpus file of `target`; fails naming each file whose input panics.
fn replay(target: &str) {
    replay_dir(target, &corpus_dir(target), 5);
}

/// Runs every file of `dir` through `target`'s body; fails naming each file whose input panics
/// (and if `dir` holds fewer than `min` files).
fn replay_dir(target: &str, dir: &Path, min: usize) {
    let body = targets::TARGETS
        .iter()
        .find(|(name, _)| *name == target)
        .map(|(_, body)| *body)
        .unwrap();
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(files.len() >= min, "{target}: corpus nearly empty");
    let failed: Vec<_> = files
        .iter()
        .filter(|f| {
            let data = std::fs::read(f).unwrap();
            catch_unwind(AssertUnwindSafe(|| body(&data))).is_err()
        })
        .collect();
    assert!(failed.is_empty(), "{target}: inputs that fail: {failed:?}");
}

#[test]
fn every_target_has_a_corpus_test() {
    let tested = [
        "load_mesh",
        "tree_bytes",
        "build_tree",
        "fit",
        "primitives",
        "poses_json",
        "rays_json",
        "collide",
        "pick",
        "distance",
        "api_poses",
    ];
    for (name, _) in targets::TARGETS {
        assert!(tested.contains(name), "no replay test for target {name}");
    }
}

#[test]
fn load_mesh() {
    replay("load_mesh");
}

#[test]
fn tree_bytes() {
    replay("tree_bytes");
}

#[test]
fn build_tree() {
    replay("build_tree");
}

#[test]
fn fit() {
    replay("fit");
}

#[test]
fn primitives() {
    replay("primitives");
}

#[test]
fn poses_json() {
    replay("poses_json");
}

#[test]
fn rays_json() {
    replay("rays_json");
}

#[test]
fn collide() {
    replay("collide");
}

#[test]
fn pick() {
    replay("pick");
}

/// The `distance` corpus, and the `collide` corpus (two meshes and poses, read the same way)
/// through the `distance` body.
#[test]
fn distance() {
    replay("distance");
    replay_dir("distance", &corpus_dir("collide"), 5);
}

/// The corpus of `api_poses` replayed, and between them its inputs reach every query kind
/// (the kind is the input's first choice, [`targets::API_QUERIES`]).
#[test]
fn api_poses() {
    replay("api_poses");
    let mut reached = [0usize; targets::API_QUERIES.len()];
    for file in std::fs::read_dir(corpus_dir("api_poses")).unwrap() {
        let data = std::fs::read(file.unwrap().path()).unwrap();
        let mut u = arbitrary::Unstructured::new(&data);
        if let Ok(kind) = u.choose_index(targets::API_QUERIES.len()) {
            reached[kind] += 1;
        }
    }
    assert!(
        reached.iter().all(|&n| n > 0),
        "inputs per query kind: {reached:?}"
    );
}

/// Writes the generated seeds of `tree_bytes` (a saved tree of each volume type for
/// [`targets::tree_mesh`], whole and as a payload to seal). Run by hand after a format change:
/// `cargo test --test fuzz_corpus -- --ignored write_tree_seeds`.
#[test]
#[ignore = "writes files under fuzz/corpus"]
fn write_tree_seeds() {
    use obbtree::bv::{Aabb, Kdop18, Obb, Sphere};
    use obbtree::tree::{BuildOptions, Bvh};
    let mesh = targets::tree_mesh();
    fn options<V: obbtree::tree::TreeVolume>() -> BuildOptions<V> {
        BuildOptions {
            leaf_size: 2,
            ..Default::default()
        }
    }
    let files = [
        Bvh::<Aabb>::build(mesh, &options()).unwrap().to_bytes(),
        Bvh::<Obb>::build(mesh, &options()).unwrap().to_bytes(),
        Bvh::<Sphere>::build(mesh, &options()).unwrap().to_bytes(),
        Bvh::<Kdop18>::build(mesh, &options()).unwrap().to_bytes(),
    ];
    let dir = corpus_dir("tree_bytes");
    std::fs::create_dir_all(&dir).unwrap();
    for (volume, file) in files.iter().enumerate() {
        let mut whole = vec![volume as u8];
        whole.extend_from_slice(file);
        std::fs::write(dir.join(format!("seed-file-{volume}")), whole).unwrap();
        // The payload alone, for the sealing mode: header (20 bytes) and checksum (8) removed.
        let mut sealed = vec![0x80 | volume as u8];
        sealed.extend_from_slice(&file[20..file.len() - 8]);
        assert_eq!(targets::seal(&sealed[1..]), *file);
        std::fs::write(dir.join(format!("seed-payload-{volume}")), sealed).unwrap();
    }
}

/// Writes the generated seeds of `api_poses`: for each query kind, 8 random inputs of 64 to 512
/// bytes whose first choice is that kind (`seed-<kind>-<k>`). Run by hand:
/// `cargo test --test fuzz_corpus -- --ignored write_api_poses_seeds`.
#[test]
#[ignore = "writes files under fuzz/corpus"]
fn write_api_poses_seeds() {
    use rand::{Rng, SeedableRng};
    let dir = corpus_dir("api_poses");
    std::fs::create_dir_all(&dir).unwrap();
    let mut rng = rand_pcg::Pcg64::seed_from_u64(22);
    for (kind, name) in targets::API_QUERIES.iter().enumerate() {
        let mut written = 0;
        while written < 8 {
            let data: Vec<u8> = (0..rng.gen_range(64..=512)).map(|_| rng.gen()).collect();
            let mut u = arbitrary::Unstructured::new(&data);
            if u.choose_index(targets::API_QUERIES.len()).ok() == Some(kind) {
                std::fs::write(dir.join(format!("seed-{name}-{written}")), &data).unwrap();
                written += 1;
            }
        }
    }
}
