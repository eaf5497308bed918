//! How the command line is spelled: the original's single-dash flags read as long ones, a
//! misspelt flag's nearest name, and clap's errors in the words the original's users know.

use super::*;

pub(super) fn utf8_args<I, S>(args: I) -> Result<Vec<String>, CliError>
where
    I: IntoIterator<Item = S>,
    S: Into<OsString>,
{
    args.into_iter()
        .map(|a| {
            a.into().into_string().map_err(|bad| CliError::NotUtf8 {
                arg: bad.to_string_lossy().into_owned(),
            })
        })
        .collect()
}

/// A long flag of the program or of a subcommand, or a subcommand's one-letter flag.
pub(super) struct KnownFlag {
    pub(super) name: String,
    pub(super) takes_value: bool,
    /// Its value may start with a dash: it holds flags of other programs (`--each`).
    pub(super) takes_flags: bool,
    /// A one-letter flag (`-j`): it keeps its single dash.
    pub(super) short: bool,
}

/// What the token after a flag is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Next {
    /// A token of its own: the flag takes no value, or has it inline, or is no flag.
    Own,
    /// The flag's value if it is a negative number, else a token of its own.
    NumberValue,
    /// The flag's value, whatever it is.
    AnyValue,
}

/// Every flag of the program and its subcommands, in definition order (the order breaks ties
/// between equally close suggestions).
pub(super) fn known_flags() -> Vec<KnownFlag> {
    let mut cmd = RawCli::command();
    cmd.build();
    let mut flags = Vec::new();
    collect_flags(&cmd, &mut flags);
    flags
}

pub(super) fn collect_flags(cmd: &clap::Command, flags: &mut Vec<KnownFlag>) {
    for arg in cmd.get_arguments() {
        let Some(long) = arg.get_long() else { continue };
        let takes_value = arg.get_action().takes_values();
        let takes_flags = arg.is_allow_hyphen_values_set();
        match flags.iter_mut().find(|f| f.name == long) {
            Some(known) => {
                known.takes_value |= takes_value;
                known.takes_flags |= takes_flags;
            }
            None => flags.push(KnownFlag {
                name: long.to_string(),
                takes_value,
                takes_flags,
                short: false,
            }),
        }
        if let Some(short) = arg.get_short().filter(|&c| c != 'h' && c != 'V') {
            flags.push(KnownFlag {
                name: short.to_string(),
                takes_value,
                takes_flags,
                short: true,
            });
        }
    }
    for sub in cmd.get_subcommands() {
        collect_flags(sub, flags);
    }
}

/// Rewrites single-dash long flags to clap's double dash, attaches a negative number to the
/// flag before it (`-bcm- -1` -> `--bcm-=-1`, so clap cannot mistake it for a flag), and
/// rejects unknown flags. The value of a flag that holds other programs' flags (`--each
/// '--threads 1'`) and tokens after `--` pass unchanged.
pub(super) fn normalise(args: Vec<String>, flags: &[KnownFlag]) -> Result<Vec<String>, CliError> {
    let mut out = Vec::with_capacity(args.len());
    let mut tokens = args.into_iter().peekable();
    out.extend(tokens.next());
    while let Some(token) = tokens.next() {
        if token == "--" {
            out.push(token);
            break;
        }
        let (token, next) = normalise_token(token, flags)?;
        match tokens.next_if(|t| next == Next::NumberValue && is_negative_number(t)) {
            Some(value) => out.push(format!("{token}={value}")),
            None => out.push(token),
        }
        if next == Next::AnyValue {
            out.extend(tokens.next());
        }
    }
    out.extend(tokens);
    Ok(out)
}

/// The clap spelling of one token, and what the next token is to it.
pub(super) fn normalise_token(
    token: String,
    flags: &[KnownFlag],
) -> Result<(String, Next), CliError> {
    let passes = !token.starts_with('-') || token == "-" || is_negative_number(&token);
    if passes || token == "-h" || token == "-V" {
        return Ok((token, Next::Own));
    }
    let (dashes, rest) = match token.strip_prefix("--") {
        Some(rest) => ("--", rest),
        None => ("-", &token[1..]),
    };
    let (name, inline_value) = match rest.split_once('=') {
        Some((name, _)) => (name, true),
        None => (rest, false),
    };
    let next = |flag: &KnownFlag| match (flag.takes_value && !inline_value, flag.takes_flags) {
        (false, _) => Next::Own,
        (true, false) => Next::NumberValue,
        (true, true) => Next::AnyValue,
    };
    match flags.iter().find(|f| f.name == name) {
        Some(flag) if flag.short && dashes == "-" => Ok((token, next(flag))),
        Some(flag) => Ok((format!("--{rest}"), next(flag))),
        None => Err(CliError::UnknownFlag {
            suggestion: nearest_name(name, flags).map(|s| format!("{dashes}{s}")),
            flag: format!("{dashes}{name}"),
        }),
    }
}

pub(super) fn is_negative_number(token: &str) -> bool {
    let Some(rest) = token.strip_prefix('-') else {
        return false;
    };
    rest.starts_with(|c: char| c.is_ascii_digit() || c == '.') && rest.parse::<f64>().is_ok()
}

/// The known name closest to `name` by edit distance, if it is close enough to be a typo.
/// Ties go to the longer common prefix (typos tend to be at the end), then to definition order.
pub(super) fn nearest_name<'a>(name: &str, flags: &'a [KnownFlag]) -> Option<&'a str> {
    let max_distance = (name.chars().count() / 2).max(2);
    flags
        .iter()
        .filter(|f| !f.short)
        .map(|f| &f.name)
        .map(|n| (strsim::levenshtein(name, n), common_prefix_len(name, n), n))
        .filter(|&(d, _, _)| d <= max_distance)
        .min_by_key(|&(d, prefix, _)| (d, std::cmp::Reverse(prefix)))
        .map(|(_, _, n)| n.as_str())
}

pub(super) fn common_prefix_len(a: &str, b: &str) -> usize {
    a.chars().zip(b.chars()).take_while(|(x, y)| x == y).count()
}

pub(super) fn from_clap(err: clap::Error) -> CliError {
    match err.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            CliError::Help(err.render().to_string())
        }
        ErrorKind::DisplayVersion => CliError::Version(err.render().to_string()),
        ErrorKind::InvalidValue | ErrorKind::ValueValidation => value_error(&err),
        ErrorKind::UnknownArgument => misplaced_flag(&err),
        _ => CliError::Usage(clap_message(&err)),
    }
}

/// Every flag reaching clap is known somewhere, so an unknown argument is a program flag after
/// the subcommand or a subcommand flag before it; clap's own hint would name an unrelated flag.
pub(super) fn misplaced_flag(err: &clap::Error) -> CliError {
    let usage = || CliError::Usage(clap_message(err));
    let Some(arg) = context_string(err, ContextKind::InvalidArg) else {
        return usage();
    };
    let name = flag_name(&arg);
    let has_flag = |cmd: &clap::Command| cmd.get_arguments().any(|a| a.get_long() == Some(name));
    let cmd = RawCli::command();
    if has_flag(&cmd) {
        let flag = display_flag(name);
        return CliError::Usage(format!("`{flag}` must come before the subcommand"));
    }
    let owner = cmd.get_subcommands().find(|sub| has_flag(sub));
    match owner.map(|sub| sub.get_name()) {
        Some(sub) => CliError::Usage(format!(
            "`{}` belongs to `{sub}`: write it after the subcommand",
            display_flag(name)
        )),
        None => usage(),
    }
}

pub(super) fn value_error(err: &clap::Error) -> CliError {
    let flag = match context_string(err, ContextKind::InvalidArg) {
        Some(arg) => display_flag(flag_name(&arg)),
        None => return CliError::Usage(clap_message(err)),
    };
    let value = context_string(err, ContextKind::InvalidValue).unwrap_or_default();
    if value.is_empty() {
        return CliError::MissingValue { flag };
    }
    let reason = match std::error::Error::source(err) {
        Some(source) => source.to_string(),
        None => match err.get(ContextKind::ValidValue) {
            Some(ContextValue::Strings(valid)) => format!("expected one of {}", valid.join(", ")),
            _ => "not accepted".to_string(),
        },
    };
    CliError::InvalidValue {
        flag,
        value,
        reason,
    }
}

pub(super) fn context_string(err: &clap::Error, kind: ContextKind) -> Option<String> {
    match err.get(kind)? {
        ContextValue::String(s) => Some(s.clone()),
        ContextValue::StyledStr(s) => Some(s.to_string()),
        _ => None,
    }
}

/// `--bw <N>` or `--bw=5` -> `bw`.
pub(super) fn flag_name(clap_arg: &str) -> &str {
    let long = clap_arg.split_whitespace().next().unwrap_or(clap_arg);
    let name = long.trim_start_matches('-');
    name.split('=').next().unwrap_or(name)
}

/// Original flags are named as the original spelled them, with one dash; the flags this
/// implementation added with two.
pub fn display_flag(name: &str) -> String {
    if ORIGINAL_FLAGS.contains(&name) {
        format!("-{name}")
    } else {
        format!("--{name}")
    }
}

pub(super) fn clap_message(err: &clap::Error) -> String {
    let text = err.render().to_string();
    let text = text.strip_prefix("error: ").unwrap_or(&text);
    text.trim_end().to_string()
}
