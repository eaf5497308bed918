use super::*;
use crate::params::{OpeningBeamFlags, PlanTargetFlags, TurnBeamFlags, TurnBeamLimitFlags};
use crate::sim::{Field, Pack, PlayerState, PreparedPack, Shift};

/// A turn with the whole clock left.
pub(super) fn view<'a>(
    turn: usize,
    packs: &'a [PreparedPack],
    me: &'a PlayerState,
    opponent: &'a PlayerState,
) -> Position<'a> {
    Position {
        turn,
        packs,
        me,
        opponent,
        time_left_ms: 180_000,
    }
}

/// `n` packs of the same cells.
pub(super) fn packs(cells: [[u8; 2]; 2], n: usize) -> Vec<PreparedPack> {
    vec![PreparedPack::new(Pack { cells }); n]
}

fn field(rows: &[&str]) -> Field {
    Field::from_picture(rows).expect("valid test field")
}

fn choose(player: &mut dyn Player, me: &PlayerState, pack: Pack) -> Action {
    let packs = [PreparedPack::new(pack)];
    let opponent = PlayerState::default();
    player.choose(&Position {
        turn: 0,
        packs: &packs,
        me,
        opponent: &opponent,
        time_left_ms: 180_000,
    })
}

#[test]
fn greedy_takes_the_chain_that_sends_ojama() {
    // Only a 4 dropped beside the 6 in column 1 starts the 2-chain (6+4, then 7 falls onto 3).
    let me = PlayerState {
        field: field(&[".7", "36"]),
        ..PlayerState::default()
    };
    let action = choose(
        &mut Greedy::<Shift>::default(),
        &me,
        Pack::new([0, 0], [0, 4]),
    );
    let mut after = me;
    let result = after.act::<Shift>(&PreparedPack::new(Pack::new([0, 0], [0, 4])), action);
    assert_eq!(result.chains, 2, "chose {action}");
}

#[test]
fn greedy_prefers_fewer_blocks_when_nothing_is_sent() {
    // A 1 beside the 9 vanishes both (no ojama for one chain) and leaves fewer blocks.
    let me = PlayerState {
        field: field(&["........9."]),
        ..PlayerState::default()
    };
    let action = choose(
        &mut Greedy::<Shift>::default(),
        &me,
        Pack::new([0, 0], [1, 0]),
    );
    let mut after = me;
    after.act::<Shift>(&PreparedPack::new(Pack::new([0, 0], [1, 0])), action);
    assert_eq!(after.field.blocks().popcount(), 0, "chose {action}");
}

#[test]
fn greedy_never_plays_a_losing_drop_when_another_survives() {
    // Columns 0..=7 hold 16 blocks: only a drop on columns 8 and 9 survives.
    let tall: Vec<String> = (0..16).map(|_| "XXXXXXXX..".to_string()).collect();
    let rows: Vec<&str> = tall.iter().map(String::as_str).collect();
    let me = PlayerState {
        field: field(&rows),
        ..PlayerState::default()
    };
    let action = choose(
        &mut Greedy::<Shift>::default(),
        &me,
        Pack::new([1, 1], [1, 1]),
    );
    assert_eq!(
        action,
        Action::Drop { x: 8, rot: 0 },
        "first surviving drop in x-major order"
    );
}

#[test]
fn greedy_fires_the_skill_when_it_sends_most() {
    let me = PlayerState {
        field: field(&["5X5X5X5X5X"]),
        gauge: 80,
        ..PlayerState::default()
    };
    let action = choose(
        &mut Greedy::<Shift>::default(),
        &me,
        Pack::new([1, 1], [1, 1]),
    );
    assert_eq!(action, Action::Skill);
}

#[test]
fn random_player_is_reproducible_legal_and_uses_every_action() {
    let me = PlayerState {
        gauge: 100,
        ..PlayerState::default()
    };
    let picks = |seed| {
        let mut player = RandomPlayer::new(seed);
        (0..2000)
            .map(|_| choose(&mut player, &me, Pack::new([1, 2], [3, 4])))
            .collect::<Vec<_>>()
    };
    let first = picks(7);
    assert_eq!(first, picks(7), "same seed, same moves");
    assert_ne!(first, picks(8), "another seed, other moves");
    for action in Action::ALL {
        assert!(first.contains(&action), "{action} never chosen");
    }
    let poor = PlayerState {
        gauge: 79,
        ..PlayerState::default()
    };
    let mut player = RandomPlayer::new(1);
    assert!(
        (0..500).all(|_| choose(&mut player, &poor, Pack::new([1, 2], [3, 4])) != Action::Skill)
    );
}

/// Beams held to nodes, with times far beyond what those nodes take: on a busy machine a
/// deadline would end a beam early and the game would depend on the clock.
fn beam_params(fire_chain: i32) -> crate::params::Params {
    crate::params::Params {
        opening: OpeningBeamFlags {
            beam_width: 60,
            beam_chain_width: 20,
            beam_depth: 8,
            beam_nodes: 4_000,
            first_time_limit_ms: 20_000,
            ..crate::params::Params::default().opening
        },
        turn_beam_limits: TurnBeamLimitFlags {
            next_beam_time_ms: 20_000,
            ..crate::params::Params::default().turn_beam_limits
        },
        target: PlanTargetFlags {
            beam_chain_max: fire_chain,
            ..crate::params::Params::default().target
        },
        turn_beams: TurnBeamFlags {
            next_beam_width: 40,
            next_beam_chain_width: 15,
            next_beam_depth: 4,
        },
        ..crate::params::Params::default()
    }
}

#[test]
fn beam_player_fires_a_chain_of_the_target_size() {
    let me = PlayerState {
        field: field(&[".7", "36"]),
        ..PlayerState::default()
    };
    let pack = Pack::new([0, 0], [0, 4]);
    let action = choose(
        &mut BeamPlayer::<Shift>::new(beam_params(2).beam_player()),
        &me,
        pack,
    );
    let mut after = me;
    let result = after.act::<Shift>(&PreparedPack::new(pack), action);
    assert_eq!(result.chains, 2, "chose {action}");
}

/// Plays `turns` turns of `packs` for one beam player alone: its moves, states and chains.
fn solo_game(
    params: &crate::params::Params,
    packs: &[PreparedPack],
    turns: usize,
) -> Vec<(Action, PlayerState, u32)> {
    let mut player = BeamPlayer::<Shift>::new(params.beam_player());
    let mut me = PlayerState::default();
    let opponent = PlayerState::default();
    let mut played = Vec::new();
    for turn in 0..turns {
        let action = player.choose(&Position {
            turn,
            packs: &packs[turn..],
            me: &me,
            opponent: &opponent,
            time_left_ms: 180_000,
        });
        assert!(me.is_legal(action));
        let result;
        (me, result) = me.play::<Shift>(&packs[turn], action);
        assert!(!result.dead, "turn {turn}: {action} loses");
        played.push((action, me, result.chains));
    }
    played
}

#[test]
fn beam_player_follows_its_plan_then_keeps_building_and_fires() {
    let position = crate::bench::bench_positions()
        .into_iter()
        .find(|p| p.name == "initial")
        .expect("opening position");
    let params = beam_params(6);
    let game = solo_game(&params, &position.packs, 30);
    assert_eq!(
        game,
        solo_game(&params, &position.packs, 30),
        "reproducible under a node budget"
    );
    let root = crate::search::BeamRoot {
        state: PlayerState::default(),
        enemy_ojama: 0,
        packs: &position.packs,
    };
    let plan = crate::search::beam_search::<Shift>(root, &params.first_beam()).plan;
    // Until something vanishes the field is the one the plan expects, so its moves are played.
    let quiet = game
        .iter()
        .take_while(|(_, _, c)| *c == 0)
        .count()
        .min(plan.len());
    assert!(quiet >= 3, "the plan was followed for {quiet} turns");
    let opening: Vec<Action> = game[..quiet].iter().map(|(a, _, _)| *a).collect();
    assert_eq!(
        opening,
        plan[..quiet],
        "the first moves are the turn-0 plan"
    );
    assert!(
        game.iter().any(|(_, _, c)| *c >= 6),
        "a 6-chain or more was fired"
    );
}
