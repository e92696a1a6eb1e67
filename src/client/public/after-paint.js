// Loads the app's code once the page has painted: for a screen the server sent whole (the join
// page, decision 174), whose code only makes it interactive. The entry and the modules it
// imports are named on this script's tag (`data-entry`, `data-preload`); they start loading one
// frame after the first paint instead of competing with it. An external file, not an inline
// script, so the Content-Security-Policy needs no exception.
(function () {
  var tag = document.querySelector('script[data-entry]');
  if (!tag) return;
  var entry = tag.getAttribute('data-entry');
  var preload = (tag.getAttribute('data-preload') || '').split(' ').filter(Boolean);
  function start() {
    preload.forEach(function (href) {
      var link = document.createElement('link');
      link.rel = 'modulepreload';
      link.crossOrigin = '';
      link.href = href;
      document.head.appendChild(link);
    });
    import(entry);
  }
  // A page opened in the background paints nothing until it is shown: its code loads at once.
  if (document.visibilityState === 'visible') {
    requestAnimationFrame(function () {
      setTimeout(start, 0);
    });
  } else {
    start();
  }
})();
