// End-to-end test of the web page in a real browser (Debian's chromium, driven by
// playwright-core): serves web/dist on 127.0.0.1, plays a whole game against the perfect
// player by clicks, checks the verdict, uses undo and hint, starts a gomoku game against
// `search` and checks that the page answers a key within 100 ms while the computer
// thinks and that `i` says what it thought, turns a phone-sized window and acts after
// it, checks that the games and choices are kept in local storage across a reload, and
// keeps screenshots in
// target/web-e2e-3x3.png, target/web-e2e.png and target/web-e2e-phone.png.
//
//   node web/tests/e2e.mjs          (after web/build.sh; .ci/run runs both)
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { extname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const root = fileURLToPath(new URL("../..", import.meta.url));
const dist = join(root, "web", "dist");
const types = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript",
  ".css": "text/css",
  ".wasm": "application/wasm",
  ".svg": "image/svg+xml",
  ".webmanifest": "application/manifest+json",
};

const server = createServer(async (request, response) => {
  const path = normalize(decodeURIComponent(new URL(request.url, "http://x").pathname));
  const file = join(dist, path === "/" ? "index.html" : path);
  if (!file.startsWith(dist)) {
    response.writeHead(403).end();
    return;
  }
  try {
    const body = await readFile(file);
    response.writeHead(200, { "content-type": types[extname(file)] ?? "application/octet-stream" });
    response.end(body);
  } catch {
    response.writeHead(404).end();
  }
});
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
const url = `http://127.0.0.1:${server.address().port}/`;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
});

let failed = false;
// One context, so that a second tab shares the first one's local storage.
const context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
const page = await context.newPage();
// Every animation frame the page asks for is counted, to check that an idle page draws
// nothing.
await context.addInitScript(() => {
  const request = window.requestAnimationFrame.bind(window);
  window.tttFrames = 0;
  window.requestAnimationFrame = (callback) =>
    request((time) => {
      window.tttFrames += 1;
      callback(time);
    });
});
const errors = [];
page.on("pageerror", (error) => errors.push(String(error)));
page.on("console", (message) => { if (process.env.DEBUG) console.log("console:", message.text());
  if (message.type() === "error") errors.push(message.text());
});

function check(condition, what) {
  if (!condition) {
    throw new Error(`failed: ${what}`);
  }
  console.log(`ok: ${what}`);
}

/** The screen as lines of text. */
async function screen(tab = page) {
  return tab.evaluate(() =>
    Array.from(document.querySelectorAll("#screen pre")).map((row) => row.textContent),
  );
}

/** Animation frames a second while nobody does anything, over two seconds. */
async function idleFrames() {
  const before = await page.evaluate(() => window.tttFrames);
  await page.waitForTimeout(2000);
  return ((await page.evaluate(() => window.tttFrames)) - before) / 2;
}

async function waitFor(text, timeout = 10000, tab = page) {
  const start = Date.now();
  while (Date.now() - start < timeout) {
    const lines = await screen(tab);
    if (lines.some((line) => line.includes(text))) {
      return lines;
    }
    await tab.waitForTimeout(20);
  }
  throw new Error(`"${text}" did not appear; the screen:\n${(await screen(tab)).join("\n")}`);
}

/** Waits until `text` is gone from the screen of `tab`. */
async function waitGone(text, timeout, tab) {
  const start = Date.now();
  while (Date.now() - start < timeout) {
    if (!(await screen(tab)).some((line) => line.includes(text))) return;
    await tab.waitForTimeout(20);
  }
  throw new Error(`"${text}" stayed; the screen:\n${(await screen(tab)).join("\n")}`);
}

/** Clicks the cell at `column`, `row` of the character grid. */
async function clickCell(column, row, tab = page) {
  const box = await tab.evaluate(
    ([column, row]) => {
      const rows = document.querySelectorAll("#screen pre");
      const cell = rows[row].children[column].getBoundingClientRect();
      return { x: cell.x + cell.width / 2, y: cell.y + cell.height / 2 };
    },
    [column, row],
  );
  await tab.mouse.click(box.x, box.y);
}

/** Clicks the first place `text` shows on the screen. */
async function clickText(text, tab = page) {
  const lines = await screen(tab);
  const row = lines.findIndex((line) => line.includes(text));
  check(row >= 0, `"${text}" is on the screen`);
  await clickCell([...lines[row].slice(0, lines[row].indexOf(text))].length + 1, row, tab);
}

/** Clicks the start screen's line showing `line` until it shows `wanted` (a few times at
 * most). */
async function chooseOn(tab, line, wanted) {
  for (let i = 0; i < 8 && !(await screen(tab)).some((shown) => shown.includes(wanted)); i++) {
    await clickText(line, tab);
    await tab.waitForTimeout(50);
  }
}

/** A new tab in its own context (`options`), its page errors counted, at the start
 * screen. */
async function openTab(options, media) {
  const tab = await (await browser.newContext(options)).newPage();
  tab.on("pageerror", (error) => errors.push(String(error)));
  if (media) await tab.emulateMedia(media);
  await tab.goto(url);
  await waitFor("Play against", 10000, tab);
  return tab;
}

/** The contrast of the square whose name has `words` (the cursor, the winning line)
 * against the page, and of the mark on it against the square, as WCAG measures contrast:
 * { name, square, mark }. */
async function highlight(tab, words) {
  return tab.evaluate((words) => {
    const luminance = (css) => {
      const [r, g, b] = css.match(/[\d.]+/g).slice(0, 3).map((value) => {
        const v = Number(value) / 255;
        return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const ratio = (a, b) => {
      const [light, dark] = [luminance(a), luminance(b)].sort((p, q) => q - p);
      return (light + 0.05) / (dark + 0.05);
    };
    const button = Array.from(document.querySelectorAll('#board [role="gridcell"]')).find((each) =>
      each.getAttribute("aria-label").includes(words),
    );
    const box = button.getBoundingClientRect();
    const cell = document.elementFromPoint(box.x + 3, box.y + 3);
    const square = getComputedStyle(cell).backgroundColor;
    const page = getComputedStyle(document.body).backgroundColor;
    const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
    const svg = Array.from(document.querySelectorAll("#marks svg")).find((each) => {
      const around = each.getBoundingClientRect();
      return around.left <= x && x <= around.right && around.top <= y && y <= around.bottom;
    });
    const stroke = svg ? getComputedStyle(svg.firstElementChild).stroke : square;
    return { name: button.getAttribute("aria-label"), square: ratio(square, page), mark: ratio(stroke, square) };
  }, words);
}

/** A random number generator from a seed (mulberry32), for taps that scatter alike on
 * every run. */
function random(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

try {
  await page.goto(url);
  await waitFor("Play against");
  // Keys work from the start, with no click first: ↓ then ↑ moves the pointer.
  await page.keyboard.press("ArrowUp");
  await waitFor("▸ Board");
  check(true, "keys work without a click first");
  // For a screen reader: the start screen is controls with names, the drawn characters
  // hidden; Tab moves the focus to them, and Enter on the start button starts.
  const tree = await page.locator("body").ariaSnapshot();
  check(
    /button "Play against: the computer, [a-z ]+"/.test(tree) && /button "Start"/.test(tree) && !tree.includes("┌") && !/quit/.test(tree),
    `the start screen is named controls to a screen reader, with no quitting on a page:\n${tree}`,
  );
  await page.keyboard.press("Tab");
  const focused = await page.evaluate(() => document.activeElement?.getAttribute("aria-label"));
  check(focused?.startsWith("Play against"), `Tab moves the focus to the first control (${focused})`);
  await page.keyboard.press("Escape");
  const startIdle = await idleFrames();
  check(startIdle < 2, `the idle start screen draws ${startIdle} frames a second`);

  // Against the perfect player, chosen with clicks: medium -> mcts -> hard -> impossible.
  for (let i = 0; i < 3; i++) {
    await clickText("the computer,");
  }
  await waitFor("the computer, impossible");
  await clickText("[ Start ]");
  await waitFor("Computer (impossible)");

  // A whole game by clicks: each time it is our turn, click the first free square.
  const verdicts = ["Draw.", "The computer wins.", "You win!"];
  let verdict = null;
  for (let turn = 0; turn < 10 && !verdict; turn++) {
    const lines = await waitFor("to move: You").catch(async () => screen());
    verdict = verdicts.find((text) => lines.some((line) => line.includes(text)));
    if (verdict) break;
    const width = lines[0].length;
    let clicked = false;
    if (turn === 0) {
      // The first move by the board's grid of buttons, as a screen reader presses one.
      const pressed = await page.evaluate(() => {
        const button = document.querySelector('#board [role="gridcell"][aria-label*="empty"]');
        button?.click();
        return button?.getAttribute("aria-label") ?? null;
      });
      check(pressed !== null, `a board button to press (${pressed})`);
      await page.waitForTimeout(300);
      const label = pressed.split(":")[0];
      const now = await page.evaluate(
        (label) => document.querySelector(`#board [aria-label^="${label}:"]`)?.getAttribute("aria-label"),
        label,
      );
      check(/, X/.test(now ?? ""), `pressing it plays there (${now})`);
      const said = await page.evaluate(() => document.getElementById("said").textContent);
      check(said.length > 0, `the live region says the move (${said})`);
      continue;
    }
    for (let row = 0; row < lines.length && !clicked; row++) {
      const chars = [...lines[row]];
      for (let column = 0; column < width - 33 && !clicked; column++) {
        if (/[1-9]/.test(chars[column]) && chars[column - 1] === "│") {
          await clickCell(column + 2, row + 1);
          clicked = true;
        }
      }
    }
    check(clicked, `a free square to click on turn ${turn + 1}`);
    await page.waitForTimeout(300);
    const after = await screen();
    verdict = verdicts.find((text) => after.some((line) => line.includes(text)));
  }
  check(verdict === "Draw." || verdict === "The computer wins.", `the verdict on the page: ${verdict}`);
  const endIdle = await idleFrames();
  check(endIdle < 2, `the ended game, left alone, draws ${endIdle} frames a second`);

  // The page draws the marks itself, as shapes over their squares: none of the terminal's
  // line drawings, one shape per mark, each inside the board's grid.
  await page.waitForTimeout(100);
  const marks = await page.evaluate(() => {
    const text = Array.from(document.querySelectorAll("#screen pre"), (row) => row.textContent).join("");
    const shapes = Array.from(document.querySelectorAll("#marks svg"), (svg) => {
      const box = svg.getBoundingClientRect();
      const under = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
      return { width: box.width, height: box.height, onCell: under?.parentElement?.tagName === "PRE" };
    });
    return { drawn: /[╳╭]/.test(text), shapes };
  });
  check(!marks.drawn, "no line-drawn marks on the page");
  check(marks.shapes.length >= 5 && marks.shapes.length <= 9, `a shape per mark (${marks.shapes.length})`);
  check(
    marks.shapes.every((shape) => shape.onCell && shape.width > 40 && shape.height > 40),
    "each shape sits over its square and fills it",
  );
  // For a screen reader: the board a grid of nine named buttons, a live region with the result.
  const grid = await page.evaluate(() => ({
    cells: Array.from(document.querySelectorAll('#board[role="grid"] [role="row"] button[role="gridcell"]'), (cell) => cell.getAttribute("aria-label")),
    live: document.getElementById("said").getAttribute("aria-live"),
    said: document.getElementById("said").textContent,
  }));
  check(
    grid.cells.length === 9 && grid.cells.every((name) => /^\d: row \d, column \d, (empty|X|O)/.test(name)),
    `the board is a grid of named buttons (${grid.cells[0]})`,
  );
  check(grid.live === "polite" && grid.said.includes(verdict), `the live region says the result (${grid.said})`);
  const again = await page.evaluate(() =>
    Array.from(document.querySelectorAll("#controls button"), (button) => button.getAttribute("aria-label")),
  );
  check(again.includes("play again") && (await screen())[0].includes("[ play again ]"), `the verdict over the board with a button to play again (${(await screen())[0].trim()})`);
  await page.screenshot({ path: join(root, "target", "web-e2e-3x3.png") });

  // Undo after the end takes the last move back; then a hint: both by clicks on the key
  // list, as a finger alone would.
  await clickText("u undo");
  await waitFor("Took back");
  check(true, "undo after the end");
  await clickText("H hint");
  await waitFor("Hint:");
  check(true, "the hint");

  // Gomoku against search: back to the start screen, the board line up to 15x15.
  await page.keyboard.press("m");
  await page.keyboard.press("y");
  await waitFor("Play against");
  for (let i = 0; i < 6; i++) {
    await clickText("Board");
  }
  await waitFor("Gomoku (15x15)");
  await waitFor("the computer, hard");
  await clickText("[ Start ]");
  await waitFor("Computer (hard)");
  // Our move (or the computer's first), then measure a key during the computer's think.
  const lines = await screen();
  if (lines.some((line) => line.includes("to move: You"))) {
    await page.keyboard.press("t");
    await page.keyboard.press("h");
    await page.keyboard.press("8");
  }
  await waitFor("thinking");
  // Measured in the page: from the key event to the frame that shows its answer.
  const took = await page.evaluate(
    () =>
      new Promise((resolve) => {
        const start = performance.now();
        document.dispatchEvent(new KeyboardEvent("keydown", { key: "?", bubbles: true }));
        const look = () => {
          const text = Array.from(document.querySelectorAll("#screen pre"), (row) => row.textContent);
          if (text.some((line) => line.includes("Tap anywhere, or press any key, to close."))) {
            resolve(Math.round(performance.now() - start));
          } else if (performance.now() - start > 2000) {
            resolve(Infinity);
          } else {
            requestAnimationFrame(look);
          }
        };
        look();
      }),
  );
  const stillThinking = (await screen()).some((line) => line.includes("thinking"));
  check(stillThinking, "the computer was still thinking");
  check(took < 100, `a key answered within 100 ms while the computer thought (${took} ms)`);
  const box = await page.evaluate(() => ({
    said: document.getElementById("said").textContent,
    controls: Array.from(document.querySelectorAll("#controls button"), (button) => button.getAttribute("aria-label")),
  }));
  check(
    box.said.startsWith("Keys.") && box.said.includes("Tap anywhere, or press any key, to close.") && box.controls.join() === "close",
    `a box is said whole to a screen reader, with its one control (${box.controls}; ${box.said.slice(0, 60)}…)`,
  );
  await page.keyboard.press("Escape");
  await waitFor("Computer (hard) played", 15000);
  check(true, "the computer's move came back from the worker");

  // What it thought, in a box said whole; Esc closes it and asks nothing.
  await page.keyboard.press("i");
  await waitFor("for its move");
  const thought = await page.evaluate(() => document.getElementById("said").textContent);
  check(
    thought.startsWith("Thought. Computer (hard), for its move ") && thought.includes(" a second."),
    `what the computer thought is said whole (${thought.slice(0, 90)}…)`,
  );
  await page.keyboard.press("Escape");
  await page.waitForTimeout(200);
  const closed = await screen();
  check(
    !closed.some((line) => line.includes("for its move") || line.includes("Quit?")),
    "Esc closes the box of what it thought, and no quit box opens",
  );

  // Asked before leaving the game, a click on "keep playing" keeps it.
  await clickText("n new");
  await waitFor("keep playing");
  await clickText("keep playing");
  await page.waitForTimeout(200);
  check(
    (await screen()).some((line) => line.includes("Computer (hard) played")),
    "a click on keep playing keeps the game",
  );

  // A phone-sized window still gets the whole game, and keys and clicks still act after
  // the window changed size (turned, as a phone is).
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(300);
  const phone = await screen();
  check(!phone.some((line) => line.includes("too small")), "a phone-sized window fits the game");
  const [columns, rows] = [[...phone[0]].length, phone.length];
  check(
    columns >= 46 && columns < 80 && rows >= 40 && phone.some((line) => line.startsWith("Game─")),
    `an upright phone gets the narrow layout, the panel under the board (${columns}x${rows})`,
  );
  await page.screenshot({ path: join(root, "target", "web-e2e-phone.png") });
  // A dark page gets shades it shows: the accent (purple) drawn light, not as written.
  await page.emulateMedia({ colorScheme: "dark" });
  const accent = await page.evaluate(() => {
    const span = document.querySelector('#screen span[style^="color: rgb(128, 0, 128)"]');
    return span ? getComputedStyle(span).color : null;
  });
  check(accent === "rgb(226, 156, 242)", `the accent on a dark page is readable (${accent})`);
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize({ width: 844, height: 390 });
  await page.waitForTimeout(300);
  await page.keyboard.press("?");
  await waitFor("Tap anywhere, or press any key, to close.", 2000);
  check(true, "a key acts after the window turned");
  await page.keyboard.press("Escape");
  await page.waitForTimeout(100);
  await clickText("? help");
  await waitFor("Tap anywhere, or press any key, to close.", 2000);
  check(true, "a click acts after the window turned");
  await page.keyboard.press("Escape");
  // Back to a large window: the game grows back to the wide layout.
  await page.setViewportSize({ width: 1200, height: 800 });
  await page.waitForTimeout(300);
  const wide = await screen();
  check(
    [...wide[0]].length >= 80 && wide.some((line) => line.includes("│Game")),
    `a large window again gets the wide layout (${[...wide[0]].length}x${wide.length})`,
  );

  // The game shows at every size a window really has: the font is chosen to fit (a
  // phone on its side, a small phone upright, a short desktop window).
  const sizes = [[932, 430], [932, 380], [375, 553], [430, 559], [844, 390], [390, 844]];
  for (let height = 300; height <= 600; height += 7) sizes.push([1600, height]);
  const small = [];
  for (const [width, height] of sizes) {
    await page.setViewportSize({ width, height });
    // Once the page has settled on its new size (a few frames).
    let shown = false;
    for (let wait = 0; wait < 30 && !shown; wait++) {
      await page.waitForTimeout(50);
      const lines = await screen();
      shown = lines.length > 0 && !lines.some((line) => line.includes("too small"));
    }
    if (!shown) small.push(`${width}x${height}`);
  }
  check(small.length === 0, `no "too small" at ${sizes.length} window sizes (${small.join(", ")})`);
  await page.setViewportSize({ width: 1200, height: 800 });
  await page.waitForTimeout(200);

  // Kept in the browser's local storage: the games (the gomoku game under way among
  // them) and the start screen's choices. A reload offers the unfinished game, opens with
  // the choices, shows the record against the chosen opponent, and sets aside a value
  // that cannot be read.
  const stored = await page.evaluate(() => Object.keys(localStorage));
  check(
    stored.filter((key) => key.startsWith("ttt.game.")).length >= 2 && stored.includes("ttt.choices"),
    `games and choices are kept in local storage (${stored.join(", ")})`,
  );
  await page.evaluate(() => {
    localStorage.setItem(
      "ttt.game.1-1",
      JSON.stringify({
        format: 1, board: "3x3, k=3", x: "human", o: "search", first: "X",
        moves: "a1 b1 a2 b2 a3", result: "X", started: 1, ended: 2,
      }),
    );
    localStorage.setItem("ttt.game.broken", "not a game");
  });
  await page.reload();
  await waitFor("Play against");
  await waitFor("Tap here to resume the unfinished game (15x15, k=5");
  await waitFor("‹ the computer, hard ›");
  await waitFor("Your record against the computer, hard: 1 won, 0 lost, 0 drawn");
  check(true, "a reload offers the unfinished game, with last visit's choices and the record");
  const aside = await page.evaluate(() => [localStorage.getItem("ttt.unreadable.broken"), localStorage.getItem("ttt.game.broken")]);
  check(aside[0] === "not a game" && aside[1] === null, "an unreadable game is set aside, not lost");
  // A finger alone takes it up: a tap on the offer, on a phone held upright.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(300);
  await clickText("resume the unfinished");
  await waitFor("The unfinished game goes on");
  check(true, "a tap on the offer takes the unfinished game up on a phone");

  // Two tabs never play one kept game: a second tab does not offer the game the first
  // plays; offers it once the first lets it go; and taking it up there withdraws the
  // first tab's offer.
  const offer = "resume the unfinished game (15x15";
  const second = await context.newPage();
  second.on("pageerror", (error) => errors.push(String(error)));
  await second.goto(url);
  await waitFor("Play against", 10000, second);
  await second.waitForTimeout(300);
  check(!(await screen(second)).some((line) => line.includes(offer)), "a second tab does not offer the game the first plays");
  await page.keyboard.press("m");
  await page.keyboard.press("y");
  await waitFor(offer);
  await waitFor(offer, 3000, second);
  check(true, "the second tab offers it once the first left it");
  await second.keyboard.press("r");
  await waitFor("The unfinished game goes on", 3000, second);
  await waitGone(offer, 3000, page);
  check(true, "taken up in the second tab, the first tab's offer goes");
  await page.keyboard.press("r");
  await page.waitForTimeout(300);
  const first = await screen();
  check(!first.some((line) => line.includes("15x15")), `r in the first tab does not take up the game open in the second (${first[0].trim()})`);
  await page.keyboard.press("m");
  await page.keyboard.press("y");
  await second.close();
  await waitFor(offer, 3000);
  check(true, "the second tab closed, the first tab offers the game again");

  // Taps on a big board on a phone: a finger scatters (6 px, as a normal spread), and a
  // square smaller than a fingertip is chosen by one tap and played by a second, so that
  // a tap off target plays nothing. A person taps the square they want until it is played.
  const phone15 = await openTab({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  await chooseOn(phone15, "the computer,", "a friend");
  await chooseOn(phone15, "Board", "15x15");
  await clickText("[ Start ]", phone15);
  await waitFor("to move", 10000, phone15);
  const squareBox = (row, column) =>
    phone15.evaluate(
      ([row, column]) => {
        const button = document.querySelectorAll('#board [role="row"]')[row].children[column];
        const box = button.getBoundingClientRect();
        return { x: box.x + box.width / 2, y: box.y + box.height / 2, width: box.width, height: box.height, name: button.getAttribute("aria-label") };
      },
      [row, column],
    );
  const marked = () =>
    phone15.evaluate(() =>
      Array.from(document.querySelectorAll('#board [role="gridcell"]'), (button) => !/, empty/.test(button.getAttribute("aria-label"))),
    );
  const middle = await squareBox(7, 7);
  check(Math.max(middle.width, middle.height) < 44, `15x15 on a phone has squares smaller than a fingertip (${middle.width.toFixed(1)}x${middle.height.toFixed(1)} px)`);
  // Sixty squares on which no five in a row can form (every third row and column left
  // empty), in an order drawn from a seed.
  const next = random(2026);
  const gauss = () => Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
  const targets = [];
  for (let row = 0; row < 15; row++) {
    for (let column = 0; column < 15; column++) {
      if (row % 3 !== 2 && column % 3 !== 2) targets.push([row, column]);
    }
  }
  targets.sort(() => next() - 0.5);
  let [onTarget, taps] = [0, 0];
  for (const [row, column] of targets.slice(0, 60)) {
    const before = await marked();
    for (let tap = 0; tap < 12; tap++) {
      const box = await squareBox(row, column);
      await phone15.touchscreen.tap(box.x + 6 * gauss(), box.y + 6 * gauss());
      taps += 1;
      await phone15.waitForTimeout(40);
      const after = await marked();
      const played = after.flatMap((marked, index) => (marked && !before[index] ? [index] : []));
      if (played.length > 0) {
        if (played.length === 1 && played[0] === row * 15 + column) onTarget += 1;
        break;
      }
    }
  }
  check(onTarget >= 58, `taps with a 6 px scatter on 15x15 upright: ${onTarget} of 60 on target (${taps} taps)`);
  await phone15.screenshot({ path: join(root, "target", "web-e2e-phone-15x15.png") });
  await phone15.context().close();

  // Zoom enlarges the text: a 1280x800 window at 200% (640x400 CSS pixels, two device
  // pixels to each) shows the game in text twice the size of 100%, on the start screen
  // and in a game.
  const textSize = async (tab) =>
    (await tab.evaluate(() => parseFloat(getComputedStyle(document.getElementById("screen")).fontSize))) *
    (await tab.evaluate(() => devicePixelRatio));
  const unzoomed = await openTab({ viewport: { width: 1280, height: 800 } });
  const zoomed = await openTab({ viewport: { width: 640, height: 400 }, deviceScaleFactor: 2 });
  for (const stage of ["start screen", "game"]) {
    const [plain, large] = [await textSize(unzoomed), await textSize(zoomed)];
    check(large >= 1.9 * plain, `at 200% zoom the ${stage}'s text is ${(large / plain).toFixed(2)} times as large (${large} device px against ${plain})`);
    check(!(await screen(zoomed)).some((line) => line.includes("too small")), `at 200% zoom the ${stage} shows`);
    for (const tab of [unzoomed, zoomed]) {
      await tab.keyboard.press("Enter");
      await waitFor("to move", 10000, tab);
    }
  }
  await zoomed.screenshot({ path: join(root, "target", "web-e2e-zoom-200.png") });
  await unzoomed.context().close();
  await zoomed.context().close();

  // Installable and playable with no network: a manifest, and a service worker that
  // keeps the page's files.
  const away = await openTab({ viewport: { width: 1200, height: 800 } });
  const offline = away.context();
  const manifest = await away.evaluate(async () => {
    await navigator.serviceWorker.ready;
    const link = document.querySelector('link[rel="manifest"]');
    return (await fetch(link.href)).json();
  });
  check(manifest.name.includes("ttt") && manifest.icons.length > 0, `a manifest names the page and its icon (${manifest.name})`);
  await offline.setOffline(true);
  await away.reload();
  await waitFor("Play against", 10000, away);
  await away.keyboard.press("Enter");
  await waitFor("to move: You", 10000, away);
  await away.keyboard.press("5");
  await away.keyboard.press("1");
  await waitFor(") played", 10000, away);
  check(true, "with no network, the page opens again and plays the computer (its worker too)");
  await offline.close();

  // More contrast, and forced colours: the cursor and the winning line stand out from
  // the page (3:1 or more, as WCAG asks of what a person must see), and so does a mark
  // on them.
  for (const media of [
    { contrast: "more", colorScheme: "dark" },
    { contrast: "more", colorScheme: "light" },
    { forcedColors: "active" },
  ]) {
    const shown = JSON.stringify(media);
    const tab = await openTab({ viewport: { width: 1200, height: 800 } }, media);
    await chooseOn(tab, "the computer,", "a friend");
    await clickText("[ Start ]", tab);
    await waitFor("to move", 10000, tab);
    for (const key of ["1", "4", "2", "5", "ArrowLeft"]) await tab.keyboard.press(key);
    await tab.waitForTimeout(200);
    const cursor = await highlight(tab, "the cursor");
    check(/, [XO],/.test(cursor.name), `${shown}: the cursor on a mark (${cursor.name})`);
    check(cursor.square >= 3 && cursor.mark >= 3, `${shown}: the cursor stands out ${cursor.square.toFixed(1)}:1, its mark on it ${cursor.mark.toFixed(1)}:1`);
    await tab.keyboard.press("3");
    await tab.waitForTimeout(200);
    const line = await highlight(tab, "on the winning line");
    check(line.square >= 3 && line.mark >= 3, `${shown}: the winning line stands out ${line.square.toFixed(1)}:1, its marks on it ${line.mark.toFixed(1)}:1`);
    await tab.screenshot({ path: join(root, "target", `web-e2e-contrast-${Object.values(media).join("-")}.png`) });
    await tab.context().close();
  }

  check(errors.length === 0, `no errors in the page (${errors.join("; ")})`);
} catch (error) {
  failed = true;
  console.error(String(error.stack ?? error));
} finally {
  await page.screenshot({ path: join(root, "target", "web-e2e.png") }).catch(() => {});
  await browser.close();
  server.close();
}
process.exit(failed ? 1 : 0);
