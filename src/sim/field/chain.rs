//! The vanish / fall loop: a chain from the blocks doomed first, on bitboards or on column
//! lanes, the skill's explosion, and the chain one erased block would start.

use super::*;

/// A chain's steps and the columns that lost blocks in it (bit x = column x).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Chain {
    pub(super) steps: u32,
    pub(super) columns: u16,
}

/// What a chain leaves, for a caller that does not keep the field.
pub(super) struct ChainEnd {
    pub(super) chain: Chain,
    pub(super) number_blocks: u32,
    /// Bit x: column x holds 17 or more blocks.
    pub(super) dead_columns: u16,
}

impl Chain {
    const NONE: Chain = Chain {
        steps: 0,
        columns: 0,
    };
}

/// What a pack drop put on the field.
#[derive(Default)]
pub(super) struct Placement {
    /// The cells the blocks took.
    pub(super) cells: BitBoard,
    /// The first chain step: every placed block touching a block of its complement, and
    /// those blocks (before the drop the field held no pair, so every pair has a placed block).
    pub(super) doomed: BitBoard,
}

impl Field {
    /// The chain that follows if the block at (x, y) vanished by itself (the blocks above it
    /// fall one row): what a chain potential asks of each buried block. 0 on an empty cell.
    pub fn chains_after_erasing<N: Neighbourhood>(&self, x: usize, y: usize) -> u32 {
        let cell = BitBoard::cell(x, y);
        if (self.boards[ANY] & cell).is_zero() || self.erasure_is_quiet(x, y) {
            return 0;
        }
        self.chain_after_erasing::<N>(cell).steps
    }

    /// The chain that follows if the block `cell` vanished by itself.
    #[inline]
    pub(super) fn chain_after_erasing<N: Neighbourhood>(&self, cell: BitBoard) -> Chain {
        // Every field a potential erases from survived its turn: no column is above 16.
        #[cfg(all(ysai_avx2, ysai_pext))]
        if N::SHIFTS && !self.is_dead() {
            return self.chain_after_erasing_in_lanes::<ShortLanes>(cell);
        }
        let mut field = *self;
        field.chain_after_removing::<N>(cell)
    }

    /// Whether erasing the block at (x, y) starts no chain, read from its column and the two
    /// beside it: the blocks above it fall one row, and on a field holding no pair (every
    /// field a search meets has resolved its chains) only they can meet a complement. About
    /// two erasures in five of a potential-ranked beam start nothing, and need no copy of the
    /// field.
    pub(super) fn erasure_is_quiet(&self, x: usize, y: usize) -> bool {
        let below = (1u32 << y) - 1;
        let fallen = |column: u32| column & below | (column >> 1) & !below;
        let beside = |n: usize, side: Option<usize>| {
            side.filter(|&c| c < WIDTH)
                .map_or(0, |c| self.boards[n].column(c))
        };
        (1..=9).all(|n| {
            let moved = (self.boards[n].column(x) >> (y + 1)) << y;
            if moved == 0 {
                return true;
            }
            let partner = 10 - n;
            let above_below = moved << 1 | moved >> 1;
            let across = moved | above_below;
            above_below & fallen(self.boards[partner].column(x)) == 0
                && across & beside(partner, x.checked_sub(1)) == 0
                && across & beside(partner, Some(x + 1)) == 0
        })
    }

    /// The row of the highest ojama of column `x`, if it holds one.
    pub fn ojama_top(&self, x: usize) -> Option<usize> {
        let column = self.boards[OJAMA].column(x);
        (column != 0).then(|| 31 - column.leading_zeros() as usize)
    }

    /// Fires the skill: destroys the 5s and the numbered blocks around them, then resolves chains.
    pub fn fire_skill<N: Neighbourhood>(&mut self) -> MoveResult {
        let doomed = self.skill_targets();
        let destroyed = doomed.popcount();
        let chains = if destroyed == 0 {
            0
        } else {
            self.chain_after_removing::<N>(doomed).steps
        };
        MoveResult {
            chains,
            score: skill_score(destroyed) + chain_score(chains),
            ojama: skill_ojama(destroyed) + chain_ojama(chains),
            vanished: chains > 0,
            skill_destroyed: destroyed,
            dead: self.is_dead(),
        }
    }

    /// Removes `gone` (the skill's explosion, an erased block: not a chain step itself), lets
    /// the rest fall, and returns the chain that follows.
    pub(super) fn chain_after_removing<N: Neighbourhood>(&mut self, gone: BitBoard) -> Chain {
        let (moved, _) = self.remove(gone);
        self.resolve_chains::<N>(moved | complements(moved))
    }

    /// Vanish, fall, repeat: the chain that follows. `tested` holds the numbers
    /// (bits 1..=9, closed under n -> 10 - n) whose blocks may have new neighbours.
    pub(super) fn resolve_chains<N: Neighbourhood>(&mut self, tested: u16) -> Chain {
        let doomed = self.vanishing::<N>(tested);
        self.chain_from::<N>(doomed)
    }

    /// The chain whose first step removes `doomed`; none if it is empty.
    #[inline]
    pub(super) fn chain_from<N: Neighbourhood>(&mut self, doomed: BitBoard) -> Chain {
        if doomed.is_zero() {
            return Chain::NONE;
        }
        #[cfg(all(ysai_avx2, ysai_pext))]
        if N::SHIFTS && !self.is_dead() {
            return self.chain_in_lanes::<ShortLanes>(doomed);
        }
        #[cfg(ysai_avx512)]
        if N::SHIFTS {
            return self.chain_in_lanes::<LaneBoard>(doomed);
        }
        self.chain_by_columns::<N>(doomed)
    }

    /// [`Field::chain_from`] on lane boards: the field is spread to a lane per column once,
    /// stays in registers for every step, and is packed back at the end.
    #[cfg(any(ysai_avx512, all(ysai_avx2, ysai_pext)))]
    pub(super) fn chain_in_lanes<L: ColumnLanes>(&mut self, doomed: BitBoard) -> Chain {
        let (chain, mut boards) = self.chain_of_lanes::<L>(doomed);
        boards[ANY] = boards[1..].iter().fold(L::zero(), |any, &b| any.or(b));
        self.boards = boards.map(L::to_board);
        self.heights = boards[ANY].column_counts();
        chain
    }

    /// [`Field::chain_end`] on lane boards, which are left unpacked. Short lanes hold a field
    /// whose columns hold 16 blocks or fewer once the pack landed: a chain only lowers them.
    #[cfg(any(ysai_avx512, all(ysai_avx2, ysai_pext)))]
    pub(super) fn chain_end_in_lanes<L: ColumnLanes>(&self, doomed: BitBoard) -> ChainEnd {
        let (chain, boards) = self.chain_of_lanes::<L>(doomed);
        let numbers = boards[1..OJAMA].iter().fold(L::zero(), |any, &b| any.or(b));
        ChainEnd {
            chain,
            number_blocks: numbers.count(),
            dead_columns: numbers
                .or(boards[OJAMA])
                .lanes_with_row(usize::from(DEATH_HEIGHT) - 1),
        }
    }

    /// The field spread to a lane per column and the chain played on it; the block board
    /// (index [`ANY`]) is left out of the loop and empty.
    #[cfg(any(ysai_avx512, all(ysai_avx2, ysai_pext)))]
    #[inline]
    pub(super) fn chain_of_lanes<L: ColumnLanes>(&self, doomed: BitBoard) -> (Chain, [L; 11]) {
        let mut boards = self.spread_to_lanes();
        let chain = run_chain_in_lanes(&mut boards, L::from_board(doomed));
        (chain, boards)
    }

    /// The numbered and ojama boards on lanes; the block board (index [`ANY`]) stays empty.
    #[cfg(any(ysai_avx512, all(ysai_avx2, ysai_pext)))]
    #[inline]
    pub(super) fn spread_to_lanes<L: ColumnLanes>(&self) -> [L; 11] {
        let mut boards = [L::zero(); 11];
        for n in 1..OJAMA + 1 {
            boards[n] = L::from_board(self.boards[n]);
        }
        boards
    }

    /// [`Field::chains_after_erasing`]'s chain on lanes: the erased cell's column falls, and
    /// the chain runs from what that made meet.
    #[cfg(all(ysai_avx2, ysai_pext))]
    #[inline]
    pub(super) fn chain_after_erasing_in_lanes<L: ColumnLanes>(&self, cell: BitBoard) -> Chain {
        let mut boards = self.spread_to_lanes::<L>();
        let landed = fall_in_lanes(&mut boards, L::from_board(cell));
        let doomed = vanishing_in_lanes(&boards, landed);
        if doomed.is_zero() {
            return Chain::NONE;
        }
        run_chain_in_lanes(&mut boards, doomed)
    }

    /// [`Field::chain_from`] on the packed boards, a column at a time.
    pub(super) fn chain_by_columns<N: Neighbourhood>(&mut self, mut doomed: BitBoard) -> Chain {
        let mut chain = Chain::NONE;
        loop {
            chain.steps += 1;
            let (changed, columns) = self.remove(doomed);
            chain.columns |= columns;
            doomed = self.vanishing::<N>(changed | complements(changed));
            if doomed.is_zero() {
                return chain;
            }
        }
    }

    /// The blocks of the numbers in `tested` (closed under n -> 10 - n) that touch a block of
    /// their complement.
    #[inline]
    pub(super) fn vanishing<N: Neighbourhood>(&self, tested: u16) -> BitBoard {
        let mut doomed = BitBoard::ZERO;
        for n in numbers_in(tested & LOW_NUMBERS) {
            let (low, high) = (self.boards[n], self.boards[10 - n]);
            if low.is_zero() || high.is_zero() {
                continue;
            }
            let hit = low & N::of(high);
            if !hit.is_zero() {
                // The complements that vanish are those touching a vanishing block.
                doomed |= hit | high & N::of(hit);
            }
        }
        doomed
    }

    /// Removes `doomed` and lets everything above fall; returns the numbers (bits 1..=9) whose
    /// blocks moved, the only ones that can have new neighbours (losing blocks makes no pair),
    /// and the columns that lost blocks (bit x = column x).
    pub(super) fn remove(&mut self, doomed: BitBoard) -> (u16, u16) {
        // Every board loses its doomed cells at once; only the columns with something left
        // above a removed cell need the per-board compress.
        for board in &mut self.boards {
            *board = board.and_not(doomed);
        }
        let (mut moved, mut columns) = (0u16, 0u16);
        for x in 0..WIDTH {
            let gone = doomed.column(x);
            if gone == 0 {
                continue;
            }
            columns |= 1 << x;
            self.remove_height(x, gone.count_ones() as u8);
            let lowest = gone.trailing_zeros();
            if self.boards[ANY].column(x) >> lowest == 0 {
                continue;
            }
            // Blocks never float, so the column of every block is just its new height.
            self.boards[ANY].set_column(x, (1 << self.height(x)) - 1);
            let keep = !gone & COLUMN_MASK;
            // An exclusive range: the compiler unrolls it, where `1..=OJAMA` kept a loop.
            for n in 1..OJAMA + 1 {
                let column = self.boards[n].column(x);
                if column >> lowest != 0 {
                    self.boards[n].set_column(x, compress_column(column, keep));
                    moved |= 1 << n;
                }
            }
        }
        (moved & ALL_NUMBERS, columns)
    }
}

/// The chain whose first step removes `doomed` from lane boards: vanish, fall, repeat.
#[cfg(any(ysai_avx512, all(ysai_avx2, ysai_pext)))]
#[inline]
pub(super) fn run_chain_in_lanes<L: ColumnLanes>(boards: &mut [L; 11], mut doomed: L) -> Chain {
    let mut chain = Chain::NONE;
    loop {
        chain.steps += 1;
        chain.columns |= doomed.occupied_lanes();
        let landed = fall_in_lanes(boards, doomed);
        doomed = vanishing_in_lanes(boards, landed);
        if doomed.is_zero() {
            return chain;
        }
    }
}

/// Removes `doomed` from lane boards and lets everything above fall; returns the cells a
/// block may have fallen to (from the lowest gap of each column up), where any new pair has a
/// block.
#[cfg(any(ysai_avx512, all(ysai_avx2, ysai_pext)))]
#[inline]
pub(super) fn fall_in_lanes<L: ColumnLanes>(boards: &mut [L; 11], doomed: L) -> L {
    // Gaps close from the bottom up, each taking its cell away and moving the gaps above it
    // down with the blocks.
    let landed = doomed.lowest().and_above();
    let mut falling = landed;
    let mut gaps = doomed;
    loop {
        for board in boards[ANY + 1..].iter_mut() {
            *board = board.close_gap(falling);
        }
        gaps = gaps.close_gap(falling);
        if gaps.is_zero() {
            return landed;
        }
        falling = gaps.lowest().and_above();
    }
}

/// [`Field::vanishing`] on lane boards, for the pairs with a block in `landed`.
#[cfg(any(ysai_avx512, all(ysai_avx2, ysai_pext)))]
#[inline]
pub(super) fn vanishing_in_lanes<L: ColumnLanes>(boards: &[L; 11], landed: L) -> L {
    let mut doomed = L::zero();
    // A constant range, so that every board index is a constant and the boards stay in
    // registers.
    for n in 1..SKILL_NUMBER + 1 {
        let (low, high) = (boards[n], boards[10 - n]);
        if !low.or(high).meets(landed) {
            continue;
        }
        if n == SKILL_NUMBER {
            // Fives pair with each other, and every five touching a vanishing five vanishes.
            doomed = doomed.or_and(low, low.neighbours());
            continue;
        }
        let hit = high.touching_in(low);
        if !hit.is_zero() {
            doomed = doomed.or3(hit, hit.touching_in(high));
        }
    }
    doomed
}
