use super::*;
use crate::sim::{Field, Pack, PlayerState, PreparedPack, Shift};

fn field(rows: &[&str]) -> Field {
    Field::from_picture(rows).expect("valid test field")
}

fn choose(player: &mut dyn Player, me: &PlayerState, pack: Pack) -> Action {
    let packs = [PreparedPack::new(pack)];
    let opponent = PlayerState::default();
    player.choose(&TurnView {
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
