//! Perft on the worker thread, through the real binary: `isready` answered while it
//! runs, `stop` ending it promptly (and the perfts queued behind it), `quit` and the
//! end of the input letting it finish
//! while its answer is read and ending it when nobody reads, the lines that came
//! meanwhile answered after it in order, and the same counts whatever the number of
//! threads. Every test
//! synchronises on answers; the only clock is a bound on how long a stop may take.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use crate::protocol::{run_arbiter, spawn_arbiter};

/// Perft 8 of the start position is about 8.5 * 10^10 nodes: minutes of work, so it is
/// surely still running when the next lines arrive.
const DEEP: &str = "go perft 8";

/// How long the tests wait for an answer before calling the process stuck.
const PATIENCE: Duration = Duration::from_secs(20);

/// A running arbiter whose answer lines arrive on a channel.
struct Client {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Client {
    fn start(args: &[&str]) -> Client {
        let mut child = spawn_arbiter(args);
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (send, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        Client {
            child,
            stdin: Some(stdin),
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin still open");
        writeln!(stdin, "{line}").expect("write a command");
        stdin.flush().expect("flush");
    }

    fn next(&self) -> String {
        self.lines
            .recv_timeout(PATIENCE)
            .expect("an answer line in time")
    }

    /// The lines up to and including the first one that starts with `prefix`.
    fn until(&self, prefix: &str) -> Vec<String> {
        let mut seen = Vec::new();
        loop {
            let line = self.next();
            let done = line.starts_with(prefix);
            seen.push(line);
            if done {
                return seen;
            }
        }
    }

    /// Closes stdin and waits for the exit status.
    fn finish(mut self) -> Option<i32> {
        drop(self.stdin.take());
        let deadline = Instant::now() + PATIENCE;
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                return status.code();
            }
            assert!(Instant::now() < deadline, "arbiter did not exit");
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn isready_is_answered_while_a_perft_runs() {
    let mut client = Client::start(&[]);
    client.send(DEEP);
    client.send("isready");
    assert_eq!(client.next(), "readyok");
    client.send("stop");
    let answer = client.until("Nodes searched:");
    assert!(answer.last().is_some_and(|l| l.ends_with(" stopped")));
    assert_eq!(client.finish(), Some(0));
}

/// One stop of a deep Kiwipete perft: how long the stopped answer took to arrive, and
/// a check that it lists whole root moves only.
fn time_a_stop() -> Duration {
    let mut client = Client::start(&[]);
    client
        .send("position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    client.send(DEEP);
    client.send("isready");
    assert_eq!(client.next(), "readyok");
    let sent = Instant::now();
    client.send("stop");
    let answer = client.until("Nodes searched:");
    let took = sent.elapsed();
    let total = answer.last().expect("the total line");
    assert!(total.ends_with(" stopped"), "{total}");
    // The lines listed are whole root moves: their counts add up to the total.
    let listed: u64 = answer
        .iter()
        .filter_map(|l| l.split_once(": ").and_then(|(_, n)| n.parse::<u64>().ok()))
        .sum();
    assert_eq!(total, &format!("Nodes searched: {listed} stopped"));
    took
}

/// A stop takes well under a millisecond on an idle machine (scripts/bench-protocol
/// measures it), but this test shares the cores with the rest of the suite: the best of
/// three stops is held to the bound, so that one unlucky wake-up cannot fail it.
#[test]
fn stop_ends_a_perft_within_a_tenth_of_a_second() {
    let times: Vec<Duration> = (0..3).map(|_| time_a_stop()).collect();
    let best = times.iter().min().copied().unwrap_or_default();
    assert!(best < Duration::from_millis(100), "stops took {times:?}");
}

#[test]
fn lines_sent_during_a_perft_are_answered_after_it_in_order() {
    let mut client = Client::start(&[]);
    client.send(DEEP);
    for line in ["move e4", "@a turn", "frobnicate", "isready", "stop"] {
        client.send(line);
    }
    assert_eq!(client.next(), "readyok");
    let perft = client.until("Nodes searched:");
    assert!(perft.last().is_some_and(|l| l.ends_with(" stopped")));
    assert!(client.next().starts_with("played e2e4 e4 active"));
    assert_eq!(client.next(), "@a turn black");
    assert!(client.next().starts_with("error unknown-command"));
    assert_eq!(client.finish(), Some(1));
}

#[test]
fn quit_after_a_perft_on_a_pipe_answers_it_in_full() {
    // Perft 6 takes a good part of a second: `quit`, read at once, used to stop it.
    let (run, _) = run_arbiter(&[], "go perft 6\nturn\nquit\nfen\n");
    assert!(
        run.stdout
            .ends_with("\nNodes searched: 119060324\nturn white\n"),
        "{}",
        run.stdout
    );
    assert_eq!(run.code, Some(0));
}

#[test]
fn quit_answers_the_perfts_queued_before_it_in_full() {
    let (run, _) = run_arbiter(&[], "go perft 5\nperft 5\nquit\n");
    assert!(
        run.stdout
            .ends_with("\nNodes searched: 4865609\nperft 5 4865609\n"),
        "{}",
        run.stdout
    );
}

#[test]
fn stop_then_quit_ends_the_process_promptly_during_a_perft() {
    // Sent at once on a pipe: `stop` is read while the perft runs, and ends it.
    let (run, _) = run_arbiter(&[], "go perft 7\nstop\nquit\n");
    let last = run.stdout.lines().last().unwrap_or("");
    assert!(
        last.starts_with("Nodes searched: ") && last.ends_with(" stopped"),
        "{}",
        run.stdout
    );
    assert_eq!(run.code, Some(0));
}

#[test]
fn stop_drops_the_perfts_queued_behind_the_running_one() {
    let mut client = Client::start(&[]);
    client.send(DEEP);
    client.send("perft 8");
    client.send("turn");
    client.send(DEEP);
    client.send("isready");
    assert_eq!(client.next(), "readyok");
    client.send("stop");
    client.until("Nodes searched:");
    assert_eq!(client.next(), "perft 8 0 stopped");
    assert_eq!(client.next(), "turn white");
    let dropped = client.until("Nodes searched:");
    assert_eq!(dropped, ["", "Nodes searched: 0 stopped"]);
    // A perft sent after the stop runs as usual.
    client.send("perft 3");
    assert_eq!(client.next(), "perft 3 8902");
    assert_eq!(client.finish(), Some(0));
}

#[test]
fn stop_without_a_perft_does_nothing() {
    let (run, _) = run_arbiter(&[], "stop\nisready\n");
    assert_eq!((run.stdout.as_str(), run.code), ("readyok\n", Some(0)));
}

#[test]
fn the_end_of_the_input_lets_a_running_perft_finish() {
    let (run, _) = run_arbiter(&[], "go perft 5\nfen\n");
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 20 + 3, "{}", run.stdout);
    assert_eq!(lines[21], "Nodes searched: 4865609");
    assert!(lines[22].starts_with("fen rnbqkbnr/"));
}

#[test]
fn the_end_of_the_input_lets_the_work_queued_behind_a_perft_finish_too() {
    let (run, _) = run_arbiter(&[], "go perft 5\nperft 4\nturn\n");
    assert!(
        run.stdout
            .ends_with("\nNodes searched: 4865609\nperft 4 197281\nturn white\n"),
        "{}",
        run.stdout
    );
}

/// Sends `lines` and `isready`, and once `readyok` has come (the perft runs by then)
/// closes both pipes, as a client does when it exits; returns the exit status, or
/// `None` when the process was still running `PATIENCE` later.
fn exit_after_the_client_goes(lines: &[&str]) -> Option<Option<i32>> {
    let mut child = spawn_arbiter(&[]);
    let mut stdin = child.stdin.take().expect("stdin");
    let stdout = child.stdout.take().expect("stdout");
    for line in lines.iter().chain(&["isready"]) {
        writeln!(stdin, "{line}").expect("write a command");
    }
    stdin.flush().expect("flush");
    let (send, ready) = mpsc::channel();
    // The reading thread owns stdout and drops it, closing the pipe, at `readyok`.
    let reader = std::thread::spawn(move || {
        let seen = BufReader::new(stdout)
            .lines()
            .map_while(Result::ok)
            .any(|line| line == "readyok");
        let _ = send.send(seen);
    });
    assert_eq!(ready.recv_timeout(PATIENCE), Ok(true), "readyok in time");
    reader.join().expect("reader thread");
    drop(stdin);
    let deadline = Instant::now() + PATIENCE;
    loop {
        if let Some(status) = child.try_wait().expect("wait") {
            return Some(status.code());
        }
        if Instant::now() > deadline {
            // Still counting: end it, so that it does not outlive the test.
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn the_end_of_the_input_stops_a_perft_nobody_can_read() {
    // Perft 8 runs for minutes: an exit within PATIENCE means it was stopped.
    assert_eq!(exit_after_the_client_goes(&[DEEP]), Some(Some(0)));
}

#[test]
fn the_end_of_the_input_drops_the_work_queued_for_nobody() {
    let lines = [DEEP, "perft 8", DEEP, "turn"];
    assert_eq!(exit_after_the_client_goes(&lines), Some(Some(0)));
}

#[test]
fn every_thread_count_gives_the_same_answer() {
    let kiwipete =
        "position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let answers: Vec<String> = ["1", "2", "3", "0"]
        .iter()
        .map(|threads| {
            let input = format!(
                "setoption name Threads value {threads}\n{kiwipete}\ngo perft 4\nperft 4\n"
            );
            run_arbiter(&[], input).0.stdout
        })
        .collect();
    assert!(answers[0].ends_with("Nodes searched: 4085603\nperft 4 4085603\n"));
    for answer in &answers[1..] {
        assert_eq!(answer, &answers[0]);
    }
}

#[test]
fn threads_out_of_range_is_a_bad_option() {
    let (run, _) = run_arbiter(&[], "setoption name Threads value 257\nsetoption name threads value -1\nsetoption name Threads\n");
    let codes: Vec<&str> = run
        .stdout
        .lines()
        .map(|l| l.split(' ').take(2).last().unwrap_or(""))
        .collect();
    assert_eq!(codes, ["bad-option"; 3]);
}

#[test]
fn a_command_file_answers_strictly_in_order_perft_included() {
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("arbiter-perft-file.txt");
    std::fs::write(&path, "go perft 4\nisready\n").expect("write");
    let (run, _) = run_arbiter(&[path.to_str().expect("path")], "");
    assert!(
        run.stdout.ends_with("Nodes searched: 197281\nreadyok\n"),
        "{}",
        run.stdout
    );
}

#[test]
fn answers_queued_before_a_second_perft_are_not_held_back_by_it() {
    let mut client = Client::start(&[]);
    client.send(DEEP);
    client.send("turn");
    client.send("isready");
    assert_eq!(client.next(), "readyok");
    client.send("stop");
    // Sent after the stop: it runs, behind the answer queued before it.
    client.send(DEEP);
    client.until("Nodes searched:");
    assert_eq!(client.next(), "turn white");
    client.send("stop");
    client.until("Nodes searched:");
    assert_eq!(client.finish(), Some(0));
}

/// A request with an id is answered exactly once, a perft running or not: `stop` with
/// an id answers `ok` at once, ahead of the stopped perft, and the silent commands
/// queued behind the perft answer `ok` after it, in order, `quit` last.
#[test]
fn silent_commands_with_an_id_answer_ok_in_their_turn_during_a_perft() {
    let mut client = Client::start(&[]);
    client.send(&format!("@p {DEEP}"));
    client.send("@t tag White Anna");
    client.send("@s stop");
    assert_eq!(client.next(), "@s ok");
    let answer = client.until("@p Nodes searched:");
    assert!(answer.last().is_some_and(|l| l.ends_with(" stopped")));
    assert_eq!(client.next(), "@t ok");
    client.send("@n ucinewgame");
    client.send("@q quit");
    assert_eq!(client.next(), "@n ok");
    assert_eq!(client.next(), "@q ok");
    assert_eq!(client.finish(), Some(0));
}

/// Writes `lines` to the process's input from a thread of its own, counting the bytes
/// the pipe took: a full queue leaves the writer blocked.
fn write_in_background(
    stdin: ChildStdin,
    lines: impl Iterator<Item = String> + Send + 'static,
) -> std::sync::Arc<std::sync::atomic::AtomicU64> {
    use std::sync::atomic::{AtomicU64, Ordering};
    let written = std::sync::Arc::new(AtomicU64::new(0));
    let count = written.clone();
    std::thread::spawn(move || {
        let mut stdin = stdin;
        for line in lines {
            if stdin.write_all(line.as_bytes()).is_err() {
                break;
            }
            count.fetch_add(line.len() as u64, Ordering::Relaxed);
        }
    });
    written
}

/// 100 MB of commands sent while a perft runs: past the queue's bound they wait in the
/// pipe, so the writer blocks after a few MiB and the process's memory stays small.
#[test]
fn input_queued_during_a_perft_is_bounded() {
    use std::sync::atomic::Ordering;
    const FLOOD: u64 = 100_000_000;
    let mut client = Client::start(&[]);
    let pid = client.child.id();
    client.send(DEEP);
    client.send("isready");
    assert_eq!(client.next(), "readyok");
    let stdin = client.stdin.take().expect("stdin");
    let lines = (0..FLOOD / 4).map(|_| "fen\n".to_string());
    let written = write_in_background(stdin, lines);
    // The writer stops advancing once the queue and the pipe are full.
    let mut last = u64::MAX;
    let deadline = Instant::now() + PATIENCE;
    loop {
        std::thread::sleep(Duration::from_millis(300));
        let now = written.load(Ordering::Relaxed);
        if now == last {
            break;
        }
        assert!(Instant::now() < deadline, "the writer never blocked");
        last = now;
    }
    assert!(last < 16 << 20, "{last} bytes taken in while a perft runs");
    let peak = crate::limits::proc_kib(pid, "VmHWM:");
    assert!(peak < 48 * 1024, "peak resident memory {peak} KiB");
}

/// Lines sent past the queue's bound during a perft are read later, none lost: every
/// one is answered after the perft, in order.
#[test]
fn lines_past_the_queue_bound_are_all_answered_in_order() {
    const LINES: usize = 600_000;
    let mut client = Client::start(&[]);
    client.send("go perft 7");
    client.send("isready");
    assert_eq!(client.next(), "readyok");
    let stdin = client.stdin.take().expect("stdin");
    let lines = (0..LINES).map(|i| format!("@{i} turn\n"));
    let _written = write_in_background(stdin, lines);
    client.until("Nodes searched:");
    for i in 0..LINES {
        assert_eq!(client.next(), format!("@{i} turn white"));
    }
}
