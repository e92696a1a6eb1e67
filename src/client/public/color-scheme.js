// Applies the saved colour scheme as soon as the page is parsed, and keeps the cookie the server
// reads in step with it. The server draws the page in the cookie's scheme already (decision 106),
// so this only matters for a scheme saved before the cookie existed: from the next visit on, the
// first paint is right. An external file (not an inline script) so the Content-Security-Policy
// needs no exception; deferred, so it never holds up the first paint.
(function () {
  var key = 'confab-color-scheme';
  try {
    var scheme = window.localStorage.getItem(key);
    if (scheme !== 'dark' && scheme !== 'light') return;
    document.documentElement.setAttribute('data-mantine-color-scheme', scheme);
    if (document.cookie.indexOf(key + '=' + scheme) === -1) {
      document.cookie = key + '=' + scheme + '; max-age=31536000; path=/; samesite=lax';
    }
  } catch (e) {
    // Storage refused (private mode): the page keeps the scheme the server drew it in.
  }
})();
