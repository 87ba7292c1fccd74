//! Issue 8's "looks and habits" of the `obbtree` program: every subcommand's `--help` has
//! examples, `NO_COLOR` turns colour off (even against `CLICOLOR_FORCE`), and nothing but the
//! report is written when the output is piped (no progress bars or other chatter on stderr;
//! indicatif also hides its bars off a terminal, so this guards the code around it).

use std::process::{Command, Output};

fn obbtree(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_obbtree"));
    c.args(args)
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().unwrap()
}

#[test]
fn every_subcommand_help_has_examples() {
    for sub in [
        "info", "collide", "compare", "demo", "pick", "scene", "robot", "ccd",
    ] {
        let out = obbtree(&[sub, "--help"], &[]);
        assert!(out.status.success(), "{sub}");
        let text = String::from_utf8(out.stdout).unwrap();
        let examples = text
            .split_once("Examples:")
            .unwrap_or_else(|| panic!("{sub} --help has no examples:\n{text}"))
            .1;
        assert!(
            examples.contains(&format!("obbtree {sub}")),
            "{sub}: {examples}"
        );
    }
    // Both forms of compare, each with an example.
    let text = String::from_utf8(obbtree(&["compare", "--help"], &[]).stdout).unwrap();
    for form in [
        "obbtree compare A B [--poses POSES.json | --random N]",
        "obbtree compare --rays RAYS.json MESH",
        "obbtree compare --rays rays.json assets/bunny.obj",
        "obbtree compare assets/bunny.obj assets/bunny.obj --random 200",
    ] {
        assert!(text.contains(form), "{form} missing:\n{text}");
    }
}

#[test]
fn no_color_wins_over_forced_colour() {
    let runs: [&[&str]; 3] = [
        &["info", "assets/bunny.obj"],
        &["info", "no/such.obj"],
        &["info", "--help"],
    ];
    for args in runs {
        let forced = obbtree(args, &[("CLICOLOR_FORCE", "1")]);
        let text = [forced.stdout, forced.stderr].concat();
        // The test can fail: forced colour does put escapes in.
        assert!(text.contains(&0x1b), "{args:?}: no colour even when forced");
        let off = obbtree(args, &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")]);
        let text = [off.stdout, off.stderr].concat();
        assert!(
            !text.contains(&0x1b),
            "{args:?}: escapes under NO_COLOR: {:?}",
            String::from_utf8_lossy(&text)
        );
    }
}

#[test]
fn piped_runs_write_no_progress_bars() {
    let dir = tempfile::tempdir().unwrap();
    // More poses than collide's progress chunk, so a bar would show on a terminal.
    let poses: Vec<_> = (0..200)
        .map(
            |i| serde_json::json!({"translation": [0.001 * i as f64, 0, 0], "rotation": [0, 0, 0]}),
        )
        .collect();
    let file = dir.path().join("poses.json");
    std::fs::write(&file, serde_json::json!({ "poses": poses }).to_string()).unwrap();
    let out_dir = dir.path().join("demo");
    for args in [
        &[
            "collide",
            "assets/teapot.obj",
            "assets/teapot.obj",
            "--poses",
            file.to_str().unwrap(),
        ][..],
        &["demo", "--quick", "--out", out_dir.to_str().unwrap()][..],
    ] {
        let out = obbtree(args, &[]);
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            out.stderr.is_empty(),
            "{args:?} wrote to stderr: {:?}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            !out.stdout.contains(&b'\r'),
            "{args:?}: carriage returns on a pipe"
        );
    }
}

#[test]
fn usage_errors_are_one_line_with_status_2() {
    for (args, needle) in [
        (&["info"][..], "<MESH>"),
        (&["collide", "a.obj"][..], "<B>"),
        (
            &["compare", "a.obj", "b.obj", "--mode", "some"][..],
            "possible values",
        ),
        (&["pick", "a.obj", "--bv", "cone"][..], "possible values"),
        (&["demo", "--fast"][..], "--fast"),
    ] {
        let out = obbtree(args, &[]);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(
            err.starts_with("error: ") && err.contains(needle),
            "{args:?}: {err}"
        );
        assert!(err.trim_end().ends_with("see --help"), "{err}");
    }
}
