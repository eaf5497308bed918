//! The parsers of the command line's values. Every numeric flag reads its value with one of
//! them, so that a value it cannot take is refused with what it can: `-bw -5` says "expected
//! a whole number, 0 or more" where the standard library would say "invalid digit found in
//! string".

use std::fmt::Display;
use std::num::{IntErrorKind, ParseIntError};
use std::str::FromStr;

use clap::builder::{PossibleValuesParser, StringValueParser, TypedValueParser};

/// The integer types of the flags' values.
pub(crate) trait Whole:
    Copy + Default + Display + PartialOrd + FromStr<Err = ParseIntError> + Send + Sync + 'static
{
    const MIN: Self;
    const MAX: Self;
}

macro_rules! impl_whole {
    ($($t:ty),*) => {
        $(impl Whole for $t {
            const MIN: Self = <$t>::MIN;
            const MAX: Self = <$t>::MAX;
        })*
    };
}

impl_whole!(u8, u32, u64, usize, i32);

/// Any whole number `T` can hold (for an unsigned `T`: 0 or more).
pub(crate) fn whole<T: Whole>() -> impl TypedValueParser<Value = T> {
    within(T::MIN, T::MAX)
}

/// A whole number from `min` to `max`.
pub(crate) fn within<T: Whole>(min: T, max: T) -> impl TypedValueParser<Value = T> {
    ranged(min, max, String::new())
}

/// A whole number of at least `min`, where `why` says why (it follows the expectation).
pub(crate) fn at_least<T: Whole>(min: T, why: String) -> impl TypedValueParser<Value = T> {
    ranged(min, T::MAX, why)
}

fn ranged<T: Whole>(min: T, max: T, why: String) -> impl TypedValueParser<Value = T> {
    StringValueParser::new().try_map(move |text| parse_whole(&text, min, max, &why))
}

/// `text` as a whole number from `min` to `max`, or what the flag expects.
fn parse_whole<T: Whole>(text: &str, min: T, max: T, why: &str) -> Result<T, String> {
    match text.parse::<T>() {
        Ok(n) if min <= n && n <= max => Ok(n),
        Err(e)
            if matches!(
                e.kind(),
                IntErrorKind::PosOverflow | IntErrorKind::NegOverflow
            ) =>
        {
            Err(format!("expected a whole number from {min} to {max}{why}"))
        }
        _ => Err(format!("expected {}{why}", whole_range(min, max))),
    }
}

/// How a range of whole numbers reads in an error: "a whole number, 0 or more".
fn whole_range<T: Whole>(min: T, max: T) -> String {
    let zero = T::default();
    match (min == T::MIN && min < zero, max == T::MAX) {
        (true, true) => "a whole number".to_string(),
        (false, true) if min == zero => "a whole number, 0 or more".to_string(),
        (false, true) => format!("a whole number, at least {min}"),
        (true, false) => format!("a whole number, at most {max}"),
        (false, false) => format!("a whole number from {min} to {max}"),
    }
}

/// A finite number (`-5`, `0.5`, `1e3`); `inf` and `NaN` would poison every evaluation.
pub(crate) fn number() -> impl TypedValueParser<Value = f64> {
    StringValueParser::new().try_map(|text| match text.parse::<f64>() {
        Ok(x) if x.is_finite() => Ok(x),
        _ => Err("expected a number, such as -5 or 0.5".to_string()),
    })
}

/// One of `choices` (name and value), for the settings whose types belong to the components
/// that read them (and so know nothing of the command line).
pub(crate) fn choice<T: Copy + Send + Sync + 'static>(
    choices: &'static [(&'static str, T)],
) -> impl TypedValueParser<Value = T> {
    PossibleValuesParser::new(choices.iter().map(|(name, _)| *name)).map(move |name| {
        choices
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, value)| *value)
            .expect("the parser accepts only the names of `choices`")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_numbers_say_what_they_take() {
        assert_eq!(parse_whole::<usize>("5000", 0, usize::MAX, ""), Ok(5000));
        assert_eq!(
            parse_whole::<usize>("-5", 0, usize::MAX, ""),
            Err("expected a whole number, 0 or more".to_string())
        );
        assert_eq!(
            parse_whole::<i32>("abc", i32::MIN, i32::MAX, ""),
            Err("expected a whole number".to_string())
        );
        assert_eq!(parse_whole::<i32>("-1", i32::MIN, i32::MAX, ""), Ok(-1));
        assert_eq!(
            parse_whole::<u64>("300", 334, u64::MAX, ": why"),
            Err("expected a whole number, at least 334: why".to_string())
        );
        assert_eq!(
            parse_whole::<usize>("7", 1, 6, ""),
            Err("expected a whole number from 1 to 6".to_string())
        );
        assert_eq!(
            parse_whole::<i32>("99999999999", i32::MIN, i32::MAX, ""),
            Err("expected a whole number from -2147483648 to 2147483647".to_string())
        );
        assert_eq!(
            parse_whole::<i32>("3", i32::MIN, 2, ""),
            Err("expected a whole number, at most 2".to_string())
        );
    }

    #[test]
    fn numbers_are_finite() {
        let parse = |text: &str| {
            let command = clap::Command::new("t");
            let arg = clap::Arg::new("x");
            number().parse_ref(&command, Some(&arg), std::ffi::OsStr::new(text))
        };
        assert_eq!(parse("-5").unwrap(), -5.0);
        assert_eq!(parse("0.5").unwrap(), 0.5);
        for bad in ["inf", "NaN", "x", ""] {
            let error = parse(bad).unwrap_err().to_string();
            assert!(error.contains("expected a number"), "{bad}: {error}");
        }
    }
}
