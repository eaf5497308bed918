//! The official snapshots (`tests/data/official/snapshots/`): the last turn of each, as the
//! searches see it.

// Each bench that includes this module uses part of it.
#![allow(dead_code)]

use std::fs::File;
use std::io::BufReader;
use std::path::Path;
use ysai::protocol::{read_all, PlayerView};
use ysai::sim::{Field, PlayerState, Position, PreparedPack};

pub struct Snapshot {
    pub turn: usize,
    pub packs: Vec<PreparedPack>,
    pub me: PlayerState,
    pub enemy: PlayerState,
    pub time_left_ms: i64,
}

impl Snapshot {
    pub fn load(name: &str) -> Snapshot {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/official/snapshots")
            .join(format!("{name}.stdin.txt"));
        let file = File::open(&path).expect("the snapshot");
        let game = read_all(BufReader::new(file))
            .expect("a valid snapshot")
            .remove(0);
        let turn = game.turns.last().expect("one turn");
        let t = turn.turn as usize;
        Snapshot {
            turn: t,
            packs: game.packs[t..]
                .iter()
                .map(|&p| PreparedPack::new(p))
                .collect(),
            me: state(&turn.players[0]),
            enemy: state(&turn.players[1]),
            time_left_ms: turn.players[0].time_left_ms,
        }
    }

    pub fn position(&self) -> Position<'_> {
        Position {
            turn: self.turn,
            packs: &self.packs,
            me: &self.me,
            opponent: &self.enemy,
            time_left_ms: self.time_left_ms,
        }
    }
}

fn state(view: &PlayerView) -> PlayerState {
    PlayerState {
        field: Field::from_rows(&view.rows).expect("a recorded field"),
        ojama: view.ojama,
        gauge: view.gauge,
        score: view.score,
    }
}
