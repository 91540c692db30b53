// Renders the API reference (/api-docs) from the served OpenAPI document with
// Scalar's standalone bundle, served from this origin before this script (no
// inline script: the CSP forbids it). Settings that would reach another
// origin are off: nothing on this page talks to anyone but this server.
(function () {
  var el = document.getElementById('api-reference-app');
  if (!el || !window.Scalar || typeof window.Scalar.createApiReference !== 'function') {
    return;
  }
  var loading = document.querySelector('.apidocs-loading');
  if (loading) loading.hidden = false;
  window.Scalar.createApiReference(el, {
    url: el.getAttribute('data-openapi-url') || '/openapi.json',
    // The portal's own font stack (apidocs.css), not fonts.scalar.com.
    withDefaultFonts: false,
    telemetry: false,
    // No proxyUrl: "Test Request" sends the request to the document's
    // server, "/", this one.
    // The full API client (import into Scalar's app, share), the download
    // button (the page links /openapi.json), the developer toolbar (share
    // and register on scalar.com), the AI agent and MCP (api.scalar.com):
    // all off.
    hideClientButton: true,
    documentDownloadType: 'none',
    showDeveloperTools: 'never',
    agent: { disabled: true },
    mcp: { disabled: true },
    // The portal has no dark mode; apidocs.css maps Scalar's colours to
    // the portal's (and so to an agency's theme).
    forceDarkModeState: 'light',
    hideDarkModeToggle: true,
    // Scalar speaks the portal's three languages; <html lang> is en,
    // zh-CN or zh-TW.
    localization: { locale: document.documentElement.lang || 'en' },
    // The clients the introduction offers first. An operation's own
    // samples (x-codeSamples: curl, Go, TypeScript) come first in its
    // request example's menu, before the generated ones.
    featuredClients: ['shell/curl', 'go/native', 'node/fetch', 'python/requests'],
    onLoaded: function () {
      if (loading) loading.hidden = true;
    },
  });
})();
