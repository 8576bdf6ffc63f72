// A web worker running the same wasm as the page: it carries out one request line at a
// time (a computer's move, a hint or a review) and posts the reply line back, so the page
// never waits for the computer.
import init, { answer } from "./ttt_web.js";

const ready = init();

self.onmessage = async (event) => {
  await ready;
  self.postMessage(answer(event.data));
};
