//! The bitboard simulator against the naive oracle on random games, for this build's backend
//! (CI runs the suite again with `--features scalar`) and both neighbour modes.

use ysai::bitboard::{BACKEND, CHAIN_BOARDS, COMPRESS_BACKEND};
use ysai::selfcheck::{run, Report};
use ysai::sim::{Neighbourhood, Shift, Table};

const TURNS: u64 = 100_000;

fn check<N: Neighbourhood>(seed: u64) -> Report {
    let report = run::<N>(TURNS, seed);
    let chains_on = if N::SHIFTS {
        CHAIN_BOARDS
    } else {
        "packed-columns"
    };
    println!(
        "{BACKEND}/{COMPRESS_BACKEND}/{chains_on}/{}: {} turns, {} games, {} skills, {} ojama rows, {} deaths, longest chain {}",
        N::NAME,
        report.turns,
        report.games,
        report.skills,
        report.ojama_rows,
        report.deaths,
        report.longest_chain
    );
    assert_eq!(report.mismatch, None);
    assert!(report.turns >= TURNS);
    // The random games must reach the rules that matter, or the comparison proves little.
    assert!(report.skills > 1_000, "skills: {}", report.skills);
    assert!(
        report.ojama_rows > 1_000,
        "ojama rows: {}",
        report.ojama_rows
    );
    assert!(report.deaths > 100, "deaths: {}", report.deaths);
    assert!(
        report.longest_chain >= 8,
        "longest chain {}",
        report.longest_chain
    );
    report
}

#[test]
fn shift_neighbours_agree_with_the_oracle() {
    check::<Shift>(0x5eed_0001);
}

#[test]
fn table_neighbours_agree_with_the_oracle() {
    check::<Table>(0x5eed_0002);
}
