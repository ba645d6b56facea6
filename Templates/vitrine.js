/* Vitrine default theme: keyboard, swipe, focus on return and prefetch. Every page works without it:
   this only follows links that are already there. No requests beyond those links. */
(function () {
  'use strict';
  var d = document;
  if (!d.querySelector || !d.addEventListener) return;

  function first(sel) { return d.querySelector(sel); }
  // The visitor asked for less data (Save-Data): nothing is fetched ahead of a click.
  function savingData() { return !!(navigator.connection && navigator.connection.saveData); }
  function follow(a) {
    if (!a || !a.href) return false;
    window.location.href = a.href;
    return true;
  }

  // The variant after the current one, wrapping around.
  function nextVariant() {
    var all = d.querySelectorAll('[data-nav="variant"], [data-nav="variant-current"]');
    for (var i = 0; i < all.length; i++) {
      if (all[i].getAttribute('data-nav') === 'variant-current') {
        var a = all[(i + 1) % all.length];
        return a.getAttribute('data-nav') === 'variant' ? a : null;
      }
    }
    return first('a[data-nav="variant"]');
  }

  var keys = {
    ArrowLeft: function () { return first('a[rel~="prev"]'); },
    ArrowRight: function () { return first('a[rel~="next"]'); },
    Escape: function () { return first('a[data-nav="up"]'); },
    v: nextVariant,
    V: nextVariant
  };

  d.addEventListener('keydown', function (e) {
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || e.isComposing) return;
    var t = e.target;
    if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT|BUTTON)$/.test(t.tagName))) return;
    // "/" focuses the search box (not while typing in a field, above), as on most sites with one.
    var box = e.key === '/' ? d.getElementById('search-box') : null;
    if (box && box.offsetParent !== null) {
      e.preventDefault();
      box.focus();
      box.select();
      return;
    }
    if (e.shiftKey) return;
    var find = Object.prototype.hasOwnProperty.call(keys, e.key) ? keys[e.key] : null;
    if (find && follow(find())) e.preventDefault();
  });

  // Horizontal swipe on the image: next / previous.
  var zone = first('[data-swipe]');
  if (zone && 'ontouchstart' in window) {
    var x0 = null, y0 = 0, t0 = 0;
    var passive = { passive: true };
    zone.addEventListener('touchstart', function (e) {
      var zoomed = window.visualViewport && window.visualViewport.scale > 1.01;
      if (e.touches.length !== 1 || zoomed) { x0 = null; return; }
      x0 = e.touches[0].clientX; y0 = e.touches[0].clientY; t0 = Date.now();
    }, passive);
    zone.addEventListener('touchend', function (e) {
      if (x0 === null || !e.changedTouches.length) return;
      var dx = e.changedTouches[0].clientX - x0, dy = e.changedTouches[0].clientY - y0;
      x0 = null;
      if (Math.abs(dx) > 60 && Math.abs(dx) > 2 * Math.abs(dy) && Date.now() - t0 < 1000) {
        follow(first(dx < 0 ? 'a[rel~="next"]' : 'a[rel~="prev"]'));
      }
    }, passive);
    zone.addEventListener('touchcancel', function () { x0 = null; }, passive);
  }

  // Photo pages: a tap on the image hides or shows the toolbar and the details (both stay visible without this
  // script). The tap lands on a toggle button laid over the picture, which keyboards and screen readers reach too;
  // the picture is not inside it, so that its text (the alt, or a placeholder's reason) is still read as it is.
  var stage = first('[data-toggle-chrome]');
  if (stage) {
    var root = d.documentElement;
    var toggle = d.createElement('button');
    toggle.type = 'button';
    toggle.className = 'chrome-toggle';
    toggle.setAttribute('aria-pressed', 'false');
    var label = d.createElement('span');
    label.className = 'vh';
    label.textContent = 'Hide the toolbar and details';
    toggle.appendChild(label);
    toggle.addEventListener('click', function () {
      var off = !root.classList.contains('chrome-off');
      root.classList.toggle('chrome-off', off);
      toggle.setAttribute('aria-pressed', off ? 'true' : 'false');
    });
    stage.appendChild(toggle);
  }

  // Back on a grid from a preview (its "up" link, or Escape, names the tile): focus the tile's link, so the keyboard
  // carries on from the picture the visitor came from rather than from the top of the page. The browser moves focus
  // to the fragment's target itself once the page has loaded (the tile, which takes no focus, so the page), hence
  // after that.
  function focusReturnTile() {
    var id;
    try { id = decodeURIComponent(window.location.hash.slice(1)); } catch (e) { return; }
    var tile = id && d.getElementById(id);
    var link = tile && tile.classList.contains('tile') ? tile.querySelector('a.frame') : null;
    if (link && (!d.activeElement || d.activeElement === d.body)) link.focus({ preventScroll: true });
  }
  function afterFragment() {
    // A grid prerendered from its preview's link takes no focus until it is shown.
    whenShown(function () {
      window.requestAnimationFrame(function () { window.setTimeout(focusReturnTile, 0); });
    });
  }
  if (d.readyState === 'complete') afterFragment();
  else window.addEventListener('load', afterFragment);
  window.addEventListener('hashchange', afterFragment);

  // A picture about to be opened: its preview's photo starts downloading when the pointer presses the tile or has
  // rested on it, or the keyboard reaches it, rather than once the preview page has come and asked for it. The
  // tile's candidates (the same as the preview's, in the same formats) with the preview's sizes make the browser
  // pick the file that page will; each photo is asked for once, and at most six from a page.
  var grid = first('[data-preview-sizes]');
  if (grid && grid.closest) {
    var warmed = {}, count = 0, resting = null;
    var warm = function (target) {
      var a = target && target.closest ? target.closest('a.frame') : null;
      var img = a && a.querySelector('img[srcset]');
      if (!img || warmed[a.href] || count >= 6 || savingData()) return;
      warmed[a.href] = true;
      count += 1;
      // A <picture> of its own, with the tile's sources, so that the browser picks the format the page will.
      var sizes = grid.getAttribute('data-preview-sizes');
      var picture = d.createElement('picture');
      var sources = img.parentNode.nodeName === 'PICTURE' ? img.parentNode.querySelectorAll('source') : [];
      for (var i = 0; i < sources.length; i += 1) {
        var source = d.createElement('source');
        source.type = sources[i].type;
        source.sizes = sizes;
        source.srcset = sources[i].getAttribute('srcset');
        picture.appendChild(source);
      }
      var photo = d.createElement('img');
      picture.appendChild(photo);
      photo.decoding = 'async';
      photo.sizes = sizes;
      photo.srcset = img.getAttribute('srcset');
    };
    grid.addEventListener('pointerdown', function (e) { warm(e.target); });
    grid.addEventListener('focusin', function (e) { warm(e.target); });
    grid.addEventListener('pointerover', function (e) {
      window.clearTimeout(resting);
      resting = window.setTimeout(function () { warm(e.target); }, 100);
    });
    grid.addEventListener('pointerout', function () { window.clearTimeout(resting); });
  }

  // Chromium's speculation rules: a preview, the next or previous page, the other variant or the grid is prerendered
  // while the pointer rests on its link or goes down on it, so the click shows a page already made. Added by script
  // so the HTML stays plain; browsers without them, and pages opened from disk, just follow the links.
  function speculate() {
    var S = window.HTMLScriptElement;
    if (!S || !S.supports || !S.supports('speculationrules')) return;
    if (savingData()) return;
    var rules = d.createElement('script');
    rules.type = 'speculationrules';
    rules.textContent = JSON.stringify({
      prerender: [{
        where: { selector_matches: 'a.frame, a[rel~="next"], a[rel~="prev"], a[data-nav="variant"], a[data-nav="up"]' },
        eagerness: 'moderate'
      }]
    });
    d.head.appendChild(rules);
  }

  // Warm the cache with the next page and its image once this page is done.
  function prefetch() {
    if (savingData()) return;
    var a = first('a[rel~="next"]');
    if (!a || !a.href) return;
    var link = d.createElement('link');
    link.rel = 'prefetch';
    link.href = a.href;
    d.head.appendChild(link);
    var src = a.getAttribute('data-prefetch');
    if (src) {
      var img = new Image();
      img.decoding = 'async';
      img.src = src;
    }
  }
  // A page being prerendered waits until it is shown, so that it does not start guesses of its own.
  function whenShown(run) {
    if (d.prerendering) d.addEventListener('prerenderingchange', run, { once: true });
    else run();
  }
  whenShown(speculate);
  window.addEventListener('load', function () {
    whenShown(function () {
      if (window.requestIdleCallback) window.requestIdleCallback(prefetch, { timeout: 2000 });
      else window.setTimeout(prefetch, 300);
    });
  });
})();
