//! The replay viewer: one self-contained HTML page (inline CSS and JavaScript, the game
//! embedded as JSON) that shows both fields turn by turn and animates every chain.
//!
//! The page only draws: every frame of every chain is worked out here, by playing the game
//! again on the simulator, so that the JavaScript needs no knowledge of the rules.

use std::fs;
use std::path::Path;

use serde::Serialize;

use super::referee::{parse_command, StateRecord, TimeControl, TurnRecord};
use super::replay::Replay;
use crate::bitboard::{HEIGHT, WIDTH};
use crate::render::cell_char;
use crate::sim::action::DROP_COLUMNS;
use crate::sim::oracle::{self, OracleField, OraclePlayer, GRID_HEIGHT};
use crate::sim::{play_turn, Action, Pack, PlayerState, PreparedPack, Shift};

/// The page; its data marker is replaced by the game's JSON.
const TEMPLATE: &str = include_str!("viewer.html");
const DATA_MARKER: &str = "__YSAI_REPLAY_DATA__";

/// What the page is given: everything it shows, already worked out.
#[derive(Serialize)]
struct PageData {
    names: [String; 2],
    /// The pack of every turn, and of the turn after the last (the "next" pack), as four
    /// digits: top-left, top-right, bottom-left, bottom-right.
    packs: Vec<String>,
    turns: Vec<PageTurn>,
    /// The game's result, e.g. `p0 wins (dead, turn 96)`.
    result: String,
    /// Each player's command line.
    commands: [String; 2],
    /// The time control (`GAME+TURN` in ms), where the replay records it.
    tc: Option<String>,
    context: PageContext,
}

/// Where the page's game comes from, for its header, and the pages it links to; what is
/// unknown is left out.
#[derive(Clone, Debug, Default, Serialize)]
pub struct PageContext {
    /// The file the game was read from (a replay or a results file).
    pub source: Option<String>,
    /// The game's number in its match.
    pub game: Option<u64>,
    /// The match report, relative to the page.
    pub report: Option<String>,
    /// The page of the game before this one in its match (or pairing).
    pub previous: Option<GameLink>,
    /// The page of the game after this one.
    pub next: Option<GameLink>,
}

/// A link to another game's page: its number and its address relative to the page.
#[derive(Clone, Debug, Serialize)]
pub struct GameLink {
    pub game: u64,
    pub address: String,
}

/// A game worked out for its page (every chain frame, the charts' values) and checked to
/// re-simulate: the costly part of a page, made before the page's links are known.
pub struct GamePage {
    data: PageData,
}

impl GamePage {
    /// The game of `replay`, or why it cannot be shown (it does not re-simulate).
    pub fn new(replay: &Replay) -> Result<Self, String> {
        Ok(GamePage {
            data: page_data(replay)?,
        })
    }

    /// The page, with `context` in its header.
    pub fn html(&mut self, context: &PageContext) -> Result<String, String> {
        self.data.context = context.clone();
        let json = serde_json::to_string(&self.data).map_err(|e| e.to_string())?;
        // `<` occurs only inside JSON strings, where `\u003c` reads the same; so no name can
        // close the data's <script> element early.
        let json = json.replace('<', "\\u003c");
        Ok(TEMPLATE.replacen(DATA_MARKER, &json, 1))
    }
}

/// One turn, both players side by side in each array.
#[derive(Serialize)]
struct PageTurn {
    moves: [Option<String>; 2],
    think: [Option<f64>; 2],
    chains: [u32; 2],
    /// The longest chain each player could have fired this turn: the best of its legal
    /// actions with this turn's pack, after the ojama row.
    best: [u32; 2],
    /// What the player wrote about the turn (a ysai player's `-tm` line).
    lines: [Option<String>; 2],
    /// The plan that line names, in words: `13-chain on turn 22 (4 moves left)`.
    plans: [Option<String>; 2],
    stock: [i64; 2],
    gauge: [i32; 2],
    score: [i64; 2],
    /// Each player's field (see [`field_text`]) after the ojama row and the pack drop (for
    /// the skill: after the ojama row, the explosion and its fall), then after each vanish
    /// and each fall. The last frame is the position at the end of the turn.
    frames: [Vec<String>; 2],
    /// What is left of each player's game clock after this turn, in ms: the time control's
    /// budget less the recorded thinking times so far; none without a game budget.
    clock: [Option<i64>; 2],
    /// The cells each player's pack landed in, `[x, y]` with y = 0 on the floor, in the
    /// first frame; none for the skill or no move.
    landed: [Vec<[usize; 2]>; 2],
}

/// The page for `replay`, or why the game cannot be shown (it does not re-simulate).
pub fn page(replay: &Replay, context: &PageContext) -> Result<String, String> {
    GamePage::new(replay)?.html(context)
}

/// Writes `page` to `out`.
pub fn write_page(out: &Path, page: &str) -> Result<(), String> {
    fs::write(out, page).map_err(|e| format!("cannot write the page to {}: {e}", out.display()))
}

/// Plays the game again turn by turn, recording the chain frames, and checks every recorded
/// position on the way.
fn page_data(replay: &Replay) -> Result<PageData, String> {
    let mut states = [PlayerState::default(); 2];
    let mut turns = Vec::with_capacity(replay.turns.len());
    let budget = game_budget_ms(replay);
    let mut used_ms = [0.0; 2];
    for (index, record) in replay.turns.iter().enumerate() {
        if record.turn as usize != index {
            return Err(format!(
                "turn {} is recorded at position {index}",
                record.turn
            ));
        }
        let pack = replay
            .pack(index)
            .ok_or_else(|| format!("no pack for turn {index}"))?;
        let actions = [recorded_action(record, 0)?, recorded_action(record, 1)?];
        let [(frames0, landed0), (frames1, landed1)] =
            [0, 1].map(|p| chain_frames(&states[p], pack, actions[p]));
        let (frames, landed) = ([frames0, frames1], [landed0, landed1]);
        let prepared = PreparedPack::new(pack);
        let best = states.each_ref().map(|s| longest_chain(s, &prepared));
        play_turn::<Shift>(&mut states, &prepared, actions);
        for player in 0..2 {
            check_position(index, player, &states[player], &frames[player], record)?;
        }
        let mut turn = page_turn(record, frames, landed, best);
        for (p, think) in record.think_ms.iter().enumerate() {
            used_ms[p] += think.unwrap_or(0.0);
            turn.clock[p] = budget.map(|b| (b as f64 - used_ms[p]).max(0.0).round() as i64);
        }
        turns.push(turn);
    }
    let shown_packs = (replay.turns.len() + 1).min(replay.packs.len());
    Ok(PageData {
        names: replay.shown_names(),
        packs: replay.packs[..shown_packs]
            .iter()
            .map(|&[[a, b], [c, d]]| [a, b, c, d].map(cell_char).iter().collect())
            .collect(),
        turns,
        result: result_text(replay),
        commands: replay.players.each_ref().map(|p| p.command.clone()),
        tc: replay.tc.clone(),
        context: PageContext::default(),
    })
}

/// The game budget of the replay's time control, where it records one.
fn game_budget_ms(replay: &Replay) -> Option<u64> {
    let tc: TimeControl = replay.tc.as_deref()?.parse().ok()?;
    tc.game_ms
}

/// The action the referee played for `player`: a player without a valid command (the game's
/// last turn) stood still, as a drop off the board that changes nothing.
fn recorded_action(record: &TurnRecord, player: usize) -> Result<Action, String> {
    match record.moves[player].as_deref() {
        None => Ok(Action::Drop {
            x: DROP_COLUMNS,
            rot: 0,
        }),
        Some(text) => parse_command(text).ok_or_else(|| {
            format!(
                "turn {}: player {player}'s move `{text}` is not a command",
                record.turn
            )
        }),
    }
}

/// The frames of one player's turn, stepped on the reference simulator (which, unlike the
/// bitboard one, can stop between a vanish and its fall), from the position before it; and
/// the cells the pack landed in.
fn chain_frames(
    before: &PlayerState,
    pack: Pack,
    action: Action,
) -> (Vec<String>, Vec<[usize; 2]>) {
    let mut player = OraclePlayer {
        field: OracleField::from_top_rows(&before.field.to_rows()),
        ojama: before.ojama,
        gauge: before.gauge,
        score: before.score,
    };
    oracle::drop_ojama_row(&mut player);
    let field = &mut player.field;
    let mut frames = Vec::new();
    let mut landed = Vec::new();
    match action {
        Action::Drop { x, rot } if before.is_legal(action) => {
            let empty = field.cells;
            oracle::place_pack(field, pack, x.into(), rot);
            landed = filled_since(&empty, field);
        }
        Action::Skill if before.is_legal(action) => {
            frames.push(oracle_text(field));
            field.explode_fives();
            frames.push(oracle_text(field));
            field.apply_gravity();
        }
        // An illegal action leaves the field as the ojama row left it.
        _ => {}
    }
    frames.push(oracle_text(field));
    while field.vanish_step() {
        frames.push(oracle_text(field));
        field.apply_gravity();
        frames.push(oracle_text(field));
    }
    (frames, landed)
}

/// The cells `field` holds that were empty in `before`, `[x, y]` with y = 0 on the floor.
fn filled_since(before: &[[u8; WIDTH]; GRID_HEIGHT], field: &OracleField) -> Vec<[usize; 2]> {
    (0..GRID_HEIGHT)
        .flat_map(|y| (0..WIDTH).map(move |x| [x, y]))
        .filter(|&[x, y]| before[y][x] == 0 && field.cells[y][x] != 0)
        .collect()
}

/// Checks that the bitboard simulator ends the turn where the frames and the record do.
fn check_position(
    turn: usize,
    player: usize,
    state: &PlayerState,
    frames: &[String],
    record: &TurnRecord,
) -> Result<(), String> {
    let simulated = field_text(HEIGHT, |x, y| state.field.cell(x, y));
    if frames.last() != Some(&simulated) || StateRecord::of(state) != record.state[player] {
        return Err(format!(
            "turn {turn}: player {player}'s recorded position differs from the re-simulated one"
        ));
    }
    Ok(())
}

/// The longest chain `before` could fire this turn with `pack`, trying every legal action
/// after the ojama row falls.
fn longest_chain(before: &PlayerState, pack: &PreparedPack) -> u32 {
    before
        .legal_actions()
        .map(|action| before.play::<Shift>(pack, action).1.chains)
        .max()
        .unwrap_or(0)
}

/// The plan a turn line names (`plan 4 moves to 13 (60 ojama)`), in words. The plan's
/// moves include this turn's, so its chain fires on turn `turn + moves - 1`.
fn plan_in_words(turn: u32, line: &str) -> Option<String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words.iter().position(|&w| w == "plan")?;
    let [moves, "moves", "to", chain, ..] = words.get(at + 1..)? else {
        return None;
    };
    let moves: u32 = moves.parse().ok()?;
    let chain: u32 = chain.parse().ok()?;
    Some(match moves {
        0 | 1 => format!("{chain}-chain on turn {turn} (this move)"),
        _ => format!(
            "{chain}-chain on turn {} ({moves} moves left)",
            turn + moves - 1
        ),
    })
}

fn page_turn(
    record: &TurnRecord,
    frames: [Vec<String>; 2],
    landed: [Vec<[usize; 2]>; 2],
    best: [u32; 2],
) -> PageTurn {
    PageTurn {
        moves: record.moves.clone(),
        // A tenth of a millisecond is all the page shows; fewer digits keep it small.
        think: record
            .think_ms
            .map(|t| t.map(|ms| (ms * 10.0).round() / 10.0)),
        chains: record.chains,
        best,
        lines: record.turn_lines.clone(),
        plans: record
            .turn_lines
            .each_ref()
            .map(|line| plan_in_words(record.turn, line.as_deref()?)),
        stock: record.state.each_ref().map(|s| s.stock),
        gauge: record.state.each_ref().map(|s| s.gauge),
        score: record.state.each_ref().map(|s| s.score),
        frames,
        landed,
        clock: [None; 2],
    }
}

fn oracle_text(field: &OracleField) -> String {
    field_text(GRID_HEIGHT, |x, y| field.cells[y][x])
}

/// A field as the page reads it: rows top first, 10 characters each (`.`, `1`-`9`, `X`),
/// from the highest row holding a block down to the floor; the empty rows above are left
/// out to keep the page small (it stands the rows on the floor).
fn field_text(height: usize, cell: impl Fn(usize, usize) -> u8) -> String {
    let occupied = |y: usize| (0..WIDTH).any(|x| cell(x, y) != 0);
    let rows = (0..height).rev().skip_while(|&y| !occupied(y));
    rows.flat_map(|y| (0..WIDTH).map(move |x| (x, y)))
        .map(|(x, y)| cell_char(cell(x, y)))
        .collect()
}

fn result_text(replay: &Replay) -> String {
    let result = &replay.result;
    let verdict = match result.winner {
        Some(w) => format!("p{w} wins"),
        None => "draw".to_string(),
    };
    format!("{verdict} ({}, turn {})", result.reason, result.turn)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::referee::{GameRecord, GameResult, Reason, TimeControl};
    use crate::sim::PACKS_PER_GAME;

    /// Three turns that end in a 3-chain (the reference simulator's worked example): the
    /// first two build column 0 = 6 and column 1 = 8 3 4 2, the third drops a 7 beside the
    /// 3: 3+7 vanish, the 4 falls beside the 6, then the 2 onto the 8.
    const CHAIN_PACKS: [[[u8; 2]; 2]; 3] = [[[0, 3], [6, 8]], [[0, 2], [0, 4]], [[0, 1], [7, 1]]];
    const CHAIN_MOVES: [Action; 3] = [
        Action::Drop { x: 0, rot: 0 },
        Action::Drop { x: 0, rot: 0 },
        Action::Drop { x: 2, rot: 0 },
    ];

    /// A replay of both players making `moves` with `packs` (the rest of the 500 packs are
    /// 1 1 / 1 1), recorded as the referee records it.
    fn replay_of(packs: &[[[u8; 2]; 2]], moves: &[Action]) -> Replay {
        let mut all = [Pack::new([1, 1], [1, 1]); PACKS_PER_GAME];
        for (slot, &[top, bottom]) in all.iter_mut().zip(packs) {
            *slot = Pack::new(top, bottom);
        }
        let mut states = [PlayerState::default(); 2];
        let turns = moves
            .iter()
            .enumerate()
            .map(|(turn, &action)| {
                let outcomes =
                    play_turn::<Shift>(&mut states, &PreparedPack::new(all[turn]), [action; 2]);
                TurnRecord {
                    turn: turn as u32,
                    moves: [Some(action.to_string()), Some(action.to_string())],
                    think_ms: [Some(1.25), None],
                    chains: outcomes.map(|o| o.result.chains),
                    state: states.each_ref().map(StateRecord::of),
                    turn_lines: [
                        Some(format!("Turn {turn} plan 3 moves to 5 (9 ojama)")),
                        None,
                    ],
                }
            })
            .collect::<Vec<_>>();
        let last = turns.len().saturating_sub(1) as u32;
        let record = GameRecord {
            names: [Some("<script>alert(1)</script>".into()), None],
            result: GameResult {
                winner: None,
                reason: Reason::TurnLimit,
                turn: last,
                losers: [None, None],
            },
            turns,
            transcripts: Default::default(),
            violations: Vec::new(),
            think_ms: [0.0; 2],
            max_think_ms: [0.0; 2],
            peak_rss_kib: [None; 2],
            max_chains: [0; 2],
            first_big_chains: [None; 2],
            scores: [0; 2],
            stderr_tails: Default::default(),
        };
        Replay::new(&all, ["./a", "./b"], TimeControl::QUALIFIER, &record)
    }

    fn chain_replay() -> Replay {
        replay_of(&CHAIN_PACKS, &CHAIN_MOVES)
    }

    #[test]
    fn the_page_is_self_contained_and_embeds_the_game() {
        let replay = chain_replay();
        let page = page(&replay, &PageContext::default()).unwrap();
        assert_eq!(TEMPLATE.matches(DATA_MARKER).count(), 1);
        assert!(!page.contains(DATA_MARKER));
        for external in ["http://", "https://", "src=", "url(", "@import"] {
            assert!(!page.contains(external), "the page refers to `{external}`");
        }
        assert!(page.contains(r#""result":"draw (turn-limit, turn 2)""#));
        assert!(page.contains(r#""packs":[".368",".2.4",".171","1111"]"#));
        // The name cannot end the data's <script> element.
        assert!(page.contains(r"\u003cscript>alert(1)\u003c/script>"));
        assert_eq!(page.matches("</script>").count(), 2);
    }

    /// Rows top first, as [`field_text`] writes them.
    fn rows(rows: &[&str]) -> String {
        rows.concat()
    }

    #[test]
    fn chain_frames_step_through_every_vanish_and_fall() {
        let replay = chain_replay();
        let data = page_data(&replay).unwrap();
        assert_eq!(data.turns.len(), 3);
        let before = rows(&[".2........", ".4........", ".3........", "68........"]);
        assert_eq!(data.turns[1].frames, [vec![before.clone()], vec![before]]);
        let expected = [
            // The drop: a 7 beside the 3, two 1s in column 3.
            rows(&[".2........", ".4........", ".3.1......", "6871......"]),
            // 3+7 vanish; the 4 and the 2 fall.
            rows(&[".2........", ".4........", "...1......", "68.1......"]),
            rows(&[".2........", ".4.1......", "68.1......"]),
            // 6+4 vanish; the 2 falls onto the 8.
            rows(&[".2........", "...1......", ".8.1......"]),
            rows(&[".2.1......", ".8.1......"]),
            // 8+2 vanish; nothing is left to fall.
            rows(&["...1......", "...1......"]),
            rows(&["...1......", "...1......"]),
        ];
        let turn = &data.turns[2];
        // The 7 beside the 3 and the two 1s of column 3, on the drop's frame.
        assert_eq!(turn.landed[0], [[2, 0], [3, 0], [3, 1]]);
        // The simulator's count of vanish steps, and its final position.
        assert_eq!(turn.chains, [3, 3]);
        assert_eq!(expected.len(), 1 + 2 * turn.chains[0] as usize);
        assert_eq!(turn.frames, [expected.to_vec(), expected.to_vec()]);
        let recorded: Vec<[u8; 10]> = replay.turns[2].state[0].field.clone();
        let end = field_text(16, |x, y| recorded[15 - y][x]);
        assert_eq!(expected.last(), Some(&end));
    }

    /// Ten 1-chains fill the gauge to 80; a 5 and a 3 land; the skill destroys both.
    fn skill_game() -> (Vec<[[u8; 2]; 2]>, Vec<Action>) {
        let mut packs = vec![[[0, 0], [1, 9]]; 10];
        packs.push([[0, 0], [5, 3]]);
        let mut moves = vec![Action::Drop { x: 0, rot: 0 }; 11];
        moves.push(Action::Skill);
        (packs, moves)
    }

    #[test]
    fn the_skill_shows_its_explosion_and_the_fall_before_any_chain() {
        let (packs, moves) = skill_game();
        let data = page_data(&replay_of(&packs, &moves)).unwrap();
        let skill = &data.turns[11];
        assert_eq!(skill.gauge, [0, 0]);
        let expected = ["53........", "", ""].map(String::from);
        assert_eq!(skill.frames, [expected.to_vec(), expected.to_vec()]);
    }

    /// The longest chain on offer, by the reference simulator: every action tried on the
    /// position before the turn.
    fn oracle_longest_chain(before: &PlayerState, pack: Pack) -> u32 {
        let start = OraclePlayer {
            field: OracleField::from_top_rows(&before.field.to_rows()),
            ojama: before.ojama,
            gauge: before.gauge,
            score: before.score,
        };
        Action::ALL
            .into_iter()
            .filter(|&a| before.is_legal(a))
            .map(|action| {
                let mut player = start.clone();
                oracle::drop_ojama_row(&mut player);
                oracle::apply_action(&mut player, pack, action).chains
            })
            .max()
            .unwrap()
    }

    /// Checks every turn's longest chain on offer against the reference simulator.
    fn check_longest_chains(packs: &[[[u8; 2]; 2]], moves: &[Action]) -> Vec<[u32; 2]> {
        let replay = replay_of(packs, moves);
        let data = page_data(&replay).unwrap();
        let mut states = [PlayerState::default(); 2];
        for (turn, &action) in moves.iter().enumerate() {
            let pack = replay.pack(turn).unwrap();
            let expected = states.each_ref().map(|s| oracle_longest_chain(s, pack));
            assert_eq!(data.turns[turn].best, expected, "turn {turn}");
            play_turn::<Shift>(&mut states, &PreparedPack::new(pack), [action; 2]);
        }
        data.turns.iter().map(|t| t.best).collect()
    }

    #[test]
    fn the_longest_chain_on_offer_is_that_of_the_reference_simulator() {
        let best = check_longest_chains(&CHAIN_PACKS, &CHAIN_MOVES);
        // The 3-chain the game fires on turn 2 is on offer there; turn 1 has a 2-chain.
        assert_eq!(best, [[0, 0], [2, 2], [3, 3]]);
        let (packs, moves) = skill_game();
        check_longest_chains(&packs, &moves);
    }

    #[test]
    fn turn_lines_and_their_plans_reach_the_page() {
        let data = page_data(&chain_replay()).unwrap();
        let turn = &data.turns[1];
        assert_eq!(
            turn.lines,
            [Some("Turn 1 plan 3 moves to 5 (9 ojama)".into()), None]
        );
        assert_eq!(
            turn.plans,
            [Some("5-chain on turn 3 (3 moves left)".into()), None]
        );
    }

    #[test]
    fn the_clock_is_the_budget_less_the_thinking_so_far() {
        let data = page_data(&chain_replay()).unwrap();
        // p0 thinks 1.25 ms a turn of the qualifier's 180 s; p1's times are not recorded.
        let clocks: Vec<_> = data.turns.iter().map(|t| t.clock).collect();
        assert_eq!(
            clocks,
            [
                [Some(179_999), Some(180_000)],
                [Some(179_998), Some(180_000)],
                [Some(179_996), Some(180_000)]
            ]
        );
        let mut replay = chain_replay();
        replay.tc = Some("none".into());
        let data = page_data(&replay).unwrap();
        assert!(data.turns.iter().all(|t| t.clock == [None, None]));
    }

    #[test]
    fn plans_are_read_from_turn_lines() {
        let line = "Turn 8 timeleft 1 elapsed 2 d 4/4 n 5/6 Plan 2 3 plan 9 moves to 14 (79 ojama) threat 1";
        assert_eq!(
            plan_in_words(8, line).as_deref(),
            Some("14-chain on turn 16 (9 moves left)")
        );
        assert_eq!(
            plan_in_words(5, "Turn 5 plan 1 moves to 12 (45 ojama)").as_deref(),
            Some("12-chain on turn 5 (this move)")
        );
        for none in [
            "Turn 5 Greedy 1 0 plan - threat 0",
            "Turn 5 d 4/4 Act 3 1",
            "plan 4 moves",
        ] {
            assert_eq!(plan_in_words(5, none), None, "{none}");
        }
    }

    #[test]
    fn a_replay_that_does_not_resimulate_is_refused() {
        let mut replay = chain_replay();
        replay.turns[1].state[1].score += 1;
        let err = page(&replay, &PageContext::default()).unwrap_err();
        assert!(err.contains("turn 1: player 1"), "{err}");
        let mut replay = chain_replay();
        replay.turns[0].moves[0] = Some("left".into());
        assert!(page(&replay, &PageContext::default())
            .unwrap_err()
            .contains("`left` is not a command"));
    }

    #[test]
    fn the_page_of_a_recorded_game_stays_under_a_megabyte() {
        let file =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/replays/self-greedy.json");
        let replay = Replay::load(&file).unwrap();
        assert!(replay.turns.len() >= 130, "{} turns", replay.turns.len());
        let page = page(&replay, &PageContext::default()).unwrap();
        assert!(page.len() < 1 << 20, "{} bytes", page.len());
        // Every turn of the ysai player brings its `-tm` line.
        let lines = replay.turns.iter().filter(|t| t.turn_lines[0].is_some());
        assert_eq!(lines.count(), replay.turns.len());
    }

    #[test]
    fn an_unwritable_page_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("no-such-dir").join("replay.html");
        let err = write_page(&out, "page").unwrap_err();
        assert!(err.starts_with("cannot write the page to "), "{err}");
        assert!(err.contains("no-such-dir"), "{err}");
    }
}
