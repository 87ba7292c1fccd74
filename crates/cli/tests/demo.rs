//! `obbtree demo --quick`: runs, exits 0, prints the tables and writes decodable pictures.

use std::process::Command;

#[test]
fn quick_demo_writes_its_pictures() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_obbtree"))
        .args(["demo", "--quick", "--out"])
        .arg(dir.path())
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    for row in [
        "bunny x dragon_res4",
        "self-collision",
        "gear set, 4 parts",
        "KUKA self-collision, 2 poses",
        "KUKA clearance: 21 pairs x 16 fold angles",
        "pick ",
        "robot: the KUKA along 4 path configurations among 3 fixtures",
        "first contact at checked configuration 46, lbr_iiwa_link_7 – duck",
        "distance: the dragon moved out of the bunny",
        "pictures in",
    ] {
        assert!(text.contains(row), "{row} missing:\n{text}");
    }
    // The sweep passes the dragon through the bunny: some poses hit, some miss, and parry agrees.
    let sweep = text
        .lines()
        .find(|l| l.starts_with("bunny x dragon_res4"))
        .unwrap();
    assert!(
        sweep.contains("0 pose") && !sweep.contains(" 0 hit"),
        "{sweep}"
    );
    // The gears mesh at every angle; parry gives the same yes/no on every pair.
    assert!(
        text.contains("yes/no differs from parry on 0 of 24"),
        "{text}"
    );
    assert!(text.contains("4 side-gear angles      16 hit"), "{text}");
    for name in ["collision.png", "pick.png"] {
        let file = std::fs::File::open(dir.path().join(name)).unwrap();
        let mut reader = png::Decoder::new(std::io::BufReader::new(file))
            .read_info()
            .unwrap();
        let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
        let frame = reader.next_frame(&mut pixels).unwrap();
        assert_eq!((frame.width, frame.height), (160, 160), "{name}");
        // Something other than the background was drawn, and some of it is highlight red.
        let rgb = &pixels[..frame.buffer_size()];
        let red = rgb
            .chunks(3)
            .filter(|p| p[0] > 120 && p[1] < 60 && p[2] < 60)
            .count();
        assert!(red > 0, "{name} has no highlighted triangle");
    }
    // The robot's picture shows the arm (orange) and the fixtures (green).
    let file = std::fs::File::open(dir.path().join("robot_path.png")).unwrap();
    let mut reader = png::Decoder::new(std::io::BufReader::new(file))
        .read_info()
        .unwrap();
    let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
    let frame = reader.next_frame(&mut pixels).unwrap();
    let rgb = &pixels[..frame.buffer_size()];
    let count = |f: &dyn Fn(&[u8]) -> bool| rgb.chunks(3).filter(|p| f(p)).count();
    assert!(
        count(&|p| p[0] > p[1] + 40 && p[1] > p[2] + 20) > 20,
        "no arm drawn"
    );
    assert!(
        count(&|p| p[1] > p[0] + 20 && p[1] > p[2] + 20) > 200,
        "no fixture drawn"
    );
    // The distance picture marks the closest points in yellow.
    let file = std::fs::File::open(dir.path().join("distance.png")).unwrap();
    let mut reader = png::Decoder::new(std::io::BufReader::new(file))
        .read_info()
        .unwrap();
    let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
    let frame = reader.next_frame(&mut pixels).unwrap();
    let yellow = pixels[..frame.buffer_size()]
        .chunks(3)
        .filter(|p| p[0] > 150 && p[1] > 130 && p[2] < 80)
        .count();
    assert!(yellow > 0, "no closest point marked");
    let svg = std::fs::read_to_string(dir.path().join("times.svg")).unwrap();
    assert!(svg.contains("<svg") && svg.contains("parry3d-f64"), "{svg}");
    let clearance = std::fs::read_to_string(dir.path().join("kuka_clearance.svg")).unwrap();
    assert!(clearance.contains("<svg") && clearance.contains("least over all pairs"));
    assert!(
        clearance.matches("<polyline").count() >= 5,
        "a line per curve"
    );
}

#[test]
fn unwritable_output_folder_is_a_one_line_error() {
    let file = tempfile::NamedTempFile::new().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_obbtree"))
        .args(["demo", "--quick", "--out"])
        .arg(file.path().join("sub"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("--out"), "{err}");
}
