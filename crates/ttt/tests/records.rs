//! The commands on kept games, as a person runs them one after another: games played,
//! then `stats`, `games`, `export`, `import`, `--resume` and `stats --reset`.

#![allow(
    clippy::unwrap_used,
    clippy::panic,
    reason = "a test fails by panicking"
)]

mod common;

use std::path::Path;

/// Runs `ttt ARGS` with `stdin` in the store at `home`: (stdout, stderr, exit code).
fn ttt(home: &Path, args: &[&str], stdin: &str) -> (String, String, Option<i32>) {
    let output = assert_cmd::Command::new(assert_cmd::cargo::cargo_bin!("ttt"))
        .env("TTT_HOME", home)
        .env("TERM", "dumb")
        .args(args)
        .write_stdin(stdin)
        .output()
        .unwrap();
    (
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
        output.status.code(),
    )
}

/// Two people at one keyboard playing gomoku in the line mode, X first.
const TWO_PEOPLE_GOMOKU: [&str; 9] = [
    "play", "--plain", "--gomoku", "--x", "human", "--o", "human", "--first", "x",
];

#[test]
fn games_played_show_in_stats_export_import_and_reset() {
    let home = common::home();
    let (out, _, _) = ttt(&home, &["stats"], "");
    assert_eq!(
        out,
        "No finished game is kept yet: play one, and it will be.\n"
    );
    // Three games against medium, the person as X going first: 5 1 9 ... as they come.
    for _ in 0..3 {
        let (out, err, code) = ttt(
            &home,
            &[
                "play",
                "--plain",
                "--o",
                "rules",
                "--first",
                "x",
                "--games",
                "1",
                "--no-review",
            ],
            "5\n1\n2\n3\n4\n6\n7\n8\n9\n",
        );
        assert_eq!(code, Some(0), "{out}{err}");
    }
    let (out, _, _) = ttt(&home, &["stats"], "");
    let line = out.lines().find(|line| line.starts_with("rules ")).unwrap();
    let numbers: Vec<&str> = line.split_whitespace().collect();
    // Against (two words), board (two words), letter, games, won, lost, drawn, last 10.
    assert_eq!(
        &numbers[..6],
        ["rules", "(medium)", "3x3,", "k=3", "X", "3"],
        "{out}"
    );
    let (json, _, _) = ttt(&home, &["stats", "--json"], "");
    let stats: serde_json::Value = serde_json::from_str(&json).unwrap();
    let all = &stats["lines"][0]["all"];
    let sum = ["wins", "losses", "draws"]
        .iter()
        .map(|field| all[field].as_u64().unwrap())
        .sum::<u64>();
    assert_eq!(sum, 3, "{json}");

    // Exported and imported again: the same game is not kept twice.
    let (sgf, _, code) = ttt(&home, &["export", "last"], "");
    assert_eq!(code, Some(0));
    assert!(sgf.starts_with("(;FF[4]GM[4]"), "{sgf}");
    let file = home.join("game.sgf");
    std::fs::write(&file, &sgf).unwrap();
    let (out, _, code) = ttt(&home, &["import", file.to_str().unwrap()], "");
    assert_eq!(code, Some(0));
    assert_eq!(
        out,
        format!(
            "Imported 0 games from {} (sgf); 1 game kept already, not kept twice.\n",
            file.display()
        )
    );
    // Another program's game, and a bad file beside it: the good one is kept (listed
    // after the games before it, whatever its date, and left out of the statistics), the
    // bad one said, and the exit code says something failed.
    let other = home.join("other.sgf");
    std::fs::write(
        &other,
        "(;GM[4]SZ[15]DT[2020-01-01]PB[Alice]PW[Bob]RE[B+R];B[hh];W[ii];B[hg])",
    )
    .unwrap();
    let bad = home.join("bad.sgf");
    std::fs::write(&bad, "(;GM[4]SZ[15];B[hh];W[hh])").unwrap();
    let (out, err, code) = ttt(
        &home,
        &["import", bad.to_str().unwrap(), other.to_str().unwrap()],
        "",
    );
    assert_eq!(code, Some(2), "{out}{err}");
    assert_eq!(
        err,
        format!(
            "ttt: {}: move 2 (h8) cannot be played: X is there already\n",
            bad.display()
        )
    );
    assert_eq!(
        out,
        format!(
            "Imported 1 game from {} (sgf): 4 in `ttt games`.\n",
            other.display()
        )
    );
    let (again, _, _) = ttt(&home, &["export", "4"], "");
    assert!(again.contains("PB[Alice]PW[Bob]RE[B+R]"), "{again}");
    let (games, _, _) = ttt(&home, &["games"], "");
    assert!(
        games.contains("Alice  Bob") && games.contains("X wins (forfeit), imported"),
        "{games}"
    );
    let (after, _, _) = ttt(&home, &["stats", "--json"], "");
    assert_eq!(after, json, "an imported game is not the person's record");
    // An unfinished game imported is not offered to resume as one's own.
    let psq = home.join("half.psq");
    std::fs::write(
        &psq,
        "Piskvorky 15x15, 11:11, 0\n8,8,0\n9,9,0\nAlice\nBob\n-1\n",
    )
    .unwrap();
    let (out, _, code) = ttt(&home, &["import", psq.to_str().unwrap()], "");
    assert_eq!(code, Some(0), "{out}");
    let (_, err, code) = ttt(&home, &["play", "--plain", "--resume"], "");
    assert_eq!(
        (code, err.as_str()),
        (Some(1), "ttt: there is no unfinished game to resume\n")
    );
    // PSQ holds five in a row only; a file is never written over.
    let (_, err, code) = ttt(&home, &["export", "1", "--format", "psq"], "");
    assert_eq!((code, err.lines().count()), (Some(2), 1), "{err}");
    let (_, err, code) = ttt(&home, &["export", "1", "-o", file.to_str().unwrap()], "");
    assert_eq!(code, Some(2));
    assert!(err.contains("exists already"), "{err}");
    let (_, err, code) = ttt(&home, &["export", "99"], "");
    assert_eq!(code, Some(2));
    assert!(err.contains("no kept game '99'"), "{err}");

    // The replay without a terminal prints each move with its value, and the review.
    let (out, _, code) = ttt(&home, &["replay", "1"], "");
    assert_eq!(code, Some(0), "{out}");
    assert!(out.starts_with("3x3, k=3: X "), "{out}");
    assert!(
        out.contains("  1. X 5: a draw with perfect play, the best there was"),
        "{out}"
    );
    assert!(
        out.contains("changed the result under perfect play."),
        "{out}"
    );
    let (out, _, code) = ttt(&home, &["replay", file.to_str().unwrap()], "");
    assert_eq!(code, Some(0), "a file replays too: {out}");

    // Reset asks; only yes deletes.
    let (out, _, _) = ttt(&home, &["stats", "--reset"], "no\n");
    assert!(out.ends_with("Nothing was deleted.\n"), "{out}");
    let (out, _, _) = ttt(&home, &["stats", "--reset"], "yes\n");
    assert!(out.ends_with("Deleted 5 games.\n"), "{out}");
    let (out, _, _) = ttt(&home, &["games"], "");
    assert_eq!(out, "No game is kept yet: play one, and it will be.\n");
}

#[test]
fn the_game_offered_is_the_latest_a_person_left_not_a_later_one_between_computers() {
    let home = common::home();
    let (out, _, _) = ttt(&home, &TWO_PEOPLE_GOMOKU, "h8\ni9\nquit\n");
    assert!(out.contains("The unfinished game is kept"), "{out}");
    // A later run between two computers, left unfinished too.
    let games = home.join("games");
    let file = std::fs::read_dir(&games)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let mut record: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    record["x"] = "search".into();
    record["o"] = "random".into();
    record["started"] = (record["started"].as_u64().unwrap() + 100).into();
    std::fs::write(games.join("later.json"), record.to_string()).unwrap();
    let (out, _, _) = ttt(&home, &["play", "--plain"], "no\nquit\n");
    assert!(
        out.contains(
            "You left a game unfinished: 15x15, k=5, X human against O human, 2 moves played"
        ),
        "{out}"
    );
    // --resume takes up the latest of all, the computers' run.
    let (_, _, code) = ttt(&home, &["play", "--plain", "--resume", "--games", "1"], "");
    assert_eq!(code, Some(0));
    let (out, _, _) = ttt(&home, &["games", "--json"], "");
    let games: serde_json::Value = serde_json::from_str(&out).unwrap();
    let finished: Vec<&serde_json::Value> = games["games"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|game| game["result"] != "unfinished")
        .collect();
    assert_eq!(finished.len(), 1, "{out}");
    assert_eq!(finished[0]["x"], "search", "{out}");
}

#[test]
fn a_game_left_halfway_resumes_where_it_was_with_its_undo_history() {
    let home = common::home();
    let (out, _, _) = ttt(&home, &TWO_PEOPLE_GOMOKU, "h8\ni9\nh9\nquit\n");
    assert!(
        out.contains("The unfinished game is kept: `ttt play --resume` takes it up."),
        "{out}"
    );
    // Offered when the person would be asked who plays; taken up with its side to move.
    let (out, _, _) = ttt(&home, &["play", "--plain"], "yes\nundo\nundo\nquit\n");
    assert!(
        out.contains(
            "You left a game unfinished: 15x15, k=5, X human against O human, 3 moves played"
        ),
        "{out}"
    );
    assert!(
        out.contains("The unfinished game goes on: O to move."),
        "{out}"
    );
    assert!(
        out.contains("Took back h9.") && out.contains("Took back i9."),
        "{out}"
    );
    // --resume takes it up at once, where the undos left it: h8 played, O to move.
    let (out, _, code) = ttt(
        &home,
        &["play", "--plain", "--resume"],
        "i9\nh9\ni10\nh10\ni11\nh11\ni12\nh12\n",
    );
    assert_eq!(code, Some(0), "{out}");
    assert!(
        out.contains("The unfinished game goes on: O to move."),
        "{out}"
    );
    assert!(out.contains("X wins"), "{out}");
    // Finished: nothing left to resume.
    let (_, err, code) = ttt(&home, &["play", "--plain", "--resume"], "");
    assert_eq!(code, Some(1));
    assert_eq!(err, "ttt: there is no unfinished game to resume\n");
    let (out, _, _) = ttt(&home, &["games", "--json"], "");
    let games: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        games["games"].as_array().unwrap().len(),
        1,
        "one game, kept in place"
    );
    assert_eq!(games["games"][0]["result"], "x_won");
}

/// A new store (a [`common::Home`]) holding the games of `sgf`, imported.
fn imported(sgf: &str) -> common::Home {
    let home = common::home();
    std::fs::create_dir_all(&home).unwrap();
    let file = home.join("in.sgf");
    std::fs::write(&file, sgf).unwrap();
    let (out, err, code) = ttt(&home, &["import", file.to_str().unwrap()], "");
    assert_eq!(code, Some(0), "{out}{err}");
    home
}

#[test]
fn names_from_files_are_shown_cut_and_escaped_never_raw() {
    let long = "N".repeat(70_000);
    // As SGF writes it: `]` escaped inside a property.
    let hostile = "\u{1b}\\]0;OWNED\u{7}\u{1b}[2J";
    let home = imported(&format!(
        "(;GM[4]SZ[15]PB[{long}]PW[{hostile}]RE[B+R];B[hh];W[ii];B[hg])"
    ));
    for args in [
        &["games"][..],
        &["stats"],
        &["replay", "last", "--plain"],
        &["export", "last"],
    ] {
        let (out, err, code) = ttt(&home, args, "");
        assert!(matches!(code, Some(0)), "{args:?}: {code:?} {err}");
        let shown = out + &err;
        if args[0] != "export" {
            assert!(
                !shown.contains('\u{1b}'),
                "{args:?} printed an escape: {shown:?}"
            );
            assert!(
                shown.lines().all(|line| line.chars().count() < 1_000),
                "{args:?}: a line of a name's whole length"
            );
        }
    }
}

#[test]
fn a_closed_pipe_ends_a_listing_quietly() {
    // A thousand games, each its own (the same game twice is kept once).
    let games: String = (0..1_000)
        .map(|game| format!("(;GM[4]SZ[15]PB[a{game}]PW[b];B[hh];W[ii];B[hg])"))
        .collect();
    let home = imported(&games);
    let output = std::process::Command::new("sh")
        .args([
            "-c",
            &format!("{} games --json | head -c 10", env!("CARGO_BIN_EXE_ttt")),
        ])
        .env("TTT_HOME", &home)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(err.is_empty(), "{err}");
}

#[test]
fn stats_list_small_boards_first_and_say_why_imported_games_are_not_counted() {
    let home = imported("(;GM[4]SZ[15]PB[a]PW[b];B[hh];W[ii];B[hg])");
    let (out, _, code) = ttt(&home, &["stats"], "");
    assert_eq!(code, Some(0));
    assert!(out.contains("imported"), "{out}");
    for board in [&["--gomoku"][..], &["--size", "3x3"]] {
        let mut args = vec![
            "play",
            "--plain",
            "--x",
            "random",
            "--o",
            "random",
            "--games",
            "1",
            "--no-review",
            "--seed",
            "1",
        ];
        args.extend_from_slice(board);
        let (out, err, code) = ttt(&home, &args, "");
        assert_eq!(code, Some(0), "{out}{err}");
    }
    let (out, _, _) = ttt(&home, &["stats"], "");
    let small = out.find("3x3").unwrap();
    let large = out.find("15x15").unwrap();
    assert!(small < large, "{out}");
    // One spelling of a result in JSON: the one analyze and solve use.
    let (json, _, _) = ttt(&home, &["games", "--json"], "");
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    for game in value["games"].as_array().unwrap() {
        let result = game["result"].as_str().unwrap();
        assert!(
            ["x_won", "o_won", "draw", "unfinished"].contains(&result),
            "{json}"
        );
    }
    // One game: said as one.
    let one = imported("(;GM[4]SZ[15]PB[a]PW[b];B[hh];W[ii];B[hg])");
    let (out, _, _) = ttt(&one, &["stats", "--reset"], "no\n");
    assert!(!out.contains("all 1 kept games"), "{out}");
}
