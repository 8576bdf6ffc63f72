//! The full-screen replay: a kept game stepped through with the arrow keys, the board as
//! the game screen draws it and the note on each move beside it.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Widget, Wrap};
use ttt_core::{Mark, SquareNaming};

use super::ui::{BoardLook, board};
use super::{Input, Key, Theme, layout};
use crate::replay::{Replay, Step};

/// The keys of the replay, as its footer lists them.
pub const REPLAY_KEYS: &str = "Home first · ← back · → forward · End last · q quit";

/// A replay on the screen: the game, the styles, and whether the person is done.
#[derive(Debug, Clone)]
pub struct ReplayScreen {
    replay: Replay,
    theme: Theme,
    done: bool,
    /// Ended by Ctrl-C, which ends a program as an interrupt does.
    interrupted: bool,
}

impl ReplayScreen {
    /// The replay of `replay`'s game, at its start.
    pub fn new(replay: Replay, theme: Theme) -> ReplayScreen {
        ReplayScreen {
            replay,
            theme,
            done: false,
            interrupted: false,
        }
    }

    /// Takes an input: the arrows, Home and End step through the game (also `h` `l`, `k`
    /// `j`); `q`, Esc and Ctrl-C end the replay.
    pub fn handle(&mut self, input: Input) {
        let Input::Key(key) = input else {
            return;
        };
        match key {
            Key::Home | Key::Up | Key::Char('g' | 'k') => self.replay.step(Step::First),
            Key::Left | Key::Backspace | Key::Char('h' | 'p') => self.replay.step(Step::Back),
            Key::Right | Key::Enter | Key::Char(' ' | 'l' | 'n') => {
                self.replay.step(Step::Forward);
            }
            Key::End | Key::Down | Key::Char('G' | 'j') => self.replay.step(Step::Last),
            Key::Char('q' | 'Q') | Key::Esc => self.done = true,
            Key::Interrupt => {
                self.done = true;
                self.interrupted = true;
            }
            _ => {}
        }
    }

    /// Whether the person has ended the replay.
    pub fn is_done(&self) -> bool {
        self.done
    }

    /// Whether it was ended by Ctrl-C.
    pub fn was_interrupted(&self) -> bool {
        self.interrupted
    }

    /// The replay.
    pub fn replay(&self) -> &Replay {
        &self.replay
    }
}

impl Widget for &ReplayScreen {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let replay = &self.replay;
        let record = replay.record();
        let rules = record.rules;
        let theme = self.theme;
        let (Some(screen), Some(geometry)) =
            (layout::screen(area, rules), layout::board(area, rules))
        else {
            Paragraph::new(vec![
                Line::from(format!("Window too small for {rules}")),
                Line::from("enlarge it, or press q to quit"),
            ])
            .render(area, buf);
            return;
        };
        Line::from(vec![
            Span::styled(" ttt", theme.accent()),
            Span::raw(format!(" — replay · {rules}")),
        ])
        .render(screen.title, buf);
        let look = BoardLook {
            theme,
            naming: SquareNaming::Numbers.on_board(rules),
            cursor: None,
            hints: None,
            glyphs: true,
        };
        board(&look, replay.position(), &geometry, buf);
        let block = Block::new()
            .borders(if screen.shape == layout::Shape::Tall {
                Borders::TOP
            } else {
                Borders::LEFT
            })
            .title(Span::styled("Replay", theme.accent()));
        let inner = block.inner(screen.panel);
        block.render(screen.panel, buf);
        let mut lines: Vec<Line> = Mark::ALL
            .into_iter()
            .map(|mark| {
                Line::from(vec![
                    Span::styled(format!(" {mark} "), theme.mark(mark)),
                    // Names from other programs' files, shown as typed text is.
                    Span::raw(format!(" {}", ttt_core::Shown(&record.player(mark)))),
                ])
            })
            .collect();
        lines.push(Line::from(""));
        lines.push(Line::from(format!(
            " Move {} of {}",
            replay.at(),
            replay.len()
        )));
        if let Some(note) = replay.note() {
            lines.push(Line::from(Span::raw(format!(" {note}"))));
        }
        lines.push(Line::from(""));
        let result = match (record.outcome, &record.forfeit) {
            (None, _) => "Unfinished".to_owned(),
            (Some(outcome), None) => outcome.to_string(),
            (Some(outcome), Some(reason)) => format!("{outcome}: {reason}"),
        };
        lines.push(Line::from(Span::styled(format!(" {result}"), Style::new())));
        for line in replay.summary() {
            lines.push(Line::from(Span::styled(format!(" {line}"), theme.quiet())));
        }
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .render(inner, buf);
        Line::from(Span::styled(REPLAY_KEYS, theme.quiet())).render(screen.footer, buf);
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "a test fails by panicking")]

    use super::*;
    use crate::Seat;
    use crate::records::GameRecord;
    use ttt_core::{Rules, Square};
    use ttt_solver::Solver;

    fn screen_text(screen: &ReplayScreen) -> String {
        let area = Rect::new(0, 0, 100, 30);
        let mut buffer = Buffer::empty(area);
        screen.render(area, &mut buffer);
        (0..area.height)
            .map(|y| {
                (0..area.width)
                    .map(|x| buffer[(x, y)].symbol().to_owned())
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn the_keys_step_through_the_game_and_the_panel_follows() {
        let mut game = GameRecord::new(Rules::default(), Seat::Human, Seat::Human, Mark::X, 0);
        game.moves = [4, 1, 7].map(Square::new).to_vec();
        let replay = Replay::new(game).unwrap().with_review(&mut Solver::new());
        let mut screen = ReplayScreen::new(replay, Theme::monochrome());
        assert!(screen_text(&screen).contains("Move 0 of 3"));
        for (key, at) in [
            (Key::Right, 1),
            (Key::Right, 2),
            (Key::Left, 1),
            (Key::End, 3),
            (Key::Right, 3),
            (Key::Home, 0),
            (Key::Left, 0),
        ] {
            screen.handle(Input::Key(key));
            assert_eq!(screen.replay().at(), at, "{key:?}");
        }
        screen.handle(Input::Key(Key::Char('l')));
        screen.handle(Input::Key(Key::Char('l')));
        let text = screen_text(&screen);
        assert!(text.contains("Move 2 of 3"), "{text}");
        assert!(text.contains("a mistake"), "{text}");
        assert!(text.contains(REPLAY_KEYS), "{text}");
        assert!(!screen.is_done());
        screen.handle(Input::Key(Key::Char('q')));
        assert!(screen.is_done());
    }
}
