//! The original's helper beams (§9e, 9f, 9g): the counter analysis, a turn's own and the
//! enemy's beams, the skill-mode decision, the safety beams and the skill beam.

use super::*;

impl<N: Neighbourhood> Decider<N> {
    /// The counter-attack analysis (§9e): if I can fire a big chain now, can the enemy answer
    /// with a bigger one, with or without my attack in its stock? `None` when the chain is too
    /// small to ask.
    pub(super) fn counter_analysis(
        &self,
        pos: &Position<'_>,
        my_first: u32,
        my_fire: Option<Action>,
        enemy_first: u32,
    ) -> Option<CounterVerdict> {
        let none = CounterVerdict::default();
        let after_row = |stock: i64| {
            if stock >= OJAMA_ROW {
                stock - OJAMA_ROW
            } else {
                stock
            }
        };
        let net = after_row(pos.opponent.ojama) - after_row(pos.me.ojama) + chain_ojama(my_first);
        if my_first <= enemy_first || my_first < COUNTER_MIN_CHAIN || net < OJAMA_ROW {
            return None;
        }
        let p = &self.config;
        let root = beam_root(pos.opponent, pos.me, pos.packs);
        let mut soon = p.enemy_beam.beam();
        self.limit(pos, &mut soon, p.enemy_beam.ms);
        if self.beam("counter-soon", root, &soon).max_chain < my_first {
            return Some(none);
        }
        let (counter, complete) = self.counter_beam(pos, root, my_first);
        Some(if counter < my_first && complete {
            CounterVerdict {
                bonus: my_fire
                    .map(|fire| (fire, (chain_ojama(my_first) - chain_ojama(counter)) as f64)),
                penalty: None,
            }
        } else if counter > my_first {
            CounterVerdict {
                bonus: None,
                penalty: Some((COUNTER_PENALTY_CHAIN, chain_ojama(counter))),
            }
        } else {
            none
        })
    }

    /// The enemy's biggest answer within 10 moves with my attack in its stock after its
    /// first, by a beam; and whether the beam looked far enough (7 moves) to trust a smaller one.
    pub(super) fn counter_beam(
        &self,
        pos: &Position<'_>,
        root: BeamRoot<'_>,
        my_first: u32,
    ) -> (u32, bool) {
        let p = &self.config;
        let mut answer = BeamConfig::new(
            COUNTER_BEAM_DEPTH,
            p.enemy_beam.width,
            p.enemy_beam.chain_width,
        );
        answer.injection = Some(Injection {
            after_moves: 1,
            ojama: chain_ojama(my_first),
        });
        self.limit(pos, &mut answer, p.enemy_beam.ms);
        let result = self.beam("counter", root, &answer);
        (result.max_chain, !result.timed_out || result.depth >= 7)
    }

    /// The beams of a turn without a plan (§9b, 9f, 9g): my per-turn beam, the enemy's beam
    /// and the skill-mode decision, then the safety beams; or the skill beam in skill mode.
    /// Returns the beam's move.
    pub(super) fn turn_beams(
        &mut self,
        pos: &Position<'_>,
        my_first: u32,
        enemy_first: u32,
        table: &StatusTable,
        ctx: &mut EvalContext,
    ) -> Option<Action> {
        if !self.skill_mode {
            let p = &self.config;
            let mut config = p.turn_beam.for_chain(my_first);
            self.limit(pos, &mut config, p.turn_ms);
            let mine = self.beam("turn", beam_root(pos.me, pos.opponent, pos.packs), &config);
            let beam_move = mine.plan.first().copied();
            let enemy = self.enemy_beam(pos, enemy_first);
            self.skill_mode = self.enter_skill_mode(
                pos,
                &Reach::new(&mine, my_first),
                &Reach::new(&enemy, enemy_first),
            );
            if !self.skill_mode {
                if let Some(first) = beam_move {
                    ctx.safety = self.safety_beams(pos, table, first);
                }
                return beam_move;
            }
        }
        self.skill_beam(pos)
    }

    pub(super) fn enemy_beam(&self, pos: &Position<'_>, enemy_first: u32) -> BeamResult {
        let p = &self.config;
        let mut config = p.next_enemy_beam.beam();
        let aim = if enemy_first <= 5 {
            10
        } else {
            enemy_first + 5
        };
        config.target = Some(Target {
            chain: aim,
            keep_offset: p.keep_offset,
            stop: false,
        });
        self.limit(pos, &mut config, p.next_enemy_beam.ms);
        self.beam("enemy", beam_root(pos.opponent, pos.me, pos.packs), &config)
    }

    /// Whether to give up chains and build for the skill (§9g).
    pub(super) fn enter_skill_mode(&self, pos: &Position<'_>, mine: &Reach, enemy: &Reach) -> bool {
        let p = &self.config;
        let field_ojama = pos.me.field.ojama().popcount();
        let targets = pos.me.field.skill_targets().popcount();
        let e12 = enemy.earliest(12);
        let outpaced = [(12, 3), (11, 3), (10, 2), (9, 1), (8, 0)]
            .iter()
            .all(|&(c, lead)| mine.earliest(c) >= e12.saturating_add(lead));
        let hopeless = field_ojama >= 20
            && pos.opponent.ojama < 20
            && enemy.max >= 12
            && !(i64::from(mine.max) >= i64::from(p.next_beam_min_chain) && targets < 10)
            && outpaced;
        let extra = if p.skill_mode_final {
            mine.max < 7
        } else {
            field_ojama > 10 && i64::from(mine.max) < i64::from(p.next_beam_min_chain)
        };
        hopeless || extra
    }

    /// The safety beams (§9f): following the beam move, what can I still fire if the enemy
    /// attacks at depth d?
    pub(super) fn safety_beams(
        &self,
        pos: &Position<'_>,
        table: &StatusTable,
        first: Action,
    ) -> Option<SafetyBonus> {
        let p = &self.config;
        let mut bonus = [0; MAX_DEPTH + 1];
        let (mut bits, mut mine, mut theirs) = (0u8, pos.me.ojama, pos.opponent.ojama);
        let mut any = false;
        for d in 1..=table.depth() {
            if theirs >= OJAMA_ROW {
                bits |= 1 << (d - 1);
                theirs -= OJAMA_ROW;
            }
            if mine >= OJAMA_ROW {
                mine -= OJAMA_ROW;
            }
            let status = table.get(ANY, bits, d);
            let attack = chain_ojama(status.max_chain).max(status.max_skill_ojama);
            if attack < OJAMA_ROW || attack + mine - theirs < OJAMA_ROW {
                continue;
            }
            let mut config = p.dropped_beam.beam();
            config.first_move = Some(first);
            config.injection = Some(Injection {
                after_moves: d,
                ojama: attack,
            });
            self.limit(pos, &mut config, p.dropped_beam.ms);
            let root = beam_root(pos.me, pos.opponent, pos.packs);
            let result = self.beam(format!("safety-d{d}"), root, &config);
            bonus[d] = chain_ojama(result.max_chain);
            any = true;
        }
        any.then_some(SafetyBonus { first, bonus })
    }

    pub(super) fn skill_beam(&self, pos: &Position<'_>) -> Option<Action> {
        let p = &self.config;
        let mut config = p.skill_beam.beam();
        config.eval = BeamEval::Skill { count_blocks: true };
        self.limit(pos, &mut config, p.skill_beam.ms);
        self.beam("skill", beam_root(pos.me, pos.opponent, pos.packs), &config)
            .plan
            .first()
            .copied()
    }
}

/// The first depth at which each chain is available to a side: now for chains up to its
/// best this turn, else from its beam.
pub(super) struct Reach<'a> {
    beam: &'a BeamResult,
    now: u32,
    max: u32,
}

impl<'a> Reach<'a> {
    pub(super) fn new(beam: &'a BeamResult, now: u32) -> Self {
        Reach {
            beam,
            now,
            max: now.max(beam.max_chain),
        }
    }

    pub(super) fn earliest(&self, chain: u32) -> usize {
        if chain <= self.now {
            0
        } else {
            self.beam.earliest_depth(chain).unwrap_or(NEVER)
        }
    }
}
