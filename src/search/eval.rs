//! The evaluation of my full search's leaves (reference §10), the state a line of that search
//! carries for it, and the "certain death" ojama count of a field (§6.3).

use ysai_tables::{skill_ojama, MAX_SKILL_BLOCKS};

use crate::bitboard::WIDTH;
use crate::sim::field::{DEATH_HEIGHT, OJAMA_VALUE, SKILL_NUMBER, VISIBLE_HEIGHT};
use crate::sim::game::{GAUGE_MAX, OJAMA_ROW, SKILL_COST};
use crate::sim::{Action, Field, PlayerState};

/// Value of a line on which the enemy dies after `k` of its moves: `DEAD_ENEMY - k * DEAD_STEP`
/// ([`enemy_dead_after`]).
pub const DEAD_ENEMY: f64 = 1e20;
pub const DEAD_STEP: f64 = 1e18;

/// The value of a line on which the enemy dies after `moves` of its moves: the sooner, the
/// higher.
pub fn enemy_dead_after(moves: usize) -> f64 {
    DEAD_ENEMY - moves as f64 * DEAD_STEP
}

/// Deepest full search; the enemy-status table is sized for it.
pub const MAX_DEPTH: usize = 6;

/// One line of my full search: my state, what I know of the enemy, and the bookkeeping the
/// evaluation reads. `me.ojama` is my stock, `enemy_ojama` the enemy's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Line {
    pub me: PlayerState,
    pub enemy_ojama: i64,
    pub enemy_gauge: i32,
    /// Turn of the next move.
    pub turn: usize,
    /// Ojama this line sent (gross, before offset).
    pub sent: i64,
    /// Turn of the line's latest skill or chain of 10 or more (0 if none): the earliest
    /// decisive blow scores highest.
    pub decisive_turn: i64,
    /// Chain of the move that made this state, and the largest on the line.
    pub chain: u32,
    pub max_chain: u32,
    /// The line's first move and its chain.
    pub first: Option<Action>,
    pub first_chain: u32,
    /// Ojama still needed to kill me / the enemy for sure.
    pub dead_ojama: [i64; 2],
    /// Bit d: a row fell on the enemy at the start of its d-th move.
    pub enemy_bits: u8,
    /// The enemy could have fired its skill earlier on this line.
    pub enemy_may_skill: bool,
    /// What the enemy's skill could destroy, its fewest blocks without the skill, and how much
    /// more it can send with the skill than without.
    pub enemy_skill_targets: i64,
    pub enemy_no_skill_min_blocks: i64,
    pub enemy_skill_ojama_gain: i64,
    /// Fewest ojama on the enemy's field over its lines.
    pub enemy_min_field_ojama: i64,
    /// Depths at which the enemy's attack was assumed, the last such depth with 6+ ojama, the
    /// "enemy did not attack" branches taken, and the ojama and gauge loss assumed in all.
    pub attacked_depths: i32,
    pub attack_depth: usize,
    pub spared_depths: i32,
    pub assumed_attack: i64,
    pub assumed_gauge_damage: i32,
}

impl Line {
    /// My search's root at `turn` (§6.1): nothing done yet, the enemy known from its field.
    pub fn root(turn: usize, me: &PlayerState, enemy: &PlayerState) -> Self {
        let enemy_field = &enemy.field;
        Line {
            me: *me,
            enemy_ojama: enemy.ojama,
            enemy_gauge: enemy.gauge,
            turn,
            sent: 0,
            decisive_turn: 0,
            chain: 0,
            max_chain: 0,
            first: None,
            first_chain: 0,
            dead_ojama: [dead_ojama(&me.field), dead_ojama(enemy_field)],
            enemy_bits: 0,
            enemy_may_skill: false,
            enemy_skill_targets: i64::from(enemy_field.skill_targets().popcount()),
            enemy_no_skill_min_blocks: 0,
            enemy_skill_ojama_gain: 0,
            enemy_min_field_ojama: i64::from(enemy_field.ojama().popcount()),
            attacked_depths: 0,
            attack_depth: 0,
            spared_depths: 0,
            assumed_attack: 0,
            assumed_gauge_damage: 0,
        }
    }

    /// Turn start for both sides (§5.1): a row falls on me if my stock holds one; the enemy's
    /// row is only accounted (its field is not simulated).
    pub fn drop_rows(&mut self, depth: usize) {
        if self.me.drop_pending_ojama() {
            self.dead_ojama[0] -= OJAMA_ROW;
        }
        if self.enemy_ojama >= OJAMA_ROW {
            self.enemy_ojama -= OJAMA_ROW;
            self.enemy_bits |= 1 << depth;
            self.dead_ojama[1] -= OJAMA_ROW;
            self.enemy_no_skill_min_blocks += OJAMA_ROW;
            self.enemy_min_field_ojama += OJAMA_ROW;
        }
    }
}

/// Whether the searches try the skill: the gauge allows it and a 5 is on the field (without
/// one it is legal but destroys nothing, §1.1).
pub fn skill_worth_trying(state: &PlayerState) -> bool {
    state.gauge >= SKILL_COST && !state.field.number(SKILL_NUMBER).is_zero()
}

/// The first move's bonus from the counter-attack analysis (§9e), or the chain above which
/// firing is penalised.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CounterVerdict {
    pub bonus: Option<(Action, f64)>,
    /// (largest first chain allowed, the enemy's counter ojama): firing more than that chain
    /// costs what the enemy's counter would send beyond the line's assumed attack.
    pub penalty: Option<(u32, i64)>,
}

/// "If I follow the beam move and the enemy attacks at depth d, I can still counter with
/// `bonus[d]` ojama" (§9f).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SafetyBonus {
    pub first: Action,
    pub bonus: [i64; MAX_DEPTH + 1],
}

/// Everything the evaluation needs besides the line: the weights and this turn's analyses.
#[derive(Clone, Debug, PartialEq)]
pub struct EvalContext {
    pub height_limit: f64,
    pub may_drop: f64,
    pub not_drop: f64,
    pub first_min_chain: (u32, f64),
    pub second_min_chain: (u32, f64),
    pub enemy_skill: bool,
    pub skill_mode: bool,
    /// Ojama on the enemy's field at the root.
    pub enemy_field_ojama: i64,
    pub counter: CounterVerdict,
    pub safety: Option<SafetyBonus>,
}

/// `sk(b)`, with the index clamped to the table (the original could read before its start).
fn sk(blocks: i64) -> f64 {
    skill_ojama(blocks.clamp(0, MAX_SKILL_BLOCKS as i64 - 1) as u32) as f64
}

/// The value of a leaf: the sum of the terms of §10.
pub fn evaluate(line: &Line, ctx: &EvalContext) -> f64 {
    terms(line, ctx)
        .iter()
        .fold(0.0, |sum, &(_, value)| sum + value)
}

/// The evaluation's terms (§10) by name, in the order they are added: what `-m` prints.
#[inline]
pub fn terms(line: &Line, ctx: &EvalContext) -> [(&'static str, f64); 11] {
    let field_ojama = i64::from(line.me.field.ojama().popcount());
    [
        ("stock", stock_balance(line, ctx, field_ojama)),
        (
            "field-ojama",
            (line.enemy_min_field_ojama - field_ojama) as f64,
        ),
        ("skill", own_skill(line, ctx, field_ojama)),
        ("height", height_limit(line, ctx)),
        ("blocks", 0.01 * f64::from(line.me.field.number_blocks())),
        ("lethal", lethal(line)),
        ("enemy-skill", -enemy_skill_threat(line, ctx)),
        ("may-drop", f64::from(line.attacked_depths) * ctx.may_drop),
        ("not-drop", f64::from(line.spared_depths) * ctx.not_drop),
        ("small-chain", small_chain(line, ctx)),
        ("counter", counter_terms(line, ctx)),
    ]
}

/// Terms (a)-(d): the stock difference (units at a fifth), discounted small attacks, and the
/// beam move's safety bonus.
fn stock_balance(line: &Line, ctx: &EvalContext, field_ojama: i64) -> f64 {
    let d = line.enemy_ojama - line.me.ojama;
    let mut value = (d / 10 * 10) as f64 + (d % 10) as f64 * 0.2;
    let assumed = line.assumed_attack;
    if line.turn <= 20 && assumed != 0 && assumed < 20 {
        value += 50.0;
    } else if field_ojama <= 70 && assumed != 0 && assumed <= 15 {
        value += 0.9 * assumed as f64;
    }
    if let Some(safety) = &ctx.safety {
        let depth = line.attack_depth;
        if line.sent < 10 && depth > 0 && line.first == Some(safety.first) {
            let bonus = safety.bonus.get(depth).copied().unwrap_or(0);
            if bonus > line.sent {
                value += (bonus - line.sent) as f64;
            }
        }
    }
    if line.sent <= 15 {
        value -= 0.9 * line.sent as f64;
    }
    value
}

/// Term (g): the enemy is buried, or nearly, unless its skill can dig it out.
fn lethal(line: &Line) -> f64 {
    let stock = line.enemy_ojama;
    let dead = line.dead_ojama[1];
    if stock < OJAMA_ROW || stock < dead - 30 {
        return 0.0;
    }
    let decisive = line.decisive_turn as f64;
    let wait = if line.enemy_gauge >= SKILL_COST {
        0
    } else {
        i64::from((87 - line.enemy_gauge) >> 3)
    };
    if wait * 10 > dead {
        return 1e10 - decisive * 1e7;
    }
    let ojama = stock + line.enemy_skill_ojama_gain;
    let blocks = line.enemy_no_skill_min_blocks - 2 * wait;
    let mut skill_blocks = line.enemy_skill_targets - 2 * wait;
    let dead_turn = ((160 - blocks) / 13 + 1).min(dead / 10);
    skill_blocks += dead_turn;
    let remaining =
        ojama as f64 - sk(skill_blocks) + (10 * dead_turn + blocks - skill_blocks) as f64;
    if remaining >= (dead - 20) as f64 {
        1e9 - decisive * 1e6
    } else {
        0.0
    }
}

/// Term (h): my own skill's potential; in chain mode only on a field already full of ojama.
fn own_skill(line: &Line, ctx: &EvalContext, field_ojama: i64) -> f64 {
    let (min_ojama, weight) = if ctx.skill_mode { (0, 1.0) } else { (50, 0.5) };
    if field_ojama < min_ojama {
        return 0.0;
    }
    let potential = sk(i64::from(line.me.field.skill_targets().popcount()));
    if line.me.gauge < SKILL_COST {
        potential * f64::from(line.me.gauge + 1) / 81.0 * weight
    } else {
        potential
    }
}

/// Term (i): the enemy's skill, once its gauge is near full.
fn enemy_skill_threat(line: &Line, ctx: &EvalContext) -> f64 {
    if !ctx.enemy_skill || line.enemy_gauge < 56 {
        return 0.0;
    }
    let potential = sk(line.enemy_skill_targets);
    let gain = line.enemy_skill_ojama_gain as f64;
    let threat = if line.enemy_gauge < SKILL_COST {
        potential * f64::from(line.enemy_gauge) / 80.0 / 5.0
    } else {
        potential
    };
    (threat - gain).max(0.0)
}

/// Term (j): each column at the death height, unless my skill can still clear the field.
fn height_limit(line: &Line, ctx: &EvalContext) -> f64 {
    if line.me.gauge >= SKILL_COST {
        return 0.0;
    }
    f64::from(line.me.field.columns_at_least(DEATH_HEIGHT)) * ctx.height_limit
}

/// Term (l): chains of 4 to 10 fired while the enemy has nothing to fear are wasted material.
fn small_chain(line: &Line, ctx: &EvalContext) -> f64 {
    let chain = line.max_chain;
    if chain < 4 {
        return 0.0;
    }
    let (first_max, first_minus) = ctx.first_min_chain;
    let (second_max, second_minus) = ctx.second_min_chain;
    if ctx.enemy_field_ojama <= 0 && chain <= first_max {
        first_minus
    } else if ctx.enemy_field_ojama <= 20 && chain <= second_max {
        second_minus
    } else {
        0.0
    }
}

/// Term (m): the counter-attack analysis's bonus for firing now, or penalty for firing into a
/// bigger counter.
fn counter_terms(line: &Line, ctx: &EvalContext) -> f64 {
    let mut value = 0.0;
    if let Some((max_chain, counter)) = ctx.counter.penalty {
        if line.first_chain > max_chain && line.assumed_attack < counter {
            value += (line.assumed_attack - counter) as f64;
        }
    }
    if let Some((first, bonus)) = ctx.counter.bonus {
        if line.first == Some(first) {
            value += bonus;
        }
    }
    value
}

/// Ojama that must still fall on `field` to kill it for sure (§6.3): rows of ojama, counting
/// as ojama the sealed regions no vanish can ever reach (no 5, no opening). The original's
/// flood fill marked empty cells as visited, so a region whose only opening an earlier region
/// had touched counted as sealed; here an opening is always seen.
pub fn dead_ojama(field: &Field) -> i64 {
    let mut grid = Grid::new(field);
    for y in 0..VISIBLE_HEIGHT {
        for x in 0..WIDTH {
            if grid.is_unvisited_number(x, y) {
                grid.seal_if_closed(x, y);
            }
        }
    }
    let heights: Vec<i64> = (0..WIDTH).map(|x| grid.solid_height(x)).collect();
    let most = heights.iter().copied().max().unwrap_or(0);
    let least = heights.iter().copied().min().unwrap_or(0);
    (i64::from(DEATH_HEIGHT) - most - i64::from(most == least)) * OJAMA_ROW
}

/// Rows above the field that the flood fill looks at: a region reaching them is open.
const FILL_HEIGHT: usize = 19;

/// The field as cells, with the flood fill's bookkeeping.
struct Grid {
    cells: [[u8; FILL_HEIGHT]; WIDTH],
    visited: [[bool; FILL_HEIGHT]; WIDTH],
    /// Ojama, and regions proven indestructible.
    solid: [[bool; FILL_HEIGHT]; WIDTH],
}

impl Grid {
    fn new(field: &Field) -> Self {
        let mut grid = Grid {
            cells: [[0; FILL_HEIGHT]; WIDTH],
            visited: [[false; FILL_HEIGHT]; WIDTH],
            solid: [[false; FILL_HEIGHT]; WIDTH],
        };
        for x in 0..WIDTH {
            for y in 0..FILL_HEIGHT {
                let cell = field.cell(x, y);
                grid.cells[x][y] = cell;
                grid.solid[x][y] = cell == OJAMA_VALUE;
            }
        }
        grid
    }

    fn is_unvisited_number(&self, x: usize, y: usize) -> bool {
        let cell = self.cells[x][y];
        cell != 0 && cell != OJAMA_VALUE && !self.visited[x][y]
    }

    /// Floods the region of numbered blocks at (x, y); if it can never vanish and rests on
    /// solid cells, it becomes solid.
    fn seal_if_closed(&mut self, x: usize, y: usize) {
        let mut region = Vec::new();
        let mut open = false;
        let mut stack = vec![(x, y)];
        self.visited[x][y] = true;
        while let Some((cx, cy)) = stack.pop() {
            region.push((cx, cy));
            open |= usize::from(self.cells[cx][cy]) == SKILL_NUMBER;
            for (nx, ny) in neighbours(cx, cy) {
                if ny >= VISIBLE_HEIGHT || self.cells[nx][ny] == 0 {
                    open = true;
                } else if self.is_unvisited_number(nx, ny) {
                    self.visited[nx][ny] = true;
                    stack.push((nx, ny));
                }
            }
        }
        if !open && self.rests_on_solid(&region, y) {
            for (rx, ry) in region {
                self.solid[rx][ry] = true;
            }
        }
    }

    /// Every column next to or under the region is solid below the region's lowest row.
    fn rests_on_solid(&self, region: &[(usize, usize)], bottom: usize) -> bool {
        let min_x = region
            .iter()
            .map(|c| c.0)
            .min()
            .unwrap_or(0)
            .saturating_sub(1);
        let max_x = (region.iter().map(|c| c.0).max().unwrap_or(0) + 1).min(WIDTH - 1);
        (min_x..=max_x).all(|x| (0..bottom).all(|y| self.solid[x][y]))
    }

    fn solid_height(&self, x: usize) -> i64 {
        self.solid[x].iter().filter(|&&s| s).count() as i64
    }
}

/// The 8 neighbours of a cell inside the fill area.
fn neighbours(x: usize, y: usize) -> impl Iterator<Item = (usize, usize)> {
    (-1i32..=1)
        .flat_map(|dx| (-1i32..=1).map(move |dy| (dx, dy)))
        .filter(|&d| d != (0, 0))
        .filter_map(move |(dx, dy)| {
            let nx = x as i32 + dx;
            let ny = y as i32 + dy;
            let inside = (0..WIDTH as i32).contains(&nx) && (0..FILL_HEIGHT as i32).contains(&ny);
            inside.then_some((nx as usize, ny as usize))
        })
}

/// The gauge after `gain`, capped.
pub fn raise_gauge(gauge: i32, gain: i32) -> i32 {
    (gauge + gain).min(GAUGE_MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(picture: &[&str]) -> Field {
        Field::from_picture(picture).expect("a valid picture")
    }

    #[test]
    fn an_empty_field_needs_sixteen_rows() {
        assert_eq!(dead_ojama(&Field::empty()), 160);
    }

    #[test]
    fn ojama_rows_count_and_uneven_heights_need_one_row_less() {
        let even = field(&["XXXXXXXXXX", "XXXXXXXXXX"]);
        assert_eq!(dead_ojama(&even), (17 - 2 - 1) * 10);
        let uneven = field(&["X.........", "XXXXXXXXXX", "XXXXXXXXXX"]);
        assert_eq!(dead_ojama(&uneven), (17 - 3) * 10);
    }

    #[test]
    fn a_sealed_region_without_a_five_counts_as_ojama() {
        // The 1 under the ojama cap can never meet a 9: it is as good as ojama.
        let sealed = field(&["XXX.......", "X1X.......", "XXXXXXXXXX"]);
        assert_eq!(dead_ojama(&sealed), (17 - 3) * 10);
        let with_five = field(&["XXX.......", "X5X.......", "XXXXXXXXXX"]);
        assert_eq!(
            dead_ojama(&with_five),
            (17 - 3) * 10,
            "the 5 column is not solid"
        );
        let heights_with_five: i64 = {
            let mut grid = Grid::new(&with_five);
            grid.seal_if_closed(1, 1);
            grid.solid_height(1)
        };
        assert_eq!(heights_with_five, 2, "a region with a 5 stays destructible");
    }

    #[test]
    fn a_region_open_through_an_empty_cell_is_never_sealed() {
        // Two regions share the opening at (2, 2); the second must still see it.
        let field = field(&["XX.XX.....", "X1X1X.....", "XXXXXXXXXX"]);
        let mut grid = Grid::new(&field);
        grid.seal_if_closed(1, 1);
        grid.seal_if_closed(3, 1);
        assert!(!grid.solid[1][1] && !grid.solid[3][1]);
    }

    fn quiet_line() -> Line {
        let mut line = Line::root(30, &PlayerState::default(), &PlayerState::default());
        line.dead_ojama = [160, 160];
        line
    }

    #[test]
    fn the_stock_difference_counts_units_at_a_fifth() {
        let ctx = crate::params::Params::DEFAULT.eval.context();
        let mut line = quiet_line();
        line.me.ojama = 13;
        assert!((evaluate(&line, &ctx) - -10.6).abs() < 1e-9);
    }

    #[test]
    fn burying_the_enemy_outranks_everything_else() {
        let ctx = crate::params::Params::DEFAULT.eval.context();
        let mut line = quiet_line();
        line.enemy_ojama = 60;
        line.dead_ojama[1] = 40;
        line.decisive_turn = 12;
        let value = evaluate(&line, &ctx);
        assert!((value - (1e10 - 12.0 * 1e7)).abs() < 1e3, "{value}");
        line.enemy_gauge = 80;
        line.enemy_skill_targets = 40;
        line.enemy_no_skill_min_blocks = 60;
        assert!(evaluate(&line, &ctx) < 1e10, "the skill may save it");
    }

    #[test]
    fn small_chains_are_penalised_only_when_the_enemy_is_clean() {
        let ctx = crate::params::Params::DEFAULT.eval.context();
        let mut line = quiet_line();
        line.max_chain = 5;
        let five = evaluate(&line, &ctx);
        line.max_chain = 3;
        let three = evaluate(&line, &ctx);
        assert_eq!(three - five, 10.0, "fmcm defaults to -10 (run.sh)");
    }
}
