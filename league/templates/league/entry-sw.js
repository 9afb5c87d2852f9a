// The entry page's service worker (league/web/entry.py entry_service_worker): with no
// connection, an entry page opened before is served as it was last loaded, with its assets,
// marked data-offline so that its script keeps deals on the phone. Everything else goes to the
// network.
"use strict";
var CACHE = "league-entry";
var ASSETS = {{ assets|safe }};
var ENTRY = /\/games\/\d+\/enter\/$/;
var ENTRY_ACTION = /\/games\/\d+\/enter\/[a-z-]+\/([a-z-]+\/)?$/;  // what the page posts

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then(function (cache) { return cache.addAll(ASSETS); })
    .then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(self.clients.claim());
});

function keep(path) {
  return fetch(path, {credentials: "same-origin"}).then(function (response) {
    if (response.ok && !response.redirected) {
      return caches.open(CACHE).then(function (cache) { return cache.put(path, response); });
    }
    return undefined;
  });
}

self.addEventListener("message", function (event) {
  if (event.data && event.data.keep && ENTRY.test(event.data.keep)) {
    event.waitUntil(keep(event.data.keep).catch(function () { return undefined; }));
  }
});

function kept(path) {
  return caches.match(path).then(function (response) {
    if (!response) return Response.error();
    return response.text().then(function (html) {
      return new Response(html.replace('id="entry"', 'id="entry" data-offline="1"'), {
        headers: {"Content-Type": "text/html; charset=utf-8"}
      });
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate" && ENTRY.test(url.pathname)) {
    // The page from the network when there is one (kept for next time), else the copy.
    event.respondWith(fetch(request).then(function (response) {
      if (request.method === "GET" && !url.search && response.ok && !response.redirected) {
        var copy = response.clone();
        caches.open(CACHE).then(function (cache) { return cache.put(url.pathname, copy); });
      }
      return response;
    }, function () { return kept(url.pathname); }));
  } else if (ENTRY.test(url.pathname) || ENTRY_ACTION.test(url.pathname)) {
    // The page's own posts (a deal from the outbox, a leave/join preview) are fetched here
    // rather than let through: Chromium's offline mode (DevTools, the browser tests) does not
    // cover requests a worker lets through, and a deal sent "offline" must not arrive.
    event.respondWith(fetch(request));
  } else if (request.method === "GET" && ASSETS.indexOf(url.pathname) >= 0) {
    event.respondWith(fetch(request).then(function (response) {
      if (response.ok) {
        var copy = response.clone();
        caches.open(CACHE).then(function (cache) { return cache.put(url.pathname, copy); });
      }
      return response;
    }, function () {
      return caches.match(url.pathname).then(function (r) { return r || Response.error(); });
    }));
  }
});
