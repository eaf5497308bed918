//! `ysai package`: the tournament submission. A zip holding the binary and a `run.sh` that
//! starts it with the chosen flags from the script's own directory, checked by unpacking it
//! and playing a short game through `run.sh` against the built-in `greedy` player.

use std::fs::{self, File};
use std::io::{self, Read, Write};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, ZipArchive, ZipWriter};

use crate::arena::referee::TimeControl;
use crate::arena::{check, shell_quote};

/// The build tiers of `scripts/tiers`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Tier {
    /// This machine's CPU (what the tournament's `-march=native` built).
    Native,
    /// x86-64-v3: AVX2, BMI2, FMA; any x86-64 CPU of the last decade.
    Portable,
    /// Plain x86-64: the scalar backend.
    Baseline,
}

impl Tier {
    fn name(self) -> &'static str {
        match self {
            Tier::Native => "native",
            Tier::Portable => "portable",
            Tier::Baseline => "baseline",
        }
    }

    /// Where `scripts/tiers` leaves the tier's binary.
    fn binary(self, source: &Path) -> PathBuf {
        match self {
            Tier::Native => source.join("target/release/ysai"),
            tier => source.join(format!("target/tier-{}/release/ysai", tier.name())),
        }
    }
}

/// Entry names inside the archive.
const BINARY: &str = "ysai";
const SCRIPT: &str = "run.sh";
/// The packs of the check game.
const CHECK_SEED: u64 = 1;

/// The binary to package: this one, or a tier built from the source tree it came from.
fn binary(tier: Option<Tier>, log: &mut impl Write) -> Result<PathBuf, String> {
    let Some(tier) = tier else {
        return std::env::current_exe().map_err(|e| format!("cannot find this program: {e}"));
    };
    let source = Path::new(env!("CARGO_MANIFEST_DIR"));
    let script = source.join("scripts/tiers");
    if !script.is_file() {
        return Err(format!(
            "--tier needs the source tree this binary was built from ({} is gone); omit --tier to package this binary",
            source.display()
        ));
    }
    let _ = writeln!(
        log,
        "building the {} tier with {}",
        tier.name(),
        script.display()
    );
    let status = Command::new(&script)
        .arg(tier.name())
        .status()
        .map_err(|e| format!("cannot run {}: {e}", script.display()))?;
    if !status.success() {
        return Err(format!("building the {} tier failed", tier.name()));
    }
    Ok(tier.binary(source))
}

/// The start script: the binary beside it, with `flags`, whatever the working directory.
pub fn run_script(flags: &[String]) -> String {
    let mut command = format!("exec ./{BINARY}");
    for flag in flags {
        command.push(' ');
        command.push_str(&shell_quote(flag));
    }
    format!(
        "#!/bin/sh\n# {} packaged by `ysai package`.\ncd \"$(dirname \"$0\")\" || exit 1\n{command}\n",
        crate::build_info::NAME
    )
}

fn write_zip(out: &Path, binary: &[u8], script: &str) -> io::Result<()> {
    let mut zip = ZipWriter::new(File::create(out)?);
    let options = SimpleFileOptions::default()
        .compression_method(CompressionMethod::Stored)
        .unix_permissions(0o755);
    zip.start_file(BINARY, options)?;
    zip.write_all(binary)?;
    zip.start_file(SCRIPT, options)?;
    zip.write_all(script.as_bytes())?;
    zip.finish()?.sync_all()
}

/// Unpacks `archive` into `dir`, keeping each entry's permissions.
fn unzip(archive: &Path, dir: &Path) -> Result<(), String> {
    let file = File::open(archive).map_err(|e| format!("{}: {e}", archive.display()))?;
    let mut zip = ZipArchive::new(file).map_err(|e| format!("{}: {e}", archive.display()))?;
    for i in 0..zip.len() {
        let mut entry = zip.by_index(i).map_err(|e| e.to_string())?;
        let Some(name) = entry.enclosed_name() else {
            return Err(format!("entry {i} has an unsafe name"));
        };
        let path = dir.join(name);
        let mut bytes = Vec::new();
        entry.read_to_end(&mut bytes).map_err(|e| e.to_string())?;
        fs::write(&path, bytes).map_err(|e| format!("{}: {e}", path.display()))?;
        let mode = entry.unix_mode().unwrap_or(0o644);
        fs::set_permissions(&path, fs::Permissions::from_mode(mode))
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(())
}

/// Unpacks `archive` into a fresh directory and plays the check game through its `run.sh`.
/// Returns the check report, or why the package does not work.
fn verify(archive: &Path) -> Result<String, String> {
    let dir = std::env::temp_dir().join(format!("ysai-package-check-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let outcome = unzip(archive, &dir).and_then(|()| {
        let script = dir.join(SCRIPT);
        let command = shell_quote(&script.to_string_lossy());
        let record = check::check_game(&command, CHECK_SEED, TimeControl::QUALIFIER)?;
        let (report, clean) = check::report(&format!("{SCRIPT} from the archive"), &record);
        if clean {
            Ok(report)
        } else {
            Err(format!("the packaged AI broke the protocol:\n{report}"))
        }
    });
    let _ = fs::remove_dir_all(&dir);
    outcome
}

/// `ysai package --out FILE.zip [--tier T] [-- FLAGS]`: writes and checks the archive. The
/// caller checks `flags` first ([`crate::cli::check_play_flags`]).
pub fn package(
    out: &Path,
    tier: Option<Tier>,
    flags: &[String],
    log: &mut impl Write,
) -> Result<(), String> {
    let binary = binary(tier, log)?;
    let bytes = fs::read(&binary).map_err(|e| format!("{}: {e}", binary.display()))?;
    let script = run_script(flags);
    write_zip(out, &bytes, &script).map_err(|e| format!("{}: {e}", out.display()))?;
    let _ = writeln!(
        log,
        "wrote {} ({BINARY}: {} bytes from {}; {SCRIPT}: {})",
        out.display(),
        bytes.len(),
        binary.display(),
        script.lines().last().unwrap_or_default()
    );
    let report = verify(out)?;
    let _ = write!(log, "{report}");
    let _ = writeln!(
        log,
        "package ok: unzip it and submit, or run ./{SCRIPT} < input.txt"
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_script_runs_the_binary_beside_it_with_quoted_flags() {
        let flags = ["-bw".to_string(), "5000".to_string(), "it's".to_string()];
        let script = run_script(&flags);
        assert!(script.starts_with("#!/bin/sh\n"));
        assert!(script.contains("cd \"$(dirname \"$0\")\" || exit 1\n"));
        assert!(
            script.ends_with("exec ./ysai '-bw' '5000' 'it'\\''s'\n"),
            "{script}"
        );
    }
}
