// The page's service worker: it keeps the page's files, so that the game opens and plays
// with no network (it needs nothing from a server once loaded). web/build.sh writes the
// build's version below; a new build is a new worker, which keeps the new files and drops
// the old ones.
const version = "BUILD";
const files = [
  "./",
  "./index.html",
  "./style.css",
  "./ttt_web.js",
  "./ttt_web_bg.wasm",
  "./worker.js",
  "./icon.svg",
  "./manifest.webmanifest",
];

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(version)
      .then((cache) => cache.addAll(files))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((name) => name !== version).map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

// The kept files first; anything else (or a file not kept yet) from the network.
self.addEventListener("fetch", (event) => {
  if (event.request.method !== "GET") return;
  event.respondWith(caches.match(event.request, { ignoreSearch: true }).then((kept) => kept ?? fetch(event.request)));
});
