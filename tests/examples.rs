//! The examples run as a user runs them, their output checked.

use std::path::PathBuf;
use std::process::Command;

/// The built example `name` (`cargo test` builds the examples beside the test binaries).
fn example(name: &str) -> PathBuf {
    let deps = std::env::current_exe().expect("the test binary's path");
    let profile_dir = deps
        .parent()
        .and_then(|d| d.parent())
        .expect("target/<profile>/deps");
    profile_dir
        .join("examples")
        .join(format!("{name}{}", std::env::consts::EXE_SUFFIX))
}

/// `one_error`: one `Result<_, obbtree::Error>` across loading, building, collision, distance
/// and a scene; the distance the two-model query gives is the scene's closest pair's, and a
/// missing file comes out as the loader's error naming the file.
#[test]
fn one_error_carries_every_step_and_names_a_missing_file() {
    let assets = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets");
    let out = Command::new(example("one_error"))
        .arg(&assets)
        .output()
        .expect("the example runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    assert_eq!(lines[0], "touch: false");
    let distance = lines[1].strip_prefix("distance: ").expect(lines[1]);
    assert_eq!(
        lines[2],
        format!("scene's closest pair: bunny and duck, {distance} apart")
    );
    let d: f64 = distance.parse().unwrap();
    assert!((0.2..0.4).contains(&d), "{d}");
    let missing = assets.join("no_such_duck.obj");
    assert!(
        lines[3].starts_with(&format!("a missing file: {}", missing.display())),
        "{}",
        lines[3]
    );
}
