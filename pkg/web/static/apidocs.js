// Renders the API reference (/api-docs) from the served OpenAPI document with
// the self-hosted Swagger UI bundle (no inline script: the CSP forbids it).
(function () {
  var el = document.getElementById('api-reference');
  if (!el || typeof window.SwaggerUIBundle !== 'function') {
    return;
  }
  window.SwaggerUIBundle({
    url: el.getAttribute('data-spec') || '/openapi.json',
    domNode: el,
    deepLinking: true,
    docExpansion: 'list',
    defaultModelsExpandDepth: 0,
    tryItOutEnabled: false,
    supportedSubmitMethods: [],
    validatorUrl: null,
  });
})();
