//! AI child processes: started through the shell in their own process group, fed by a writer
//! thread, read by a reader thread that timestamps every line, and always killed and reaped.
//!
//! The threads keep the referee from ever blocking on a pipe: a child that stops reading its
//! stdin cannot stall the game, and the time of an answer is taken when it arrives, not when
//! the referee gets round to looking (which matters when both players think at once).

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStderr, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// Longest output line kept; a longer line is garbage and is cut here.
const MAX_LINE: u64 = 4096;
/// Bytes of stderr kept to explain a crash.
const STDERR_TAIL: usize = 2048;
/// Turn lines kept per game: more than a game has turns, so that a chatty child cannot grow
/// the referee without bound.
const MAX_TURN_LINES: usize = 1000;

/// What the reader thread saw on the child's stdout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Output {
    /// One line, without its `\n` (a `\r` is kept, so that a strict check can report it).
    Line { text: String, at: Instant },
    /// Stdout was closed: the child exited or crashed.
    Closed { at: Instant },
}

/// Why waiting for a line ended without one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wait {
    TimedOut,
    Cancelled,
}

/// A running AI.
pub struct AiProcess {
    child: Child,
    input: Option<Sender<Vec<u8>>>,
    output: Receiver<Output>,
    /// Stdout is known to be closed.
    closed: bool,
    stderr: Arc<StderrTail>,
    /// The child has been waited for: its pid may now belong to another process.
    reaped: bool,
    /// The child's peak resident set, in KiB, read when it was reaped (Linux).
    peak_rss_kib: Option<u64>,
}

/// The end of a child's stderr, its turn lines, and whether the child closed it.
#[derive(Default)]
struct StderrTail {
    bytes: Mutex<Vec<u8>>,
    turn_lines: Mutex<TurnLines>,
    closed: AtomicBool,
}

/// What a player said about each turn on stderr: the first line of the form `Turn N ...`
/// (as ysai's `-tm` writes it), by turn.
pub type TurnLines = BTreeMap<u32, String>;

impl AiProcess {
    /// Starts `command` with `sh -c`, its stderr copied to `stderr_file` (if any), its last
    /// lines kept to explain a crash.
    pub fn spawn(command: &str, stderr_file: Option<&Path>) -> io::Result<Self> {
        let copy = stderr_file.map(File::create).transpose()?;
        let mut shell = Command::new("sh");
        shell
            .arg("-c")
            .arg(exec_if_simple(command))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        own_process_group(&mut shell);
        let mut child = shell.spawn()?;
        let stdin = child
            .stdin
            .take()
            .ok_or_else(|| io::Error::other("no stdin"))?;
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| io::Error::other("no stdout"))?;
        let stderr = child
            .stderr
            .take()
            .ok_or_else(|| io::Error::other("no stderr"))?;
        Ok(AiProcess {
            child,
            input: Some(spawn_writer(stdin)),
            output: spawn_reader(stdout),
            closed: false,
            stderr: spawn_stderr_reader(stderr, copy),
            reaped: false,
            peak_rss_kib: None,
        })
    }

    /// The last lines the child wrote on stderr (waiting briefly for it to close stderr).
    pub fn stderr_tail(&self) -> String {
        self.wait_for_stderr();
        let bytes = self
            .stderr
            .bytes
            .lock()
            .map(|b| b.clone())
            .unwrap_or_default();
        String::from_utf8_lossy(&bytes).trim().to_string()
    }

    /// The child's turn lines so far (waiting briefly for it to close stderr).
    pub fn turn_lines(&self) -> TurnLines {
        self.wait_for_stderr();
        self.stderr
            .turn_lines
            .lock()
            .map(|lines| lines.clone())
            .unwrap_or_default()
    }

    /// Gives the stderr reader up to 200 ms to see the end of a child that has exited.
    fn wait_for_stderr(&self) {
        for _ in 0..20 {
            if self.stderr.closed.load(Ordering::SeqCst) {
                break;
            }
            thread::sleep(Duration::from_millis(10));
        }
    }

    /// Queues `bytes` for the child's stdin; returns at once.
    pub fn send(&self, bytes: &[u8]) {
        if let Some(input) = &self.input {
            // A dead writer means the child closed its stdin; the missing answer will show it.
            let _ = input.send(bytes.to_vec());
        }
    }

    /// Closes the child's stdin (after what was queued).
    pub fn close_input(&mut self) {
        self.input = None;
    }

    /// The next output line or end of output, waiting until `deadline` (forever if `None`)
    /// and giving up early when `cancelled` says so (checked every few milliseconds).
    pub fn next_output(
        &mut self,
        deadline: Option<Instant>,
        cancelled: &dyn Fn() -> bool,
    ) -> Result<Output, Wait> {
        const SLICE: Duration = Duration::from_millis(20);
        if self.closed {
            return Ok(Output::Closed { at: Instant::now() });
        }
        loop {
            if cancelled() {
                return Err(Wait::Cancelled);
            }
            let slice = match deadline {
                Some(deadline) => {
                    let left = deadline.saturating_duration_since(Instant::now());
                    if left.is_zero() {
                        return self.last_chance();
                    }
                    left.min(SLICE)
                }
                None => SLICE,
            };
            match self.output.recv_timeout(slice) {
                Ok(output) => return Ok(self.note(output)),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => {
                    return Ok(self.note(Output::Closed { at: Instant::now() }))
                }
            }
        }
    }

    /// A line that arrived by the deadline but was not yet picked up still counts.
    fn last_chance(&mut self) -> Result<Output, Wait> {
        match self.output.try_recv() {
            Ok(output) => Ok(self.note(output)),
            Err(_) => Err(Wait::TimedOut),
        }
    }

    fn note(&mut self, output: Output) -> Output {
        if matches!(output, Output::Closed { .. }) {
            self.closed = true;
        }
        output
    }

    /// Lines already waiting (output nobody asked for), without blocking.
    pub fn pending_lines(&mut self) -> Vec<String> {
        let mut lines = Vec::new();
        while let Ok(output) = self.output.try_recv() {
            match self.note(output) {
                Output::Line { text, .. } => lines.push(text),
                Output::Closed { .. } => break,
            }
        }
        lines
    }

    /// Kills the child's whole process group and reaps the child (once: after the wait its
    /// pid, and so the group id, may be reused by an unrelated process).
    pub fn kill(&mut self) {
        self.input = None;
        if self.reaped {
            return;
        }
        kill_group(&mut self.child);
        self.peak_rss_kib = reap(&mut self.child);
        self.reaped = true;
    }

    /// The peak resident set of the child over its life, in KiB, once [`AiProcess::kill`]
    /// has reaped it (on Linux; `None` elsewhere). With a simple command the child is the AI
    /// itself (a simple command is exec'd by its shell).
    pub fn peak_rss_kib(&self) -> Option<u64> {
        self.peak_rss_kib
    }
}

impl Drop for AiProcess {
    fn drop(&mut self) {
        self.kill();
    }
}

/// `exec COMMAND` for a simple command, so that the shell becomes the AI instead of waiting
/// for it: the AI is then the referee's direct child, which the kernel kills if the referee
/// dies. Lists, pipes and redirections stay as written.
fn exec_if_simple(command: &str) -> String {
    let compound = command.contains(|c: char| ";&|<>()`\n".contains(c));
    if compound || command.trim_start().starts_with("exec ") {
        command.to_string()
    } else {
        format!("exec {command}")
    }
}

/// A thread that writes each queued buffer to the child and flushes it; it ends (closing the
/// child's stdin) when the sender is dropped or the child stops reading.
fn spawn_writer(mut stdin: ChildStdin) -> Sender<Vec<u8>> {
    let (sender, receiver) = mpsc::channel::<Vec<u8>>();
    thread::spawn(move || {
        for bytes in receiver {
            if stdin
                .write_all(&bytes)
                .and_then(|()| stdin.flush())
                .is_err()
            {
                break;
            }
        }
    });
    sender
}

/// A thread that keeps the end of the child's stderr and its turn lines, and copies all of
/// it to `copy`.
fn spawn_stderr_reader(mut stderr: ChildStderr, mut copy: Option<File>) -> Arc<StderrTail> {
    let tail = Arc::new(StderrTail::default());
    let kept = Arc::clone(&tail);
    thread::spawn(move || {
        let mut buffer = [0u8; 4096];
        let mut splitter = LineSplitter::default();
        while let Ok(n) = stderr.read(&mut buffer) {
            if n == 0 {
                break;
            }
            let bytes = &buffer[..n];
            if let Some(file) = copy.as_mut() {
                let _ = file.write_all(bytes);
            }
            if let Ok(mut tail) = kept.bytes.lock() {
                tail.extend_from_slice(bytes);
                let excess = tail.len().saturating_sub(STDERR_TAIL);
                tail.drain(..excess);
            }
            splitter.feed(bytes, |line| keep_turn_line(&kept.turn_lines, line));
        }
        kept.closed.store(true, Ordering::SeqCst);
    });
    tail
}

/// Cuts a byte stream into lines of at most [`MAX_LINE`] bytes (the rest of a longer line
/// is dropped).
#[derive(Default)]
struct LineSplitter {
    line: Vec<u8>,
}

impl LineSplitter {
    fn feed(&mut self, bytes: &[u8], mut each_line: impl FnMut(&str)) {
        for &byte in bytes {
            if byte == b'\n' {
                each_line(&String::from_utf8_lossy(&self.line));
                self.line.clear();
            } else if self.line.len() < MAX_LINE as usize {
                self.line.push(byte);
            }
        }
    }
}

/// Records `line` if it is the first `Turn N ...` line of its turn.
fn keep_turn_line(lines: &Mutex<TurnLines>, line: &str) {
    let Some(turn) = turn_of_line(line) else {
        return;
    };
    if let Ok(mut lines) = lines.lock() {
        if lines.len() < MAX_TURN_LINES {
            lines
                .entry(turn)
                .or_insert_with(|| line.trim_end().to_string());
        }
    }
}

/// The turn a `Turn N ...` line is about.
fn turn_of_line(line: &str) -> Option<u32> {
    let rest = line.strip_prefix("Turn ")?;
    let number = rest.split(' ').next()?;
    number.parse().ok()
}

/// A thread that forwards each stdout line with its arrival time, then `Closed`.
fn spawn_reader(stdout: ChildStdout) -> Receiver<Output> {
    let (sender, receiver) = mpsc::channel();
    thread::spawn(move || {
        let mut reader = BufReader::new(stdout);
        loop {
            match read_line(&mut reader) {
                Some(text) => {
                    let line = Output::Line {
                        text,
                        at: Instant::now(),
                    };
                    if sender.send(line).is_err() {
                        return;
                    }
                }
                None => {
                    let _ = sender.send(Output::Closed { at: Instant::now() });
                    return;
                }
            }
        }
    });
    receiver
}

/// One line (at most [`MAX_LINE`] bytes, the rest of a longer line dropped), or `None` at end
/// of output. Bytes that are not UTF-8 are replaced, so that they show in error messages.
fn read_line(reader: &mut impl BufRead) -> Option<String> {
    let mut raw = Vec::new();
    match reader.by_ref().take(MAX_LINE).read_until(b'\n', &mut raw) {
        Ok(0) | Err(_) => return None,
        Ok(_) => {}
    }
    if raw.last() == Some(&b'\n') {
        raw.pop();
    } else if raw.len() as u64 == MAX_LINE {
        skip_rest_of_line(reader);
    }
    Some(String::from_utf8_lossy(&raw).into_owned())
}

fn skip_rest_of_line(reader: &mut impl BufRead) {
    let mut sink = Vec::new();
    loop {
        sink.clear();
        match reader.by_ref().take(MAX_LINE).read_until(b'\n', &mut sink) {
            Ok(0) | Err(_) => return,
            Ok(_) if sink.last() == Some(&b'\n') => return,
            Ok(_) => {}
        }
    }
}

/// Puts the child in a process group of its own: Ctrl-C in the terminal reaches only the
/// referee, which then kills every process the AI started (the shell and its children).
#[cfg(unix)]
fn own_process_group(command: &mut Command) {
    use std::os::unix::process::CommandExt;
    command.process_group(0);
    die_with_the_referee(command);
}

/// On Linux the child is also killed if the referee itself is killed without a chance to
/// clean up (`kill -9`, a batch system's hard limit).
#[cfg(target_os = "linux")]
fn die_with_the_referee(command: &mut Command) {
    use std::os::unix::process::CommandExt;
    // SAFETY: the closure runs in the forked child before exec and only calls prctl(2),
    // which is async-signal-safe and touches no memory of the parent.
    unsafe {
        command.pre_exec(|| {
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
            Ok(())
        });
    }
}

#[cfg(all(unix, not(target_os = "linux")))]
fn die_with_the_referee(_command: &mut Command) {}

#[cfg(not(unix))]
fn own_process_group(_command: &mut Command) {}

#[cfg(unix)]
fn kill_group(child: &mut Child) {
    if let Ok(pid) = i32::try_from(child.id()) {
        // SAFETY: kill(2) has no memory effects; a negative pid names the child's own group,
        // which it cannot have left (only a new session could, and then the group is empty).
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
    }
    let _ = child.kill();
}

#[cfg(not(unix))]
fn kill_group(child: &mut Child) {
    let _ = child.kill();
}

/// Waits for the killed child and returns its peak resident set in KiB (`ru_maxrss` of
/// wait4(2), which counts the child and the descendants it waited for).
#[cfg(target_os = "linux")]
fn reap(child: &mut Child) -> Option<u64> {
    let pid = i32::try_from(child.id()).ok()?;
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value for wait4 to overwrite.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `status` and `usage` are valid for writes; the pid is our own unreaped child.
    let reaped = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    if reaped != pid {
        let _ = child.wait();
        return None;
    }
    u64::try_from(usage.ru_maxrss).ok()
}

#[cfg(not(target_os = "linux"))]
fn reap(child: &mut Child) -> Option<u64> {
    let _ = child.wait();
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn never() -> bool {
        false
    }

    #[test]
    fn echo_lines_then_closed() {
        let mut ai = AiProcess::spawn("read a; echo \"got $a\"; echo two", None).unwrap();
        ai.send(b"hello\n");
        let deadline = Some(Instant::now() + Duration::from_secs(10));
        match ai.next_output(deadline, &never).unwrap() {
            Output::Line { text, .. } => assert_eq!(text, "got hello"),
            other => panic!("{other:?}"),
        }
        assert!(
            matches!(ai.next_output(deadline, &never), Ok(Output::Line { text, .. }) if text == "two")
        );
        assert!(matches!(
            ai.next_output(deadline, &never),
            Ok(Output::Closed { .. })
        ));
    }

    #[test]
    fn simple_commands_replace_the_shell() {
        assert_eq!(exec_if_simple("./ai -x 1"), "exec ./ai -x 1");
        assert_eq!(exec_if_simple("FOO=1 'my ai'"), "exec FOO=1 'my ai'");
        assert_eq!(exec_if_simple("cd x && ./ai"), "cd x && ./ai");
        assert_eq!(exec_if_simple("./ai | tee log"), "./ai | tee log");
        assert_eq!(exec_if_simple("exec ./ai"), "exec ./ai");
    }

    #[test]
    fn stderr_tail_explains_a_crash() {
        let mut ai =
            AiProcess::spawn("echo 'first' >&2; echo 'bad flag -x' >&2; exit 2", None).unwrap();
        let deadline = Some(Instant::now() + Duration::from_secs(10));
        assert!(matches!(
            ai.next_output(deadline, &never),
            Ok(Output::Closed { .. })
        ));
        assert_eq!(ai.stderr_tail(), "first\nbad flag -x");
    }

    #[test]
    fn turn_lines_are_kept_by_turn_and_other_lines_are_not() {
        let script = "printf 'Turn 0 a\\nnoise\\nTurn 1 b\\nTurn 1 again\\nTurn x\\nTurn 2 c' >&2";
        let mut ai = AiProcess::spawn(script, None).unwrap();
        let deadline = Some(Instant::now() + Duration::from_secs(10));
        assert!(matches!(
            ai.next_output(deadline, &never),
            Ok(Output::Closed { .. })
        ));
        let lines = ai.turn_lines();
        // A last line without its newline was cut short by the exit: it is not a whole line.
        let expected = [(0, "Turn 0 a"), (1, "Turn 1 b")].map(|(t, l)| (t, l.to_string()));
        assert_eq!(lines, TurnLines::from(expected));
    }

    #[test]
    fn a_line_split_across_reads_is_one_line() {
        let mut splitter = LineSplitter::default();
        let mut lines = Vec::new();
        for chunk in [&b"Tur"[..], b"n 7 x\nTurn 8", b" y\n"] {
            splitter.feed(chunk, |line| lines.push(line.to_string()));
        }
        assert_eq!(lines, ["Turn 7 x", "Turn 8 y"]);
        let long = vec![b'x'; 2 * MAX_LINE as usize];
        lines.clear();
        splitter.feed(&long, |line| lines.push(line.to_string()));
        splitter.feed(b"\n", |line| lines.push(line.len().to_string()));
        assert_eq!(lines, [MAX_LINE.to_string()]);
    }

    #[test]
    fn silence_times_out_and_cancel_stops_waiting() {
        let mut ai = AiProcess::spawn("sleep 30", None).unwrap();
        let start = Instant::now();
        let deadline = Some(start + Duration::from_millis(100));
        assert_eq!(ai.next_output(deadline, &never), Err(Wait::TimedOut));
        assert!(start.elapsed() < Duration::from_secs(5));
        assert_eq!(ai.next_output(None, &|| true), Err(Wait::Cancelled));
    }

    #[test]
    fn long_garbage_line_is_cut() {
        let mut ai =
            AiProcess::spawn("head -c 10000 /dev/zero | tr '\\0' x; echo; echo ok", None).unwrap();
        let deadline = Some(Instant::now() + Duration::from_secs(10));
        match ai.next_output(deadline, &never).unwrap() {
            Output::Line { text, .. } => assert_eq!(text.len(), MAX_LINE as usize),
            other => panic!("{other:?}"),
        }
        assert!(
            matches!(ai.next_output(deadline, &never), Ok(Output::Line { text, .. }) if text == "ok")
        );
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn the_peak_resident_set_of_a_reaped_child_is_read() {
        // dd reads 64 MiB into one buffer: its resident set passes 64 MiB, a shell's does not.
        let peak = |command: &str| {
            let mut ai = AiProcess::spawn(command, None).unwrap();
            let deadline = Some(Instant::now() + Duration::from_secs(10));
            assert!(matches!(
                ai.next_output(deadline, &never),
                Ok(Output::Line { .. })
            ));
            ai.kill();
            ai.peak_rss_kib().expect("read when reaped")
        };
        let big = peak("dd if=/dev/zero of=/dev/null bs=64M count=1 2>/dev/null; echo done");
        let small = peak("echo done");
        assert!(big >= 64 * 1024, "{big} KiB");
        assert!(small < 64 * 1024, "{small} KiB");
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn kill_takes_the_whole_group() {
        // The shell starts a grandchild; killing the AI must take it too.
        let mut ai = AiProcess::spawn("sleep 31 & echo $!; wait", None).unwrap();
        let deadline = Some(Instant::now() + Duration::from_secs(10));
        let Ok(Output::Line { text, .. }) = ai.next_output(deadline, &never) else {
            panic!("no pid");
        };
        let grandchild: i32 = text.trim().parse().unwrap();
        ai.kill();
        // The grandchild is reparented and reaped by init; wait until it is gone.
        let gone = (0..200).any(|_| {
            thread::sleep(Duration::from_millis(10));
            !Path::new(&format!("/proc/{grandchild}")).exists()
                || std::fs::read_to_string(format!("/proc/{grandchild}/stat"))
                    .map(|s| s.contains(") Z "))
                    .unwrap_or(true)
        });
        assert!(gone, "grandchild {grandchild} survived");
    }
}
