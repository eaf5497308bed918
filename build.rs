//! Names the compile-time backend choice once, as two cfgs the code can test:
//! `ysai_avx2` (AVX2 bitboards) and `ysai_pext` (BMI2 gravity). Both are off with the
//! `scalar` feature, which forces the portable code on any CPU.

fn main() {
    println!("cargo::rustc-check-cfg=cfg(ysai_avx2)");
    println!("cargo::rustc-check-cfg=cfg(ysai_pext)");
    println!("cargo::rerun-if-changed=build.rs");
    let arch = std::env::var("CARGO_CFG_TARGET_ARCH").unwrap_or_default();
    let features = std::env::var("CARGO_CFG_TARGET_FEATURE").unwrap_or_default();
    let forced_scalar = std::env::var_os("CARGO_FEATURE_SCALAR").is_some();
    let has = |feature: &str| features.split(',').any(|f| f == feature);
    if arch == "x86_64" && !forced_scalar {
        if has("avx2") {
            println!("cargo::rustc-cfg=ysai_avx2");
        }
        if has("bmi2") {
            println!("cargo::rustc-cfg=ysai_pext");
        }
    }
}
