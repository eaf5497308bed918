//! ysai's own turn ([`crate::policy::Ysai`]) as a player.

use super::Player;
use crate::policy::Ysai;
use crate::sim::{Action, Neighbourhood, Position};

impl<N: Neighbourhood> Player for Ysai<N> {
    fn choose(&mut self, view: &Position<'_>) -> Action {
        self.play(view)
    }
}
