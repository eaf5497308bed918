//! Consistency of the reader on arbitrary bytes, shared by the fuzz target and the corpus
//! test: reading event by event and reading everything at once must agree, and whatever is
//! accepted must read back unchanged after being written out again.

use super::{format_game_start, format_turn, read_all, Event, Game, ParseError, Reader};

/// What the reader made of one input.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReaderCheck {
    /// Blocks read before the end or the first error.
    pub events: usize,
    /// Games [`read_all`] returned (0 when it failed).
    pub games: usize,
    /// The error that stopped the event-by-event reading, if any.
    pub error: Option<ParseError>,
}

/// Reads `input` both ways; an inconsistency is an `Err` describing it. A panic inside the
/// reader is left to propagate, since the callers want to see it.
pub fn check_reader(input: &[u8]) -> Result<ReaderCheck, String> {
    let (events, error) = read_events(input);
    let all = read_all(input);
    check_agreement(&events, &error, &all)?;
    let games = match &all {
        Ok(games) => {
            check_round_trip(games)?;
            games.len()
        }
        Err(_) => 0,
    };
    Ok(ReaderCheck {
        events: events.len(),
        games,
        error,
    })
}

/// Every event until the input ends or the reader reports an error.
fn read_events(input: &[u8]) -> (Vec<Event>, Option<ParseError>) {
    let mut reader = Reader::new(input);
    let mut events = Vec::new();
    loop {
        match reader.next_event() {
            Ok(Some(event)) => events.push(event),
            Ok(None) => return (events, None),
            Err(error) => return (events, Some(error)),
        }
    }
}

/// `read_all` must fail on a turn before any game, else fail with the events' error, else
/// return the events grouped into games.
fn check_agreement(
    events: &[Event],
    error: &Option<ParseError>,
    all: &Result<Vec<Game>, ParseError>,
) -> Result<(), String> {
    let turn_first = matches!(events.first(), Some(Event::Turn(_)));
    match (all, error) {
        (Err(_), _) if turn_first => Ok(()),
        (Ok(_), _) if turn_first => Err("read_all accepted a turn before any game".to_string()),
        (Err(got), Some(want)) if got == want => Ok(()),
        (Ok(games), None) if *games == group_into_games(events) => Ok(()),
        _ => Err(format!(
            "read_all returned {all:?}, but event by event the error was {error:?} after {} events",
            events.len()
        )),
    }
}

/// The games a stream of events describes, starting with a game-start event.
fn group_into_games(events: &[Event]) -> Vec<Game> {
    let mut games: Vec<Game> = Vec::new();
    for event in events {
        match event {
            Event::GameStart(packs) => games.push(Game {
                packs: packs.clone(),
                turns: Vec::new(),
            }),
            Event::Turn(turn) => {
                if let Some(game) = games.last_mut() {
                    game.turns.push((**turn).clone());
                }
            }
        }
    }
    games
}

/// Writing the games out in the server's format and reading them back gives the same games.
fn check_round_trip(games: &[Game]) -> Result<(), String> {
    let mut text = String::new();
    for game in games {
        text += &format_game_start(&game.packs);
        for turn in &game.turns {
            text += &format_turn(turn);
        }
    }
    match read_all(text.as_bytes()) {
        Ok(again) if again == games => Ok(()),
        Ok(_) => Err("the games read back differently after being written out".to_string()),
        Err(error) => Err(format!("the games written out do not read back: {error}")),
    }
}
