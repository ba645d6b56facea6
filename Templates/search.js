/* Vitrine default theme: the search page (search.html). It loads the gallery's index script only when there is
   something to search (?q= in the address, or the visitor types), and shows the entries that match as tiles linking
   to their pages. Every text from the index goes into the page as text (textContent, attributes), never as markup.
   The index script calls vitrineSearchIndex(data); its format is SearchIndex in Vitrine's source. */
(function () {
  'use strict';
  var d = document;
  var list = d.getElementById('search-results');
  var box = d.getElementById('search-box');
  var status = d.getElementById('search-status');
  var more = d.getElementById('search-more');
  if (!list || !box || !status || !d.querySelector) return;

  // The one definition of folding on this side; SearchFolding in Vitrine's source is the same steps, and
  // Tests/Fixtures/search-folding.json holds what both must give. Twice over: lower case, NFKD, every mark,
  // control and format character that is not white space removed, "ς" as "σ" and "ß" as "ss"; then each run of
  // white space one space, none at the ends.
  var marks = /(?!\p{White_Space})[\p{M}\p{Cc}\p{Cf}\p{Cs}]/gu;
  function step(s) {
    return s.toLowerCase().normalize('NFKD').replace(marks, '').replace(/\u03C2/g, '\u03C3').replace(/\u00DF/g, 'ss');
  }
  function fold(s) {
    return step(step(String(s))).split(/\p{White_Space}+/u).filter(Boolean).join(' ');
  }

  var pageSize = 48;
  var maximumQuery = 200;
  var root = list.getAttribute('data-root') || '';
  var items = null;       // the index's entries, once loaded
  var failed = false;     // the index could not be loaded or is not an index
  var requested = false;  // its script was added
  var matches = [];
  var shown = 0;          // how many of the matches the list is to show: a page, and a page more each "Show more"
  var drawn = [];         // the entries whose tiles are in the list, in its order
  // The last query searched (folded) and its matches: a query that extends it (the next key typed) can only match
  // fewer, so it looks only among those.
  var lastFolded = null;
  var lastMatches = null;
  var pending = null;     // the query waiting for the index

  function say(text) { status.textContent = text; }

  function unavailable() {
    failed = true;
    items = null;
    list.textContent = '';
    drawn = [];
    more.hidden = true;
    say('Search is unavailable: its index could not be loaded.');
  }

  // A path of the index made a link: relative to the output root, or an http(s) URL (a picture shown from its
  // source); anything else (another scheme, a path from the server's root) is no link at all.
  function url(paths, p, name) {
    var pair = Array.isArray(paths[p]) ? paths[p] : null;
    if (!pair) return null;
    var path = String(pair[0]) + name + String(pair[1]);
    if (/^https?:\/\//i.test(path)) return path;
    if (/^[a-z][a-z0-9+.-]*:/i.test(path) || /^[\/\\]/.test(path) || /[\u0000-\u001F]/.test(path)) return null;
    return root + path;
  }

  // Called by the index script with its data; anything but an index makes search unavailable, once.
  window.vitrineSearchIndex = function (data) {
    if (items || failed) return;
    try {
      if (!data || data.v !== 1 || !Array.isArray(data.paths) || !Array.isArray(data.items)) throw new Error('index');
      var paths = data.paths, made = [];
      // A site's index names the gallery of each page's path (third in it): its title, shown and searched.
      var galleries = Array.isArray(data.galleries) ? data.galleries : [];
      function galleryOf(p) {
        var g = Array.isArray(paths[p]) ? galleries[paths[p][2]] : null;
        return Array.isArray(g) ? String(g[0]) : '';
      }
      for (var i = 0; i < data.items.length; i++) {
        var e = data.items[i];
        if (!Array.isArray(e) || e.length < 6) continue;
        var page = url(paths, e[0], String(e[1]));
        if (!page) continue;
        var caption = typeof e[6] === 'string' ? e[6] : '';
        var folded = typeof e[7] === 'string' ? e[7] : caption;
        var gallery = galleryOf(e[0]);
        made.push({
          n: made.length, tile: null, href: page, src: e[2] >= 0 ? url(paths, e[2], String(e[3])) : null,
          width: +e[4] || 0, height: +e[5] || 0, caption: caption, gallery: gallery,
          text: folded + ' ' + (typeof e[8] === 'string' ? e[8] : '') + (gallery ? ' ' + fold(gallery) : '')
        });
      }
      items = made;
    } catch (err) {
      unavailable();
      return;
    }
    if (pending !== null) { var q = pending; pending = null; run(q); }
  };

  function load() {
    if (requested) return;
    requested = true;
    var s = d.createElement('script');
    s.src = list.getAttribute('data-index');
    s.async = true;
    s.onerror = unavailable;
    s.onload = function () { if (!items && !failed) unavailable(); };
    d.head.appendChild(s);
  }

  function tile(item) {
    var li = d.createElement('li');
    li.className = 'tile';
    var figure = d.createElement('figure');
    var a = d.createElement('a');
    a.className = 'frame';
    a.href = item.href;
    if (item.src) {
      // Its address and alt text come after the frame (see picture): starting a picture's request costs the page
      // several milliseconds, which a key's frame does not wait for.
      var img = d.createElement('img');
      img.decoding = 'async';
      if (item.width > 0 && item.height > 0) { img.width = item.width; img.height = item.height; }
      a.appendChild(img);
      item.pictured = false;
    } else {
      var ph = d.createElement('span');
      ph.className = 'ph';
      var text = d.createElement('span');
      text.className = 'ph-text';
      var strong = d.createElement('strong');
      strong.textContent = 'No image';
      text.appendChild(strong);
      var why = d.createElement('span');
      why.className = 'ph-why';
      why.textContent = item.caption;
      text.appendChild(why);
      ph.appendChild(text);
      a.appendChild(ph);
    }
    figure.appendChild(a);
    if (item.caption || item.gallery) {
      var cap = d.createElement('figcaption');
      if (item.caption) {
        var span = d.createElement('span');
        span.className = 'caption';
        span.dir = 'auto';
        span.textContent = item.caption;
        cap.appendChild(span);
      }
      if (item.gallery) {
        var from = d.createElement('span');
        from.className = 'result-gallery';
        var label = d.createElement('span');
        label.className = 'vh';
        label.textContent = 'In the gallery ';
        var title = d.createElement('bdi');
        title.textContent = item.gallery;
        from.appendChild(label);
        from.appendChild(title);
        cap.appendChild(from);
      }
      figure.appendChild(cap);
    }
    li.appendChild(figure);
    return li;
  }

  // How many tiles a key draws in its own frame: the results' first row (the grid's columns); the rest of the page
  // comes after that frame. Every new tile in a key's frame is styled, laid out and painted before the results show,
  // so the frame holds as few as fill the first row. The columns are read from the layout only when there is none to
  // do: once the page is idle after its load, and after a key's frame when the window has changed width; never in a
  // key's own task (which would force a layout), so a key before the first measure draws a fixed count.
  var firstRow = 4, rowFor = -1;
  function measureRow() {
    rowFor = window.innerWidth;
    try {
      var style = getComputedStyle(list);
      var columns = style.display.indexOf('grid') < 0 ? 0 : style.gridTemplateColumns.split(' ').length;
      firstRow = columns > 0 ? columns : 4;
    } catch (err) { firstRow = 4; /* not a grid (another theme): a fixed count */ }
  }
  function idle(task, timeout) {
    if (window.requestIdleCallback) window.requestIdleCallback(task, {timeout: timeout}); else setTimeout(task, 0);
  }
  // Idle time only, however long it takes to come: an idle callback past its timeout runs as an ordinary task, so
  // it could come before a key typed meanwhile has its frame. Where there are no idle callbacks, a task of 8 ms.
  function whenIdle(task) {
    if (window.requestIdleCallback) { window.requestIdleCallback(task); return; }
    setTimeout(function () {
      var end = Date.now() + 8;
      task({timeRemaining: function () { return Math.max(0, end - Date.now()); }});
    }, 0);
  }

  // Makes the list show the first `count` of `want` (entries in the index's order), reusing the tiles it has: a tile
  // no longer wanted goes, one still wanted stays as it is (its picture loaded), a missing one is added if it is among
  // the first `limit`, else left for a later call. Returns whether the list is complete.
  function draw(want, count, limit) {
    var kept = [], k = 0, complete = true, old = 0;
    for (var j = 0; j < count; j++) {
      var w = want[j];
      while (k < drawn.length && drawn[k].n < w.n) list.removeChild(drawn[k++].tile);
      if (k < drawn.length && drawn[k] === w) { kept.push(w); k++; old++; continue; }
      if (j >= limit) { complete = false; continue; }
      if (!w.tile) w.tile = tile(w);
      list.insertBefore(w.tile, k < drawn.length ? drawn[k].tile : null);
      kept.push(w);
    }
    while (k < drawn.length) list.removeChild(drawn[k++].tile);
    if (old !== drawn.length || old !== kept.length) laidOut = false;  // a tile removed or added
    drawn = kept;
    return complete;
  }

  // Gives a tile its picture: the alt text and the address, so the request; `lazy`, when the browser is to ask for
  // it only as the tile nears the window. A picture asked for at once is in flight until it has loaded or failed,
  // or for a second at most (a stalled request holds nothing up).
  var inFlight = [];
  var farDown = 2500;  // px below the window: past where Chromium asks for a lazy picture at once, on any connection
  function picture(item, lazy) {
    var img = item.tile.querySelector('img');
    if (lazy) img.loading = 'lazy';
    else {
      var flight = {until: Date.now() + 1000};
      var landed = function () {
        flight.until = 0;
        if (list.hasAttribute('aria-busy')) afterFrame();
      };
      img.addEventListener('load', landed);
      img.addEventListener('error', landed);
      inFlight.push(flight);
    }
    img.alt = item.caption || 'Untitled image';
    img.src = item.src;
    item.pictured = true;
  }
  // How many more pictures may be asked for now: six in flight at most (as many as a browser opens connections to one
  // HTTP/1.1 host), so that their answers, each a task of a few ms of the main thread as it comes in, come a few at a
  // time rather than all at once into a key's frame.
  var flightsAtOnce = 6;
  var stalledCheck = false;
  function room() {
    var now = Date.now();
    inFlight = inFlight.filter(function (f) { return f.until > now; });
    if (inFlight.length >= flightsAtOnce && !stalledCheck) {
      stalledCheck = true;
      setTimeout(function () { stalledCheck = false; if (list.hasAttribute('aria-busy')) afterFrame(); }, 1000);
    }
    return flightsAtOnce - inFlight.length;
  }
  function unpictured() {
    for (var i = 0; i < drawn.length; i++) if (drawn[i].pictured === false) return drawn[i];
    return null;
  }

  // The query typed whose address is not written yet ({q, push}; see the input event).
  var addressPending = null;
  function writeAddress() {
    if (!addressPending) return;
    var pending = addressPending;
    addressPending = null;
    remember(pending.q, pending.push);
  }

  // After the next frame, in the browser's idle time only (see whenIdle): the address, then the pictures of the tiles
  // drawn, as many as the idle period has room for and a few in flight at most (see room), then the next row
  // of tiles; each idle period after a frame, so that a key typed meanwhile waits for a row or a few pictures at most
  // (a picture's request alone takes several ms of a slow phone's main thread). A picture is asked for once a frame
  // has drawn its tile, its layout done (so the request forces no style or layout), and at once rather than lazily:
  // a lazy picture's request starts inside the next frame's own work, which may be a key's; only a tile far down
  // (farDown) gets it lazily, for when the visitor scrolls. Until the last picture is asked for, the list is marked
  // busy (aria-busy) and "Show more results" waits.
  var afterFrameAsked = false;
  var laidOut = false;  // no key searched, no tile added or removed, since the last frame
  function afterFrame() {
    if (afterFrameAsked) return;
    afterFrameAsked = true;
    requestAnimationFrame(function () {
      laidOut = true;
      whenIdle(rest);
    });
  }
  function rest(deadline) {
    afterFrameAsked = false;
    // A key typed since the frame (the idle time between its event and its frame): its frame first.
    if (!laidOut) { afterFrame(); return; }
    writeAddress();
    if (!list.hasAttribute('aria-busy')) return;
    if (rowFor !== window.innerWidth) measureRow();
    var item, first = true;
    while ((item = unpictured()) && (first || deadline.timeRemaining() > 4)) {
      var far = item.tile.getBoundingClientRect().top > window.innerHeight + farDown;
      if (!far && room() <= 0) break;
      picture(item, far);
      first = false;
    }
    // A row of tiles at most: every new tile is styled and laid out in the next frame, which may be a key's.
    var complete = draw(matches, shown, first || deadline.timeRemaining() > 4 ? drawn.length + firstRow : 0);
    if (!complete) { afterFrame(); return; }
    if (unpictured()) {
      if (room() > 0) afterFrame();  // else a picture that lands asks again
      return;
    }
    list.removeAttribute('aria-busy');
    more.hidden = shown >= matches.length;
  }

  // Draws the results' first row now and the rest of the page after the next frame.
  function drawResults(limit) {
    var busy = !draw(matches, shown, limit) || unpictured() !== null || addressPending !== null;
    if (busy) list.setAttribute('aria-busy', 'true'); else list.removeAttribute('aria-busy');
    more.hidden = busy || shown >= matches.length;
    if (busy) afterFrame();
  }

  function showMore(count) {
    shown = Math.min(matches.length, shown + (typeof count === 'number' ? count : pageSize));
    draw(matches, shown, Infinity);
    for (var i = 0; i < drawn.length; i++) if (drawn[i].pictured === false) picture(drawn[i], true);
    list.removeAttribute('aria-busy');
    more.hidden = shown >= matches.length;
  }

  // Shows the entries whose text holds every word of `query`, in the gallery's order.
  function run(query) {
    laidOut = false;
    query = String(query).slice(0, maximumQuery);
    var terms = fold(query).split(' ').filter(Boolean);
    list.setAttribute('data-query', query);
    if (failed) { unavailable(); return; }
    if (!terms.length || !items) {
      matches = [];
      shown = 0;
      drawResults(0);
      if (!terms.length) {
        say('Type in the search box to find images by their captions, tags and credits.');
        return;
      }
      pending = query;
      say('Loading the search index…');
      load();
      return;
    }
    var folded = terms.join(' ');
    var pool = lastFolded !== null && folded.indexOf(lastFolded) === 0 ? lastMatches : items;
    var found = [];
    for (var i = 0; i < pool.length; i++) {
      var text = pool[i].text, all = true;
      for (var t = 0; t < terms.length && all; t++) all = text.indexOf(terms[t]) !== -1;
      if (all) found.push(pool[i]);
    }
    lastFolded = folded;
    lastMatches = found;
    matches = found;
    shown = Math.min(matches.length, pageSize);
    say(matches.length === 0 ? 'No images match “' + query + '”.'
      : matches.length === 1 ? '1 image matches “' + query + '”.'
        : matches.length + ' images match “' + query + '”.');
    drawResults(firstRow);
  }

  function queryOfAddress() {
    try { return new URLSearchParams(window.location.search).get('q') || ''; } catch (err) { return ''; }
  }

  function address(query) {
    return window.location.pathname.split('/').pop() + (query ? '?q=' + encodeURIComponent(query) : '');
  }

  // Typing searches at once and keeps the address in step: the first key after a query was shown starts a step
  // of its own in the history, the next ones change that step, so the back button returns to the query before.
  // A key's address is written after its frame (with the rest of the tiles: a history entry costs the page several
  // milliseconds), the keys typed before then as one.
  var typing = false;
  function remember(q, push) {
    try {
      if (push) history.pushState(null, '', address(q)); else history.replaceState(null, '', address(q));
    } catch (err) { /* an address the browser will not change (some file:// pages): the results still show */ }
  }
  box.addEventListener('input', function () {
    var q = box.value.slice(0, maximumQuery);
    if (addressPending) addressPending.q = q;
    else addressPending = {q: q, push: !typing && queryOfAddress() !== q};
    typing = true;
    run(q);
    afterFrame();
  });
  var form = box.form;
  if (form) {
    form.addEventListener('submit', function (e) {
      e.preventDefault();
      writeAddress();
      var q = box.value.slice(0, maximumQuery);
      if (queryOfAddress() !== q) remember(q, !typing);
      typing = false;
      run(q);
    });
  }
  window.addEventListener('popstate', function () {
    addressPending = null;
    var q = queryOfAddress();
    typing = false;
    box.value = q;
    run(q);
  });
  more.addEventListener('click', function () { showMore(pageSize); });

  // Arrows move through the results (and from the box to the first); Enter follows the link as ever.
  function links() { return list.querySelectorAll('a.frame'); }
  box.addEventListener('keydown', function (e) {
    if (e.key === 'ArrowDown' && !e.altKey && !e.ctrlKey && !e.metaKey) {
      var all = links();
      if (all.length) { e.preventDefault(); all[0].focus(); }
    }
  });
  list.addEventListener('keydown', function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
    var step = e.key === 'ArrowDown' || e.key === 'ArrowRight' ? 1 : e.key === 'ArrowUp' || e.key === 'ArrowLeft' ? -1 : 0;
    if (!step) return;
    var all = links();
    var at = Array.prototype.indexOf.call(all, d.activeElement);
    if (at < 0) return;
    e.preventDefault();
    if (at + step < 0) { box.focus(); return; }
    if (at + step >= all.length) { if (!more.hidden) { showMore(pageSize); all = links(); } else return; }
    all[at + step].focus();
  });

  window.vitrineFold = fold;
  idle(function () { if (rowFor < 0) measureRow(); }, 1000);
  var initial = queryOfAddress();
  if (initial) {
    box.value = initial.slice(0, maximumQuery);
    run(initial);
  }
})();
