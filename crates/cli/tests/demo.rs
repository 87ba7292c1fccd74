//! `obbtree demo --quick`: runs, exits 0, prints the tables and writes decodable pictures,
//! among them the bundled panda's first contact with its post.

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
        "robot: the panda (example-robot-data 6.0.0) is 9 meshes and 8 boxes of collision \
         geometry; its SRDF never checks 35 link pairs",
        "robot: the panda along 2 path configurations among 2 fixtures",
        "first contact at checked configuration 15, panda_hand – post;",
        "tunnelling: the bunny thrown through a plate 1/200 of its size thick; sampling the \
         motion at 5 instants finds 0 contacts, the continuous check the first at t in",
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
        let picture = Picture::read(&dir.path().join(name));
        assert_eq!(picture.size, (160, 160), "{name}");
        // Something other than the background was drawn, and some of it is highlight red.
        assert!(picture.count(RED) > 0, "{name} has no highlighted triangle");
    }
    // The robot's picture shows the arm (orange) and the fixtures (green).
    let robot = Picture::read(&dir.path().join("robot_path.png"));
    assert!(robot.count(ORANGE) > 20, "no arm drawn");
    assert!(robot.count(GREEN) > 200, "no fixture drawn");
    // The panda's picture: its links (orange), the touching hand (blue) with its contact
    // (red), the table and the post (green).
    let panda = Picture::read(&dir.path().join("panda_contact.png"));
    assert_eq!(panda.size, (160, 160));
    assert!(panda.count(ORANGE) > 500, "no panda links drawn");
    assert!(panda.count(BLUE) > 50, "no touching link drawn");
    assert!(panda.count(RED) > 0, "no contact highlighted");
    assert!(panda.count(GREEN) > 500, "no fixture drawn");
    // The distance picture marks the closest points in yellow.
    let distance = Picture::read(&dir.path().join("distance.png"));
    assert!(distance.count(YELLOW) > 0, "no closest point marked");
    // The tunnelling picture highlights the first contact in red.
    let tunnelling = Picture::read(&dir.path().join("tunnelling.png"));
    assert_eq!(tunnelling.size, (240, 120));
    assert!(tunnelling.count(RED) > 0, "no first contact highlighted");
    let svg = std::fs::read_to_string(dir.path().join("times.svg")).unwrap();
    assert!(svg.contains("<svg") && svg.contains("parry3d-f64"), "{svg}");
    let clearance = std::fs::read_to_string(dir.path().join("kuka_clearance.svg")).unwrap();
    assert!(clearance.contains("<svg") && clearance.contains("least over all pairs"));
    assert!(
        clearance.matches("<polyline").count() >= 5,
        "a line per curve"
    );
}

/// A PNG picture's size and 8-bit RGB pixels.
struct Picture {
    size: (u32, u32),
    rgb: Vec<u8>,
}

impl Picture {
    fn read(path: &std::path::Path) -> Self {
        let file = std::fs::File::open(path).unwrap();
        let mut reader = png::Decoder::new(std::io::BufReader::new(file))
            .read_info()
            .unwrap();
        let mut rgb = vec![0; reader.output_buffer_size().unwrap()];
        let frame = reader.next_frame(&mut rgb).unwrap();
        rgb.truncate(frame.buffer_size());
        Picture {
            size: (frame.width, frame.height),
            rgb,
        }
    }

    /// How many pixels are of the colour `is` (given red, green, blue).
    fn count(&self, is: fn([i32; 3]) -> bool) -> usize {
        self.rgb
            .chunks(3)
            .filter(|p| is([p[0], p[1], p[2]].map(i32::from)))
            .count()
    }
}

/// The pictures' colours, shaded: highlight red, link orange, touching link blue, fixture
/// green, marker yellow.
const RED: fn([i32; 3]) -> bool = |[r, g, b]| r > 120 && g < 60 && b < 60;
const ORANGE: fn([i32; 3]) -> bool = |[r, g, b]| r > g + 40 && g > b + 20;
const BLUE: fn([i32; 3]) -> bool = |[r, g, b]| b > r + 40 && b > g + 20;
const GREEN: fn([i32; 3]) -> bool = |[r, g, b]| g > r + 20 && g > b + 20;
const YELLOW: fn([i32; 3]) -> bool = |[r, g, b]| r > 150 && g > 130 && b < 80;

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
