/* Vitrine default theme: the random-image page's countdown (the page reloads when the next image is due) and
   favorites kept in this browser's localStorage. Both pages work without it: the image, its fields and the time
   of the next image are in the HTML. No requests beyond reloading the page and showing saved images. */
(function () {
  'use strict';
  var d = document;
  if (!d.querySelector || !window.JSON) return;
  var KEY = 'vitrine-favorites';

  // ------------------------------------------------------------ countdown and reload

  function span(ms) {
    var s = Math.ceil(ms / 1000), h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
    if (h > 0) return h + ' h ' + m + ' min';
    if (m > 0) return m + ' min ' + r + ' s';
    return r + ' s';
  }

  function session(name, value) {
    try {
      if (value === undefined) return window.sessionStorage.getItem(name);
      window.sessionStorage.setItem(name, value);
    } catch (e) { /* no session storage: no back-off memory */ }
    return null;
  }

  var next = d.querySelector('[data-next-update]');
  var out = d.querySelector('[data-countdown]');
  var due = next ? Date.parse(next.getAttribute('datetime')) : NaN;
  if (out && !isNaN(due)) {
    // A page that was already overdue when it loaded has not been regenerated yet: wait, with back-off,
    // instead of reloading in a loop.
    var overdue = Date.now() >= due;
    var tries = 'vitrine-overdue-' + next.getAttribute('datetime');
    var tick = function () {
      var left = due - Date.now();
      out.hidden = false;
      if (left > 0) {
        out.textContent = '(in ' + span(left) + ')';
        out.setAttribute('data-remaining', String(Math.ceil(left / 1000)));
        window.setTimeout(tick, Math.min(1000, left % 1000 || 1000));
        return;
      }
      out.setAttribute('data-remaining', '0');
      if (!overdue) {
        out.textContent = '(loading the next image…)';
        window.location.reload();
        return;
      }
      var count = parseInt(session(tries) || '0', 10) || 0;
      var wait = Math.min(300, 10 * Math.pow(2, count));
      out.setAttribute('data-waiting', String(wait));
      out.textContent = '(the next image is not there yet; checking again in ' + span(wait * 1000) + ')';
      window.setTimeout(function () {
        session(tries, String(count + 1));
        window.location.reload();
      }, wait * 1000);
    };
    tick();
  }

  // ------------------------------------------------------------ favorites

  function storage() {
    try {
      var s = window.localStorage, probe = KEY + '-probe';
      s.setItem(probe, '1');
      s.removeItem(probe);
      return s;
    } catch (e) {
      return null;
    }
  }

  // A link or image address from storage: http(s), or a plain relative path of this site.
  function safe(url) {
    if (typeof url !== 'string' || url === '') return '';
    if (/^https?:\/\//i.test(url)) return url;
    return /^[^\/\\:?#\s][^\\:?#\s]*$/.test(url) ? url : '';
  }

  function load(s) {
    var list;
    try { list = JSON.parse(s.getItem(KEY) || '[]'); } catch (e) { list = []; }
    if (!Array.isArray(list)) return [];
    return list.filter(function (f) { return f && typeof f.id === 'string' && safe(f.src); });
  }

  function save(s, list) {
    try {
      s.setItem(KEY, JSON.stringify(list));
      return true;
    } catch (e) {
      return false;
    }
  }

  function unavailable(where) {
    var p = d.createElement('p');
    p.className = 'favorites-status';
    p.textContent = 'Favorites are kept in the browser’s storage, which this browser does not allow here.';
    where.appendChild(p);
  }

  var figure = d.getElementById('photo');
  var toggle = d.querySelector('[data-favorite-toggle]');
  if (figure && toggle) {
    var s = storage();
    if (!s) {
      unavailable(toggle.parentNode);
    } else {
      var a = function (name) { return figure.getAttribute('data-favorite-' + name) || ''; };
      var me = {
        id: a('id'), src: a('src'), width: parseInt(a('width'), 10) || 0, height: parseInt(a('height'), 10) || 0,
        caption: a('caption'), author: a('author'), authorHref: a('author-href'), pageHref: a('page-href'),
        source: a('source'), sourceHref: a('source-href')
      };
      var has = function () { return load(s).some(function (f) { return f.id === me.id; }); };
      var show = function () {
        toggle.textContent = has() ? 'Remove from favorites' : 'Add to favorites';
      };
      toggle.hidden = false;
      show();
      toggle.addEventListener('click', function () {
        var was = has();
        var list = load(s).filter(function (f) { return f.id !== me.id; });
        if (!was) {
          me.added = new Date().toISOString();
          list.unshift(me);
        }
        save(s, list);
        show();
      });
      window.addEventListener('storage', show);
    }
  }

  var list = d.querySelector('[data-favorites-list]');
  var status = d.querySelector('[data-favorites-status]');
  if (list && status) {
    var store = storage();
    if (!store) {
      status.textContent = 'Favorites are kept in the browser’s storage, which this browser does not allow here.';
      return;
    }
    var link = function (href, text) {
      var url = safe(href);
      if (!url || url.indexOf('://') < 0) return d.createTextNode(text);
      var el = d.createElement('a');
      el.href = url;
      el.rel = 'noopener noreferrer';
      el.textContent = text;
      return el;
    };
    var draw = function () {
      var items = load(store);
      list.textContent = '';
      status.textContent = items.length === 0
        ? 'No favorites yet: add the images you like on the random image page.'
        : items.length + (items.length === 1 ? ' favorite, ' : ' favorites, ') + 'kept in this browser.';
      items.forEach(function (f) {
        var li = d.createElement('li');
        li.setAttribute('data-favorite', f.id);
        var fig = d.createElement('figure');
        var img = d.createElement('img');
        img.src = safe(f.src);
        img.alt = f.caption || 'Favorite image';
        if (f.width > 0 && f.height > 0) { img.width = f.width; img.height = f.height; }
        img.loading = 'lazy';
        img.decoding = 'async';
        img.addEventListener('error', function () {
          var ph = d.createElement('span');
          ph.className = 'ph';
          ph.textContent = 'This image is no longer part of the site.';
          if (img.parentNode) img.parentNode.replaceChild(ph, img);
        });
        fig.appendChild(img);
        var cap = d.createElement('figcaption');
        var title = d.createElement('p');
        title.textContent = f.caption || '';
        cap.appendChild(title);
        var credit = d.createElement('p');
        credit.className = 'credit';
        credit.appendChild(d.createTextNode('Photo by '));
        credit.appendChild(link(f.authorHref, f.author || 'an unknown author'));
        credit.appendChild(d.createTextNode(' on '));
        credit.appendChild(link(f.sourceHref, f.source || 'its source'));
        cap.appendChild(credit);
        if (safe(f.pageHref)) {
          var page = d.createElement('p');
          page.appendChild(link(f.pageHref, 'Source page'));
          cap.appendChild(page);
        }
        var remove = d.createElement('button');
        remove.type = 'button';
        remove.className = 'favorite-remove';
        remove.setAttribute('data-remove', f.id);
        remove.textContent = 'Remove';
        remove.setAttribute('aria-label', 'Remove “' + (f.caption || f.id) + '” from favorites');
        cap.appendChild(remove);
        fig.appendChild(cap);
        li.appendChild(fig);
        list.appendChild(li);
      });
      list.hidden = items.length === 0;
    };
    list.addEventListener('click', function (e) {
      var b = e.target && e.target.closest ? e.target.closest('button[data-remove]') : null;
      if (!b) return;
      var id = b.getAttribute('data-remove');
      save(store, load(store).filter(function (f) { return f.id !== id; }));
      draw();
      status.setAttribute('tabindex', '-1');
      status.focus();
    });
    window.addEventListener('storage', draw);
    draw();
  }
})();
