// End-to-end test of online play in a real browser (Debian's chromium, driven by
// playwright-core) against a real `ttt serve` on 127.0.0.1, serving web/dist: a page
// hosts a room from the start screen and its address becomes the invitation; a second
// page (another browser profile) opens that address and takes the other seat; they play a
// game by keys and clicks to its end; a terminal client (`ttt watch`) watches; the second
// page reloads mid-game and comes back to its seat; a rematch; then a page hosts and a
// terminal (`ttt join`, lines on its standard input) plays it; a closed tab is seen gone;
// a page joins a terminal's timed room and sees the clocks count down until one runs out.
// Screenshots in target/web-online-*.png.
//
//   node web/tests/online.mjs   (after web/build.sh and cargo build; .ci/run runs both;
//                                TTT_BIN names the binary, default target/debug/ttt)
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const root = fileURLToPath(new URL("../..", import.meta.url));
const bin = process.env.TTT_BIN ?? join(root, "target", "debug", "ttt");
const home = mkdtempSync(join(tmpdir(), "ttt-online-"));

/** A free port on the loopback address. */
async function freePort() {
  const probe = createServer();
  await new Promise((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** Runs `ttt` with `args`, its output gathered; it is killed at the end of the test. */
const children = [];
function ttt(args) {
  const child = spawn(bin, args, { env: { ...process.env, TTT_HOME: home, NO_COLOR: "1" } });
  child.output = "";
  child.stdout.on("data", (data) => (child.output += data));
  child.stderr.on("data", (data) => (child.output += data));
  children.push(child);
  return child;
}

/** Waits until the output of `child` has `text`. */
async function heard(child, text, timeout = 10000) {
  const start = Date.now();
  while (Date.now() - start < timeout) {
    if (child.output.includes(text)) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`"${text}" was not said; the output:\n${child.output}`);
}

const port = await freePort();
const server = ttt(["serve", "--listen", `127.0.0.1:${port}`, "--web", join(root, "web", "dist"), "--no-store", "--reconnect-wait", "3"]);
await heard(server, "Ctrl-C stops it.");
const url = `http://127.0.0.1:${port}/`;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
const errors = [];

function check(condition, what) {
  if (!condition) throw new Error(`failed: ${what}`);
  console.log(`ok: ${what}`);
}

/** The screen of `tab` as lines of text. */
async function screen(tab) {
  return tab.evaluate(() => Array.from(document.querySelectorAll("#screen pre")).map((row) => row.textContent));
}

/** What `tab`'s live region says (the status line, for a screen reader). */
async function said(tab) {
  return tab.evaluate(() => document.getElementById("said")?.textContent ?? "");
}

/** Waits until the screen of `tab` shows `text`. */
async function waitFor(tab, text, timeout = 10000) {
  const start = Date.now();
  while (Date.now() - start < timeout) {
    const lines = await screen(tab);
    if (lines.some((line) => line.includes(text))) return lines;
    await tab.waitForTimeout(20);
  }
  throw new Error(`"${text}" did not appear; the screen:\n${(await screen(tab)).join("\n")}`);
}

/** Clicks the first place `text` shows on the screen of `tab`. */
async function clickText(tab, text) {
  const lines = await screen(tab);
  const row = lines.findIndex((line) => line.includes(text));
  check(row >= 0, `"${text}" is on the screen`);
  const column = [...lines[row].slice(0, lines[row].indexOf(text))].length + 1;
  const box = await tab.evaluate(([column, row]) => {
    const cell = document.querySelectorAll("#screen pre")[row].children[column].getBoundingClientRect();
    return { x: cell.x + cell.width / 2, y: cell.y + cell.height / 2 };
  }, [column, row]);
  await tab.mouse.click(box.x, box.y);
}

/** A page in a browser profile of its own (its own storage: another person), at `address`. */
async function person(address) {
  const context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
  const tab = await context.newPage();
  tab.on("pageerror", (error) => errors.push(String(error)));
  tab.on("console", (message) => message.type() === "error" && errors.push(message.text()));
  await tab.goto(address);
  return tab;
}

/** Opens the box of a friend online from the start screen of `tab`. */
async function lobby(tab) {
  await waitFor(tab, "Play against");
  for (let i = 0; i < 10 && !(await screen(tab)).some((line) => line.includes("a friend online")); i++) {
    await clickText(tab, "Play against");
    await tab.waitForTimeout(50);
  }
  await clickText(tab, "[ Start ]");
  await waitFor(tab, "Rooms waiting for a player");
}

/** Hosts a room from the start screen of `tab`, under `name` if one is given (typed in
 * the page's own prompt) and listed for anyone if `listed`; its code. */
async function host(tab, { name, listed } = {}) {
  await lobby(tab);
  if (name) {
    tab.once("dialog", (dialog) => dialog.accept(name));
    await clickText(tab, "Name:");
    await waitFor(tab, `Name:   ${name}`);
  }
  if (listed) {
    await clickText(tab, "Listed:");
    await waitFor(tab, "Listed: yes");
  }
  await clickText(tab, "[ host a new room");
  await waitFor(tab, "online — room ");
  const code = await tab.evaluate(() => location.hash.slice(1));
  check(/^[A-Z2-9]{4}-[A-Z2-9]{2}$/.test(code), `the host's address names the room (#${code})`);
  return code;
}

/** Which mark moves first in the game on `tab`'s screen: the one whose page says it is
 * its move. */
async function firstMover(tabs) {
  const start = Date.now();
  while (Date.now() - start < 10000) {
    for (const mark of ["X", "O"]) {
      if ((await screen(tabs[mark])).some((line) => line.includes(`${mark}: your move`))) return mark;
    }
    await tabs.X.waitForTimeout(20);
  }
  throw new Error("no page says it is its move");
}

/** Plays `key` on the page of `mark` once it says it is its move. */
async function move(tabs, mark, key) {
  await waitFor(tabs[mark], `${mark}: your move`);
  await tabs[mark].keyboard.press(key);
  const start = Date.now();
  while ((await screen(tabs[mark])).some((line) => line.includes(`${mark}: your move`))) {
    check(Date.now() - start < 10000, `${mark}'s move ${key} is taken`);
    await tabs[mark].waitForTimeout(20);
  }
}

try {
  // A page hosts; the address is the invitation.
  const ann = await person(url);
  const code = await host(ann);
  check((await said(ann)).includes(`${url}#${code}`), "the host is told the page's address to send a friend");
  await ann.screenshot({ path: join(root, "target", "web-online-host.png") });

  // The host opens the invitation in another tab of her own browser (to check the link):
  // that tab watches, and the seat stays free for the friend.
  const annAgain = await ann.context().newPage();
  await annAgain.goto(`${url}#${code}`);
  await waitFor(annAgain, "you watch");
  check((await said(annAgain)).includes("you watch"), "the host's second tab watches");
  await annAgain.close();

  // A friend opens it in another browser and takes the other seat.
  const bob = await person(`${url}#${code}`);
  await waitFor(bob, `online — room ${code}`);
  await waitFor(bob, "(you)");
  await waitFor(ann, "Game 1", 10000).catch(() => {});
  const annSeat = (await screen(ann)).some((line) => /X\s+\S.*\(you\)/.test(line)) ? "X" : "O";
  check(annSeat === "X", "the host plays X");
  const watcher = ttt(["watch", code, "--server", `127.0.0.1:${port}`]);
  await heard(watcher, `Room ${code}: you watch.`);
  check(true, "a terminal watches the room");
  await waitFor(ann, "1 watching");

  // Whoever moves first takes the top row; the other two of the middle.
  const tabs = { X: ann, O: bob };
  const first = await firstMover(tabs);
  const second = first === "X" ? "O" : "X";
  await move(tabs, first, "1");
  await move(tabs, second, "4");
  await move(tabs, first, "2");
  // The second page reloads mid-game: the same seat, the same board.
  await bob.reload();
  await waitFor(bob, `online — room ${code}`);
  await waitFor(bob, "(you)");
  check((await said(bob)).includes("you play O"), `a reload comes back to the seat (${await said(bob)})`);
  await move(tabs, second, "5");
  // The first wins by a click on the board's last square of the top row.
  await waitFor(tabs[first], `${first}: your move`);
  const square = await tabs[first].evaluate(() => {
    const button = Array.from(document.querySelectorAll('#board [role="gridcell"]')).find((each) => each.getAttribute("aria-label").startsWith("3:"));
    const box = button.getBoundingClientRect();
    return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  });
  await tabs[first].mouse.click(square.x, square.y);
  await waitFor(tabs[first], "You win!");
  await waitFor(tabs[second], `${first} wins.`);
  await waitFor(bob, first === "X" ? "X 1 · O 0 · draws 0" : "X 0 · O 1 · draws 0");
  await heard(watcher, `${first} wins.`);
  check(true, "the game ends alike on both pages and in the terminal");
  await bob.screenshot({ path: join(root, "target", "web-online-guest.png") });

  // A move after the end is refused with the server's words; a rematch needs both.
  await ann.keyboard.press("n");
  await waitFor(bob, "asks for another game");
  await bob.keyboard.press("n");
  await waitFor(bob, "Game 2");
  check(true, "a rematch starts when both ask");

  // A watcher cannot move.
  const eve = await person(`${url}#${code}`);
  await waitFor(eve, `online — room ${code}`);
  check((await said(eve)).includes("you watch"), "a third page watches");
  await eve.keyboard.press("5");
  await eve.waitForTimeout(200);
  check((await said(eve)).includes("You watch this game"), "a watcher's move is refused");
  await eve.context().close();

  // The friend closes the tab mid-game: the host sees it, and may claim once the wait is over.
  await move(tabs, await firstMover(tabs), "5");
  await bob.context().close();
  await waitFor(ann, ", away");
  check((await said(ann)).includes("lost the connection"), "the host sees the friend gone");
  // Once the wait (3 s here) is over, the host claims the game.
  await ann.waitForTimeout(3500);
  await ann.keyboard.press("c");
  await waitFor(ann, "You win!");
  check(true, "the host claims the game of a friend who did not come back");

  // A page hosts and a terminal plays it, by lines on its standard input.
  const cid = await person(url);
  const code2 = await host(cid);
  const terminal = ttt(["join", code2, "--server", `127.0.0.1:${port}`, "--name", "Dan"]);
  await heard(terminal, `Room ${code2}: you play O.`);
  await waitFor(cid, "Dan");
  // The terminal's turn is each new "Your move (O):" it is told.
  let turns = 0;
  const terminalMoves = async (square) => {
    turns += 1;
    const start = Date.now();
    while (terminal.output.split("Your move (O):").length - 1 < turns) {
      check(Date.now() - start < 10000, `the terminal is asked for its move ${turns}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    terminal.stdin.write(`${square}\n`);
  };
  const pageMoves = async (square) => {
    await waitFor(cid, "X: your move");
    await cid.keyboard.press(square);
    await cid.waitForTimeout(100);
  };
  const pageFirst = await Promise.race([
    waitFor(cid, "X: your move").then(() => true),
    heard(terminal, "Your move (O):").then(() => false),
  ]);
  const [one, two] = pageFirst ? [pageMoves, terminalMoves] : [terminalMoves, pageMoves];
  await one("1");
  await two("4");
  await one("2");
  await two("5");
  await one("3");
  await waitFor(cid, pageFirst ? "You win!" : "O wins.");
  await heard(terminal, "Score:");
  check(true, "a page and a terminal play a game to its end");
  await cid.screenshot({ path: join(root, "target", "web-online-terminal.png") });
  terminal.stdin.end();

  // A terminal hosts a timed room (3 s a player) and a page joins it by its link: the
  // page shows both clocks, the running one counting down, until the first mover's
  // time runs out, which both are told.
  const timed = ttt(["host", "--server", `127.0.0.1:${port}`, "--name", "Tim", "--clock", "0.05+0", "--plain"]);
  await heard(timed, "A friend joins with: ttt join ");
  const code4 = timed.output.match(/ttt join ([A-Z2-9]{4}-[A-Z2-9]{2})/)[1];
  check(timed.output.includes(`Room ${code4}, clock 0.05+0: you play X.`), "the terminal's room says its clock");
  const ivy = await person(`${url}#${code4}`);
  await waitFor(ivy, "(you)");
  const clocks = async () => (await screen(ivy)).filter((line) => line.includes("Tim") || line.includes("(you)")).join(" | ");
  const before = await clocks();
  await ivy.waitForTimeout(600);
  const after = await clocks();
  check(/\d\.\d/.test(before) && before !== after, `the page's clocks count down (${before} -> ${after})`);
  await waitFor(ivy, "ran out of time", 10000);
  await heard(timed, "ran out of time: ");
  check(true, "a clock runs out: the page and the terminal are told who lost and why");
  await ivy.screenshot({ path: join(root, "target", "web-online-clock.png") });
  timed.stdin.end();

  // A server that keeps its rooms is killed mid-game and started again: both pages come
  // back to their seats and the game goes on.
  const kept = await freePort();
  const store = join(home, "rooms");
  const serve = () => ttt(["serve", "--listen", `127.0.0.1:${kept}`, "--web", join(root, "web", "dist"), "--store", store]);
  let keeper = serve();
  await heard(keeper, "Ctrl-C stops it.");
  const fay = await person(`http://127.0.0.1:${kept}/`);
  const code3 = await host(fay, { name: "Fay", listed: true });
  // Another page finds the room in the list of rooms waiting for a player, and takes it.
  const gus = await person(`http://127.0.0.1:${kept}/`);
  await lobby(gus);
  await waitFor(gus, `${code3}  Fay, 3x3`);
  await clickText(gus, `${code3}  Fay`);
  await waitFor(gus, "(you)");
  await waitFor(fay, "Fay (you)");
  check(true, "a page joins a listed room from the list, and the host has the name she chose");
  // A room's link pasted into a page already open goes to that room (to watch: it is full).
  const hal = await person(`http://127.0.0.1:${kept}/`);
  await waitFor(hal, "Play against");
  await hal.evaluate((code) => { location.hash = code; }, code3);
  await waitFor(hal, `online — room ${code3}`);
  check((await said(hal)).includes("you watch"), "a link pasted into an open page goes to its room");
  await hal.context().close();
  const pair = { X: fay, O: gus };
  const opener = await firstMover(pair);
  await move(pair, opener, "5");
  keeper.kill("SIGKILL");
  await waitFor(fay, "Lost the connection");
  keeper = serve();
  await heard(keeper, "Ctrl-C stops it.");
  for (const tab of [fay, gus]) await waitFor(tab, "is back", 15000).catch(() => waitFor(tab, "(you)"));
  await move(pair, opener === "X" ? "O" : "X", "1");
  for (const tab of [fay, gus]) {
    const marks = await tab.evaluate(() => Array.from(document.querySelectorAll('#board [role="gridcell"]')).filter((each) => !each.getAttribute("aria-label").includes("empty")).length);
    check(marks === 2, `after the server's restart the game goes on (${marks} marks)`);
  }

  check(errors.length === 0, `no errors in the pages (${errors.join("; ")})`);
} catch (error) {
  process.exitCode = 1;
  console.error(String(error.stack ?? error));
} finally {
  await browser.close();
  for (const child of children) child.kill("SIGTERM");
  rmSync(home, { recursive: true, force: true });
}
