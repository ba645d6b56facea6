/* Vitrine default theme: keyboard, swipe, focus on return and prefetch. Every page works without it:
   this only follows links that are already there. No requests beyond those links. */
(function () {
  'use strict';
  var d = document;
  if (!d.querySelector || !d.addEventListener) return;

  // The open photo dialog (below), where keys and swipes act while it is open; else the page.
  var dialog = null;
  function scope() { return dialog && dialog.open ? dialog : d; }
  function first(sel) { return scope().querySelector(sel); }
  // The visitor asked for less data (Save-Data): nothing is fetched ahead of a click.
  function savingData() { return !!(navigator.connection && navigator.connection.saveData); }
  function follow(a) {
    if (!a) return false;
    if (dialog && dialog.contains(a)) { a.click(); return true; }
    if (!a.href) return false;
    window.location.href = a.href;
    return true;
  }

  // The variant after the current one, wrapping around.
  function nextVariant() {
    var all = scope().querySelectorAll('[data-nav="variant"], [data-nav="variant-current"]');
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
    var box = e.key === '/' && scope() === d ? d.getElementById('search-box') : null;
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
  if ('ontouchstart' in window) {
    var x0 = null, y0 = 0, t0 = 0;
    var passive = { passive: true };
    d.addEventListener('touchstart', function (e) {
      var zoomed = window.visualViewport && window.visualViewport.scale > 1.01;
      var zone = e.target.closest ? e.target.closest('[data-swipe]') : null;
      if (!zone || !scope().contains(zone) || e.touches.length !== 1 || zoomed) { x0 = null; return; }
      x0 = e.touches[0].clientX; y0 = e.touches[0].clientY; t0 = Date.now();
    }, passive);
    d.addEventListener('touchend', function (e) {
      if (x0 === null || !e.changedTouches.length) return;
      var dx = e.changedTouches[0].clientX - x0, dy = e.changedTouches[0].clientY - y0;
      x0 = null;
      if (Math.abs(dx) > 60 && Math.abs(dx) > 2 * Math.abs(dy) && Date.now() - t0 < 1000) {
        follow(first(dx < 0 ? 'a[rel~="next"]' : 'a[rel~="prev"]'));
      }
    }, passive);
    d.addEventListener('touchcancel', function () { x0 = null; }, passive);
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
  var grid = d.querySelector('[data-preview-sizes]');
  var viewable = !!(grid && grid.closest && /^https?:$/.test(window.location.protocol) && window.history &&
    window.history.pushState && window.fetch && window.DOMParser && window.HTMLDialogElement);

  function absoluteSet(srcset, base) {
    return srcset.split(/,\s+/).map(function (candidate) {
      var parts = candidate.trim().split(/\s+/);
      parts[0] = new URL(parts[0], base).href;
      return parts.join(' ');
    }).join(', ');
  }
  // The preview's sizes for a tile's picture: the grid's, with the tile's own width and height put in, or without
  // the entries that need them (as layout.xsl's "photo-sizes" makes them for the preview page).
  function photoSizes(img) {
    var w = +img.getAttribute('width') || 0, h = +img.getAttribute('height') || 0;
    return grid.getAttribute('data-preview-sizes').split(', ').filter(function (entry) {
      return (w > 0 && h > 0 && 100 * w >= 46 * h) || entry.indexOf('{w}') < 0;
    }).join(', ').split('{w}').join(String(w)).split('{h}').join(String(h));
  }
  // The tile's image as its preview page shows it: a <picture> with the tile's sources, so that the browser picks
  // the format that page will, and the preview's sizes, so that it picks the same width.
  function photoFor(img) {
    var sizes = photoSizes(img);
    var picture = d.createElement('picture');
    var sources = img.parentNode.nodeName === 'PICTURE' ? img.parentNode.querySelectorAll('source') : [];
    for (var i = 0; i < sources.length; i += 1) {
      var source = d.createElement('source');
      source.type = sources[i].type;
      if (sources[i].media) source.media = sources[i].media;
      source.sizes = sizes;
      source.srcset = absoluteSet(sources[i].getAttribute('srcset'), d.baseURI);
      picture.appendChild(source);
    }
    var photo = d.createElement('img');
    picture.appendChild(photo);
    photo.decoding = 'async';
    photo.sizes = sizes;
    photo.srcset = absoluteSet(img.getAttribute('srcset'), d.baseURI);
    photo.alt = img.alt;
    if (img.getAttribute('width')) photo.setAttribute('width', img.getAttribute('width'));
    if (img.getAttribute('height')) photo.setAttribute('height', img.getAttribute('height'));
    return picture;
  }

  // Preview pages fetched for the dialog, by URL: a promise of the parsed page.
  var fetched = {};
  function page(href) {
    if (!fetched[href]) {
      fetched[href] = window.fetch(href, { credentials: 'same-origin' }).then(function (response) {
        if (!response.ok) throw new Error(response.status);
        return response.text();
      }).then(function (text) { return new window.DOMParser().parseFromString(text, 'text/html'); });
      fetched[href].catch(function () { delete fetched[href]; });
    }
    return fetched[href];
  }

  if (grid && grid.closest) {
    var warmed = {}, count = 0, resting = null;
    var warm = function (a) {
      var img = a && a.querySelector('img[srcset]');
      if (!img || warmed[a.href] || count >= 6 || savingData()) return;
      warmed[a.href] = true;
      count += 1;
      photoFor(img);
      if (viewable) page(a.href);
    };
    var tileLink = function (target) { return target && target.closest ? target.closest('a.frame') : null; };
    grid.addEventListener('pointerdown', function (e) { warm(tileLink(e.target)); });
    grid.addEventListener('focusin', function (e) { warm(tileLink(e.target)); });
    grid.addEventListener('pointerover', function (e) {
      window.clearTimeout(resting);
      resting = window.setTimeout(function () { warm(tileLink(e.target)); }, 100);
    });
    grid.addEventListener('pointerout', function () { window.clearTimeout(resting); });
  }

  // Grids served over http(s): a tile opens its preview in a dialog on this page, with the preview page's own
  // contents and address (history.pushState), so the photo started at the press shows without a new document.
  // Back, Escape and the link to the grid close it; previous, next and the other variant stay in it while their
  // item is on this grid page. A link is still a link: other buttons and modifier keys, pages opened from disk (no
  // other file's address can be pushed there) and a page that cannot be fetched go to the preview page itself.
  if (viewable) {
    var items = {};  // the preview pages this grid links to: URL -> its tile's link
    var tiles = grid.querySelectorAll('.tile');
    for (var t = 0; t < tiles.length; t += 1) {
      var frame = tiles[t].querySelector('a.frame');
      var links = tiles[t].querySelectorAll('a.frame, a.variant');
      for (var l = 0; frame && l < links.length; l += 1) items[links[l].href] = frame;
    }
    var shown = null;  // the URL the dialog shows
    var plain = function (e) {
      return e.button === 0 && !e.defaultPrevented && !e.altKey && !e.ctrlKey && !e.metaKey && !e.shiftKey;
    };
    var element = function (name, className, text) {
      var node = d.createElement(name);
      if (className) node.className = className;
      if (text) node.textContent = text;
      return node;
    };
    var build = function () {
      // Relative links on this page keep meaning what they meant once the address is another page's.
      if (!d.querySelector('base[href]')) {
        var base = element('base');
        base.href = window.location.href.split('#')[0];
        d.head.insertBefore(base, d.head.firstChild);
      }
      dialog = element('dialog', 'photo-view');
      dialog.setAttribute('aria-labelledby', 'photo-view-title');
      dialog.addEventListener('close', closed);
      dialog.addEventListener('click', inside);
      d.body.appendChild(dialog);
    };
    // Until the preview page has come: the bar with the way back, and the tile's photo with its caption.
    var sketch = function (frame) {
      var bar = element('nav', 'bar');
      bar.setAttribute('aria-label', 'Image');
      var up = element('button', 'up');
      up.type = 'button';
      up.setAttribute('data-nav', 'up');
      up.appendChild(element('span', '', '\u2196')).setAttribute('aria-hidden', 'true');
      up.appendChild(d.createTextNode('Back to all images'));
      bar.appendChild(up);
      var figure = element('figure', 'viewer');
      figure.setAttribute('data-swipe', '');
      figure.appendChild(element('div', 'stage')).appendChild(photoFor(frame.querySelector('img')));
      var caption = frame.parentNode.querySelector('.caption');
      var title = element('h1', '', caption ? caption.textContent : frame.querySelector('img').alt);
      title.dir = 'auto';
      figure.appendChild(element('figcaption')).appendChild(title);
      return [bar, figure];
    };
    var fill = function (parts) {
      var focused = d.activeElement && dialog.contains(d.activeElement) ? d.activeElement : null;
      var again = focused && (focused.getAttribute('rel') ? 'a[rel="' + focused.getAttribute('rel') + '"]'
        : focused.getAttribute('data-nav') === 'variant' ? '[data-nav="variant"]' : '[data-nav="up"]');
      while (dialog.firstChild) dialog.removeChild(dialog.firstChild);
      var body = element('div', 'view-main');
      dialog.appendChild(parts[0]);
      dialog.appendChild(body).appendChild(parts[1]);
      var title = dialog.querySelector('h1');
      if (title) title.id = 'photo-view-title';
      if (focused || !dialog.contains(d.activeElement)) {
        var target = (again && dialog.querySelector(again)) || dialog.querySelector('[data-nav="up"]');
        if (target) target.focus();
      }
    };
    // A copy of the preview page's bar and photo, made to fit this page: its links absolute, and the photo already
    // on screen kept.
    var adopt = function (doc, href) {
      var bar = doc.querySelector('nav.bar'), figure = doc.querySelector('main figure.viewer');
      if (!bar || !figure) return null;
      bar = bar.cloneNode(true);  // the fetched page stays as it came, for the next time it is shown
      figure = figure.cloneNode(true);
      // In the fetched document, which loads nothing: an image of this one would load at once, from the wrong place.
      [bar, figure].forEach(function (root) {
        var nodes = root.querySelectorAll('[href], [src], [srcset], [data-prefetch]');
        for (var i = 0; i < nodes.length; i += 1) {
          var node = nodes[i];
          ['href', 'src', 'data-prefetch'].forEach(function (name) {
            if (node.hasAttribute(name)) node.setAttribute(name, new URL(node.getAttribute(name), href).href);
          });
          if (node.hasAttribute('srcset')) node.setAttribute('srcset', absoluteSet(node.getAttribute('srcset'), href));
        }
      });
      // The photo already on screen stays, in place of the page's own (the same file, once it has its size).
      var live = dialog.querySelector('.stage img'), fresh = figure.querySelector('.stage img');
      var keep = live && fresh && live.getAttribute('srcset') === fresh.getAttribute('srcset');
      if (keep) {
        ['width', 'height', 'alt'].forEach(function (name) {
          if (fresh.hasAttribute(name)) live.setAttribute(name, fresh.getAttribute(name));
        });
        var old = fresh.parentNode.nodeName === 'PICTURE' ? fresh.parentNode : fresh;
        var slot = doc.createElement('picture');
        slot.setAttribute('data-live', '');
        old.parentNode.replaceChild(slot, old);
      }
      bar = d.importNode(bar, true);
      figure = d.importNode(figure, true);
      if (keep) {
        slot = figure.querySelector('[data-live]');
        slot.parentNode.replaceChild(live.parentNode.nodeName === 'PICTURE' ? live.parentNode : live, slot);
      }
      return [bar, figure];
    };
    var show = function (href) {
      shown = href;
      var frame = items[href];
      if (frame && frame.href === href && frame.querySelector('img[srcset]')) fill(sketch(frame));
      page(href).then(function (doc) {
        if (shown !== href) return;
        var parts = adopt(doc, href);
        if (!parts) throw new Error('not a preview page');
        fill(parts);
        afterPhoto(function () {
          var next = shown === href && dialog.querySelector('a[rel~="next"]');
          if (next && items[next.href] && items[next.href].href === next.href) warm(items[next.href]);
        });
      }).catch(function () {
        if (shown === href) window.location.reload();  // the address is the preview page's: load it
      });
    };
    // Runs `then` once the photo the dialog shows has loaded (at once if it has, never if it fails), so that
    // nothing started for later shares a slow link with the photo the visitor asked for; on a link that says it is
    // 2G, never.
    var afterPhoto = function (then) {
      var slow = navigator.connection && /2g/.test(navigator.connection.effectiveType || '');
      var photo = dialog.querySelector('.stage img');
      if (slow || !photo) return;
      if (photo.complete && photo.naturalWidth > 0) then();
      else photo.addEventListener('load', then, { once: true });
    };
    var open = function (href) {
      if (!dialog) build();
      show(href);
      if (!dialog.open) dialog.showModal();
    };
    // Closed by Escape, the way back or the history: the address and the focus go back to the grid's tile.
    var closed = function () {
      var frame = items[shown];
      shown = null;
      if (window.history.state && window.history.state.vitrineView) window.history.back();
      if (frame) frame.focus();
    };
    var inside = function (e) {
      var a = e.target.closest ? e.target.closest('a, button') : null;
      if (!a || !plain(e)) return;
      if (a.getAttribute('data-nav') === 'up') {
        e.preventDefault();
        dialog.close();
      } else if (a.href && items[a.href]) {
        e.preventDefault();
        window.history.replaceState({ vitrineView: a.href }, '', a.href);
        show(a.href);
      }
    };
    grid.addEventListener('click', function (e) {
      var a = e.target.closest ? e.target.closest('a.frame') : null;
      if (!a || !plain(e) || !a.querySelector('img[srcset]') || !items[a.href]) return;
      e.preventDefault();
      warm(a);
      open(a.href);
      window.history.pushState({ vitrineView: a.href }, '', a.href);
    });
    window.addEventListener('popstate', function (e) {
      var href = e.state && e.state.vitrineView;
      if (href && items[href]) open(href);
      else if (href) window.location.reload();
      else if (dialog && dialog.open) dialog.close();
    });
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
        where: { selector_matches: (viewable ? '' : 'a.frame, ') +
          'a[rel~="next"], a[rel~="prev"], a[data-nav="variant"], a[data-nav="up"]' },
        eagerness: 'moderate'
      }]
    });
    d.head.appendChild(rules);
  }

  function prefetchFile(href) {
    var link = d.createElement('link');
    link.rel = 'prefetch';
    link.href = href;
    d.head.appendChild(link);
  }
  // Warm the cache with the next page and its image once this page is done, and with the stylesheet the other
  // pages link when this one has it inline. The page's own next link: not one in the photo dialog, which may be
  // open by then and warms its next photo itself.
  function prefetch() {
    if (savingData()) return;
    var styles = d.querySelector('style[data-href]');
    if (styles) prefetchFile(styles.getAttribute('data-href'));
    var a = null, next = d.querySelectorAll('a[rel~="next"]');
    for (var i = 0; !a && i < next.length; i += 1) if (!(dialog && dialog.contains(next[i]))) a = next[i];
    if (!a || !a.href) return;
    prefetchFile(a.href);
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
