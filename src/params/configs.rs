//! Each player's and search's settings, built from the flags they read: the only place a
//! config is put together from [`Params`].

use super::*;

impl Params {
    /// The first beam of a game (§9a.3): `-bd -bw -bcw -bcm -bcm- -sbcm -bcm2 -bminx -bmaxx`,
    /// the height cut-off, the rank and the node budget.
    pub fn first_beam(&self) -> BeamConfig {
        let opening = &self.opening;
        BeamConfig {
            target: self.target.target(positive(self.target.beam_chain_max)),
            stop_chain: positive(self.target.beam_chain_max2),
            min_x: opening.beam_min_x.clamp(0, 8) as u8,
            max_x: opening.beam_max_x.clamp(0, 8) as u8,
            height_cutoff: opening.height_cutoff,
            eval: opening.beam_eval(),
            node_budget: opening.node_budget(),
            ..BeamConfig::new(
                opening.beam_depth,
                opening.beam_width,
                opening.beam_chain_width,
            )
        }
    }

    /// The per-turn beam (§9b): `-nbd -nbw -nbcw` over every column, aiming at a 10-chain
    /// while my best chain this turn is at most `--nbtmax`.
    pub fn turn_beam(&self) -> TurnBeam {
        let beams = &self.turn_beams;
        TurnBeam {
            beam: BeamConfig {
                target: self.target.target(Some(TURN_BEAM_TARGET)),
                eval: self.opening.beam_eval(),
                node_budget: self.opening.node_budget(),
                ..BeamConfig::new(
                    beams.next_beam_depth,
                    beams.next_beam_width,
                    beams.next_beam_chain_width,
                )
            },
            aim_up_to: i64::from(self.turn_beam_limits.next_beam_target_max),
        }
    }

    /// `--ai beam`: the first beam and the per-turn one with their times (`-ftl`, `-nftl`),
    /// the chain it fires (`-bcm`), the turn limit.
    pub fn beam_player(&self) -> BeamPlayerConfig {
        BeamPlayerConfig {
            first: self.first_beam(),
            first_ms: self.opening.first_time_limit_ms,
            turn: self.turn_beam(),
            turn_ms: self.turn_beam_limits.next_beam_time_ms,
            fire_chain: self.target_chain(),
            turn_limit_ms: self.clock.turn_limit_ms,
        }
    }

    /// `--style original`: the original's own turn, every flag it reads (§7).
    pub fn original_player(&self) -> OriginalConfig {
        let (helpers, answer, original) = (&self.helpers, &self.answer_beam, &self.original);
        let helper = |depth, width, chain_width, ms| HelperBeam {
            depth,
            width,
            chain_width,
            ms,
        };
        OriginalConfig {
            full: self.full_search(),
            first_beam: self.first_beam(),
            first_ms: self.opening.first_time_limit_ms,
            target_chain: self.target_chain(),
            turn_beam: self.turn_beam(),
            turn_ms: self.turn_beam_limits.next_beam_time_ms,
            enemy_beam: helper(
                helpers.enemy_beam_depth,
                answer.enemy_beam_width,
                answer.enemy_beam_chain_width,
                helpers.enemy_beam_time_ms,
            ),
            next_enemy_beam: helper(
                self.turn_beams.next_beam_depth,
                helpers.next_enemy_beam_width,
                helpers.next_enemy_beam_chain_width,
                helpers.next_enemy_beam_time_ms,
            ),
            dropped_beam: helper(
                helpers.dropped_beam_depth,
                helpers.dropped_beam_width,
                helpers.dropped_beam_chain_width,
                helpers.dropped_beam_time_ms,
            ),
            skill_beam: helper(
                helpers.skill_beam_depth,
                helpers.skill_beam_width,
                helpers.skill_beam_chain_width,
                helpers.skill_beam_time_ms,
            ),
            keep_offset: self.target.beam_chain_max_minus,
            beam_nodes: self.opening.node_budget(),
            check_first_chain: original.check_first_chain,
            next_chain: original.next_chain,
            first_skill_mode: original.first_skill_mode,
            skill_mode_final: original.skill_mode_final,
            next_beam_min_chain: original.next_beam_min_chain,
            next_beam_ignore_eval_diff: original.next_beam_ignore_eval_diff,
            beam_ignore_eval_max: original.beam_ignore_eval_max,
            beam_ignore_eval_min: original.beam_ignore_eval_min,
            beam_ignore_eval_diff: original.beam_ignore_eval_diff,
            turn_limit_ms: self.clock.turn_limit_ms,
            report: self.log.turn_debug_msg,
            detail: self.detail.debug_msg,
        }
    }

    /// `--ai rush`: the champion's rules as switched, the clock, the seed of its tie-breaks,
    /// `--late-game` and `-tm`.
    pub fn rush_player(&self) -> RushConfig {
        RushConfig {
            turn_limit_ms: self.clock.turn_limit_ms,
            seed: self.seed,
            report: self.log.turn_debug_msg,
            late_game: self.rush.rush_late_game,
            rules: self.rush_rules(),
        }
    }

    /// The counter partner's build beams, ranked by the pack-free potential (`--beam-nodes`
    /// if set): the opening's (`-bd -bw -bcw`, every column) and the per-turn one (`-nbd -nbw
    /// -nbcw`); and its turn limit.
    pub fn counter_player(&self) -> CounterConfig {
        let (opening, turn) = (&self.opening, &self.turn_beams);
        let potential_beam = |depth, width, chain_width| BeamConfig {
            eval: BeamEval::Potential,
            node_budget: opening.node_budget(),
            ..BeamConfig::new(depth, width, chain_width)
        };
        CounterConfig {
            opening: potential_beam(
                opening.beam_depth,
                opening.beam_width,
                opening.beam_chain_width,
            ),
            beam: potential_beam(
                turn.next_beam_depth,
                turn.next_beam_width,
                turn.next_beam_chain_width,
            ),
            turn_limit_ms: self.clock.turn_limit_ms,
        }
    }

    /// The rules around ysai's plans: its opening plan is the first beam's depth and time, a
    /// replan `-nbd` moves deep.
    pub fn ysai_rules(&self) -> RulesConfig {
        RulesConfig {
            opening: (self.opening.beam_depth, self.opening.first_time_limit_ms),
            replan: (self.turn_beams.next_beam_depth, plan_rules::REPLAN.1),
            refine: (self.exchange.refine_ms > 0)
                .then_some((REFINE_DEPTH, self.exchange.refine_ms)),
            keep_ready: !self.rules.no_keep_ready,
            rebuild_race: self.rules.rebuild_race,
            ..self.rush_rules()
        }
    }

    /// The rules around the rush partner's plans: the champion's, as switched.
    pub fn rush_rules(&self) -> RulesConfig {
        RulesConfig {
            counter_plan: !self.rules.no_counter_plan,
            hold_fire: !self.rules.no_hold_fire,
            outbuild: !self.rules.no_outbuild,
            opening: RUSH_OPENING,
            replan: plan_rules::REPLAN,
            refine: None,
            keep_ready: false,
            rebuild_race: false,
        }
    }

    /// The full searches of ysai's turn and the original's: my and the enemy's depths (`-d`,
    /// `-ed`, `-it`), the evaluation's weights, how they read the enemy's attack (`-ai2`,
    /// `-ai3`, `-ai3b`) and their shared table (`-tt`, `--hash`).
    pub fn full_search(&self) -> FullSearchConfig {
        FullSearchConfig {
            depths: (
                self.search.search_depth.clamp(1, MAX_DEPTH),
                self.search.enemy_search_depth.min(MAX_DEPTH),
            ),
            ignore_time: self.search.ignore_time,
            eval: self.eval.context(),
            model: EnemyModel {
                branch: self.search.ai2_minimax && self.search.ai3_min_over_drops,
                branch_on_big_attack: self.search.ai3_big_attack,
            },
            table_megabytes: self.search.use_tt.then_some(self.search.tt_megabytes),
        }
    }

    /// ysai's turn (`--ai full`): its plan searches at the beams' widths (`-bw -bcw`, `-nbw
    /// -nbcw`, `-ebw -ebcw`), the opening's columns, `--beam-eval` and `--beam-nodes`; its
    /// rules; `--exchange`; the full search while `--guard-ms` gives it time; the clock and
    /// `-tm`.
    pub fn ysai(&self) -> YsaiConfig {
        let first = self.first_beam();
        YsaiConfig {
            plans: BeamPlans {
                opening: (self.opening.beam_width, self.opening.beam_chain_width),
                turn: (
                    self.turn_beams.next_beam_width,
                    self.turn_beams.next_beam_chain_width,
                ),
                answer: (
                    self.answer_beam.enemy_beam_width,
                    self.answer_beam.enemy_beam_chain_width,
                ),
                eval: self.opening.beam_eval(),
                opening_columns: (first.min_x, first.max_x, first.height_cutoff),
                nodes: first.node_budget,
                anytime: !self.exchange.beam_plans,
                seed: self.seed,
            },
            rules: self.ysai_rules(),
            exchange: self.exchange.exchange,
            guard: (self.guard.guard_ms > 0).then(|| (self.full_search(), self.guard.guard_ms)),
            turn_limit_ms: self.clock.turn_limit_ms,
            report: self.log.turn_debug_msg,
        }
    }

    /// The rush player's opening plan (`bench chains --ai rush`): `-bd` moves from the start
    /// of the game until `deadline`, or `--beam-nodes` expansions (reproducibly) if set.
    pub fn first_plan(&self, deadline: Instant) -> ChokudaiConfig {
        let nodes = self.opening.node_budget();
        ChokudaiConfig {
            horizon: self.opening.beam_depth,
            deadline: nodes.is_none().then_some(deadline),
            expansions: nodes,
            injected: Vec::new(),
            seed: self.seed,
            first_move: None,
        }
    }
}

impl OpeningBeamFlags {
    /// What the beams rank nodes by.
    pub fn beam_eval(&self) -> BeamEval {
        match self.beam_eval {
            BeamEvalKind::Ysai => BeamEval::Chain,
            BeamEvalKind::Potential => BeamEval::Potential,
        }
    }

    /// `--beam-nodes`, if set.
    fn node_budget(&self) -> Option<u64> {
        (self.beam_nodes > 0).then_some(self.beam_nodes)
    }
}

impl PlanTargetFlags {
    /// The target `chain` with the `-bcm-` and `-sbcm` settings.
    fn target(&self, chain: Option<u32>) -> Option<Target> {
        chain.map(|chain| Target {
            chain,
            keep_offset: self.beam_chain_max_minus,
            stop: self.stop_beam_at_chain_max,
        })
    }
}

/// A chain setting where 0 and below mean none.
fn positive(value: i32) -> Option<u32> {
    (value > 0).then_some(value as u32)
}

impl EvalFlags {
    /// The evaluation's weights, with no analysis of the turn yet.
    pub fn context(&self) -> EvalContext {
        EvalContext {
            height_limit: f64::from(self.eval_limit),
            may_drop: self.enemy_may_drop_eval,
            not_drop: self.enemy_not_drop_eval,
            first_min_chain: (
                self.first_min_chain_num.max(0) as u32,
                self.first_min_chain_minus,
            ),
            second_min_chain: (
                self.second_min_chain_num.max(0) as u32,
                self.second_min_chain_minus,
            ),
            enemy_skill: self.calc_enemy_skill,
            skill_mode: false,
            enemy_field_ojama: 0,
            counter: CounterVerdict::default(),
            safety: None,
        }
    }
}
