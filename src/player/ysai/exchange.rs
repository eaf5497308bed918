//! The exchange reader: when either side can send a big attack within a few moves, my lines
//! (fire now, fire later, build on, counter) are each played against each of the opponent's
//! (its race to fire, its answers to my fires) through the rules, both lines together, with
//! ojama rows falling and offsetting as they would. A line is a list of moves that ends in a
//! fire, searched by the beam; the opponent's answers were searched with my attack in its
//! stock, my counters with its attack in mine, so an exchange is read with each side's
//! adapted reply where one exists.
//!
//! An outcome is scored by what will have landed on each side (rows fallen and stock still
//! pending) and by what each side can still fire (the pack-free potential of its field: the
//! second chain). The turn plays the first move whose best line does best against the
//! opponent's most harmful reply; the lines after it are decided again next turn, so a move
//! is credited with the best of my lines that start with it.

use ysai_tables::chain_ojama;

use crate::search::fire::Fire;
use crate::search::potential::{erase_potential, OJAMA_CAP};
use crate::sim::{play_turn_passing, Action, Neighbourhood, PlayerState, PreparedPack};

/// An outcome in which only one side dies is worth this much (before the turns it took).
const DEATH: i64 = 100_000;
/// What a field's potential counts for against ojama that has already been sent, in
/// quarters: a built chain still to be triggered is most of one that has been fired (a side
/// whose answer is not searched still has it), less the trigger it may not reach.
const POTENTIAL_QUARTERS: i64 = 3;

/// Where a line came from, for `-tm`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// The plan being followed.
    Plan,
    /// A side's own race: its biggest fire at each depth, with no attack coming.
    Race,
    /// Searched with the other side's line `n` landing on it.
    Answer(usize),
}

/// One side's line: moves ending in a fire.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub fire: Fire,
    pub source: Source,
}

impl Line {
    pub fn new(fire: Fire, source: Source) -> Self {
        Line { fire, source }
    }

    /// The move that fires (0 = this turn's).
    pub fn fire_depth(&self) -> usize {
        self.fire.path.len().saturating_sub(1)
    }

    fn answers(&self, other: usize) -> bool {
        self.source == Source::Answer(other)
    }
}

/// The moves two lines are played for: until the later one fires when it answers the
/// earlier; otherwise until one move after the earlier fire (a line searched with nothing
/// landing on it says nothing of what that side does once rows fall: its potential does).
fn moves_played(mine: (usize, &Line), theirs: (usize, &Line)) -> usize {
    let (m, t) = (mine.1.fire.path.len(), theirs.1.fire.path.len());
    if m < t && !theirs.1.answers(mine.0) {
        m + 1
    } else if t < m && !mine.1.answers(theirs.0) {
        t + 1
    } else {
        m.max(t)
    }
}

/// Both sides after two lines played together.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Turns played.
    pub turns: usize,
    /// Who died (me, the opponent).
    pub dead: [bool; 2],
    /// Ojama fallen during the lines plus the stock still pending.
    pub burden: [i64; 2],
    /// The ojama of the chain each field could still fire (pack-free potential, capped).
    pub potential: [i64; 2],
}

impl Outcome {
    /// My value of the outcome: larger is better.
    pub fn value(&self) -> i64 {
        match self.dead {
            [true, false] => -DEATH + self.turns as i64,
            [false, true] => DEATH - self.turns as i64,
            [true, true] => 0,
            [false, false] => {
                let landed = self.burden[1] - self.burden[0];
                landed + (self.potential[0] - self.potential[1]) * POTENTIAL_QUARTERS / 4
            }
        }
    }
}

/// Plays `lines` (mine, the opponent's) together from `start` for `turns` turns, a side
/// passing once its line has ended.
pub fn play_out<N: Neighbourhood>(
    start: [PlayerState; 2],
    packs: &[PreparedPack],
    lines: [&[Action]; 2],
    turns: usize,
) -> Outcome {
    let fallen_before = start.map(|s| i64::from(s.field.ojama().popcount()));
    let mut players = start;
    let mut dead = [false; 2];
    let mut played = 0;
    for (t, pack) in packs.iter().enumerate().take(turns) {
        let actions = lines.map(|line| line.get(t).copied());
        let outcomes = play_turn_passing::<N>(&mut players, pack, actions);
        played = t + 1;
        dead = outcomes.map(|o| o.lost());
        if dead.iter().any(|&d| d) {
            break;
        }
    }
    let fallen = |i: usize| i64::from(players[i].field.ojama().popcount()) - fallen_before[i];
    let potential =
        |p: &PlayerState| chain_ojama(erase_potential::<N>(&p.field).chain).min(OJAMA_CAP);
    Outcome {
        turns: played,
        dead,
        burden: [0, 1].map(|i| fallen(i) + players[i].ojama),
        potential: players.each_ref().map(potential),
    }
}

/// One of my first moves: the best of my lines starting with it against each reply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    pub action: Action,
    /// My line (index) that does best against the most harmful reply, and that value.
    pub line: usize,
    pub worst: i64,
    /// The opponent's most harmful reply to this move.
    pub reply: usize,
}

/// What the reader saw: both sides' lines, each of my first moves, and the one chosen.
#[derive(Clone, Debug, Default)]
pub struct Reading {
    pub mine: Vec<Line>,
    pub theirs: Vec<Line>,
    pub choices: Vec<Choice>,
    /// Index into `choices`.
    pub chosen: Option<usize>,
}

impl Reading {
    /// My line to follow.
    pub fn line(&self) -> Option<&Line> {
        let choice = &self.choices[self.chosen?];
        self.mine.get(choice.line)
    }
}

/// Reads the exchange between `mine` and `theirs` from `me` and `opponent`, and chooses the
/// first move whose best line does best against the opponent's most harmful reply; the first
/// move of the earliest line among equals (the plan comes first when there is one).
pub fn read<N: Neighbourhood>(
    me: &PlayerState,
    opponent: &PlayerState,
    packs: &[PreparedPack],
    mine: Vec<Line>,
    theirs: Vec<Line>,
) -> Reading {
    let values: Vec<Vec<i64>> = mine
        .iter()
        .enumerate()
        .map(|(i, m)| {
            theirs
                .iter()
                .enumerate()
                .map(|(j, t)| {
                    let turns = moves_played((i, m), (j, t));
                    let lines = [&m.fire.path[..], &t.fire.path[..]];
                    play_out::<N>([*me, *opponent], packs, lines, turns).value()
                })
                .collect()
        })
        .collect();
    let choices = first_moves(&mine)
        .into_iter()
        .filter_map(|(action, lines)| choice(action, &lines, &values))
        .collect::<Vec<_>>();
    let chosen = (0..choices.len()).fold(None, |best: Option<usize>, c| match best {
        Some(b) if choices[b].worst >= choices[c].worst => best,
        _ => Some(c),
    });
    Reading {
        mine,
        theirs,
        choices,
        chosen,
    }
}

/// My first moves in the order of the lines they start, each with its lines.
fn first_moves(mine: &[Line]) -> Vec<(Action, Vec<usize>)> {
    let mut moves: Vec<(Action, Vec<usize>)> = Vec::new();
    for (i, line) in mine.iter().enumerate() {
        let Some(&first) = line.fire.path.first() else {
            continue;
        };
        match moves.iter_mut().find(|(a, _)| *a == first) {
            Some((_, lines)) => lines.push(i),
            None => moves.push((first, vec![i])),
        }
    }
    moves
}

/// `action`'s worst case over the replies, each answered by the best of `lines`.
fn choice(action: Action, lines: &[usize], values: &[Vec<i64>]) -> Option<Choice> {
    let replies = values.first()?.len();
    let best_line = |reply: usize| {
        lines.iter().map(|&i| (values[i][reply], i)).fold(
            None,
            |best: Option<(i64, usize)>, (v, i)| match best {
                Some((b, _)) if b >= v => best,
                _ => Some((v, i)),
            },
        )
    };
    let (worst, reply, line) = (0..replies)
        .filter_map(|r| best_line(r).map(|(v, i)| (v, r, i)))
        .fold(
            None,
            |worst: Option<(i64, usize, usize)>, (v, r, i)| match worst {
                Some((w, _, _)) if w <= v => worst,
                _ => Some((v, r, i)),
            },
        )
        .unwrap_or((0, 0, lines[0]));
    Some(Choice {
        action,
        line,
        worst,
        reply,
    })
}

/// `-tm`: ` X[move line-fire worst ...] -> move`.
impl std::fmt::Display for Reading {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, " X[{}/{}", self.mine.len(), self.theirs.len())?;
        for (c, choice) in self.choices.iter().enumerate() {
            let line = &self.mine[choice.line];
            let reply = self.theirs.get(choice.reply);
            let mark = if Some(c) == self.chosen { "*" } else { "" };
            write!(
                f,
                " {mark}{} {}@{}:{}",
                choice.action,
                line.fire.chains,
                line.fire_depth(),
                choice.worst
            )?;
            if let Some(reply) = reply {
                write!(f, "/{}@{}", reply.fire.chains, reply.fire_depth())?;
            }
        }
        write!(f, "]")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::{Field, Pack, Shift};

    fn packs(cells: [[u8; 2]; 2], n: usize) -> Vec<PreparedPack> {
        vec![PreparedPack::new(Pack { cells }); n]
    }

    fn line(path: &[Action], chains: u32, source: Source) -> Line {
        Line::new(
            Fire {
                path: path.to_vec(),
                chains,
                ojama: chain_ojama(chains),
            },
            source,
        )
    }

    const DROP0: Action = Action::Drop { x: 0, rot: 0 };
    const DROP8: Action = Action::Drop { x: 8, rot: 0 };

    #[test]
    fn rows_fall_one_a_turn_and_a_full_column_dies() {
        let me = PlayerState {
            ojama: 25,
            ..PlayerState::default()
        };
        let packs = packs([[1, 1], [1, 1]], 4);
        let out = play_out::<Shift>([me, PlayerState::default()], &packs, [&[], &[]], 3);
        // 25 -> 15 -> 5: two rows fell, 5 still pending.
        assert_eq!(
            (out.turns, out.dead, out.burden),
            (3, [false, false], [25, 0])
        );
        let full = PlayerState {
            field: Field::from_picture(&["1"; 16]).unwrap(),
            ojama: 10,
            ..PlayerState::default()
        };
        let out = play_out::<Shift>([me, full], &packs, [&[DROP8], &[]], 3);
        assert_eq!((out.turns, out.dead), (1, [false, true]));
        assert_eq!(out.value(), DEATH - 1);
    }

    #[test]
    fn an_answer_is_played_to_its_fire_and_a_race_line_stops_a_move_after_mine() {
        let mine = line(&[DROP0, DROP0], 13, Source::Race);
        let race = line(&[DROP8; 6], 14, Source::Race);
        let answer = line(&[DROP8; 6], 14, Source::Answer(0));
        assert_eq!(moves_played((0, &mine), (0, &race)), 3);
        assert_eq!(moves_played((0, &mine), (1, &answer)), 6);
        assert_eq!(
            moves_played((1, &mine), (1, &answer)),
            3,
            "another line's answer"
        );
        assert_eq!(
            moves_played((0, &race), (0, &mine)),
            3,
            "the other way round"
        );
    }

    #[test]
    fn dying_decides_and_otherwise_landed_ojama_and_potential_count() {
        let out = |dead, burden, potential| Outcome {
            turns: 3,
            dead,
            burden,
            potential,
        };
        assert!(out([false, true], [500, 0], [0, 200]).value() > 0);
        assert!(out([true, false], [0, 500], [200, 0]).value() < 0);
        assert_eq!(out([false, false], [10, 70], [0, 0]).value(), 60);
        assert_eq!(out([false, false], [70, 10], [200, 0]).value(), 90);
    }

    #[test]
    fn a_move_is_worth_its_best_line_against_the_worst_reply() {
        // Two first moves: A has lines 0 and 1, B line 2; three replies.
        let values = vec![vec![5, -50, 0], vec![-20, 10, 3], vec![1, 1, 1]];
        let a = choice(DROP0, &[0, 1], &values).unwrap();
        // Against reply 0 the best of A's lines is 5, reply 1: 10, reply 2: 3.
        assert_eq!((a.worst, a.reply, a.line), (3, 2, 1));
        let b = choice(DROP8, &[2], &values).unwrap();
        assert_eq!(b.worst, 1);
        assert_eq!(
            first_moves(&[
                line(&[DROP0], 1, Source::Plan),
                line(&[DROP8], 1, Source::Race),
                line(&[DROP0, DROP8], 1, Source::Race)
            ]),
            vec![(DROP0, vec![0, 2]), (DROP8, vec![1])]
        );
    }
}
