//! Dropping a pack on a field: where its blocks land, the chain they start, and the cheaper
//! questions a search asks about a drop (its outcome, a quiet drop, the columns it changed).

use super::*;

impl Field {
    /// Applies `action` with this turn's `pack`. The caller checks that a skill is allowed.
    #[inline]
    pub fn apply<N: Neighbourhood>(&mut self, pack: &PreparedPack, action: Action) -> MoveResult {
        match action {
            Action::Drop { x, rot } => self.drop_pack::<N>(pack, x, rot),
            Action::Skill => self.fire_skill::<N>(),
        }
    }

    /// Drops the pack with its left half in column `x` (0..=8) at rotation `rot`, then resolves
    /// chains. A pack that does not fit (x > 8, or a column overflowing the grid) loses.
    pub fn drop_pack<N: Neighbourhood>(
        &mut self,
        pack: &PreparedPack,
        x: u8,
        rot: u8,
    ) -> MoveResult {
        let Some(chain) = self.land_and_chain::<N>(pack, x, rot) else {
            return MoveResult {
                dead: true,
                ..MoveResult::default()
            };
        };
        self.drop_result(chain)
    }

    /// [`Field::drop_pack`], with the columns the drop touched as [`DropOutcome::columns`]
    /// names them.
    pub fn drop_pack_touching<N: Neighbourhood>(
        &mut self,
        pack: &PreparedPack,
        x: u8,
        rot: u8,
    ) -> (MoveResult, u16) {
        let pack_columns = 0b11u16 << x.min(DROP_COLUMNS);
        let Some(chain) = self.land_and_chain::<N>(pack, x, rot) else {
            let lost = MoveResult {
                dead: true,
                ..MoveResult::default()
            };
            return (lost, pack_columns);
        };
        let result = self.drop_result(chain);
        // A dead field also read the columns that killed it.
        let killers = if result.dead { self.dead_columns() } else { 0 };
        (result, pack_columns | chain.columns | killers)
    }

    pub(super) fn drop_result(&self, chain: Chain) -> MoveResult {
        let score = chain_score(chain.steps);
        MoveResult {
            chains: chain.steps,
            score,
            ojama: score / 2,
            vanished: chain.steps > 0,
            skill_destroyed: 0,
            dead: self.is_dead(),
        }
    }

    /// Lands the pack and resolves its chain; `None` if it does not fit (the field is then
    /// left half-written, as a lost field may be).
    #[inline]
    pub(super) fn land_and_chain<N: Neighbourhood>(
        &mut self,
        pack: &PreparedPack,
        x: u8,
        rot: u8,
    ) -> Option<Chain> {
        let doomed = self.land(pack, x, rot)?;
        Some(self.chain_from::<N>(doomed))
    }

    /// Lands the pack; returns the blocks its landing dooms (the chain's first step), or
    /// `None` if it does not fit (the field is then left half-written).
    #[inline]
    pub(super) fn land(&mut self, pack: &PreparedPack, x: u8, rot: u8) -> Option<BitBoard> {
        if x >= DROP_COLUMNS {
            return None;
        }
        let mut placement = Placement::default();
        for side in 0..2 {
            let column = usize::from(x) + side;
            let landing = pack.landing(rot, side);
            if !self.stack_numbers(column, landing, &mut placement) {
                return None;
            }
            self.add_height(column, landing.iter().filter(|&&v| v != 0).count() as u8);
        }
        self.boards[ANY] |= placement.cells;
        Some(placement.doomed)
    }

    /// What dropping the pack at `x`, `rot` would do, without keeping the field it leaves: a
    /// drop that pairs nothing is answered from the heights (see [`Field::quiet_drop`]).
    pub fn drop_outcome<N: Neighbourhood>(
        &self,
        pack: &PreparedPack,
        x: u8,
        rot: u8,
    ) -> DropOutcome {
        let pack_columns = 0b11u16 << x.min(DROP_COLUMNS);
        if let Some(quiet) = self.quiet_drop(pack, x, rot) {
            // A dead field also read the columns that killed it.
            let killers = if quiet.dead { self.dead_columns() } else { 0 };
            return DropOutcome {
                chains: 0,
                blocks_change: quiet.placed as i16,
                dead: quiet.dead,
                columns: pack_columns | killers,
            };
        }
        let mut after = *self;
        let Some(doomed) = after.land(pack, x, rot) else {
            return DropOutcome {
                chains: 0,
                blocks_change: 0,
                dead: true,
                columns: pack_columns,
            };
        };
        let end = after.chain_end::<N>(doomed);
        let dead = end.dead_columns != 0;
        DropOutcome {
            chains: end.chain.steps as u8,
            blocks_change: if dead {
                0
            } else {
                end.number_blocks as i16 - self.number_blocks() as i16
            },
            dead,
            columns: pack_columns | end.chain.columns | end.dead_columns,
        }
    }

    /// What the chain whose first step removes `doomed` (none if empty) leaves, for a caller
    /// that does not keep the field: on lanes, the boards are never packed back.
    pub(super) fn chain_end<N: Neighbourhood>(&mut self, doomed: BitBoard) -> ChainEnd {
        #[cfg(all(ysai_avx2, ysai_pext))]
        if N::SHIFTS && !doomed.is_zero() && !self.is_dead() {
            return self.chain_end_in_lanes::<ShortLanes>(doomed);
        }
        #[cfg(ysai_avx512)]
        if N::SHIFTS && !doomed.is_zero() {
            return self.chain_end_in_lanes::<LaneBoard>(doomed);
        }
        let chain = self.chain_from::<N>(doomed);
        ChainEnd {
            chain,
            number_blocks: self.number_blocks(),
            dead_columns: self.dead_columns(),
        }
    }

    /// The columns (bit x = column x) in which `other` holds other blocks than this field.
    pub fn changed_columns(&self, other: &Field) -> u16 {
        let differ = self
            .defining_boards()
            .iter()
            .zip(other.defining_boards())
            .fold(BitBoard::ZERO, |differ, (&mine, &theirs)| {
                differ | (mine ^ theirs)
            });
        differ.occupied_columns()
    }

    /// This field with the `columns` (bit x = column x) of `other`: boards and heights.
    #[inline]
    pub fn with_columns_of(&self, other: &Field, columns: u16) -> Field {
        let theirs = BitBoard::of_columns(columns);
        let mut mixed = *self;
        for (mine, &their) in mixed.boards.iter_mut().zip(&other.boards) {
            *mine = mine.with_cells_of(their, theirs);
        }
        let mut height_bytes = [0u64; 2];
        let mut rest = columns & ((1 << WIDTH) - 1);
        while rest != 0 {
            let x = rest.trailing_zeros() as usize;
            height_bytes[x / 8] |= 0xFF << (8 * (x % 8));
            rest &= rest - 1;
        }
        for ((mine, their), bytes) in mixed
            .heights
            .iter_mut()
            .zip(other.heights)
            .zip(height_bytes)
        {
            *mine = (*mine & !bytes) | (their & bytes);
        }
        mixed
    }

    /// What a search counts of a field: its blocks, its ojama and what the skill would
    /// destroy.
    #[inline]
    pub fn counts(&self) -> FieldCounts {
        self.counted().counts()
    }

    /// The boards [`Field::counts`] reads.
    #[inline]
    pub fn counted(&self) -> CountedBoards {
        CountedBoards {
            blocks: self.boards[ANY],
            fives: self.boards[SKILL_NUMBER],
            ojama: self.boards[OJAMA],
        }
    }

    /// The outcome of dropping the pack at `x`, `rot` when none of its blocks touches a
    /// complement (on the field or in the pack), worked out from the heights and the cells
    /// around the landing blocks: a search that only wants a drop's chain need not copy the
    /// field for the drops that vanish nothing. `None` when a pair forms, and the drop must be
    /// played.
    pub fn quiet_drop(&self, pack: &PreparedPack, x: u8, rot: u8) -> Option<QuietDrop> {
        const OVERFLOW: QuietDrop = QuietDrop {
            placed: 0,
            dead: true,
        };
        if x >= DROP_COLUMNS {
            return Some(OVERFLOW);
        }
        let x = usize::from(x);
        let sides = [pack.landing(rot, 0), pack.landing(rot, 1)];
        let bases = [usize::from(self.height(x)), usize::from(self.height(x + 1))];
        let mut heights = self.heights;
        let mut placed = 0;
        for (side, landing) in sides.iter().enumerate() {
            let column = x + side;
            for (k, &n) in landing.iter().enumerate().take_while(|&(_, &n)| n != 0) {
                let y = bases[side] + k;
                if y >= HEIGHT {
                    return Some(OVERFLOW);
                }
                let around_cell = BitBoard::from(*cell_neighbours(column, y));
                if !(around_cell & self.boards[usize::from(10 - n)]).is_zero() {
                    return None;
                }
                placed += 1;
                heights[column / 8] += 1 << (8 * (column % 8));
            }
        }
        if pack_pairs_itself(sides, bases) {
            return None;
        }
        Some(QuietDrop {
            placed,
            dead: any_column_dead(heights),
        })
    }
}
