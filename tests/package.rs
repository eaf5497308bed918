//! End-to-end tests of `ysai package`: the archive, its run.sh, and its checks.

use std::fs::{self, File};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn ysai(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_ysai"))
        .args(args)
        .output()
        .expect("ysai runs")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ysai-package-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// Unpacks with the zip reader, keeping modes, as `unzip` would.
fn unpack(archive: &Path, dir: &Path) -> Vec<(String, u32)> {
    let mut zip = zip::ZipArchive::new(File::open(archive).unwrap()).unwrap();
    let mut entries = Vec::new();
    for i in 0..zip.len() {
        let mut entry = zip.by_index(i).unwrap();
        let name = entry.name().expect("UTF-8 entry name").to_string();
        let mode = entry.unix_mode().unwrap();
        let path = dir.join(&name);
        std::io::copy(&mut entry, &mut File::create(&path).unwrap()).unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(mode)).unwrap();
        entries.push((name, mode & 0o777));
    }
    entries
}

/// Runs `ysai package --out ARCHIVE -- FLAGS`.
fn package(archive: &Path, flags: &[&str]) -> std::process::Output {
    let mut args = vec!["package", "--out", archive.to_str().unwrap(), "--"];
    args.extend(flags);
    ysai(&args)
}

#[test]
fn the_archive_holds_the_binary_and_a_script_that_plays_with_the_flags() {
    let dir = scratch("ok");
    let archive = dir.join("submission.zip");
    let output = package(
        &archive,
        &["--ai", "beam", "-bw", "200", "-bcw", "60", "-nbw", "50"],
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(stdout.contains("no protocol violations"), "{stdout}");
    assert!(stdout.contains("package ok"), "{stdout}");

    let unpacked = dir.join("unpacked");
    fs::create_dir(&unpacked).unwrap();
    let entries = unpack(&archive, &unpacked);
    assert_eq!(
        entries,
        [("ysai".to_string(), 0o755), ("run.sh".to_string(), 0o755)]
    );
    let script = fs::read_to_string(unpacked.join("run.sh")).unwrap();
    assert!(
        script.contains("exec ./ysai '--ai' 'beam' '-bw' '200'"),
        "{script}"
    );

    // Started from another directory, as a judge would, on a recorded game.
    let input =
        File::open(Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/input.txt")).unwrap();
    let run = Command::new(unpacked.join("run.sh"))
        .current_dir(&dir)
        .stdin(input)
        .stderr(Stdio::null())
        .output()
        .unwrap();
    let answers = String::from_utf8(run.stdout).unwrap();
    let lines: Vec<&str> = answers.lines().collect();
    assert_eq!(lines[0], ysai::play::NAME);
    assert_eq!(
        lines.len(),
        1 + 21,
        "one answer per recorded turn:\n{answers}"
    );
    fs::remove_dir_all(dir).unwrap();
}

#[test]
fn invalid_flags_are_refused_before_anything_is_written() {
    let dir = scratch("bad");
    let archive = dir.join("submission.zip");
    let output = package(&archive, &["-bww", "5000"]);
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("-bww") && stderr.contains("-bw"),
        "{stderr}"
    );
    assert!(!archive.exists());
    fs::remove_dir_all(dir).unwrap();
}
