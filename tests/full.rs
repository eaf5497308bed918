//! The original's turn (`--style original`) on the official snapshots: every answer is legal, survives whenever some
//! move survives, and is the same at any thread count under node budgets.

mod common;

use common::Snapshot;

use ysai::params::{
    ClockFlags, DetailFlags, HelperBeamFlags, OpeningBeamFlags, Params, SearchFlags,
    TurnBeamLimitFlags,
};
use ysai::player::original::{Decider, Reason};
use ysai::search::plan::TrackedPlan;
use ysai::sim::{Action, PlayerState, Shift};

const SNAPSHOTS: &[&str] = &[
    "initial",
    "dead",
    "dead1",
    "error",
    "must_not_die",
    "segfault",
    "segfault1",
];

/// Beams limited by nodes, not time, so that decisions depend on nothing but the input: every
/// beam's time flag is lifted to the turn's ceiling, and the turn limit doubled so that the
/// full search finishes its depth on a slow backend and a loaded machine too (the reserve and
/// the depth caps of every snapshot stay as they are at 20 s).
fn reproducible() -> Params {
    const LIFTED_MS: u64 = 1_000_000;
    Params {
        opening: OpeningBeamFlags {
            beam_nodes: 1500,
            beam_width: 400,
            beam_chain_width: 150,
            first_time_limit_ms: LIFTED_MS,
            ..Params::DEFAULT.opening
        },
        clock: ClockFlags {
            turn_limit_ms: 40_000,
        },
        turn_beam_limits: TurnBeamLimitFlags {
            next_beam_time_ms: LIFTED_MS,
            ..Params::DEFAULT.turn_beam_limits
        },
        helpers: HelperBeamFlags {
            enemy_beam_time_ms: LIFTED_MS,
            next_enemy_beam_time_ms: LIFTED_MS,
            dropped_beam_time_ms: LIFTED_MS,
            skill_beam_time_ms: LIFTED_MS,
            ..Params::DEFAULT.helpers
        },
        ..Params::default()
    }
}

fn decide(s: &Snapshot, params: &Params, threads: usize) -> (Action, Reason) {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    pool.install(|| {
        let d = Decider::<Shift>::new(&params.original_player()).decide(&s.position());
        (d.action, d.reason)
    })
}

fn survives(s: &Snapshot, action: Action) -> bool {
    let mut me = s.me;
    me.drop_pending_ojama();
    me.is_legal(action) && !me.act::<Shift>(&s.packs[0], action).dead
}

#[test]
fn snapshot_answers_are_legal_and_survive_when_they_can() {
    for name in SNAPSHOTS {
        let s = Snapshot::load(name);
        let (action, reason) = decide(&s, &reproducible(), 2);
        assert!(s.me.is_legal(action), "{name}: {action} is illegal");
        let can_survive = s.me.legal_actions().any(|a| survives(&s, a));
        assert_eq!(
            survives(&s, action),
            can_survive,
            "{name}: {action} ({reason:?})"
        );
    }
}

#[test]
fn snapshot_answers_do_not_depend_on_the_thread_count() {
    for name in SNAPSHOTS {
        let s = Snapshot::load(name);
        let one = decide(&s, &reproducible(), 1);
        assert_eq!(one, decide(&s, &reproducible(), 2), "{name}");
        assert_eq!(one, decide(&s, &reproducible(), 1), "{name}: run twice");
    }
}

#[test]
fn the_first_turn_plays_the_plan() {
    let s = Snapshot::load("initial");
    assert_eq!(s.turn, 0);
    let (_, reason) = decide(&s, &reproducible(), 2);
    assert_eq!(reason, Reason::Plan);
}

/// `-m`'s line is the search's own: without the enemy branches, its last state is worth
/// exactly the value the search gave the move.
#[test]
fn the_reported_line_ends_in_the_value_of_the_move() {
    let params = Params {
        detail: DetailFlags { debug_msg: true },
        search: SearchFlags {
            ai3_min_over_drops: false,
            search_depth: 3,
            enemy_search_depth: 3,
            ..reproducible().search
        },
        ..reproducible()
    };
    let mut checked = 0;
    for name in SNAPSHOTS {
        let s = Snapshot::load(name);
        let mut decider = Decider::<Shift>::new(&params.original_player());
        let d = decider.decide(&s.position());
        // A trusted plan move and a lost position need no search, hence no line.
        let Some(detail) = d.detail else {
            assert!(
                matches!(d.reason, Reason::Plan | Reason::Survival),
                "{name}"
            );
            continue;
        };
        assert_eq!(
            detail.line.first().map(|(a, _)| *a),
            Some(d.action),
            "{name}"
        );
        if detail.line.len() == d.depths.1 && d.value.abs() < 1e6 {
            let total: f64 = detail.terms.iter().map(|(_, v)| v).sum();
            assert!(
                (total - d.value).abs() < 1e-6,
                "{name}: {total} vs {}",
                d.value
            );
            checked += 1;
        }
    }
    assert!(checked >= 3, "only {checked} snapshots had a full line");
}

/// The original's plan is followed while each field is the one it expects, and no ojama row
/// is about to fall.
#[test]
fn a_plan_is_followed_while_its_fields_are_as_expected() {
    let s = Snapshot::load("initial");
    let moves: Vec<Action> = Action::drops()[..3].to_vec();
    let plan = TrackedPlan::new::<Shift>(s.turn, &s.me, &s.packs, moves.clone());
    assert_eq!(plan.next(s.turn, &s.me), Some(moves[0]));
    let mut after = s.me;
    after.drop_pending_ojama();
    assert!(!after.act::<Shift>(&s.packs[0], moves[0]).dead);
    assert_eq!(plan.next(s.turn + 1, &after), Some(moves[1]));
    assert_eq!(plan.next(s.turn + 1, &s.me), None, "another field");
    let buried = PlayerState { ojama: 10, ..after };
    assert_eq!(plan.next(s.turn + 1, &buried), None, "a row falls");
    assert_eq!(plan.next(s.turn + 3, &after), None, "past its end");
}
