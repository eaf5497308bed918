//! Conformance with the official client: every consecutive pair of turns in the recorded
//! transcripts must be reproduced by some pair of actions, fields, gauges, stocks and scores
//! exactly, in both neighbour modes.

mod common;
use common::{data, load, recorded_state};

use ysai::protocol::TurnInput;
use ysai::sim::{play_turn, Action, Neighbourhood, PlayerState, PreparedPack, Shift, Table};

const TRANSCRIPTS: [&str; 4] = [
    "games54.stdin.txt",
    "game-48turns.stdin.txt",
    "game-17turns.stdin.txt",
    "game-21turns.stdin.txt",
];

/// Consecutive turn pairs in the four transcripts.
const EXPECTED_TRANSITIONS: usize = 2_063;

fn states(turn: &TurnInput) -> [PlayerState; 2] {
    [
        recorded_state(&turn.players[0]),
        recorded_state(&turn.players[1]),
    ]
}

/// The actions of player `p` whose own field and score match the next turn's.
fn field_candidates<N: Neighbourhood>(
    before: &PlayerState,
    after: &PlayerState,
    pack: &PreparedPack,
) -> Vec<Action> {
    before
        .legal_actions()
        .filter(|&action| {
            let mut state = *before;
            state.drop_pending_ojama();
            state.act::<N>(pack, action);
            state.field == after.field && state.score == after.score
        })
        .collect()
}

/// Every pair of actions that turns `before` into `after` exactly.
fn explaining_pairs<N: Neighbourhood>(
    before: &TurnInput,
    after: &TurnInput,
    pack: &PreparedPack,
) -> Vec<[Action; 2]> {
    let (start, end) = (states(before), states(after));
    let mine = field_candidates::<N>(&start[0], &end[0], pack);
    let theirs = field_candidates::<N>(&start[1], &end[1], pack);
    let mut pairs = Vec::new();
    for &a in &mine {
        for &b in &theirs {
            let mut players = start;
            let outcomes = play_turn::<N>(&mut players, pack, [a, b]);
            if players == end && !outcomes[0].lost() && !outcomes[1].lost() {
                pairs.push([a, b]);
            }
        }
    }
    pairs
}

/// Checks every transition of a transcript; returns (transitions, unexplained descriptions).
fn check_transcript<N: Neighbourhood>(name: &str) -> (usize, Vec<String>) {
    let mut checked = 0;
    let mut unexplained = Vec::new();
    for (g, game) in load(name).iter().enumerate() {
        for pair in game.turns.windows(2) {
            let (before, after) = (&pair[0], &pair[1]);
            assert_eq!(
                after.turn,
                before.turn + 1,
                "{name} game {g}: turns are consecutive"
            );
            let pack = PreparedPack::new(game.packs[before.turn as usize]);
            checked += 1;
            if explaining_pairs::<N>(before, after, &pack).is_empty() {
                unexplained.push(format!("{name} game {g} turn {}", before.turn));
            }
        }
    }
    (checked, unexplained)
}

fn check_all<N: Neighbourhood>() {
    let mut total = 0;
    let mut unexplained = Vec::new();
    for name in TRANSCRIPTS {
        let (checked, missing) = check_transcript::<N>(name);
        println!(
            "{}: {name}: {checked} transitions, {} unexplained",
            N::NAME,
            missing.len()
        );
        total += checked;
        unexplained.extend(missing);
    }
    println!(
        "{}: {total} official transitions checked, {} unexplained",
        N::NAME,
        unexplained.len()
    );
    assert!(
        unexplained.is_empty(),
        "unexplained transitions: {unexplained:#?}"
    );
    // 1,981 + 47 + 15 + 20 turn pairs (4,126 player transitions): a parser that lost a game
    // or a turn would show here.
    assert_eq!(total, EXPECTED_TRANSITIONS);
}

#[test]
fn every_official_transition_is_explained_with_shift_neighbours() {
    check_all::<Shift>();
}

#[test]
fn every_official_transition_is_explained_with_table_neighbours() {
    check_all::<Table>();
}

#[test]
fn player_zero_moves_are_among_the_explaining_moves() {
    let games = load("game-21turns.stdin.txt");
    let moves =
        std::fs::read_to_string(data("game-21turns.player0-moves.txt")).expect("moves file");
    let moves: Vec<Action> = moves.lines().map(parse_move).collect();
    let game = &games[0];
    assert_eq!(moves.len(), game.turns.len() - 1, "one move per transition");
    for (pair, sent) in game.turns.windows(2).zip(&moves) {
        let pack = PreparedPack::new(game.packs[pair[0].turn as usize]);
        let pairs = explaining_pairs::<Shift>(&pair[0], &pair[1], &pack);
        assert!(
            pairs.iter().any(|[mine, _]| mine == sent),
            "turn {}: sent {sent}, explained by {pairs:?}",
            pair[0].turn
        );
    }
    println!("{} recorded moves of player 0 confirmed", moves.len());
}

fn parse_move(line: &str) -> Action {
    let line = line.trim();
    if line == "S" {
        return Action::Skill;
    }
    let mut parts = line
        .split_whitespace()
        .map(|t| t.parse::<u8>().expect("move number"));
    let (x, rot) = (parts.next().expect("x"), parts.next().expect("r"));
    Action::Drop { x, rot }
}
