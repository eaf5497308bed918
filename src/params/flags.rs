//! The flag groups, by who reads them: each field's command-line flag, default and help line.

use super::*;

/// My and the enemy's full searches: read by ysai's turn when `--guard-ms` gives it time, and by the original's.
#[derive(Clone, Debug, PartialEq, clap::Args, Serialize)]
pub struct SearchFlags {
    /// `-d N` (searchDepth): depth of my full search (the original's maximum is 6).
    #[arg(long = "d", value_name = "N", default_value_t = D.search.search_depth,
          value_parser = within(1, MAX_DEPTH))]
    #[arg(help_heading = heading::SEARCH, help = "Depth of my full search (1 to 6)")]
    pub search_depth: usize,
    /// `-ed N` (enesearchDepth): depth of the enemy full search.
    #[arg(long = "ed", value_name = "N", default_value_t = D.search.enemy_search_depth,
          value_parser = within(0, MAX_DEPTH))]
    #[arg(help_heading = heading::SEARCH, help = "Depth of the enemy full search (0 to 6)")]
    pub enemy_search_depth: usize,
    /// `-tt N` (usett): transposition tables on; `-tt 0` turns them off.
    #[arg(long = "tt", value_name = "N", action = ArgAction::Set,
          value_parser = whole::<i32>().map(|n| n != 0),
          default_value = if D.search.use_tt { "1" } else { "0" })]
    #[arg(help_heading = heading::SEARCH, help = "Transposition tables; 0 turns them off")]
    pub use_tt: bool,
    /// `--hash MB`: size of the full searches' shared transposition table.
    #[arg(long = "hash", value_name = "MB", default_value_t = D.search.tt_megabytes,
          value_parser = within(0, MAX_TABLE_MEGABYTES))]
    #[arg(help_heading = heading::SEARCH, help = "Transposition table size in MiB (0 to 16384)")]
    pub tt_megabytes: usize,
    /// `-it` (ignoretime): never reduce search depths when time runs short (§9i).
    #[arg(long = "it")]
    #[arg(help_heading = heading::SEARCH,
          help = "Never reduce the search depth when time runs short")]
    pub ignore_time: bool,
    /// `-ai2` (ai2): my full search returns minimax-style values (§9d).
    #[arg(long = "ai2", default_value_t = D.search.ai2_minimax)]
    #[arg(help_heading = heading::SEARCH, help = "Minimax-style values in my full search")]
    pub ai2_minimax: bool,
    /// `-ai3` (ai3): take the minimum over the enemy-drop and no-drop branches (needs `-ai2`).
    #[arg(long = "ai3", default_value_t = D.search.ai3_min_over_drops)]
    #[arg(help_heading = heading::SEARCH,
          help = "Minimum over the enemy-drop and no-drop branches (needs -ai2)")]
    pub ai3_min_over_drops: bool,
    /// `--no-ai2`: my full search keeps the best leaf only, with no minimum over branches.
    #[arg(long = "no-ai2")]
    #[arg(help_heading = heading::SEARCH, help = "Turn -ai2 (on by default) off")]
    pub no_ai2: bool,
    /// `--no-ai3`: no "enemy attacks / does not" branches.
    #[arg(long = "no-ai3")]
    #[arg(help_heading = heading::SEARCH, help = "Turn -ai3 (on by default) off")]
    pub no_ai3: bool,
    /// `--ai3-big-attack` (final version): also branch on any enemy attack of 10 or more,
    /// not only on one that changes who gets a row (the qualifier's rule, the default).
    #[arg(long = "ai3-big-attack")]
    #[arg(help_heading = heading::SEARCH,
          help = "Also branch on any enemy attack of 10+ (the final version's rule)")]
    pub ai3_big_attack: bool,
}

/// The full searches' leaf evaluation: read wherever they run.
#[derive(Clone, Debug, PartialEq, clap::Args, Serialize)]
pub struct EvalFlags {
    /// `-hl N` (hyouka_limit): evaluation per column of height >= 17 while the gauge is below 80.
    #[arg(long = "hl", value_name = "N", default_value_t = D.eval.eval_limit, value_parser = whole::<i32>())]
    #[arg(help_heading = heading::EVALUATION,
          help = "Per column of height >= 17 while the skill gauge is below 80")]
    pub eval_limit: i32,
    /// `-emdh X` (enemaydrophyouka): evaluation per "enemy may drop ojama" branch (§10).
    #[arg(long = "emdh", value_name = "X", default_value_t = D.eval.enemy_may_drop_eval, value_parser = number())]
    #[arg(help_heading = heading::EVALUATION, help = "Per branch where the enemy may drop ojama")]
    pub enemy_may_drop_eval: f64,
    /// `-endh X` (enenotdrophyouka): evaluation per "enemy chose not to drop" branch (§10).
    /// The qualifier's default was 15.
    #[arg(long = "endh", value_name = "X", default_value_t = D.eval.enemy_not_drop_eval, value_parser = number())]
    #[arg(help_heading = heading::EVALUATION,
          help = "Per branch where the enemy chose not to drop ojama (qualifier: 15)")]
    pub enemy_not_drop_eval: f64,
    /// `-fmcn N` (firstminchainnum): chains shorter than this get `first_min_chain_minus` (§10).
    #[arg(long = "fmcn", value_name = "N", default_value_t = D.eval.first_min_chain_num, value_parser = whole::<i32>())]
    #[arg(help_heading = heading::EVALUATION,
          help = "Chains shorter than this get the -fmcm penalty")]
    pub first_min_chain_num: i32,
    /// `-fmcm X` (firstminchainminus): penalty for firing a chain below `first_min_chain_num`.
    #[arg(long = "fmcm", value_name = "X", default_value_t = D.eval.first_min_chain_minus, value_parser = number())]
    #[arg(help_heading = heading::EVALUATION,
          help = "Penalty for firing a chain shorter than -fmcn")]
    pub first_min_chain_minus: f64,
    /// `-smcn N` (secondminchainnum): chains shorter than this get `second_min_chain_minus`.
    #[arg(long = "smcn", value_name = "N", default_value_t = D.eval.second_min_chain_num, value_parser = whole::<i32>())]
    #[arg(help_heading = heading::EVALUATION,
          help = "Chains shorter than this get the -smcm penalty")]
    pub second_min_chain_num: i32,
    /// `-smcm X` (secondminchainminus): penalty for firing a chain below `second_min_chain_num`.
    #[arg(long = "smcm", value_name = "X", default_value_t = D.eval.second_min_chain_minus, value_parser = number())]
    #[arg(help_heading = heading::EVALUATION,
          help = "Penalty for firing a chain shorter than -smcn")]
    pub second_min_chain_minus: f64,
    /// `-nes` (calceneskill = false): `false` drops the enemy-skill evaluation term.
    #[arg(long = "nes", action = ArgAction::SetFalse)]
    #[arg(help_heading = heading::EVALUATION, help = "Drop the enemy-skill term")]
    pub calc_enemy_skill: bool,
}

/// The longest answer: read by every player that thinks.
#[derive(Clone, Debug, PartialEq, clap::Args, Serialize)]
pub struct ClockFlags {
    /// `--turn-ms MS`: the longest one answer may take (the qualifier's 20 s). Every time
    /// budget is also scaled by the game clock left (see `search::timeman`).
    #[arg(long = "turn-ms", value_name = "MS", default_value_t = D.clock.turn_limit_ms,
          value_parser = at_least(MIN_TURN_MS, turn_limit_floor()))]
    #[arg(help_heading = heading::ENGINE, help = format!("Longest time one answer may take (at least {MIN_TURN_MS})"))]
    pub turn_limit_ms: u64,
}

/// Why `--turn-ms` refuses less than [`MIN_TURN_MS`], for its error.
fn turn_limit_floor() -> String {
    format!(
        " ms: the time manager keeps {SAFETY_MARGIN_MS} ms and 1/{SAFETY_SHARE} of every turn back, so a shorter turn leaves no time to search"
    )
}

/// The first beam (turn 0): read by the beam player, ysai's turn and the original's.
#[derive(Clone, Debug, PartialEq, clap::Args, Serialize)]
pub struct OpeningBeamFlags {
    /// `-bd N` (beamsearchDepth): maximum depth of the first chain-building beam.
    #[arg(long = "bd", value_name = "N", default_value_t = D.opening.beam_depth, value_parser = whole::<usize>())]
    #[arg(help_heading = heading::FIRST_BEAM, help = "Maximum depth")]
    pub beam_depth: usize,
    /// `-bw N` (beamsearchWidth): first-beam total width per depth.
    #[arg(long = "bw", value_name = "N", default_value_t = D.opening.beam_width, value_parser = whole::<usize>())]
    #[arg(help_heading = heading::FIRST_BEAM, help = "Total width per depth (the default player narrows depths that would not end in time)")]
    pub beam_width: usize,
    /// `-bcw N` (beamsearchChainWidth): first-beam width per chain bucket.
    #[arg(long = "bcw", value_name = "N", default_value_t = D.opening.beam_chain_width, value_parser = whole::<usize>())]
    #[arg(help_heading = heading::FIRST_BEAM, help = "Width per chain bucket")]
    pub beam_chain_width: usize,
    /// `-bminx N` (beamminx): lowest pack x the first beam tries.
    #[arg(long = "bminx", value_name = "N", default_value_t = D.opening.beam_min_x, value_parser = whole::<i32>())]
    #[arg(help_heading = heading::FIRST_BEAM, help = "Lowest pack x tried")]
    pub beam_min_x: i32,
    /// `-bmaxx N` (beammaxx): highest pack x the first beam tries.
    #[arg(long = "bmaxx", value_name = "N", default_value_t = D.opening.beam_max_x, value_parser = whole::<i32>())]
    #[arg(help_heading = heading::FIRST_BEAM, help = "Highest pack x tried")]
    pub beam_max_x: i32,
    /// `-ftl MS` (firsttimelimit): first-beam time limit, counted from reading the first pack.
    #[arg(long = "ftl", value_name = "MS", default_value_t = D.opening.first_time_limit_ms, value_parser = whole::<u64>())]
    #[arg(help_heading = heading::FIRST_BEAM,
          help = "Time limit, counted from reading the first pack")]
    pub first_time_limit_ms: u64,
    /// `--height-cutoff MODE`: how the first beam ranks a node with a column of 14 or more.
    #[arg(long = "height-cutoff", value_name = "MODE", default_value = "qualifier",
          value_parser = choice(&[
              ("off", HeightCutoff::Off),
              ("qualifier", HeightCutoff::Qualifier),
              ("final", HeightCutoff::Final),
          ]))]
    #[arg(help_heading = heading::FIRST_BEAM,
          help = "Column of 14+: off, qualifier (node worth 0), final")]
    #[serde(serialize_with = "by_name")]
    pub height_cutoff: HeightCutoff,
    /// `--beam-eval ysai|potential`: what the first and per-turn beams rank nodes by.
    #[arg(long = "beam-eval", value_name = "ysai|potential", default_value = "potential",
          value_parser = choice(&[("ysai", BeamEvalKind::Ysai), ("potential", BeamEvalKind::Potential)]))]
    #[arg(help_heading = heading::FIRST_BEAM,
          help = "Node rank of the first and per-turn beams: ysai (next pack's chains), potential (erase one block)")]
    #[serde(serialize_with = "by_name")]
    pub beam_eval: BeamEvalKind,
    /// `--beam-nodes N`: node budget of every beam (0 = none). With a budget the beams stop
    /// at a depth boundary and return the same plan at any thread count.
    #[arg(long = "beam-nodes", value_name = "N", default_value_t = D.opening.beam_nodes, value_parser = whole::<u64>())]
    #[arg(help_heading = heading::FIRST_BEAM,
          help = "Node budget of every beam (reproducible); 0 = none")]
    pub beam_nodes: u64,
}

/// The chain the first beam aims at and stops on: read by the beam player and the original's turn.
#[derive(Clone, Debug, PartialEq, clap::Args, Serialize)]
pub struct PlanTargetFlags {
    /// `-bcm N` (beamChainmax1): target chain of the first beam; `<= 0` disables the target.
    #[arg(long = "bcm", value_name = "N", default_value_t = D.target.beam_chain_max, value_parser = whole::<i32>())]
    #[arg(help_heading = heading::PLAN_TARGET, help = "Target chain; <= 0 disables the target")]
    pub beam_chain_max: i32,
    /// `-bcm- N` (beamChainmaxminus): once the target is found, keep buckets `>= target + N`.
    /// The final version clamped a parsed positive N to 0 while the unparsed default 1 stays 1;
    /// the qualifier kept buckets `>= best - N` unclamped. The raw value is kept here.
    #[arg(long = "bcm-", value_name = "N", default_value_t = D.target.beam_chain_max_minus, value_parser = whole::<i32>())]
    #[arg(help_heading = heading::PLAN_TARGET,
          help = "Once the target is found, keep chain buckets >= target + N")]
    pub beam_chain_max_minus: i32,
    /// `-bcm2 N` (beamChainmax2): stop the first beam once its best chain is `>= N`; `<= 0`: never.
    #[arg(long = "bcm2", value_name = "N", default_value_t = D.target.beam_chain_max2, value_parser = whole::<i32>())]
    #[arg(help_heading = heading::PLAN_TARGET,
          help = "Stop once the best chain is >= N; <= 0 never stops")]
    pub beam_chain_max2: i32,
    /// `-sbcm` (stopbeamChainmax): stop the first beam at the depth that first reaches the target.
    #[arg(long = "sbcm")]
    #[arg(help_heading = heading::PLAN_TARGET,
          help = "Stop at the depth where the target chain is first reached")]
    pub stop_beam_at_chain_max: bool,
}

/// The per-turn beams' size: read by the beam player, ysai's turn and the original's.
#[derive(Clone, Debug, PartialEq, clap::Args, Serialize)]
pub struct TurnBeamFlags {
    /// `-nbw N` (nextbeamsearchWidth): per-turn beam width.
    #[arg(long = "nbw", value_name = "N", default_value_t = D.turn_beams.next_beam_width, value_parser = whole::<usize>())]
    #[arg(help_heading = heading::TURN_BEAMS, help = "Width (the default player narrows depths that would not end in time)")]
    pub next_beam_width: usize,
    /// `-nbcw N` (nextbeamsearchChainWidth): per-turn beam width per chain bucket.
    #[arg(long = "nbcw", value_name = "N", default_value_t = D.turn_beams.next_beam_chain_width, value_parser = whole::<usize>())]
    #[arg(help_heading = heading::TURN_BEAMS, help = "Width per chain bucket")]
    pub next_beam_chain_width: usize,
    /// `-nbd N` (nextbeamsearchDepth): per-turn beam depth (also the enemy beam of §9g).
    #[arg(long = "nbd", value_name = "N", default_value_t = D.turn_beams.next_beam_depth, value_parser = whole::<usize>())]
    #[arg(help_heading = heading::TURN_BEAMS,
          help = "Depth (also of the enemy beam of the skill-mode decision)")]
    pub next_beam_depth: usize,
}

/// The per-turn beams' time and aim, which ysai's turn sets from its own clock and plan: read by the beam player and the original's turn.
#[derive(Clone, Debug, PartialEq, clap::Args, Serialize)]
pub struct TurnBeamLimitFlags {
    /// `-nftl MS` (nextfirsttimelimit): per-turn beam time.
    #[arg(long = "nftl", value_name = "MS", default_value_t = D.turn_beam_limits.next_beam_time_ms, value_parser = whole::<u64>())]
    #[arg(help_heading = heading::TURN_BEAMS, help = "Time per turn")]
    pub next_beam_time_ms: u64,
    /// `--nbtmax N`: the per-turn beam aims at a 10-chain while my best chain on the first move
    /// is at most N (the qualifier used 10, the final 7).
    #[arg(long = "nbtmax", value_name = "N", default_value_t = D.turn_beam_limits.next_beam_target_max, value_parser = whole::<i32>())]
    #[arg(help_heading = heading::TURN_BEAMS,
          help = "Aim at a 10-chain while my best chain is <= N")]
    pub next_beam_target_max: i32,
}

/// The beam that looks for the opponent's answer: read by ysai's turn and the original's.
#[derive(Clone, Debug, PartialEq, clap::Args, Serialize)]
pub struct AnswerBeamFlags {
    /// `-ebw N` (enebeamsearchWidth): counter analysis, enemy beam width (§9e).
    #[arg(long = "ebw", value_name = "N", default_value_t = D.answer_beam.enemy_beam_width, value_parser = whole::<usize>())]
    #[arg(help_heading = heading::HELPER_BEAMS, help = "Counter analysis: enemy beam width")]
    pub enemy_beam_width: usize,
    /// `-ebcw N` (enebeamsearchChainWidth): counter analysis, width per chain bucket.
    #[arg(long = "ebcw", value_name = "N", default_value_t = D.answer_beam.enemy_beam_chain_width, value_parser = whole::<usize>())]
    #[arg(help_heading = heading::HELPER_BEAMS, help = "Counter analysis: width per chain bucket")]
    pub enemy_beam_chain_width: usize,
}

/// The full search's time in ysai's turn.
#[derive(Clone, Debug, PartialEq, clap::Args, Serialize)]
pub struct GuardFlags {
    /// `--guard-ms MS`: what ysai's full search may take each turn from turn 8 at the
    /// qualifier's clock (scaled like every budget; when that comes to less than 50 ms it runs
    /// its fewest plies instead); 0 = no search, a plan's move stands if it survives the turn.
    #[arg(long = "guard-ms", value_name = "MS", default_value_t = D.guard.guard_ms, value_parser = whole::<u64>())]
    #[arg(help_heading = heading::YSAI_TURN,
          help = "The full search's time each turn from turn 8 (scaled; under 50 ms, its fewest plies); 0 = none, a plan's move stands if it survives the turn")]
    pub guard_ms: u64,
}

/// The exchange reader: read by ysai's turn only.
#[derive(Clone, Debug, PartialEq, clap::Args, Serialize)]
pub struct ExchangeFlags {
    /// `--exchange`: ysai reads the exchange (my fires, holds and counters played against the
    /// opponent's race and answers) on the turns a big attack is within reach of either side,
    /// instead of the counter, hold-fire and out-build rules. Off by default: it lost its first
    /// match (docs/exchange-reader.md).
    #[arg(long = "exchange")]
    #[arg(help_heading = heading::YSAI_TURN,
          help = "Read the exchange (fires and holds against the opponent's replies) instead of the counter and hold-fire rules (experimental)")]
    pub exchange: bool,
    /// `--refine-ms`: while ysai follows a plan that fires later, it searches again from the
    /// turn's position for this long at the qualifier's clock (scaled like every budget) and
    /// takes a fire by the plan's depth that sends more, or as much sooner, and while the plan
    /// falls short of a 13-chain a later one that reaches it or sends half as much again
    /// (`Plan::refined_by`); 0 = never.
    #[arg(long = "refine-ms", value_name = "MS", default_value_t = D.exchange.refine_ms, value_parser = whole::<u64>())]
    #[arg(help_heading = heading::YSAI_TURN,
          help = "Search a followed plan again each turn for this long (scaled): take a bigger or sooner fire by its depth, or below a 13-chain a much bigger later one; 0 = never")]
    pub refine_ms: u64,
    /// `--beam-plans`: after the opening's plan, ysai's plan searches (its plans, counters,
    /// extensions, refinements and the opponent's answers) are the beam, widened to fill their
    /// time, instead of the anytime search (an ablation switch: the anytime search rebuilds
    /// the second chain sooner).
    #[arg(long = "beam-plans")]
    #[arg(help_heading = heading::YSAI_TURN,
          help = "After the opening's plan, search plans with the beam instead of the anytime search (ablation)")]
    pub beam_plans: bool,
}

/// Switches of the champion's rules: read by ysai's turn and the rush player.
#[derive(Clone, Debug, PartialEq, clap::Args, Serialize)]
pub struct RuleFlags {
    /// `--no-counter-plan`: ysai (and the rush player) does not answer a spike in the opponent's threat
    /// with a counter plan (an ablation switch: the rule is part of the champion's design).
    #[arg(long = "no-counter-plan")]
    #[arg(help_heading = heading::YSAI_TURN,
          help = "No counter plan when the opponent's threat spikes (ablation)")]
    pub no_counter_plan: bool,
    /// `--no-hold-fire`: ysai (and the rush player) fires its plan without checking the opponent's answer
    /// to the attack first.
    #[arg(long = "no-hold-fire")]
    #[arg(help_heading = heading::YSAI_TURN,
          help = "Fire without checking whether the opponent answers bigger (ablation)")]
    pub no_hold_fire: bool,
    /// `--no-outbuild`: ysai (and the rush player) does not out-build an opponent that keeps a high
    /// trigger waiting.
    #[arg(long = "no-outbuild")]
    #[arg(help_heading = heading::YSAI_TURN,
          help = "Do not out-build an opponent waiting on a high trigger (ablation)")]
    pub no_outbuild: bool,
    /// `--no-keep-ready`: ysai's rules may trade a chain that fires within two moves for a
    /// longer plan (hold fire while the opponent's bigger chain fires first, a counter plan, the
    /// bomber mark, a later refined fire), as the champion's do.
    #[arg(long = "no-keep-ready")]
    #[arg(help_heading = heading::YSAI_TURN,
          help = "Let the rules trade a ready chain for a longer plan, as the 2019 rules do (ablation)")]
    pub no_keep_ready: bool,
    /// `--rebuild-race`: ysai holds a ready fire only when the opponent's answer wins the race
    /// the fire starts (its answer 12 moves deep against my rebuild), instead of on any longer
    /// answer within 7 moves as the champion does (experimental).
    #[arg(long = "rebuild-race")]
    #[arg(help_heading = heading::YSAI_TURN,
          help = "Hold fire only when the opponent's answer, 12 moves deep, outruns my rebuild (experimental)")]
    pub rebuild_race: bool,
}

/// What only the rush player reads.
#[derive(Clone, Debug, PartialEq, clap::Args, Serialize)]
pub struct RushFlags {
    /// `--late-game`: below its reserve the rush player's searches take an eighth of the time
    /// left (instead of one second scaled to it), and it still answers threat spikes and
    /// checks the opponent's answer before firing.
    #[arg(long = "late-game", default_value_t = D.rush.rush_late_game)]
    #[arg(help_heading = heading::RUSH,
          help = "Rush player: below the reserve, searches take 1/8 of the time left and the counter rules stay on")]
    pub rush_late_game: bool,
}

/// The original's own turn (`--style original`): its plan acceptance, per-turn beam and skill-mode rules, and counter analysis.
#[derive(Clone, Debug, PartialEq, clap::Args, Serialize)]
pub struct OriginalTurnFlags {
    /// `-ncfc` (checkfirstchain = false): `false` skips the counter-attack analysis (§9e).
    #[arg(long = "ncfc", action = ArgAction::SetFalse)]
    #[arg(help_heading = heading::ORIGINAL_TURN,
          help = "Skip the counter-attack analysis of the enemy's chains")]
    pub check_first_chain: bool,
    /// `-bihmax N` (beamIgnoreHyoukamax): plan-acceptance threshold (§9h).
    #[arg(long = "bihmax", value_name = "N", default_value_t = D.original.beam_ignore_eval_max, value_parser = whole::<i32>())]
    #[arg(help_heading = heading::ORIGINAL_TURN, help = "Plan acceptance: upper evaluation threshold")]
    pub beam_ignore_eval_max: i32,
    /// `-bihmin N` (beamIgnoreHyoukamin): plan-acceptance threshold (§9h).
    #[arg(long = "bihmin", value_name = "N", default_value_t = D.original.beam_ignore_eval_min, value_parser = whole::<i32>())]
    #[arg(help_heading = heading::ORIGINAL_TURN, help = "Plan acceptance: lower evaluation threshold")]
    pub beam_ignore_eval_min: i32,
    /// `-bihd N` (beamIgnoreHyoukadiff): plan-acceptance margin (§9h).
    #[arg(long = "bihd", value_name = "N", default_value_t = D.original.beam_ignore_eval_diff, value_parser = whole::<i32>())]
    #[arg(help_heading = heading::ORIGINAL_TURN,
          help = "Plan acceptance: margin to the best full-search move")]
    pub beam_ignore_eval_diff: i32,
    /// `-nc` (nextchain): run a beam every turn once the first plan is over, and allow skill mode.
    #[arg(long = "nc", default_value_t = D.original.next_chain)]
    #[arg(help_heading = heading::ORIGINAL_TURN,
          help = "Run a chain beam every turn after the first plan, and allow skill mode")]
    pub next_chain: bool,
    /// `--no-nc`: no per-turn beams and no skill mode once the first plan is over.
    #[arg(long = "no-nc")]
    #[arg(help_heading = heading::ORIGINAL_TURN, help = "Turn -nc (on by default) off")]
    pub no_nc: bool,
    /// `--skill-mode-final`: enter skill mode whenever my best chain is below 7 (the final
    /// version's extra rule); by default only the qualifier's tests apply.
    #[arg(long = "skill-mode-final")]
    #[arg(help_heading = heading::ORIGINAL_TURN,
          help = "Also enter skill mode when my best chain is below 7 (final version)")]
    pub skill_mode_final: bool,
    /// `-nbminc N` (nextbeamsearchminChain): skill mode is considered below this chain size (§9g).
    #[arg(long = "nbminc", value_name = "N", default_value_t = D.original.next_beam_min_chain, value_parser = whole::<i32>())]
    #[arg(help_heading = heading::ORIGINAL_TURN,
          help = "Consider skill mode when no chain of this size is reachable")]
    pub next_beam_min_chain: i32,
    /// `-nbihd N` (nextbeamIgnoreHyoukadiff): per-turn beam acceptance margin (§9h).
    #[arg(long = "nbihd", value_name = "N", default_value_t = D.original.next_beam_ignore_eval_diff, value_parser = whole::<i32>())]
    #[arg(help_heading = heading::ORIGINAL_TURN,
          help = "Acceptance margin to the best full-search move")]
    pub next_beam_ignore_eval_diff: i32,
    /// `-fsm` (firstskillmode): start the game in skill mode.
    #[arg(long = "fsm")]
    #[arg(help_heading = heading::ORIGINAL_TURN, help = "Start the game in skill mode")]
    pub first_skill_mode: bool,
}

/// The original's helper beams: counter analysis, skill-mode decision, safety and skill.
#[derive(Clone, Debug, PartialEq, clap::Args, Serialize)]
pub struct HelperBeamFlags {
    /// `-ebd N` (enebeamsearchDepth): counter analysis, depth of the first enemy beam.
    #[arg(long = "ebd", value_name = "N", default_value_t = D.helpers.enemy_beam_depth, value_parser = whole::<usize>())]
    #[arg(help_heading = heading::HELPER_BEAMS,
          help = "Counter analysis: depth of the first enemy beam")]
    pub enemy_beam_depth: usize,
    /// `-ebt MS` (enebeamsearchlimit): counter analysis, time per beam.
    #[arg(long = "ebt", value_name = "MS", default_value_t = D.helpers.enemy_beam_time_ms, value_parser = whole::<u64>())]
    #[arg(help_heading = heading::HELPER_BEAMS, help = "Counter analysis: time per beam")]
    pub enemy_beam_time_ms: u64,
    /// `-nebw N` (nextenebeamsearchWidth): enemy beam width for the skill-mode decision (§9g).
    #[arg(long = "nebw", value_name = "N", default_value_t = D.helpers.next_enemy_beam_width, value_parser = whole::<usize>())]
    #[arg(help_heading = heading::HELPER_BEAMS, help = "Skill-mode decision: enemy beam width")]
    pub next_enemy_beam_width: usize,
    /// `-nebcw N` (nextenebeamsearchChainWidth): that beam's width per chain bucket.
    #[arg(long = "nebcw", value_name = "N", default_value_t = D.helpers.next_enemy_beam_chain_width, value_parser = whole::<usize>())]
    #[arg(help_heading = heading::HELPER_BEAMS,
          help = "Skill-mode decision: width per chain bucket")]
    pub next_enemy_beam_chain_width: usize,
    /// `-nebt MS` (nextenebeamsearchlimit): that beam's time.
    #[arg(long = "nebt", value_name = "MS", default_value_t = D.helpers.next_enemy_beam_time_ms, value_parser = whole::<u64>())]
    #[arg(help_heading = heading::HELPER_BEAMS, help = "Skill-mode decision: time")]
    pub next_enemy_beam_time_ms: u64,
    /// `-dbw N` (droppedbeamsearchWidth): safety beam width (§9f).
    #[arg(long = "dbw", value_name = "N", default_value_t = D.helpers.dropped_beam_width, value_parser = whole::<usize>())]
    #[arg(help_heading = heading::HELPER_BEAMS,
          help = "Safety beam (enemy attacks during my plan): width")]
    pub dropped_beam_width: usize,
    /// `-dbcw N` (droppedbeamsearchChainWidth): safety beam width per chain bucket.
    #[arg(long = "dbcw", value_name = "N", default_value_t = D.helpers.dropped_beam_chain_width, value_parser = whole::<usize>())]
    #[arg(help_heading = heading::HELPER_BEAMS, help = "Safety beam: width per chain bucket")]
    pub dropped_beam_chain_width: usize,
    /// `-dbd N` (droppedbeamsearchDepth): safety beam depth.
    #[arg(long = "dbd", value_name = "N", default_value_t = D.helpers.dropped_beam_depth, value_parser = whole::<usize>())]
    #[arg(help_heading = heading::HELPER_BEAMS, help = "Safety beam: depth")]
    pub dropped_beam_depth: usize,
    /// `-dbt MS` (droppedbeamsearchlimit): safety beam time, per drop depth.
    #[arg(long = "dbt", value_name = "MS", default_value_t = D.helpers.dropped_beam_time_ms, value_parser = whole::<u64>())]
    #[arg(help_heading = heading::HELPER_BEAMS, help = "Safety beam: time per drop depth")]
    pub dropped_beam_time_ms: u64,
    /// `-sbw N` (skillbeamsearchWidth): skill beam width (§9g).
    #[arg(long = "sbw", value_name = "N", default_value_t = D.helpers.skill_beam_width, value_parser = whole::<usize>())]
    #[arg(help_heading = heading::HELPER_BEAMS, help = "Skill beam: width")]
    pub skill_beam_width: usize,
    /// `-sbcw N` (skillbeamsearchChainWidth): skill beam width per chain bucket.
    #[arg(long = "sbcw", value_name = "N", default_value_t = D.helpers.skill_beam_chain_width, value_parser = whole::<usize>())]
    #[arg(help_heading = heading::HELPER_BEAMS, help = "Skill beam: width per chain bucket")]
    pub skill_beam_chain_width: usize,
    /// `-sbd N` (skillbeamsearchDepth): skill beam depth.
    #[arg(long = "sbd", value_name = "N", default_value_t = D.helpers.skill_beam_depth, value_parser = whole::<usize>())]
    #[arg(help_heading = heading::HELPER_BEAMS, help = "Skill beam: depth")]
    pub skill_beam_depth: usize,
    /// `-sbt MS` (skillbeamsearchlimit): skill beam time.
    #[arg(long = "sbt", value_name = "MS", default_value_t = D.helpers.skill_beam_time_ms, value_parser = whole::<u64>())]
    #[arg(help_heading = heading::HELPER_BEAMS, help = "Skill beam: time")]
    pub skill_beam_time_ms: u64,
}

/// The `-tm` line: read by ysai's turn, the original's and the rush player.
#[derive(Clone, Debug, PartialEq, clap::Args, Serialize)]
pub struct TurnLogFlags {
    /// `-tm` (turndebugmsg): the parameter dump (every setting as a flag,
    /// [`crate::cli::effective_flags`]) and one debug line per turn on stderr; `-m` sets it too
    /// (as a default, so that `-tm` does not count as given).
    #[arg(long = "tm", default_value_if("debug_msg", "true", "true"))]
    #[arg(help_heading = heading::DEBUG,
          help = "Every setting as flags once at the start, then one debug line per turn, on stderr")]
    pub turn_debug_msg: bool,
}

/// The `-m` block: read by ysai's turn and the original's.
#[derive(Clone, Debug, PartialEq, clap::Args, Serialize)]
pub struct DetailFlags {
    /// `-m` (debugmsg): verbose debug output with both fields every turn (§14); implies `-tm`.
    #[arg(long = "m")]
    #[arg(help_heading = heading::DEBUG,
          help = "Verbose debug output with both fields every turn (implies -tm)")]
    pub debug_msg: bool,
}

/// Which game and turn of the input to answer: read by every player.
#[derive(Clone, Debug, PartialEq, clap::Args, Serialize)]
pub struct InputFlags {
    /// `-g N` (checkgame): play game N (0-based) of a multi-game input; `-1` and 0: the first.
    #[arg(long = "g", value_name = "N", default_value_t = D.input.check_game, value_parser = whole::<i32>())]
    #[arg(help_heading = heading::DEBUG, help = "Play game N (0-based) of a multi-game input file")]
    pub check_game: i32,
    /// `-t N` (checkturn): compute and output only turn N; `-1`: every turn.
    #[arg(long = "t", value_name = "N", default_value_t = D.input.check_turn, value_parser = whole::<i32>())]
    #[arg(help_heading = heading::DEBUG, help = "Compute and output only turn N; -1: every turn")]
    pub check_turn: i32,
}

/// Which turn the full player plays: read by the full player only.
#[derive(Clone, Debug, PartialEq, clap::Args, Serialize)]
pub struct TurnFlags {
    /// `--style default|original`: `original` plays as the original's final run.sh did (the
    /// flags of [`Params::original_style`] that are not given take the original's values).
    #[arg(long = "style", value_name = "default|original", value_enum,
          hide_possible_values = true, default_value_t = D.turn.style)]
    #[arg(help_heading = heading::ENGINE, display_order = 6,
          help = "original: the original's own turn (its plans, beams, counter analysis, search choosing every move; --beam-eval ysai -bcm 12 -bcm2 16 unless given)")]
    pub style: Style,
}

/// Flags of the original versions that are accepted, so that their command lines still run,
/// and change nothing here: debugging aids of the original's own (its chain printer, forced
/// moves, first-beam benchmark), the qualifier's beam experiments, and values the original
/// parsed but never read. Naming one prints a note ([`COMPATIBILITY_FLAGS`]).
#[derive(Clone, Debug, Default, PartialEq, clap::Args)]
pub struct Compatibility {
    /// `-hl0 N` (hyouka_limit_0): the qualifier's height limit, replaced by `-hl`.
    #[arg(long = "hl0", value_name = "N", help_heading = heading::COMPATIBILITY,
          help = "The qualifier's -hl (replaced by -hl)", value_parser = whole::<i32>())]
    pub eval_limit_0: Option<i32>,
    /// `-hl1 N`, `-hl2 N`: parsed by the qualifier, never read.
    #[arg(long = "hl1", value_name = "N", help_heading = heading::COMPATIBILITY,
          help = "Parsed by the qualifier, never read", value_parser = whole::<i32>())]
    pub eval_limit_1: Option<i32>,
    #[arg(long = "hl2", value_name = "N", help_heading = heading::COMPATIBILITY,
          help = "Parsed by the qualifier, never read", value_parser = whole::<i32>())]
    pub eval_limit_2: Option<i32>,
    /// `-sc` (showchain): the original printed every chain step; `ysai arena replay` shows
    /// chains step by step instead.
    #[arg(long = "sc", help_heading = heading::COMPATIBILITY,
          help = "The original's chain printer (see `ysai arena replay`)")]
    pub show_chain: bool,
    /// `-cb` (checkbeamchain): the original's first-beam benchmark; see `ysai bench chains`.
    #[arg(long = "cb", help_heading = heading::COMPATIBILITY,
          help = "The original's first-beam benchmark (see `ysai bench chains`)")]
    pub beam_benchmark: bool,
    /// `-bx -br -bx2 -br2`: the original's forced moves for its chain printer.
    #[arg(long = "bx", value_name = "N",
          help_heading = heading::COMPATIBILITY, help = "A forced move's x for the chain printer", value_parser = whole::<i32>())]
    pub forced_x: Option<i32>,
    #[arg(long = "br", value_name = "N",
          help_heading = heading::COMPATIBILITY, help = "A forced move's rotation for the chain printer", value_parser = whole::<i32>())]
    pub forced_r: Option<i32>,
    #[arg(long = "bx2", value_name = "N",
          help_heading = heading::COMPATIBILITY, help = "A second forced move's x", value_parser = whole::<i32>())]
    pub forced_x2: Option<i32>,
    #[arg(long = "br2", value_name = "N",
          help_heading = heading::COMPATIBILITY, help = "A second forced move's rotation", value_parser = whole::<i32>())]
    pub forced_r2: Option<i32>,
    /// `-sma`, `-es`: parsed by the original, never read.
    #[arg(long = "sma", help_heading = heading::COMPATIBILITY,
          help = "Parsed by the original, never read")]
    pub show_my_analyze: bool,
    #[arg(long = "es", help_heading = heading::COMPATIBILITY,
          help = "Parsed by the original, never read")]
    pub calc_my_estatus: bool,
    /// `-nfb`, `-brtl MS`: the qualifier's experimental first beam (`beamsearch_first`).
    #[arg(long = "nfb", help_heading = heading::COMPATIBILITY,
          help = "The qualifier's switch away from its experimental first beam")]
    pub no_new_first_beam: bool,
    #[arg(long = "brtl", value_name = "MS", help_heading = heading::COMPATIBILITY,
          help = "The time limit of the qualifier's experimental first beam", value_parser = whole::<u64>())]
    pub first_beam_reduce_time_ms: Option<u64>,
    /// `-nubhm`, `-bhm X`, `-nbhm X`: the qualifier's old beam evaluation and multipliers it
    /// overwrote.
    #[arg(long = "nubhm", help_heading = heading::COMPATIBILITY,
          help = "The qualifier's old beam evaluation")]
    pub no_beam_eval_mul: bool,
    #[arg(long = "bhm", value_name = "X",
          help_heading = heading::COMPATIBILITY, help = "A multiplier the qualifier overwrote", value_parser = number())]
    pub first_beam_eval_mul: Option<f64>,
    #[arg(long = "nbhm", value_name = "X",
          help_heading = heading::COMPATIBILITY, help = "A multiplier the qualifier overwrote", value_parser = number())]
    pub next_beam_eval_mul: Option<f64>,
    /// `-btl MS` (beamtimelimit): the original's deadline for a beam's final sort and
    /// selection, which here takes no measurable time.
    #[arg(long = "btl", value_name = "MS", help_heading = heading::COMPATIBILITY,
          help = "The original's deadline for a beam's final selection (instant here)", value_parser = whole::<u64>())]
    pub beam_time_limit_ms: Option<u64>,
}

/// The long names of [`Compatibility`]'s flags.
pub const COMPATIBILITY_FLAGS: &[&str] = &[
    "hl0", "hl1", "hl2", "sc", "cb", "bx", "br", "bx2", "br2", "sma", "es", "nfb", "brtl", "nubhm",
    "bhm", "nbhm", "btl",
];
