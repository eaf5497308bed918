//! The complete AI on the official snapshots: every answer is legal, survives whenever some
//! move survives, and is the same at any thread count under node budgets.

mod common;

use common::{data, load, recorded_state};
use std::time::Instant;

use ysai::params::{CounterSearch, FirstPlanner, Params, Replanner};
use ysai::search::chokudai::{self, ChokudaiConfig, Fire};
use ysai::search::decide::{first_max_chain, plan_chain, Decider, Decision, Guide, Reason};
use ysai::search::plan::{replay, Plan};
use ysai::sim::{Action, Field, PlayerState, Position, PreparedPack, Shift};
use ysai_tables::chain_ojama;

const SNAPSHOTS: &[&str] = &[
    "initial",
    "dead",
    "dead1",
    "error",
    "must_not_die",
    "segfault",
    "segfault1",
];

/// Beams limited by nodes, not time, so that decisions depend on nothing but the input.
fn reproducible() -> Params {
    Params {
        beam_nodes: 1500,
        beam_width: 400,
        beam_chain_width: 150,
        ..Params::default()
    }
}

struct Snapshot {
    turn: usize,
    packs: Vec<PreparedPack>,
    me: PlayerState,
    enemy: PlayerState,
    time_left_ms: i64,
}

fn snapshot(name: &str) -> Snapshot {
    let file = format!("snapshots/{name}.stdin.txt");
    assert!(data(&file).exists(), "{file}");
    let game = load(&file).remove(0);
    let turn = game.turns.last().expect("one turn");
    let t = turn.turn as usize;
    Snapshot {
        turn: t,
        packs: game.packs[t..]
            .iter()
            .map(|&p| PreparedPack::new(p))
            .collect(),
        me: recorded_state(&turn.players[0]),
        enemy: recorded_state(&turn.players[1]),
        time_left_ms: turn.players[0].time_left_ms,
    }
}

fn position(s: &Snapshot) -> Position<'_> {
    Position {
        turn: s.turn,
        packs: &s.packs,
        me: &s.me,
        opponent: &s.enemy,
        time_left_ms: s.time_left_ms,
    }
}

fn decide(s: &Snapshot, params: &Params, threads: usize) -> (Action, Reason) {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    pool.install(|| {
        let d = Decider::<Shift>::new(params).decide(&position(s));
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
        let s = snapshot(name);
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
        let s = snapshot(name);
        let one = decide(&s, &reproducible(), 1);
        assert_eq!(one, decide(&s, &reproducible(), 2), "{name}");
        assert_eq!(one, decide(&s, &reproducible(), 1), "{name}: run twice");
    }
}

#[test]
fn the_first_turn_plays_the_plan() {
    let s = snapshot("initial");
    assert_eq!(s.turn, 0);
    let (_, reason) = decide(&s, &reproducible(), 2);
    assert_eq!(reason, Reason::Plan);
}

/// `-m`'s line is the search's own: without the enemy branches, its last state is worth
/// exactly the value the search gave the move.
#[test]
fn the_reported_line_ends_in_the_value_of_the_move() {
    let params = Params {
        debug_msg: true,
        ai3_min_over_drops: false,
        search_depth: 3,
        enemy_search_depth: 3,
        ..reproducible()
    };
    let mut checked = 0;
    for name in SNAPSHOTS {
        let s = snapshot(name);
        let mut decider = Decider::<Shift>::new(&params);
        let d = decider.decide(&position(&s));
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

/// `--fire N` fires the biggest chain available as soon as it is N or more, and only then;
/// with the counter analysis on, it holds fire only when the enemy's answer is bigger.
#[test]
fn the_fire_rule_fires_a_big_enough_chain_at_once() {
    let mut fired = 0;
    for name in SNAPSHOTS {
        let s = snapshot(name);
        let (chain, fire) = first_max_chain::<Shift>(&s.me, &s.packs[0]);
        let Some(fire) = fire.filter(|_| chain > 0) else {
            continue;
        };
        let at = |n: u32| Params {
            fire_chain: n,
            check_first_chain: false,
            ..reproducible()
        };
        assert_eq!(decide(&s, &at(chain), 1), (fire, Reason::Fire), "{name}");
        assert_ne!(decide(&s, &at(chain + 1), 1).1, Reason::Fire, "{name}");
        let d = Decider::<Shift>::new(&Params {
            check_first_chain: true,
            ..at(chain)
        })
        .decide(&position(&s));
        let held = d.counter.is_some_and(|c| c.penalty.is_some());
        assert_eq!(d.reason == Reason::Fire, !held, "{name}: {:?}", d.counter);
        fired += 1;
    }
    assert!(fired >= 2, "only {fired} snapshots could fire");
}

/// `--first-plan anytime` plays the anytime search's earliest fire of the target chain.
#[test]
fn the_anytime_first_plan_plays_the_searched_fire() {
    let s = snapshot("initial");
    let params = Params {
        first_planner: FirstPlanner::Anytime,
        beam_nodes: 400,
        beam_depth: 8,
        beam_chain_max: 4,
        ..reproducible()
    };
    let config = ChokudaiConfig::first_plan(&params, std::time::Instant::now());
    assert_eq!(config.expansions, Some(400));
    let result = chokudai::search::<Shift>(&s.me, &s.packs, &config);
    let fire = result
        .choose(ysai_tables::chain_ojama(4))
        .expect("a 400-expansion search fires something in 8 moves");
    let played = decide(&s, &params, 1);
    assert_eq!(played, (fire.path[0], Reason::Plan));
    assert_eq!(played, decide(&s, &params, 2));
}

/// What `--replan anytime` searches at the snapshot: the earliest fire of the target chain,
/// or of 1.5 times the stock.
fn replanned_fire(s: &Snapshot, params: &Params) -> Option<Fire> {
    let config = ChokudaiConfig::replan(params, s.turn, Instant::now());
    assert_eq!(config.expansions, Some(params.beam_nodes));
    let result = chokudai::search::<Shift>(&s.me, &s.packs, &config);
    let target = chain_ojama(plan_chain(params)).max(s.me.ojama * 3 / 2);
    result.choose(target).cloned()
}

/// `--replan anytime`: a turn without a plan plays the first move of the anytime search's
/// fire, unless the full search finds it much worse; the per-turn beam does not run.
#[test]
fn without_a_plan_the_replanned_fire_is_played() {
    let params = Params {
        replanner: Replanner::Anytime,
        beam_nodes: 400,
        ..reproducible()
    };
    let mut kept = 0;
    for name in SNAPSHOTS {
        let s = snapshot(name);
        let Some(fire) = replanned_fire(&s, &params).filter(|_| s.turn > 0) else {
            continue;
        };
        let (action, reason) = decide(&s, &params, 1);
        assert_ne!(reason, Reason::Beam, "{name}: the per-turn beam ran");
        if reason == Reason::PlanKept {
            assert_eq!(action, fire.path[0], "{name}");
            kept += 1;
        }
    }
    assert!(kept >= 2, "only {kept} snapshots kept the replanned move");
}

/// A plan that ends in a fire is followed while its rest still fires the chain, ojama rows
/// falling included, and dropped when it no longer does.
#[test]
fn a_firing_plan_is_followed_while_it_replays() {
    let params = Params {
        beam_nodes: 400,
        ..reproducible()
    };
    let (mut followed, mut dropped) = (0, 0);
    for name in SNAPSHOTS {
        let s = snapshot(name);
        let Some(fire) = replanned_fire(&s, &params) else {
            continue;
        };
        let plan = Plan::firing(s.turn, fire.path.clone(), fire.chains);
        let replayed = replay::<Shift>(&s.me, &s.packs, &fire.path).expect("the plan replays");
        assert_eq!(replayed.chains, fire.chains, "{name}");
        assert_eq!(
            plan.next::<Shift>(s.turn, &s.me, &s.packs),
            Some(fire.path[0])
        );
        assert_eq!(
            plan.next::<Shift>(s.turn + fire.path.len(), &s.me, &s.packs),
            None
        );
        let empty = PlayerState {
            field: Field::default(),
            ..s.me
        };
        if fire.chains > 2 && s.me.field != empty.field {
            assert_eq!(plan.next::<Shift>(s.turn, &empty, &s.packs), None, "{name}");
            dropped += 1;
        }
        followed += usize::from(s.me.ojama >= 10);
    }
    assert!(followed >= 1, "no snapshot had an ojama row to fall");
    assert!(dropped >= 2, "only {dropped} snapshots tried another field");
}

/// `--counter-search anytime`: the counter analysis holds fire exactly when the anytime
/// search of the enemy's field, my attack in its stock after its first move, answers bigger.
#[test]
fn the_anytime_counter_search_decides_the_counter_verdict() {
    let mut asked = 0;
    for name in SNAPSHOTS {
        let s = snapshot(name);
        let (chain, _) = first_max_chain::<Shift>(&s.me, &s.packs[0]);
        let params = Params {
            fire_chain: chain.max(1),
            counter_search: CounterSearch::Anytime,
            beam_nodes: 300,
            ..reproducible()
        };
        let d = Decider::<Shift>::new(&params).decide(&position(&s));
        let Some(counter) = d.anytime.iter().find(|n| n.label == "counter") else {
            continue;
        };
        let config = ChokudaiConfig {
            horizon: 7,
            deadline: None,
            expansions: Some(300),
            injected: vec![chain_ojama(chain)],
            seed: params.seed ^ s.turn as u64,
            first_line: Vec::new(),
        };
        let answer = chokudai::search::<Shift>(&s.enemy, &s.packs, &config).max_chain();
        assert_eq!(counter.max_chain, answer, "{name}");
        let verdict = d.counter.expect("the counter search ran for the verdict");
        assert_eq!(verdict.penalty.is_some(), answer > chain, "{name}");
        assert_eq!(verdict.bonus.is_some(), answer < chain, "{name}");
        assert_eq!(d.reason == Reason::Fire, answer <= chain, "{name}");
        asked += 1;
    }
    assert!(asked >= 1, "no snapshot asked for the enemy's answer");
}

/// The decision with `action` as the guide's move, the guide having started at `started`.
fn guided(params: &Params, pos: &Position<'_>, action: Action, started: Instant) -> Decision {
    Decider::<Shift>::new(params).decide_guided(pos, Some(Guide { action, started }))
}

/// `reproducible()` with the full search weighing a guide's move for 2 s at the qualifier's clock.
fn guarded() -> Params {
    Params {
        guard_ms: 2_000,
        ..reproducible()
    }
}

fn decide_guided(s: &Snapshot, action: Action, started: Instant) -> (Action, Reason) {
    let d = guided(&guarded(), &position(s), action, started);
    (d.action, d.reason)
}

/// The first legal move of `s` that survives (`true`) or dies (`false`).
fn move_that_survives(s: &Snapshot, survive: bool) -> Action {
    s.me.legal_actions()
        .find(|&a| survives(s, a) == survive)
        .expect("such a move")
}

#[test]
fn a_guide_move_is_kept_when_the_search_finds_nothing_clearly_better() {
    let s = snapshot("initial");
    for action in [Action::Drop { x: 0, rot: 0 }, Action::Drop { x: 7, rot: 3 }] {
        assert_eq!(
            decide_guided(&s, action, Instant::now()),
            (action, Reason::Guide),
            "no first plan of its own replaces the guide's opening move"
        );
    }
}

#[test]
fn a_guide_move_that_dies_is_replaced_by_one_that_survives() {
    let s = snapshot("must_not_die");
    let dying = move_that_survives(&s, false);
    let (action, reason) = decide_guided(&s, dying, Instant::now());
    assert_ne!(reason, Reason::Guide);
    assert!(survives(&s, action), "{action} ({reason:?})");
}

#[test]
fn a_guide_move_stands_when_its_turn_has_no_time_left() {
    let s = snapshot("segfault");
    let action = move_that_survives(&s, true);
    let long_ago = Instant::now() - std::time::Duration::from_secs(60);
    let d = guided(&guarded(), &position(&s), action, long_ago);
    assert_eq!((d.action, d.reason), (action, Reason::Guide));
    assert!(d.depths.0 <= 1 && d.depths.1 <= 1, "{:?}", d.depths);
}

#[test]
fn without_guard_time_a_surviving_guide_move_stands_unsearched() {
    let s = snapshot("must_not_die");
    let unguarded = Params {
        guard_ms: 0,
        ..reproducible()
    };
    let decide = |action| guided(&unguarded, &position(&s), action, Instant::now());
    let living = move_that_survives(&s, true);
    let kept = decide(living);
    assert_eq!((kept.action, kept.reason), (living, Reason::Guide));
    assert_eq!((kept.depths, kept.nodes), ((0, 0), (0, 0)), "no search ran");
    let replaced = decide(move_that_survives(&s, false));
    assert_eq!(replaced.reason, Reason::Survival);
    assert!(survives(&s, replaced.action), "{}", replaced.action);
}

#[test]
fn a_guide_move_stands_unsearched_in_a_games_last_seconds() {
    let s = snapshot("must_not_die");
    let living = move_that_survives(&s, true);
    let with_left = |time_left_ms| {
        let pos = Position {
            time_left_ms,
            ..position(&s)
        };
        guided(&guarded(), &pos, living, Instant::now())
    };
    // 2 s at the qualifier's clock scaled to 4 s left is 44 ms: too little to search.
    let late = with_left(4_000);
    assert_eq!((late.action, late.reason), (living, Reason::Guide));
    assert_eq!(late.nodes, (0, 0), "no search ran");
    let earlier = with_left(60_000);
    assert!(earlier.nodes.0 > 0, "with 60 s left the search runs");
}
