//! Who the app speaks to. Its keys act the same everywhere, but the words that tell a
//! person how to act differ: keys in a terminal; taps and clicks on a web page, where a
//! phone has no keyboard and there is nothing to quit to.

/// The kind of front end the app is shown in ([`App::with_front`](super::App::with_front)).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Front {
    /// A terminal: every action is a key, and quitting ends the program.
    #[default]
    Terminal,
    /// A web page: actions are taps and clicks on what is shown (keys still act), and
    /// there is nothing to quit to (quitting goes back to the start screen).
    Page,
}

impl Front {
    /// Whether the front end has something to quit to, so that quitting is offered.
    pub(super) fn quits(self) -> bool {
        self == Front::Terminal
    }

    /// How a box that only tells something is closed.
    pub(super) fn close(self) -> &'static str {
        match self {
            Front::Terminal => "Press any key, or click, to close.",
            Front::Page => "Tap anywhere, or press any key, to close.",
        }
    }

    /// The button beside the verdict that starts the next game.
    pub(super) fn play_again(self) -> &'static str {
        match self {
            Front::Terminal => "[ n: play again ]",
            Front::Page => "[ play again ]",
        }
    }

    /// What can follow a finished game, after its verdict.
    pub(super) fn after_game(self) -> &'static str {
        match self {
            Front::Terminal => "n: new game · r: review · u: undo.",
            Front::Page => "Tap play again, review or undo.",
        }
    }

    /// Why a move after the end is refused, and what to do instead.
    pub(super) fn over_for_new_game(self) -> &'static str {
        match self {
            Front::Terminal => "The game is over: press n for a new game.",
            Front::Page => "The game is over: tap play again for a new one.",
        }
    }

    /// Why a hint after the end is refused, and what to do instead.
    pub(super) fn over_for_review(self) -> &'static str {
        match self {
            Front::Terminal => "The game is over: press r for its review.",
            Front::Page => "The game is over: tap review to see how it went.",
        }
    }

    /// What is said as the review of a game opens.
    pub(super) fn review_opened(self) -> &'static str {
        match self {
            Front::Terminal => "The review of the game: any key or click closes it.",
            Front::Page => "The review of the game: a tap closes it.",
        }
    }

    /// The yes of a box that asks before leaving a game, `answer` being what yes does.
    pub(super) fn yes(self, answer: &str) -> String {
        match self {
            Front::Terminal => format!("[ y: {answer} ]"),
            Front::Page => format!("[ yes, {answer} ]"),
        }
    }

    /// The rest of the answer line of a box that asks before leaving a game.
    pub(super) fn keep_playing(self) -> &'static str {
        match self {
            Front::Terminal => "  [ other keys: keep playing ]",
            Front::Page => "  [ keep playing ]",
        }
    }

    /// The start screen's offer of the unfinished game described by `what`.
    pub(super) fn resume(self, what: &str) -> String {
        match self {
            Front::Terminal => format!("r: resume the unfinished game ({what})"),
            Front::Page => format!("Tap here to resume the unfinished game ({what})"),
        }
    }

    /// How to claim the game of a player who has not come back.
    pub(super) fn claim(self) -> &'static str {
        match self {
            Front::Terminal => "press c to claim the game, or wait on",
            Front::Page => "claim the game with c, or wait on",
        }
    }

    /// A pointer's press, in the help's list of keys.
    pub(super) fn pointer(self) -> &'static str {
        match self {
            Front::Terminal => "mouse click",
            Front::Page => "tap, click",
        }
    }

    /// How a start-screen line's choice is changed, in its key list.
    pub(super) fn change_keys(self) -> &'static str {
        match self {
            Front::Terminal => "←→ or click: change",
            Front::Page => "←→ or tap: change",
        }
    }

    /// The keys that go from line to line of the start screen: Tab too in a terminal (a
    /// page's Tab is the browser's, moving the focus).
    pub(super) fn line_keys(self) -> &'static str {
        match self {
            Front::Terminal => "arrows, jk, ws, Tab",
            Front::Page => "arrows, jk, ws",
        }
    }
}
