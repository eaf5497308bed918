//! What this binary is: its name line (version and commit) and the build it came from.

/// The name line the AI prints first: version and commit, so that every game, replay and
/// result can be traced to the source that played it (e.g. `ysai-0.1.0-1a2b3c4`).
pub const NAME: &str = concat!("ysai-", env!("CARGO_PKG_VERSION"), "-", env!("YSAI_COMMIT"));

/// Where this binary came from: version, commit, tier and the CPU features it was compiled for.
pub fn build() -> String {
    let features = env!("YSAI_TARGET_FEATURES");
    let features = if features.is_empty() {
        "no extensions"
    } else {
        features
    };
    format!(
        "{NAME}, tier {}, compiled for {features}",
        env!("YSAI_TIER")
    )
}
