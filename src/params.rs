//! Every tunable setting of the AI, with the original program's defaults.
//!
//! Each field names the original flag and field (see `spec/ysai-reference.md` §7). Defaults are
//! those of the final version; flags that only the qualifier version had use the qualifier's
//! default. Values are stored as given: range checks and clamping belong to the code that uses
//! them, so that a replayed command line means exactly what it meant to the original.

/// Which move chooser plays the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum PlayerKind {
    /// Uniformly random legal moves, reproducible from `--seed`.
    Random,
    /// The chain-building search AI.
    Greedy,
}

/// How the simulator finds the cells around a vanishing block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum NeighbourMode {
    /// Precomputed per-column-pattern tables (160 MiB), as the original did.
    Table,
    /// Bit shifts of the board: no tables, small memory.
    Shift,
}

/// All settings of one run.
#[derive(Clone, Debug, PartialEq)]
pub struct Params {
    // --- Search ---
    /// `-d N` (searchDepth): depth of my full search (the original's maximum is 6).
    pub search_depth: usize,
    /// `-ed N` (enesearchDepth): depth of the enemy full search.
    pub enemy_search_depth: usize,
    /// `-tt N` (usett): transposition tables on; `-tt 0` turns them off.
    pub use_tt: bool,
    /// `-it` (ignoretime): never reduce search depths when time runs short (§9i).
    pub ignore_time: bool,
    /// `-ai2` (ai2): my full search returns minimax-style values (§9d).
    pub ai2_minimax: bool,
    /// `-ai3` (ai3): take the minimum over the enemy-drop and no-drop branches (needs `-ai2`).
    pub ai3_min_over_drops: bool,
    /// `-ncfc` (checkfirstchain = false): `false` skips the counter-attack analysis (§9e).
    pub check_first_chain: bool,

    // --- First beam (turn 0) ---
    /// `-bd N` (beamsearchDepth): maximum depth of the first chain-building beam.
    pub beam_depth: usize,
    /// `-bw N` (beamsearchWidth): first-beam total width per depth.
    pub beam_width: usize,
    /// `-bcw N` (beamsearchChainWidth): first-beam width per chain bucket.
    pub beam_chain_width: usize,
    /// `-bcm N` (beamChainmax1): target chain of the first beam; `<= 0` disables the target.
    pub beam_chain_max: i32,
    /// `-bcm- N` (beamChainmaxminus): once the target is found, keep buckets `>= target + N`.
    /// The final version clamped a parsed positive N to 0 while the unparsed default 1 stays 1;
    /// the qualifier kept buckets `>= best - N` unclamped. The raw value is kept here.
    pub beam_chain_max_minus: i32,
    /// `-bcm2 N` (beamChainmax2): stop the first beam once its best chain is `>= N`; `<= 0`: never.
    pub beam_chain_max2: i32,
    /// `-sbcm` (stopbeamChainmax): stop the first beam at the depth that first reaches the target.
    pub stop_beam_at_chain_max: bool,
    /// `-bminx N` (beamminx): lowest pack x the first beam tries.
    pub beam_min_x: i32,
    /// `-bmaxx N` (beammaxx): highest pack x the first beam tries.
    pub beam_max_x: i32,
    /// `-ftl MS` (firsttimelimit): first-beam time limit, counted from reading the first pack.
    pub first_time_limit_ms: u64,
    /// `-btl MS` (beamtimelimit): deadline for the final sort and selection of any beam.
    pub beam_time_limit_ms: u64,
    /// `-bihmax N` (beamIgnoreHyoukamax): plan-acceptance threshold (§9h).
    pub beam_ignore_eval_max: i32,
    /// `-bihmin N` (beamIgnoreHyoukamin): plan-acceptance threshold (§9h).
    pub beam_ignore_eval_min: i32,
    /// `-bihd N` (beamIgnoreHyoukadiff): plan-acceptance margin (§9h).
    pub beam_ignore_eval_diff: i32,

    // --- Per-turn beams ---
    /// `-nc` (nextchain): run a beam every turn once the first plan is over, and allow skill mode.
    pub next_chain: bool,
    /// `-nbw N` (nextbeamsearchWidth): per-turn beam width.
    pub next_beam_width: usize,
    /// `-nbcw N` (nextbeamsearchChainWidth): per-turn beam width per chain bucket.
    pub next_beam_chain_width: usize,
    /// `-nbd N` (nextbeamsearchDepth): per-turn beam depth (also the enemy beam of §9g).
    pub next_beam_depth: usize,
    /// `-nftl MS` (nextfirsttimelimit): per-turn beam time.
    pub next_beam_time_ms: u64,
    /// `-nbminc N` (nextbeamsearchminChain): skill mode is considered below this chain size (§9g).
    pub next_beam_min_chain: i32,
    /// `-nbihd N` (nextbeamIgnoreHyoukadiff): per-turn beam acceptance margin (§9h).
    pub next_beam_ignore_eval_diff: i32,
    /// `-fsm` (firstskillmode): start the game in skill mode.
    pub first_skill_mode: bool,

    // --- Helper beams ---
    /// `-ebw N` (enebeamsearchWidth): counter analysis, enemy beam width (§9e).
    pub enemy_beam_width: usize,
    /// `-ebcw N` (enebeamsearchChainWidth): counter analysis, width per chain bucket.
    pub enemy_beam_chain_width: usize,
    /// `-ebd N` (enebeamsearchDepth): counter analysis, depth of the first enemy beam.
    pub enemy_beam_depth: usize,
    /// `-ebt MS` (enebeamsearchlimit): counter analysis, time per beam.
    pub enemy_beam_time_ms: u64,
    /// `-nebw N` (nextenebeamsearchWidth): enemy beam width for the skill-mode decision (§9g).
    pub next_enemy_beam_width: usize,
    /// `-nebcw N` (nextenebeamsearchChainWidth): that beam's width per chain bucket.
    pub next_enemy_beam_chain_width: usize,
    /// `-nebt MS` (nextenebeamsearchlimit): that beam's time.
    pub next_enemy_beam_time_ms: u64,
    /// `-dbw N` (droppedbeamsearchWidth): safety beam width (§9f).
    pub dropped_beam_width: usize,
    /// `-dbcw N` (droppedbeamsearchChainWidth): safety beam width per chain bucket.
    pub dropped_beam_chain_width: usize,
    /// `-dbd N` (droppedbeamsearchDepth): safety beam depth.
    pub dropped_beam_depth: usize,
    /// `-dbt MS` (droppedbeamsearchlimit): safety beam time, per drop depth.
    pub dropped_beam_time_ms: u64,
    /// `-sbw N` (skillbeamsearchWidth): skill beam width (§9g).
    pub skill_beam_width: usize,
    /// `-sbcw N` (skillbeamsearchChainWidth): skill beam width per chain bucket.
    pub skill_beam_chain_width: usize,
    /// `-sbd N` (skillbeamsearchDepth): skill beam depth.
    pub skill_beam_depth: usize,
    /// `-sbt MS` (skillbeamsearchlimit): skill beam time.
    pub skill_beam_time_ms: u64,

    // --- Evaluation ---
    /// `-hl N` (hyouka_limit): evaluation per column of height >= 17 while the gauge is below 80.
    pub eval_limit: i32,
    /// `-hl0 N` (hyouka_limit_0, qualifier): the qualifier's version of `-hl`.
    pub eval_limit_0: i32,
    /// `-hl1 N` (hyouka_limit_1, qualifier): parsed by the qualifier but never used.
    pub eval_limit_1: i32,
    /// `-hl2 N` (hyouka_limit_2, qualifier): parsed by the qualifier but never used.
    pub eval_limit_2: i32,
    /// `-emdh X` (enemaydrophyouka): evaluation per "enemy may drop ojama" branch (§10).
    pub enemy_may_drop_eval: f64,
    /// `-endh X` (enenotdrophyouka): evaluation per "enemy chose not to drop" branch (§10).
    /// The qualifier's default was 15.
    pub enemy_not_drop_eval: f64,
    /// `-fmcn N` (firstminchainnum): chains shorter than this get `first_min_chain_minus` (§10).
    pub first_min_chain_num: i32,
    /// `-fmcm X` (firstminchainminus): penalty for firing a chain below `first_min_chain_num`.
    pub first_min_chain_minus: f64,
    /// `-smcn N` (secondminchainnum): chains shorter than this get `second_min_chain_minus`.
    pub second_min_chain_num: i32,
    /// `-smcm X` (secondminchainminus): penalty for firing a chain below `second_min_chain_num`.
    pub second_min_chain_minus: f64,
    /// `-nes` (calceneskill = false): `false` drops the enemy-skill evaluation term.
    pub calc_enemy_skill: bool,

    // --- Debug ---
    /// `-m` (debugmsg): verbose debug output with both fields every turn (§14); implies `-tm`.
    pub debug_msg: bool,
    /// `-tm` (turndebugmsg): the parameter dump and one debug line per turn on stderr.
    pub turn_debug_msg: bool,
    /// `-sc` (showchain): print every chain step of every simulated move; with `-t`: replay, exit.
    pub show_chain: bool,
    /// `-cb` (checkbeamchain): benchmark the first beam on every game-start block of the input.
    pub beam_benchmark: bool,
    /// `-g N` (checkgame): play game N (0-based) of a multi-game input; `-1` and 0: the first.
    pub check_game: i32,
    /// `-t N` (checkturn): compute and output only turn N; `-1`: every turn.
    pub check_turn: i32,
    /// `-bx N` (beamx): forced move x at the `-t` turn; `-2`: none (`-1` is the skill).
    pub forced_x: i32,
    /// `-br N` (beamr): forced rotation at the `-t` turn; `-1`: none.
    pub forced_r: i32,
    /// `-bx2 N` (beamx2): second forced move x for the `-t -sc` replay; `-2`: none.
    pub forced_x2: i32,
    /// `-br2 N` (beamr2): second forced rotation; the second move is replayed only if `>= 0`.
    pub forced_r2: i32,
    /// `-sma` (showmyanalyze): accepted for compatibility; the original never used it.
    pub show_my_analyze: bool,
    /// `-es` (calcmyestatus): accepted for compatibility; the original never used it.
    pub calc_my_estatus: bool,

    // --- Qualifier version only ---
    /// `-ai N` (aitype, qualifier): 0 = full search only, 1 = no beams, 2 = chain beams.
    pub ai_type: u8,
    /// `-nfb` (usenewfirstbeam = false): `false` uses the normal first beam instead of the
    /// qualifier's `beamsearch_first` (§9a.6).
    pub use_new_first_beam: bool,
    /// `-brtl MS` (firstbeamreducetimelimit, qualifier): time limit of `beamsearch_first` only.
    pub first_beam_reduce_time_ms: u64,
    /// `-nubhm` (usebeamhyoukamul = false): `false` selects the qualifier's old beam evaluation
    /// `chain * 100 + blocks`, without cut-off.
    pub use_beam_eval_mul: bool,
    /// `-bhm X` (firstbeamhyoukamul, qualifier): parsed, but the original overwrote the value.
    pub first_beam_eval_mul: f64,
    /// `-nbhm X` (nextbeamhyoukamul, qualifier): parsed, but the original overwrote the value.
    pub next_beam_eval_mul: f64,

    // --- Engine (new in this implementation) ---
    /// `--threads N`: worker threads; 0 (the default) = all cores. The original `-ut` also
    /// means all cores.
    pub threads: usize,
    /// `--ai NAME`: which move chooser plays.
    pub player: PlayerKind,
    /// `--neighbours MODE`: neighbour lookup of the simulator.
    pub neighbours: NeighbourMode,
    /// `--seed N`: seed of the random player.
    pub seed: u64,
}

impl Params {
    /// The defaults as a constant, so that the command line can show them in `--help`.
    pub const DEFAULT: Params = Params {
        search_depth: 4,
        enemy_search_depth: 4,
        use_tt: true,
        ignore_time: false,
        ai2_minimax: false,
        ai3_min_over_drops: false,
        check_first_chain: true,

        beam_depth: 20,
        beam_width: 5000,
        beam_chain_width: 1500,
        beam_chain_max: -1,
        beam_chain_max_minus: 1,
        beam_chain_max2: 14,
        stop_beam_at_chain_max: false,
        beam_min_x: 0,
        beam_max_x: 8,
        first_time_limit_ms: 19_000,
        beam_time_limit_ms: 19_250,
        beam_ignore_eval_max: 40,
        beam_ignore_eval_min: -20,
        beam_ignore_eval_diff: 15,

        next_chain: false,
        next_beam_width: 100,
        next_beam_chain_width: 50,
        next_beam_depth: 10,
        next_beam_time_ms: 500,
        next_beam_min_chain: 9,
        next_beam_ignore_eval_diff: 20,
        first_skill_mode: false,

        enemy_beam_width: 1600,
        enemy_beam_chain_width: 400,
        enemy_beam_depth: 5,
        enemy_beam_time_ms: 1000,
        next_enemy_beam_width: 750,
        next_enemy_beam_chain_width: 250,
        next_enemy_beam_time_ms: 500,
        dropped_beam_width: 350,
        dropped_beam_chain_width: 100,
        dropped_beam_depth: 7,
        dropped_beam_time_ms: 500,
        skill_beam_width: 1000,
        skill_beam_chain_width: 200,
        skill_beam_depth: 10,
        skill_beam_time_ms: 500,

        eval_limit: -200,
        eval_limit_0: -200,
        eval_limit_1: -100,
        eval_limit_2: -50,
        enemy_may_drop_eval: -5.0,
        enemy_not_drop_eval: 5.0,
        first_min_chain_num: 10,
        first_min_chain_minus: -100.0,
        second_min_chain_num: 9,
        second_min_chain_minus: -50.0,
        calc_enemy_skill: true,

        debug_msg: false,
        turn_debug_msg: false,
        show_chain: false,
        beam_benchmark: false,
        check_game: -1,
        check_turn: -1,
        forced_x: -2,
        forced_r: -1,
        forced_x2: -2,
        forced_r2: -1,
        show_my_analyze: false,
        calc_my_estatus: false,

        ai_type: 2,
        use_new_first_beam: true,
        first_beam_reduce_time_ms: 10_000,
        use_beam_eval_mul: true,
        first_beam_eval_mul: 1.0,
        next_beam_eval_mul: 1.0,

        threads: 0,
        player: PlayerKind::Greedy,
        neighbours: NeighbourMode::Shift,
        seed: 0,
    };
}

impl Default for Params {
    fn default() -> Self {
        Self::DEFAULT
    }
}
