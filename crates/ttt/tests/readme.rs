//! Every example in the README and in `docs/` does what the page says: each command in a
//! code block runs, its output (where shown) is what the page shows, and each command
//! quoted in the text is accepted. The pages are read when the test runs, so it checks
//! them as they are now.

#![allow(
    clippy::unwrap_used,
    clippy::panic,
    reason = "a test fails by panicking"
)]

mod common;

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use tempfile::TempDir;

/// The README and every page in `docs/`: (the file's name, its text).
fn documents() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut paths = vec![root.join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|extension| extension == "md"))
        .collect();
    docs.sort();
    paths.extend(docs);
    paths
        .into_iter()
        .map(|path| {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&path).unwrap())
        })
        .collect()
}

/// A folder holding `ttt` (a link to the binary under test), for the front of `PATH`: a
/// temporary folder, removed with everything the commands made in it when dropped (at
/// the end of the test, or while a failure unwinds).
fn bin_dir(test: &str) -> TempDir {
    let dir = common::temporary(&format!("ttt-readme-{test}-"));
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_ttt"), dir.path().join("ttt")).unwrap();
    dir
}

/// `command` run by the shell with the binary under test as `ttt`, as the README's
/// reader would type it (input not a terminal, colours off).
fn shell(command: &str, bin: &Path) -> Command {
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut shell = Command::new("sh");
    shell
        .args(["-c", command])
        .env("PATH", path)
        .env("NO_COLOR", "1")
        .env("TERM", "dumb")
        // One folder of kept games for each test, so that a block's commands see the
        // games its earlier commands played.
        .env("TTT_HOME", bin.join("home"))
        // Files a command names without a folder (a checkpoint, a proof) go there too.
        .current_dir(bin)
        .stdin(Stdio::null())
        // Its own process group, so that a command stopped for running too long is
        // stopped with every process the shell started for it.
        .process_group(0);
    shell
}

/// Runs `command`; `None` if it still runs after `limit` (then it is stopped).
fn run_within(command: &str, bin: &Path, limit: Duration) -> Option<Output> {
    let mut child = shell(command, bin)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while start.elapsed() < limit {
        if child.try_wait().unwrap().is_some() {
            return Some(child.wait_with_output().unwrap());
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let group = nix::unistd::Pid::from_raw(child.id() as i32);
    let _ = nix::sys::signal::killpg(group, nix::sys::signal::Signal::SIGKILL);
    let _ = child.wait();
    None
}

/// The fenced code blocks: (the info string, the lines).
fn code_blocks(text: &str) -> Vec<(String, Vec<String>)> {
    let mut blocks = Vec::new();
    let mut open: Option<(String, Vec<String>)> = None;
    for line in text.lines() {
        match (&mut open, line.strip_prefix("```")) {
            (None, Some(info)) => open = Some((info.trim().to_owned(), Vec::new())),
            (Some(_), Some(_)) => blocks.extend(open.take()),
            (Some((_, lines)), None) => lines.push(line.to_owned()),
            (None, None) => {}
        }
    }
    blocks
}

/// Seconds as the program prints them vary from run to run.
fn without_timings(line: &str) -> String {
    line.split(' ')
        .map(|word| {
            let number = word.trim_end_matches(['s', ';', ',']);
            if number.contains('.') && number.parse::<f64>().is_ok() {
                "<seconds>".to_owned()
            } else {
                word.to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Whether `actual` shows `expected` line by line: a `...` line stands for any lines, a
/// `...` within a line for the rest of it, and timings may differ.
fn matches(expected: &[String], actual: &[String]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((first, rest)) if first.trim() == "..." => {
            (0..=actual.len()).any(|skip| matches(rest, &actual[skip..]))
        }
        Some((first, rest)) => actual.split_first().is_some_and(|(line, others)| {
            let (first, line) = (
                without_timings(first.trim_end()),
                without_timings(line.trim_end()),
            );
            let shown = match first.split_once("...") {
                Some((start, end)) => line.starts_with(start) && line.ends_with(end),
                None => first == line,
            };
            shown && matches(rest, others)
        }),
    }
}

#[test]
fn every_command_in_a_code_block_does_what_the_readme_says() {
    let dir = bin_dir("blocks");
    let bin = dir.path();
    let mut checked = 0;
    let blocks = documents().into_iter().flat_map(|(name, text)| {
        code_blocks(&text)
            .into_iter()
            .map(move |block| (name.clone(), block))
    });
    for (page, (info, lines)) in blocks {
        if info == "sh" {
            // Commands to type: each must succeed.
            for line in &lines {
                let command = line.split(" #").next().unwrap_or(line).trim();
                if !(command.starts_with("ttt ") || command.contains("| ttt ")) {
                    continue;
                }
                let output = shell(command, bin).output().unwrap();
                assert!(
                    output.status.success(),
                    "{page}: `{command}` exits with {:?}:\n{}{}",
                    output.status.code(),
                    String::from_utf8_lossy(&output.stdout),
                    String::from_utf8_lossy(&output.stderr)
                );
                checked += 1;
            }
            continue;
        }
        // Transcripts: `$ ttt ...` and what it prints.
        let mut rest = lines.as_slice();
        while let Some(at) = rest.iter().position(|line| line.starts_with("$ ttt ")) {
            let command = rest[at].trim_start_matches("$ ");
            let end = rest[at + 1..]
                .iter()
                .position(|line| line.starts_with("$ "))
                .map_or(rest.len(), |next| at + 1 + next);
            let expected = &rest[at + 1..end];
            let output = shell(command, bin).output().unwrap();
            let printed: Vec<String> = String::from_utf8_lossy(&output.stdout)
                .lines()
                .chain(String::from_utf8_lossy(&output.stderr).lines())
                .map(str::to_owned)
                .filter(|line| !line.is_empty() && !line.starts_with("For more information"))
                .collect();
            let expected: Vec<String> =
                expected.iter().filter(|l| !l.is_empty()).cloned().collect();
            assert!(
                matches(&expected, &printed),
                "{page}: `{command}` prints\n{}\nwhere the page shows\n{}",
                printed.join("\n"),
                expected.join("\n")
            );
            checked += 1;
            rest = &rest[end..];
        }
    }
    assert!(
        checked >= 8,
        "only {checked} examples found: has the pages' form changed?"
    );
}

#[test]
fn every_command_quoted_in_the_text_is_accepted() {
    let dir = bin_dir("text");
    let bin = dir.path();
    let text: String = documents().into_iter().map(|(_, text)| text).collect();
    let commands: Vec<String> = text
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|quoted| {
            let placeholder = quoted.contains(['[', '|', '<'])
                || quoted
                    .split(' ')
                    .any(|word| word.len() == 1 && word.chars().all(|c| c.is_ascii_uppercase()));
            (quoted.starts_with("ttt ") || *quoted == "ttt") && !placeholder
        })
        .map(str::to_owned)
        .collect();
    assert!(
        commands.len() >= 10,
        "only {} commands found in the text",
        commands.len()
    );
    // With no input the line mode ends at its first question; a game that thinks or
    // plays on is stopped after a while: bad flags would have ended it at once, code 2.
    let runs: Vec<_> = commands
        .into_iter()
        .map(|command| {
            let bin = bin.to_path_buf();
            std::thread::spawn(move || {
                let output = run_within(&command, &bin, Duration::from_secs(3));
                (command, output)
            })
        })
        .collect();
    for run in runs {
        let (command, output) = run.join().unwrap();
        if let Some(output) = output {
            assert!(
                matches!(output.status.code(), Some(0 | 1)),
                "`{command}` exits with {:?}: {}",
                output.status.code(),
                String::from_utf8_lossy(&output.stderr)
            );
        }
    }
}
