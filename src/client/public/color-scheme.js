// Applies the saved colour scheme before the first paint, so a dark page never flashes light.
// An external file (not an inline script) so the Content-Security-Policy needs no exception.
(function () {
  try {
    var saved = window.localStorage.getItem('confab-color-scheme');
    document.documentElement.setAttribute(
      'data-mantine-color-scheme',
      saved === 'dark' ? 'dark' : 'light',
    );
  } catch (e) {
    document.documentElement.setAttribute('data-mantine-color-scheme', 'light');
  }
})();
