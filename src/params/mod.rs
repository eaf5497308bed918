//! Every tunable setting of the AI, with the original program's defaults, except where an
//! arena match chose better ones (the beams' rank and target); `--style original` restores
//! those and plays the original's own turn ([`Params::original_style`]).
//!
//! Each field names the original flag and field (see `spec/ysai-reference.md` §7). Defaults are
//! those of the final version; flags that only the qualifier version had use the qualifier's
//! default. A value is refused only where no player could use it (a negative width, a depth the
//! searches have no room for, a turn too short to think in; `flag_values` says what a flag
//! takes); any other is stored as given: clamping belongs to the code that uses it, so
//! that a replayed command line means exactly what it meant to the original.
//!
//! The flags are grouped by who reads them (`#[command(flatten)]`): the first beam, the
//! per-turn beams, the full searches, the original's own turn, the rule switches, and so on.
//! Which flags a player reads is worked out from the config it is built from
//! ([`flags_without_effect`]). The search and the simulator know nothing of
//! the command line: their settings are built here ([`Params::first_beam`],
//! [`Params::turn_beam`], [`Params::first_plan`], [`EvalFlags::context`]).
//!
//! Each field also declares its command-line flag: name, value, default (from
//! [`Params::DEFAULT`]), help line and `--help` heading. [`crate::cli`] adds the two flags that
//! have no field of their own (`-ut`, `-ai`), the single-dash spelling and the error messages.

mod configs;
mod flags;
mod reads;

use std::time::Instant;

use clap::builder::TypedValueParser;
use clap::ArgAction;
use serde::{Serialize, Serializer};

use crate::flag_values::{at_least, choice, number, whole, within};
use crate::player::original::{HelperBeam, OriginalConfig};
use crate::player::plan_rules::{self, RulesConfig};
use crate::player::rush::{RushConfig, RUSH_OPENING};
use crate::player::ysai::{BeamPlans, YsaiConfig, REFINE_DEPTH};
use crate::player::{BeamPlayerConfig, CounterConfig};
use crate::search::beam::{BeamConfig, BeamEval, Target, TurnBeam, TURN_BEAM_TARGET};
pub use crate::search::beam::{BeamEvalKind, HeightCutoff};
use crate::search::chokudai::ChokudaiConfig;
use crate::search::eval::{CounterVerdict, EvalContext, MAX_DEPTH};
use crate::search::full::{EnemyModel, FullSearchConfig};
use crate::search::timeman::{MIN_TURN_MS, SAFETY_MARGIN_MS, SAFETY_SHARE};
use crate::search::tt::MAX_TABLE_MEGABYTES;
pub use crate::sim::neighbours::NeighbourMode;

/// The defaults shown in `--help` are the ones [`Params::default`] returns.
const D: Params = Params::DEFAULT;

/// The `--help` headings, one per group of fields.
pub(crate) mod heading {
    pub const SEARCH: &str = "Search";
    pub const FIRST_BEAM: &str = "First beam (turn 0)";
    pub const TURN_BEAMS: &str = "Per-turn beams";
    pub const HELPER_BEAMS: &str = "Helper beams (counter analysis, skill decision, safety, skill)";
    pub const EVALUATION: &str = "Evaluation";
    pub const DEBUG: &str = "Debug";
    pub const PLAN_TARGET: &str = "Plan target (beam player, original turn)";
    pub const YSAI_TURN: &str = "ysai's turn";
    pub const RUSH: &str = "Rush player";
    pub const ORIGINAL_TURN: &str = "Original turn (--style original)";
    pub const COMPATIBILITY: &str = "Accepted for compatibility (no effect)";
    pub const ENGINE: &str = "Engine";
}

/// Which move chooser plays the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, clap::ValueEnum, Serialize)]
pub enum PlayerKind {
    /// Uniformly random legal moves, reproducible from `--seed`.
    Random,
    /// One ply: the move that sends the most ojama, then leaves the fewest blocks.
    Greedy,
    /// The first-turn chain plan, re-planned each turn with the per-turn beam.
    Beam,
    /// The complete AI: plan, beams, two-sided full search (the default).
    Full,
    /// A champion-style sparring partner: one plan, replanned with an anytime search.
    Rush,
    /// A counter-style sparring partner: builds and keeps its chain, answers an attack.
    Counter,
}

/// Which defaults the play flags take (`--style`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, clap::ValueEnum, Serialize)]
pub enum Style {
    /// This program's defaults.
    Default,
    /// The original's final run.sh play: the flags below that this program added or retuned
    /// take the original's values unless given.
    Original,
}

/// All settings of one run, and the command-line flag of each, in groups by who reads them
/// (see [`flags_without_effect`]).
#[derive(Clone, Debug, PartialEq, clap::Args, Serialize)]
pub struct Params {
    #[command(flatten)]
    pub search: SearchFlags,
    #[command(flatten)]
    pub eval: EvalFlags,
    #[command(flatten)]
    pub clock: ClockFlags,
    #[command(flatten)]
    pub opening: OpeningBeamFlags,
    #[command(flatten)]
    pub target: PlanTargetFlags,
    #[command(flatten)]
    pub turn_beams: TurnBeamFlags,
    #[command(flatten)]
    pub turn_beam_limits: TurnBeamLimitFlags,
    #[command(flatten)]
    pub answer_beam: AnswerBeamFlags,
    #[command(flatten)]
    pub guard: GuardFlags,
    #[command(flatten)]
    pub rules: RuleFlags,
    #[command(flatten)]
    pub exchange: ExchangeFlags,
    #[command(flatten)]
    pub rush: RushFlags,
    #[command(flatten)]
    pub original: OriginalTurnFlags,
    #[command(flatten)]
    pub helpers: HelperBeamFlags,
    #[command(flatten)]
    pub log: TurnLogFlags,
    #[command(flatten)]
    pub detail: DetailFlags,
    #[command(flatten)]
    pub input: InputFlags,
    #[command(flatten)]
    pub turn: TurnFlags,
    // `--help` lists `-ut` and `-ai` (declared in `cli/mod.rs`) between `--threads` and
    // `--neighbours`, hence the explicit display order of this group.
    /// `--threads N`: worker threads; 0 (the default) = all cores. The original `-ut` also
    /// means all cores.
    #[arg(long = "threads", value_name = "N", default_value_t = D.threads, value_parser = whole::<usize>())]
    #[arg(help_heading = heading::ENGINE, display_order = 1, help = "Worker threads; 0 = all cores")]
    pub threads: usize,
    /// `--ai NAME`: which move chooser plays. Set by the named values of `-ai` (see
    /// [`crate::cli`]).
    #[arg(skip = D.player)]
    pub player: PlayerKind,
    /// `--neighbours MODE`: neighbour lookup of the simulator.
    #[arg(long = "neighbours", value_name = "table|shift", default_value = "shift",
          value_parser = choice(&[("table", NeighbourMode::Table), ("shift", NeighbourMode::Shift)]))]
    #[arg(help_heading = heading::ENGINE, display_order = 4,
          help = "Neighbour lookup of the simulator: table (precomputed, 160 MiB) or shift (bit shifts)")]
    #[serde(serialize_with = "by_name")]
    pub neighbours: NeighbourMode,
    /// `--seed N`: seed of the random player and of the rush player's tie-breaks.
    #[arg(long = "seed", value_name = "N", default_value_t = D.seed, value_parser = whole::<u64>())]
    #[arg(help_heading = heading::ENGINE, display_order = 5, help = "Seed of the random player and of the rush player's tie-breaks")]
    pub seed: u64,
}

pub use flags::*;
pub use reads::{flags_ignored, flags_without_effect};

impl Params {
    /// The defaults as a constant, so that the command line can show them in `--help`.
    pub const DEFAULT: Params = Params {
        search: SearchFlags {
            search_depth: 4,
            enemy_search_depth: 4,
            use_tt: true,
            tt_megabytes: 64,
            ignore_time: false,
            ai2_minimax: true,
            ai3_min_over_drops: true,
            no_ai2: false,
            no_ai3: false,
            ai3_big_attack: false,
        },
        eval: EvalFlags {
            eval_limit: -200,
            enemy_may_drop_eval: -5.0,
            enemy_not_drop_eval: 15.0,
            first_min_chain_num: 10,
            first_min_chain_minus: -10.0,
            second_min_chain_num: 9,
            second_min_chain_minus: -5.0,
            calc_enemy_skill: true,
        },
        clock: ClockFlags {
            turn_limit_ms: 20_000,
        },
        opening: OpeningBeamFlags {
            beam_depth: 16,
            beam_width: 5000,
            beam_chain_width: 1500,
            beam_min_x: 2,
            beam_max_x: 6,
            first_time_limit_ms: 19_000,
            height_cutoff: HeightCutoff::Qualifier,
            beam_eval: BeamEvalKind::Potential,
            beam_nodes: 0,
        },
        target: PlanTargetFlags {
            beam_chain_max: 12,
            beam_chain_max_minus: -1,
            beam_chain_max2: 16,
            stop_beam_at_chain_max: false,
        },
        turn_beams: TurnBeamFlags {
            next_beam_width: 700,
            next_beam_chain_width: 350,
            next_beam_depth: 10,
        },
        turn_beam_limits: TurnBeamLimitFlags {
            next_beam_time_ms: 1350,
            next_beam_target_max: 10,
        },
        answer_beam: AnswerBeamFlags {
            enemy_beam_width: 500,
            enemy_beam_chain_width: 200,
        },
        guard: GuardFlags { guard_ms: 1_000 },
        rules: RuleFlags {
            no_counter_plan: false,
            no_hold_fire: false,
            no_outbuild: false,
            no_keep_ready: false,
            rebuild_race: false,
        },
        exchange: ExchangeFlags {
            exchange: false,
            refine_ms: 4_000,
            beam_plans: false,
        },
        rush: RushFlags {
            rush_late_game: false,
        },
        original: OriginalTurnFlags {
            check_first_chain: true,
            beam_ignore_eval_max: 70,
            beam_ignore_eval_min: 70,
            beam_ignore_eval_diff: 35,
            next_chain: true,
            no_nc: false,
            skill_mode_final: false,
            next_beam_min_chain: 9,
            next_beam_ignore_eval_diff: 10,
            first_skill_mode: false,
        },
        helpers: HelperBeamFlags {
            enemy_beam_depth: 5,
            enemy_beam_time_ms: 500,
            next_enemy_beam_width: 500,
            next_enemy_beam_chain_width: 200,
            next_enemy_beam_time_ms: 500,
            dropped_beam_width: 200,
            dropped_beam_chain_width: 75,
            dropped_beam_depth: 7,
            dropped_beam_time_ms: 350,
            skill_beam_width: 1000,
            skill_beam_chain_width: 200,
            skill_beam_depth: 10,
            skill_beam_time_ms: 500,
        },
        log: TurnLogFlags {
            turn_debug_msg: false,
        },
        detail: DetailFlags { debug_msg: false },
        input: InputFlags {
            check_game: -1,
            check_turn: -1,
        },
        threads: 0,
        player: PlayerKind::Full,
        neighbours: NeighbourMode::Shift,
        seed: 0,
        turn: TurnFlags {
            style: Style::Default,
        },
    };
}

impl Params {
    /// Whether `--style original` asked for the original's own turn (its plans, beams,
    /// counter analysis and the full search choosing every move from turn 8).
    pub fn plays_original(&self) -> bool {
        self.turn.style == Style::Original
    }

    /// The chain the original's plans aim at and the beam player fires: `-bcm`, or 12 when
    /// that is off.
    pub fn target_chain(&self) -> u32 {
        if self.target.beam_chain_max > 0 {
            self.target.beam_chain_max as u32
        } else {
            12
        }
    }

    /// Whether the full AI runs its full search: the original's turn always does; ysai's
    /// turn when `--guard-ms` gives it time.
    pub fn full_search_runs(&self) -> bool {
        self.plays_original() || self.guard.guard_ms > 0
    }

    /// The `--no-...` switches turn their flags off (`--no-ai2`, `--no-ai3`, `--no-nc`).
    pub fn apply_off_switches(&mut self) {
        self.search.ai2_minimax &= !self.search.no_ai2;
        self.search.ai3_min_over_drops &= !self.search.no_ai3;
        self.original.next_chain &= !self.original.no_nc;
    }

    /// `--style original`: every play setting this program retuned goes back to the
    /// original's value, except those whose flag (a long name) is in `given`.
    pub fn original_style(&mut self, given: &[String]) {
        let keep = |flag: &str| given.iter().any(|g| g == flag);
        if !keep("beam-eval") {
            self.opening.beam_eval = BeamEvalKind::Ysai;
        }
        if !keep("bcm") {
            self.target.beam_chain_max = 12;
        }
        if !keep("bcm2") {
            self.target.beam_chain_max2 = 16;
        }
    }
}

/// A setting whose type knows nothing of the command line, by its variant's name (which its
/// flag's value spells in lower case).
fn by_name<T: std::fmt::Debug, S: Serializer>(value: &T, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(&format!("{value:?}"))
}

impl Default for Params {
    fn default() -> Self {
        Self::DEFAULT
    }
}
