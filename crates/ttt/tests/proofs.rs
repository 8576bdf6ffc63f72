//! Proofs anyone can check: `ttt solve --proof FILE` writes them, `ttt verify FILE`
//! accepts them, and rejects, with the reason, a proof with a reply missing, a pairing
//! that misses a line, a move that does not lead where it says, or a claim turned round.

#![allow(
    clippy::unwrap_used,
    clippy::panic,
    reason = "a test fails by panicking"
)]

mod common;

use std::path::Path;

/// Runs `ttt ARGS`: (stdout, exit code).
fn ttt(args: &[&str]) -> (String, Option<i32>) {
    let output = assert_cmd::Command::new(assert_cmd::cargo::cargo_bin!("ttt"))
        .env("TTT_HOME", &common::home())
        .args(args)
        .output()
        .unwrap();
    (
        String::from_utf8_lossy(&output.stdout).into_owned()
            + &String::from_utf8_lossy(&output.stderr),
        output.status.code(),
    )
}

/// The proof `ttt solve` writes for the empty board of `size` and `k`, in a new file.
fn proof(folder: &Path, size: &str, k: &str) -> String {
    let path = folder.join(format!("{size}-{k}.proof"));
    let (out, code) = ttt(&[
        "solve",
        "--size",
        size,
        "--k",
        k,
        "--proof",
        path.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("Proof written to"), "{out}");
    std::fs::read_to_string(path).unwrap()
}

/// `ttt verify` on `text`: (what it says, exit code).
fn verify(folder: &Path, name: &str, text: &str) -> (String, Option<i32>) {
    let path = folder.join(name);
    std::fs::write(&path, text).unwrap();
    ttt(&["verify", path.to_str().unwrap()])
}

#[test]
fn proofs_written_are_accepted_and_broken_ones_refused_with_the_reason() {
    let folder = common::home();
    std::fs::create_dir_all(&folder).unwrap();

    // 4x4, k=4: a draw; X's sixteen first moves each answered by a pairing.
    let draw = proof(&folder, "4x4", "4");
    let (said, code) = verify(&folder, "draw.proof", &draw);
    assert_eq!(code, Some(0), "{said}");
    assert!(
        said.contains("Checked: X cannot win from") && said.ends_with("The position is a draw.\n"),
        "{said}"
    );
    // 5x5, k=5: a pairing at the root.
    let (said, code) = verify(&folder, "five.proof", &proof(&folder, "5x5", "5"));
    assert_eq!(code, Some(0), "{said}");
    assert!(
        said.contains("over 1 positions") && said.contains("draw"),
        "{said}"
    );
    // 6x6, k=5: every move of X's answered by a reply after which O has a pairing, or
    // a little deeper: a proof of a few dozen positions.
    let six = proof(&folder, "6x6", "5");
    assert!(six.lines().count() < 200, "{} lines", six.lines().count());
    let (said, code) = verify(&folder, "six.proof", &six);
    assert_eq!(code, Some(0), "{said}");
    assert!(said.contains("The position is a draw."), "{said}");
    // 7x6, k=5: deeper, with the defender's replies found by the search too.
    let (said, code) = verify(&folder, "seven.proof", &proof(&folder, "7x6", "5"));
    assert_eq!(code, Some(0), "{said}");
    assert!(said.contains("The position is a draw."), "{said}");
    // 4x4, k=3: the first player wins.
    let win = proof(&folder, "4x4", "3");
    let (said, code) = verify(&folder, "win.proof", &win);
    assert_eq!(
        (
            code,
            said.lines()
                .next()
                .unwrap_or_default()
                .starts_with("Checked: X wins from")
        ),
        (Some(0), true),
        "{said}"
    );

    // A reply missing: the root's last X move left unanswered.
    let root = draw.lines().find(|line| line.starts_with("0 | ")).unwrap();
    let shorter = root.rsplit_once(' ').unwrap().0;
    let (said, code) = verify(&folder, "missing.proof", &draw.replacen(root, shorter, 1));
    assert_eq!(code, Some(1));
    assert!(said.contains("15 moves answered of 16"), "{said}");

    // A pairing with one pair dropped misses a line.
    let paired = draw
        .lines()
        .find(|line| line.contains("| pairing "))
        .unwrap();
    let (head, pairs) = paired.split_once("| pairing ").unwrap();
    let fewer = format!("{head}| pairing {}", pairs.split_once(' ').unwrap().1);
    let (said, code) = verify(&folder, "pairing.proof", &draw.replacen(paired, &fewer, 1));
    assert_eq!(code, Some(1));
    assert!(said.contains("is open to X and holds no pair"), "{said}");

    // A move that does not lead to the position it names.
    let first = win.lines().find(|line| line.starts_with("0 | ")).unwrap();
    let moved = first.replacen("move b2", "move a1", 1);
    let (said, code) = verify(&folder, "moved.proof", &win.replacen(first, &moved, 1));
    assert_eq!(code, Some(1));
    assert!(
        said.contains("it is not the position its parent leads to"),
        "{said}"
    );

    // The claim turned round: the steps no longer fit it.
    let (said, code) = verify(
        &folder,
        "turned.proof",
        &win.replacen("claim X wins", "claim O wins", 1),
    );
    assert_eq!(code, Some(1));
    assert!(
        said.contains("The proof does not hold: O wins: line"),
        "{said}"
    );

    // Under freestyle a longer line wins: X's mark just beyond a line does not close it,
    // so an empty pairing is no proof here, and an overline is a win.
    let (said, code) = verify(
        &folder,
        "overline.proof",
        "claim X cannot win\n0 | xxx.x./..oo../..oo.. x k=4 | pairing\n",
    );
    assert_eq!(code, Some(1), "{said}");
    assert!(said.contains("is open to X and holds no pair"), "{said}");
    let (said, code) = verify(
        &folder,
        "overline-win.proof",
        "claim X wins\n0 | xxx.x./..oo../..oo.. x k=4 | move d1 1\n1 | xxxxx./..oo../..oo.. o k=4 | won\n",
    );
    assert_eq!(code, Some(0), "a freestyle overline wins: {said}");
    // Under exactly k the same overline wins nothing.
    let (said, code) = verify(
        &folder,
        "exact-overline.proof",
        "claim X wins\n0 | xxx.x./..oo../..oo.. x k=4 exact | move d1 1\n1 | xxxxx./..oo../..oo.. o k=4 exact | won\n",
    );
    assert_eq!(code, Some(1), "{said}");

    // Not a proof at all.
    let (said, code) = verify(&folder, "noise.proof", "hello\n");
    assert_eq!(code, Some(1));
    assert!(said.contains("a position before any claim"), "{said}");
}

#[test]
fn a_proof_file_that_exists_already_is_refused_before_the_proof_is_searched() {
    let folder = common::home();
    std::fs::create_dir_all(&folder).unwrap();
    let path = folder.join("kept.proof");
    std::fs::write(&path, "someone's file\n").unwrap();
    let (said, code) = ttt(&[
        "solve",
        "--size",
        "7x6",
        "--k",
        "5",
        "--proof",
        path.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(2), "{said}");
    assert!(said.contains("exists already"), "{said}");
    assert!(!said.contains("Result:"), "refused before proving:\n{said}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "someone's file\n");
}

#[test]
fn a_checkpoint_is_kept_and_a_resumed_proof_goes_on_from_it() {
    for (search, other) in [("alpha-beta", "df-pn"), ("df-pn", "alpha-beta")] {
        checkpoint_kept_and_resumed(search, other);
    }
}

/// The checkpoint of `search` kept, taken up by it, and refused by `other`.
fn checkpoint_kept_and_resumed(search: &str, other: &str) {
    let folder = common::home();
    std::fs::create_dir_all(&folder).unwrap();
    let checkpoint = folder.join("8x5.checkpoint");
    let path = checkpoint.to_str().unwrap();
    let solve = [
        "solve",
        "--size",
        "8x5",
        "--k",
        "5",
        "--checkpoint",
        path,
        "--search",
        search,
    ];
    let (first, code) = ttt(&solve);
    assert_eq!(code, Some(0), "{first}");
    assert!(first.contains("Result: draw"), "{first}");
    assert!(checkpoint.exists());
    // Never written over without --resume.
    let (said, code) = ttt(&solve);
    assert_eq!(code, Some(2));
    assert!(said.contains("exists already: add --resume"), "{said}");
    // Resumed, the proof is all in the table: a handful of positions searched.
    let (again, code) = ttt(&[&solve[..], &["--resume"]].concat());
    assert_eq!(code, Some(0), "{again}");
    let searched = |out: &str| -> u64 {
        out.split("Searched ")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap()
            .replace(',', "")
            .parse()
            .unwrap()
    };
    assert!(again.contains("Result: draw"), "{again}");
    assert!(
        searched(&again) * 100 < searched(&first),
        "{first}\n{again}"
    );
    // Another search's checkpoint, another board's, or a broken one, is refused with the
    // reason.
    let mut by_other = solve;
    by_other[8] = other;
    let (said, code) = ttt(&[&by_other[..], &["--resume"]].concat());
    assert_eq!(code, Some(2));
    let expected = format!("was kept by {search}: add --search {search} to go on from it");
    assert!(said.contains(&expected), "{said}");
    let (said, code) = ttt(&[
        "solve",
        "--size",
        "7x5",
        "--k",
        "5",
        "--checkpoint",
        path,
        "--resume",
    ]);
    assert_eq!(code, Some(2));
    assert!(
        said.contains("holds a proof on 8x5, k=5, not 7x5, k=5"),
        "{said}"
    );
    let bytes = std::fs::read(&checkpoint).unwrap();
    std::fs::write(&checkpoint, &bytes[..bytes.len() - 7]).unwrap();
    let (said, code) = ttt(&[&solve[..], &["--resume"]].concat());
    assert_eq!(code, Some(2));
    assert!(said.contains("cut short"), "{said}");
}

#[test]
fn a_checkpoint_named_without_a_folder_is_kept_in_the_current_one() {
    let parent = common::home();
    let folder = parent.join("bare-name");
    std::fs::create_dir_all(&folder).unwrap();
    let output = assert_cmd::Command::new(assert_cmd::cargo::cargo_bin!("ttt"))
        .env("TTT_HOME", &common::home())
        .current_dir(&folder)
        .args(["solve", "--size", "5x4", "--k", "4", "--checkpoint", "kept"])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&output.stdout).into_owned()
        + &String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{said}");
    assert!(said.contains("Result: draw"), "{said}");
    let kept = std::fs::read(folder.join("kept")).unwrap();
    assert!(kept.starts_with(b"ttt proof table 2\n5x4, k=4\n"));
}

#[test]
fn solve_says_which_search_proved_it_in_words_and_in_json() {
    for search in ["alpha-beta", "df-pn"] {
        let (said, code) = ttt(&["solve", "--size", "4x4", "--k", "3", "--search", search]);
        assert_eq!(code, Some(0), "{said}");
        assert!(said.contains(&format!("by {search}")), "{said}");
        let (json, code) = ttt(&[
            "solve", "--size", "4x4", "--k", "3", "--search", search, "--json",
        ]);
        assert_eq!(code, Some(0), "{json}");
        let value: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(value["search"], search, "{json}");
    }
    // One position in the table is one position.
    let (said, _) = ttt(&["solve", "x.o/oxx/xo.", "--search", "df-pn"]);
    assert!(!said.contains(" 1 positions"), "{said}");
}

#[test]
fn a_proof_or_checkpoint_with_no_folder_to_go_to_is_refused_before_the_search() {
    for flag in ["--proof", "--checkpoint"] {
        let (said, code) = ttt(&[
            "solve",
            "--size",
            "7x7",
            "--k",
            "5",
            flag,
            "/nonexistent-ttt-folder/kept",
        ]);
        assert_eq!(code, Some(2), "{flag}: {said}");
        assert!(said.contains("/nonexistent-ttt-folder"), "{flag}: {said}");
        assert!(
            !said.contains("Result:"),
            "{flag}: refused before proving:\n{said}"
        );
    }
}

#[test]
fn the_proof_written_says_how_many_positions_with_separators() {
    let folder = common::home();
    std::fs::create_dir_all(&folder).unwrap();
    let path = folder.join("6x4.proof");
    let (said, code) = ttt(&[
        "solve",
        "--size",
        "6x4",
        "--k",
        "4",
        "--proof",
        path.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(0), "{said}");
    let count = said
        .split("Proof written to ")
        .nth(1)
        .and_then(|rest| rest.split('(').nth(1))
        .and_then(|rest| rest.split(' ').next())
        .unwrap();
    // Some thirteen thousand positions: grouped by thousands, as every count is.
    let digits: String = count.chars().filter(char::is_ascii_digit).collect();
    assert!(digits.len() > 3, "{said}");
    assert!(count.contains(','), "{said}");
}

#[test]
fn a_signal_while_the_proof_is_written_stops_it_and_exits_128_and_n() {
    let folder = common::home();
    std::fs::create_dir_all(&folder).unwrap();
    let path = folder.join("6x5.proof");
    let home = common::home();
    // 6x5, k=4 is proved in milliseconds, and its quarter of a million positions take
    // a second or so to write out: the signal comes while they are written.
    let child = std::process::Command::new(assert_cmd::cargo::cargo_bin!("ttt"))
        .env("TTT_HOME", &home)
        .args(["solve", "--size", "6x5", "--k", "4", "--proof"])
        .arg(&path)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(300));
    let pid = nix::unistd::Pid::from_raw(i32::try_from(child.id()).unwrap());
    nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGTERM).unwrap();
    let output = child.wait_with_output().unwrap();
    let said = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(143), "{said}");
    assert!(said.contains("was not written"), "{said}");
    assert!(!path.exists(), "no proof is left half written");
}

#[test]
fn a_damaged_checkpoint_is_refused_not_trusted() {
    for search in ["alpha-beta", "df-pn"] {
        let folder = common::home();
        std::fs::create_dir_all(&folder).unwrap();
        let path = folder.join("6x4.checkpoint");
        let solve = |resume: bool| {
            let mut args = vec![
                "solve",
                "--size",
                "6x4",
                "--k",
                "4",
                "--search",
                search,
                "--checkpoint",
                path.to_str().unwrap(),
            ];
            if resume {
                args.push("--resume");
            }
            ttt(&args)
        };
        let (said, code) = solve(false);
        assert_eq!(code, Some(0), "{said}");
        assert!(said.contains("Result: draw"), "{said}");
        // Every byte of an entry's values set to 1 (the bounds of a win, or numbers the
        // search never makes together): read back, it would change the result.
        let mut bytes = std::fs::read(&path).unwrap();
        let body = bytes
            .iter()
            .enumerate()
            .filter(|(_, byte)| **byte == b'\n')
            .nth(1)
            .unwrap()
            .0
            + 1;
        for byte in &mut bytes[body + 16..body + 18] {
            *byte = 1;
        }
        std::fs::write(&path, &bytes).unwrap();
        let (said, code) = solve(true);
        assert_eq!(code, Some(2), "{search}: {said}");
        assert!(said.contains("damaged"), "{search}: {said}");
    }
}
