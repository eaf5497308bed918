//! A whole turn for both players: ojama rows, actions, gauges, ojama exchange and offset, death.

use super::field::{Field, MoveResult};
use super::neighbours::Neighbourhood;
use super::pack::PreparedPack;
use super::Action;

/// Gauge needed (at the end of the previous turn) to fire the skill.
pub const SKILL_COST: i32 = 80;
/// Largest gauge value.
pub const GAUGE_MAX: i32 = 100;
/// Gauge earned in a turn in which some of the player's blocks vanished.
pub const GAUGE_PER_VANISH: i32 = 8;
/// The opponent's gauge shrinks after chains of at least this many steps.
pub const GAUGE_ATTACK_CHAINS: u32 = 3;
/// Ojama per dropped row (one per column).
pub const OJAMA_ROW: i64 = 10;

/// A turn as a player sees it, from the protocol loop to the searches.
#[derive(Clone, Copy, Debug)]
pub struct Position<'a> {
    pub turn: usize,
    /// This turn's pack, then the following ones.
    pub packs: &'a [crate::sim::PreparedPack],
    pub me: &'a PlayerState,
    pub opponent: &'a PlayerState,
    /// My remaining thinking time in milliseconds.
    pub time_left_ms: i64,
}

/// What one player has between turns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct PlayerState {
    pub field: Field,
    /// Pending ojama not yet dropped.
    pub ojama: i64,
    /// Skill gauge, 0..=100.
    pub gauge: i32,
    /// Cumulative score.
    pub score: i64,
}

/// What happened to one player in a turn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TurnOutcome {
    /// The action's effect on the player's own field.
    pub result: MoveResult,
    /// An ojama row fell on the player at the start of the turn.
    pub ojama_dropped: bool,
    /// The action was not allowed (skill without gauge, drop outside the board): the player loses.
    pub illegal: bool,
}

impl TurnOutcome {
    /// The player loses at the end of this turn (dead field or illegal action).
    pub fn lost(&self) -> bool {
        self.illegal || self.result.dead
    }
}

impl PlayerState {
    /// Whether `action` is allowed now (the field may still die from it).
    pub fn is_legal(&self, action: Action) -> bool {
        match action {
            Action::Skill => self.gauge >= SKILL_COST,
            Action::Drop { .. } => action.in_range(),
        }
    }

    /// The actions allowed now: the skill if the gauge allows it, then the 36 drops.
    pub fn legal_actions(&self) -> impl Iterator<Item = Action> + '_ {
        Action::ALL.into_iter().filter(|&a| self.is_legal(a))
    }

    /// Turn start: if the stock holds a row's worth, one ojama row falls. Returns whether it did.
    pub fn drop_pending_ojama(&mut self) -> bool {
        if self.ojama < OJAMA_ROW {
            return false;
        }
        self.ojama -= OJAMA_ROW;
        self.field.drop_ojama_row();
        true
    }

    /// My move of a turn, the one home of "play this action on this pack": the pending ojama
    /// row falls, then the action is played (chains, score, gauge). The state after it and
    /// what the move did (`dead` if the field topped out). The action must be legal (see
    /// [`PlayerState::try_play`]); the opponent's side of the turn is [`play_turn`]'s.
    pub fn play<N: Neighbourhood>(
        &self,
        pack: &PreparedPack,
        action: Action,
    ) -> (PlayerState, MoveResult) {
        let mut next = *self;
        next.drop_pending_ojama();
        let result = next.act::<N>(pack, action);
        (next, result)
    }

    /// [`PlayerState::play`], `None` if the action is illegal or the field dies of it.
    pub fn try_play<N: Neighbourhood>(
        &self,
        pack: &PreparedPack,
        action: Action,
    ) -> Option<(PlayerState, MoveResult)> {
        if !self.is_legal(action) {
            return None;
        }
        let (next, result) = self.play::<N>(pack, action);
        (!result.dead).then_some((next, result))
    }

    /// [`PlayerState::try_play`] as one side's turn in a search of my moves alone: what the
    /// move sends is taken from my stock (the offset), then `incoming` ojama lands in it.
    pub fn try_play_under<N: Neighbourhood>(
        &self,
        pack: &PreparedPack,
        action: Action,
        incoming: i64,
    ) -> Option<(PlayerState, MoveResult)> {
        let (mut next, result) = self.try_play::<N>(pack, action)?;
        next.ojama = (next.ojama - result.ojama).max(0) + incoming;
        Some((next, result))
    }

    /// The player's own half of a turn after the ojama row: the action, its score and the
    /// +8 gauge. The opponent's gauge reduction and the ojama exchange are done by [`play_turn`].
    pub fn act<N: Neighbourhood>(&mut self, pack: &PreparedPack, action: Action) -> MoveResult {
        if action == Action::Skill {
            self.gauge = 0;
        }
        let result = self.field.apply::<N>(pack, action);
        self.take_result(&result);
        result
    }

    /// What a move's `result` does to the player beyond its field: the +8 gauge of a vanish,
    /// the score.
    pub fn take_result(&mut self, result: &MoveResult) {
        if result.vanished {
            self.gauge = (self.gauge + GAUGE_PER_VANISH).min(GAUGE_MAX);
        }
        self.score += result.score;
    }
}

/// Gauge lost by a player whose opponent chained `chains` steps.
pub fn gauge_damage(chains: u32) -> i32 {
    if chains >= GAUGE_ATTACK_CHAINS {
        12 + 2 * chains as i32
    } else {
        0
    }
}

/// Cancels stocks against each other: if both are positive the smaller is taken from both.
pub fn offset_ojama(a: &mut i64, b: &mut i64) {
    if *a > 0 && *b > 0 {
        let common = (*a).min(*b);
        *a -= common;
        *b -= common;
    }
}

/// Plays one turn for both players with the same `pack`, in the order of the rules.
pub fn play_turn<N: Neighbourhood>(
    players: &mut [PlayerState; 2],
    pack: &PreparedPack,
    actions: [Action; 2],
) -> [TurnOutcome; 2] {
    play_turn_passing::<N>(players, pack, actions.map(Some))
}

/// [`play_turn`] where a player may pass (`None`): its ojama row still falls and it still
/// takes the opponent's attack, but it places nothing. Passing is not a move of the game; a
/// search uses it for a side whose line of moves has ended.
pub fn play_turn_passing<N: Neighbourhood>(
    players: &mut [PlayerState; 2],
    pack: &PreparedPack,
    actions: [Option<Action>; 2],
) -> [TurnOutcome; 2] {
    let mut outcomes = [TurnOutcome::default(); 2];
    for (player, outcome) in players.iter_mut().zip(&mut outcomes) {
        outcome.ojama_dropped = player.drop_pending_ojama();
    }
    for ((player, outcome), action) in players.iter_mut().zip(&mut outcomes).zip(actions) {
        match action {
            Some(action) if player.is_legal(action) => {
                outcome.result = player.act::<N>(pack, action);
            }
            _ => {
                outcome.illegal = action.is_some();
                outcome.result.dead = player.field.is_dead();
            }
        }
    }
    for (me, opponent) in [(0, 1), (1, 0)] {
        let damage = gauge_damage(outcomes[opponent].result.chains);
        players[me].gauge = (players[me].gauge - damage).max(0);
    }
    players[1].ojama += outcomes[0].result.ojama;
    players[0].ojama += outcomes[1].result.ojama;
    let [first, second] = players;
    offset_ojama(&mut first.ojama, &mut second.ojama);
    outcomes
}
