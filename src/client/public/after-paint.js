// Loads the app's code once the page has painted: for a screen the server sent whole (the join
// page, decision 174; /home and the Q&A room with their data, decision 185), whose code only
// makes it interactive. The entry and the modules it imports are named on this script's tag
// (`data-entry`, `data-preload`); they start loading one frame after the first paint instead of
// competing with it. A page whose styles were cut to what its HTML uses (`<style data-full>`)
// gets the whole sheets linked first, each beside its cut, and the entry runs once they are in,
// so what the code draws is styled. An external file, not an inline script, so the
// Content-Security-Policy needs no exception.
(function () {
  var tag = document.querySelector('script[data-entry]');
  if (!tag) return;
  var entry = tag.getAttribute('data-entry');
  var preload = (tag.getAttribute('data-preload') || '').split(' ').filter(Boolean);
  function sheetsIn() {
    var cut = document.querySelectorAll('style[data-full]');
    return Promise.all(
      Array.prototype.map.call(cut, function (style) {
        return new Promise(function (resolve) {
          var link = document.createElement('link');
          link.rel = 'stylesheet';
          link.crossOrigin = '';
          link.href = style.getAttribute('data-full');
          link.onload = link.onerror = resolve;
          style.after(link);
        });
      }),
    );
  }
  function start() {
    var sheets = sheetsIn();
    preload.forEach(function (href) {
      var link = document.createElement('link');
      link.rel = 'modulepreload';
      link.crossOrigin = '';
      link.href = href;
      document.head.appendChild(link);
    });
    sheets.then(function () {
      import(entry);
    });
  }
  var started = false;
  function once() {
    if (started) return;
    started = true;
    start();
  }
  // A page opened in the background paints nothing until it is shown: its code loads at once.
  if (document.visibilityState !== 'visible') {
    once();
    return;
  }
  // The first contentful paint is reported once that frame is on the screen, which can be a
  // little after the frame's own callbacks: the code starts when it is reported (and at the
  // latest a second later), not with the frame.
  if (
    typeof PerformanceObserver === 'function' &&
    (PerformanceObserver.supportedEntryTypes || []).indexOf('paint') !== -1
  ) {
    var observer = new PerformanceObserver(function (list) {
      var painted = list.getEntries().some(function (entry) {
        return entry.name === 'first-contentful-paint';
      });
      if (!painted) return;
      observer.disconnect();
      setTimeout(once, 0);
    });
    observer.observe({ type: 'paint', buffered: true });
    setTimeout(once, 1000);
  } else {
    requestAnimationFrame(function () {
      setTimeout(once, 0);
    });
  }
})();
