//! The full-screen mode in a real terminal: tmux runs `ttt`, keys go in with `send-keys`,
//! the screen comes back with `capture-pane`.
//!
//! Needs tmux. Without it these tests say so and pass, unless `TTT_REQUIRE_TMUX` is set
//! (as `.ci/run` does, after installing tmux), when its absence is a failure.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a test fails by panicking"
)]

mod common;

use std::cell::Cell;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::thread::sleep;
use std::time::{Duration, Instant};

/// A tmux server of our own, with one 80x24 window running a plain shell, and a
/// temporary folder for its socket and the test's files (the data folders of what runs in
/// it among them). When this is dropped the server is ended, then the folder is removed
/// with everything in it.
struct Tmux {
    folder: tempfile::TempDir,
    /// How many data folders [`Tmux::home`] has named.
    homes: Cell<u32>,
}

impl Tmux {
    fn start(name: &str) -> Option<Tmux> {
        if Command::new("tmux").arg("-V").output().is_err() {
            assert!(
                std::env::var_os("TTT_REQUIRE_TMUX").is_none(),
                "tmux is required (TTT_REQUIRE_TMUX is set) but is not installed"
            );
            eprintln!("tmux is not installed: skipping the real-terminal test {name}");
            return None;
        }
        let tmux = Tmux {
            folder: common::temporary(&format!("ttt-test-tmux-{name}-")),
            homes: Cell::new(0),
        };
        tmux.run(&[
            "new-session",
            "-d",
            "-x",
            "80",
            "-y",
            "24",
            "bash --norc --noprofile",
        ]);
        tmux.run(&["set-option", "-g", "default-terminal", "xterm-256color"]);
        Some(tmux)
    }

    /// `name` in the terminal's temporary folder.
    fn file(&self, name: &str) -> PathBuf {
        self.folder.path().join(name)
    }

    /// A new data folder (`TTT_HOME`) in the terminal's temporary folder, not made yet.
    fn home(&self) -> PathBuf {
        let home = self.homes.get();
        self.homes.set(home + 1);
        self.file(&format!("home-{home}"))
    }

    /// The shell command that runs `ttt ARGS` with a new data folder, then says its exit
    /// code.
    fn ttt_command(&self, args: &str) -> String {
        format!(
            "TTT_HOME={} {} {args}; echo EXIT=$?",
            self.home().display(),
            env!("CARGO_BIN_EXE_ttt")
        )
    }

    /// As [`Tmux::ttt_command`], through a shell that writes its process id to `pid_file`
    /// first, so that the test can signal it as another program would.
    fn ttt_command_with_pid(&self, args: &str, pid_file: &Path) -> String {
        format!(
            "bash -c 'echo $$ > {}; TTT_HOME={} exec {} {args}'; echo EXIT=$?",
            pid_file.display(),
            self.home().display(),
            env!("CARGO_BIN_EXE_ttt")
        )
    }

    fn run(&self, args: &[&str]) -> String {
        let output = Command::new("tmux")
            .arg("-S")
            .arg(self.file("socket"))
            .args(args)
            .output()
            .unwrap();
        String::from_utf8_lossy(&output.stdout).into_owned()
    }

    fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", "0"];
        args.extend_from_slice(keys);
        self.run(&args);
    }

    fn screen(&self) -> String {
        self.run(&["capture-pane", "-p", "-t", "0"])
    }

    /// Waits until the screen shows `text`, and returns the screen.
    fn wait_for(&self, text: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(15);
        loop {
            let screen = self.screen();
            if screen.contains(text) {
                return screen;
            }
            assert!(
                Instant::now() < deadline,
                "waited for {text:?}; the screen shows:\n{screen}"
            );
            sleep(Duration::from_millis(100));
        }
    }

    /// `#{alternate_on} #{mouse_any_flag} #{cursor_flag}` of the pane.
    fn modes(&self) -> String {
        self.run(&[
            "display-message",
            "-p",
            "-t",
            "0",
            "#{alternate_on} #{mouse_any_flag} #{cursor_flag}",
        ])
        .trim()
        .to_owned()
    }

    /// Checks that the shell's terminal is as it was: main screen, no mouse reports, a
    /// visible cursor, and a line discipline that echoes and edits lines.
    fn assert_restored(&self) {
        assert_eq!(self.modes(), "0 0 1", "alternate screen, mouse, cursor");
        self.keys(&[
            "stty -a | tr ' ' '\\n' | grep -x -e icanon -e echo | tr '\\n' ' '; echo STTY",
            "Enter",
        ]);
        let screen = self.wait_for("icanon echo STTY");
        assert!(screen.contains("icanon echo STTY"), "{screen}");
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        self.run(&["kill-server"]);
    }
}

const VERDICTS: [&str; 3] = ["You win!", "The computer wins.", "Draw."];

#[test]
fn a_whole_game_with_arrow_keys_and_enter_then_quit() {
    let Some(tmux) = Tmux::start("game") else {
        return;
    };
    tmux.keys(&[&tmux.ttt_command(""), "Enter"]);
    tmux.wait_for("Play against");
    // Against the impossible computer, as X: choose on the start screen with the keys.
    tmux.keys(&[
        "Up", "Up", "Up", "Up", "Up", "Right", "Right", "Right", "Enter",
    ]);
    tmux.wait_for("Computer (impossible)");
    assert_eq!(
        tmux.modes().split(' ').next(),
        Some("1"),
        "the game runs on the alternate screen"
    );
    play_the_impossible_computer_then_quit(&tmux);
}

/// Plays the impossible computer (chosen already) to the end with the arrow keys and
/// Enter, then quits: the tally is on the main screen and the terminal as it was.
fn play_the_impossible_computer_then_quit(tmux: &Tmux) {
    // Try every square in reading order: arrows from the top-left corner, then Enter. A
    // free square takes the mark; a taken one is refused; the computer answers in between.
    let mut verdict = None;
    'squares: for row in 0..3 {
        for column in 0..3 {
            let mut keys = vec!["Up", "Up", "Left", "Left"];
            keys.extend(std::iter::repeat_n("Right", column));
            keys.extend(std::iter::repeat_n("Down", row));
            keys.push("Enter");
            tmux.keys(&keys);
            sleep(Duration::from_millis(1_200));
            let screen = tmux.screen();
            verdict = VERDICTS.into_iter().find(|v| screen.contains(v));
            if verdict.is_some() {
                break 'squares;
            }
        }
    }
    let verdict = verdict.unwrap_or_else(|| panic!("no verdict on screen:\n{}", tmux.screen()));
    assert_ne!(verdict, "You win!", "nobody beats the impossible computer");
    tmux.keys(&["q"]);
    let screen = tmux.wait_for("EXIT=0");
    let tally = if verdict == "Draw." {
        "X wins: 0, O wins: 0, draws: 1"
    } else {
        "X wins: 0, O wins: 1, draws: 0"
    };
    assert!(
        screen.contains(tally),
        "the tally is printed on the main screen:\n{screen}"
    );
    tmux.assert_restored();
}

#[test]
fn ctrl_c_in_the_middle_of_a_game_restores_the_terminal() {
    let Some(tmux) = Tmux::start("ctrl-c") else {
        return;
    };
    tmux.keys(&[&tmux.ttt_command("--x human --o rules --first x"), "Enter"]);
    tmux.wait_for("Computer (medium)");
    tmux.keys(&["Enter"]);
    tmux.wait_for("played");
    tmux.keys(&["C-c"]);
    tmux.wait_for("EXIT=130");
    tmux.assert_restored();
}

#[test]
fn plain_and_dumb_terminals_keep_the_line_mode() {
    let Some(tmux) = Tmux::start("plain") else {
        return;
    };
    tmux.keys(&[
        &tmux.ttt_command("--plain --x human --o human --first x"),
        "Enter",
    ]);
    tmux.wait_for("X to move:");
    assert_eq!(tmux.modes(), "0 0 1");
    tmux.keys(&["quit", "Enter"]);
    tmux.wait_for("EXIT=0");
    tmux.keys(&[
        &format!(
            "TERM=dumb {}",
            tmux.ttt_command("--x human --o human --first x")
        ),
        "Enter",
    ]);
    tmux.wait_for("X to move:");
    tmux.keys(&["C-d"]);
    tmux.wait_for("EXIT=1");
    tmux.assert_restored();
}

#[test]
fn every_ending_signal_restores_the_terminal_and_prints_the_tally() {
    for (signal, code) in [("TERM", 143), ("HUP", 129), ("QUIT", 131), ("INT", 130)] {
        let Some(tmux) = Tmux::start(&format!("signal-{signal}")) else {
            return;
        };
        let pid_file = tmux.file("ttt.pid");
        tmux.keys(&[
            &tmux.ttt_command_with_pid("--x human --o human --first x", &pid_file),
            "Enter",
        ]);
        tmux.wait_for("X to move");
        // X wins along the top row; the next game starts by itself.
        for digit in ["1", "4", "2", "5", "3"] {
            tmux.keys(&[digit]);
            sleep(Duration::from_millis(150));
        }
        tmux.wait_for("X wins");
        tmux.keys(&["5"]);
        sleep(Duration::from_millis(300));
        assert_eq!(
            tmux.modes(),
            "1 1 0",
            "the game shows on the alternate screen with the mouse on and the cursor hidden"
        );
        let pid = std::fs::read_to_string(&pid_file).unwrap();
        let status = Command::new("kill")
            .args([&format!("-{signal}"), pid.trim()])
            .status()
            .unwrap();
        assert!(status.success(), "kill -{signal} {pid}");
        let screen = tmux.wait_for(&format!("EXIT={code}"));
        assert!(
            screen.contains("X wins: 1, O wins: 0, draws: 0"),
            "SIG{signal}: the tally is printed on the main screen:\n{screen}"
        );
        tmux.assert_restored();
    }
}

#[test]
fn an_interrupted_proof_clears_its_spinner() {
    let Some(tmux) = Tmux::start("solve") else {
        return;
    };
    tmux.keys(&[
        &tmux.ttt_command("solve --size 8x8 --k 5 --hash 1"),
        "Enter",
    ]);
    tmux.wait_for("proving");
    sleep(Duration::from_millis(700));
    tmux.keys(&["C-c"]);
    let screen = tmux.wait_for("EXIT=130");
    assert!(
        screen.contains("Interrupted after"),
        "it says how far it got:\n{screen}"
    );
    assert!(
        !screen.contains("proving"),
        "the spinner's line is cleared:\n{screen}"
    );
    tmux.assert_restored();
}

/// Whether process `pid` still runs (a zombie waiting for its parent has ended).
fn running(pid: &str) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        stat.rsplit(')')
            .next()
            .is_some_and(|rest| !rest.trim_start().starts_with('Z'))
    })
}

#[test]
fn closing_the_terminal_ends_the_game() {
    let Some(tmux) = Tmux::start("hang-up") else {
        return;
    };
    let pid_file = tmux.file("ttt.pid");
    tmux.keys(&[
        &tmux.ttt_command_with_pid("--x human --o human --first x", &pid_file),
        "Enter",
    ]);
    tmux.wait_for("X to move");
    let pid = std::fs::read_to_string(&pid_file).unwrap();
    let pid = pid.trim();
    assert!(running(pid));
    // The terminal goes away under the game, as when its window is closed.
    tmux.run(&["kill-server"]);
    let deadline = Instant::now() + Duration::from_secs(10);
    while running(pid) {
        assert!(
            Instant::now() < deadline,
            "ttt (pid {pid}) still runs 10 s after its terminal closed"
        );
        sleep(Duration::from_millis(100));
    }
}

#[test]
fn closing_the_terminal_keeps_the_game_in_both_modes_without_a_panic() {
    for (mode, first, second) in [
        ("--plain", &["5", "Enter"][..], &["1", "Enter"][..]),
        ("", &["Enter"][..], &["Right", "Enter"][..]),
    ] {
        let Some(tmux) = Tmux::start("close-window") else {
            return;
        };
        let home = tmux.home();
        let code = tmux.file("code");
        // The shell around ttt outlives the terminal to tell how ttt ended; ttt's own
        // output goes to the terminal, as it does for people.
        tmux.keys(&[
            &format!(
                "bash -c 'trap \"\" HUP; TTT_HOME={} {} {mode} --x human --o human --first x; echo $? > {}'",
                home.display(),
                env!("CARGO_BIN_EXE_ttt"),
                code.display()
            ),
            "Enter",
        ]);
        tmux.wait_for("X to move");
        tmux.keys(first);
        tmux.wait_for("O to move");
        tmux.keys(second);
        tmux.wait_for("X to move");
        // The window is closed under the game.
        tmux.run(&["kill-server"]);
        let deadline = Instant::now() + Duration::from_secs(10);
        let ended = loop {
            if let Ok(ended) = std::fs::read_to_string(&code)
                && !ended.is_empty()
            {
                break ended;
            }
            assert!(Instant::now() < deadline, "{mode}: ttt still runs");
            sleep(Duration::from_millis(100));
        };
        // A panic (101) or an error (1): a closed terminal is its SIGHUP, 128 + 1.
        assert_eq!(ended.trim(), "129", "{mode}");
        let games = Command::new(env!("CARGO_BIN_EXE_ttt"))
            .env("TTT_HOME", &home)
            .args(["games", "--json"])
            .output()
            .unwrap();
        let games = String::from_utf8_lossy(&games.stdout);
        assert!(
            games.contains("\"moves\": 2") && games.contains("\"unfinished\""),
            "{mode}: the game is kept:\n{games}"
        );
    }
}

#[test]
fn ctrl_z_suspends_the_game_and_fg_takes_it_up_again() {
    let Some(tmux) = Tmux::start("suspend") else {
        return;
    };
    tmux.keys(&[&tmux.ttt_command("--x human --o human --first x"), "Enter"]);
    tmux.wait_for("X to move");
    tmux.keys(&["Enter"]);
    tmux.wait_for("O to move");
    tmux.keys(&["C-z"]);
    // The shell has its terminal back as it was, and says the job stopped.
    tmux.wait_for("Stopped");
    tmux.assert_restored();
    tmux.keys(&["fg", "Enter"]);
    let screen = tmux.wait_for("O to move");
    assert!(
        screen.contains("Score"),
        "the whole screen is drawn again:\n{screen}"
    );
    assert_eq!(
        tmux.modes(),
        "1 1 0",
        "alternate screen, mouse, hidden cursor"
    );
    tmux.keys(&["q"]);
    tmux.wait_for("Quit?");
    tmux.keys(&["y"]);
    // The shell ran its `echo EXIT` when the job stopped: the tally says ttt ended.
    tmux.wait_for("X wins: 0, O wins: 0, draws: 0");
    tmux.assert_restored();
}

#[test]
fn esc_then_a_key_at_once_is_two_keys_not_alt() {
    let Some(tmux) = Tmux::start("escape") else {
        return;
    };
    tmux.keys(&[&tmux.ttt_command("--x human --o human --first x"), "Enter"]);
    tmux.wait_for("X to move");
    // Esc asks whether to leave, y says yes: typed together, tmux joins them as Alt-y.
    tmux.keys(&["Escape", "y"]);
    tmux.wait_for("EXIT=0");
    tmux.assert_restored();
}

#[test]
fn ctrl_c_ends_the_line_mode_with_the_tally() {
    let Some(tmux) = Tmux::start("plain-ctrl-c") else {
        return;
    };
    tmux.keys(&[
        &tmux.ttt_command("--plain --x human --o human --first x"),
        "Enter",
    ]);
    tmux.wait_for("X to move:");
    tmux.keys(&["C-c"]);
    let screen = tmux.wait_for("EXIT=130");
    assert!(
        screen.contains("X wins: 0, O wins: 0, draws: 0"),
        "the tally after Ctrl-C:\n{screen}"
    );
    tmux.assert_restored();
}

#[test]
fn keys_act_while_a_hint_is_worked_out_and_the_hint_comes() {
    let Some(tmux) = Tmux::start("slow-hint") else {
        return;
    };
    tmux.keys(&[
        &tmux.ttt_command("--size 4x4 --k 4 --x human --o human --first x"),
        "Enter",
    ]);
    tmux.wait_for("X to move");
    tmux.keys(&["1", "1"]);
    tmux.wait_for("O to move");
    // The hint is worked out on a thread of its own (on 4x4 the prover answers within
    // milliseconds; the app's tests hold a job in flight for as long as they like): the
    // keys pressed right after asking act, and the hint comes.
    tmux.keys(&["H", "?"]);
    tmux.wait_for("Press any key, or click, to close.");
    tmux.keys(&["Escape"]);
    tmux.wait_for("Hint:");
    tmux.keys(&["q"]);
    tmux.wait_for("It is kept for next time.");
    tmux.keys(&["y"]);
    tmux.wait_for("EXIT=0");
    tmux.assert_restored();
}

/// The room's code in the title of the full screen's online screen ("ttt online — room
/// K7QX-2M — …").
fn room_code(screen: &str) -> String {
    let after = &screen[screen.find("room ").unwrap() + "room ".len()..];
    after.split_whitespace().next().unwrap().to_owned()
}

#[test]
fn two_terminals_play_each_other_full_screen_through_a_server() {
    let (Some(server), Some(ann), Some(bob)) =
        (Tmux::start("serve"), Tmux::start("ann"), Tmux::start("bob"))
    else {
        return;
    };
    server.keys(&[
        &server.ttt_command("serve --no-store --listen 127.0.0.1:0"),
        "Enter",
    ]);
    let served = server.wait_for("ttt serves on ");
    let after = &served[served.find("ttt serves on ").unwrap() + "ttt serves on ".len()..];
    let address = &after[..after.find(": ").unwrap()];
    ann.keys(&[
        &ann.ttt_command(&format!("host --server {address} --name Ann")),
        "Enter",
    ]);
    let code = room_code(&ann.wait_for("ttt online — room "));
    ann.wait_for("waiting for a fri");
    // Typed as a friend might: lower case, without the dash.
    let typed = code.replace('-', "").to_lowercase();
    bob.keys(&[
        &bob.ttt_command(&format!("join {typed} --server {address} --name Bob")),
        "Enter",
    ]);
    bob.wait_for("Bob (you)");
    let screen = ann.wait_for("moves first.");
    assert!(screen.contains("Ann (you)"), "{screen}");
    // Whoever moves first wins along the top row; the other plays the middle row.
    let (first, second) = if screen.contains("X moves first") == screen.contains("X  Ann") {
        (&ann, &bob)
    } else {
        (&bob, &ann)
    };
    for (player, square, moves) in [
        (first, "1", "1."),
        (second, "4", "1."),
        (first, "2", "2."),
        (second, "5", "2."),
        (first, "3", "3."),
    ] {
        player.keys(&[square]);
        player.wait_for(moves);
        sleep(Duration::from_millis(200));
    }
    first.wait_for("You win!");
    second.wait_for("wins.");
    // Bob quits: Ann reads that he stepped away; his tally names the room.
    bob.keys(&["q"]);
    let screen = bob.wait_for("EXIT=0");
    assert!(
        screen.contains(&format!("Room {code}: Ann (X)"))
            || screen.contains(&format!("Room {code}: Bob (X)")),
        "{screen}"
    );
    bob.assert_restored();
    ann.wait_for("Bob stepped away");
    ann.keys(&["q"]);
    ann.wait_for("EXIT=0");
    ann.assert_restored();
}

/// A `ttt serve` of the test's own, with SSH, on free loopback ports: ended on drop.
struct Served {
    child: std::process::Child,
    ssh_port: u16,
}

impl Served {
    fn start(home: &std::path::Path) -> Served {
        use std::io::BufRead;
        let mut child = Command::new(env!("CARGO_BIN_EXE_ttt"))
            .args(["serve", "--listen", "127.0.0.1:0", "--ssh", "127.0.0.1:0"])
            .arg("--data-dir")
            .arg(home)
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let out = std::io::BufReader::new(child.stdout.take().unwrap());
        let ssh_port = out
            .lines()
            .take(10)
            .map_while(Result::ok)
            .find_map(|line| {
                let at = line.strip_prefix("SSH on 127.0.0.1:")?;
                at.split(':').next()?.parse().ok()
            })
            .expect("the server says where SSH is");
        Served { child, ssh_port }
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Whether OpenSSH's client is here; without it the test says so and passes, unless
/// `TTT_REQUIRE_TMUX` is set (as `.ci/run` does, after installing both).
fn openssh() -> bool {
    let here = Command::new("ssh-keygen").arg("-?").output().is_ok()
        && Command::new("ssh").arg("-V").output().is_ok();
    if !here {
        assert!(
            std::env::var_os("TTT_REQUIRE_TMUX").is_none(),
            "OpenSSH's client is required (TTT_REQUIRE_TMUX is set) but is not installed"
        );
        eprintln!("OpenSSH's client is not installed: skipping the SSH test");
    }
    here
}

#[test]
fn openssh_plays_the_computer_to_the_end_over_ttt_serve_ssh() {
    if !openssh() {
        return;
    }
    let Some(tmux) = Tmux::start("ssh") else {
        return;
    };
    let home = tmux.home();
    std::fs::create_dir_all(&home).unwrap();
    let key = home.join("id_ed25519");
    let made = Command::new("ssh-keygen")
        .args(["-q", "-t", "ed25519", "-N", "", "-f"])
        .arg(&key)
        .status()
        .unwrap();
    assert!(made.success());
    let served = Served::start(&home);
    tmux.keys(&[
        &format!(
            "ssh -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR \
             -o IdentitiesOnly=yes -i {} -p {} tester@127.0.0.1; echo EXIT=$?",
            key.display(),
            served.ssh_port
        ),
        "Enter",
    ]);
    tmux.wait_for("Play against");
    assert_eq!(
        tmux.modes().split(' ').next(),
        Some("1"),
        "the alternate screen"
    );
    tmux.keys(&[
        "Up", "Up", "Up", "Up", "Up", "Right", "Right", "Right", "Enter",
    ]);
    tmux.wait_for("Computer (impossible)");
    play_the_impossible_computer_then_quit(&tmux);
}
