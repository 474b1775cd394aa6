// The API reference: Swagger UI (swagger-ui-dist, served beside this file) on this sandbox's own
// description. No inline script (the page's Content-Security-Policy forbids it); requests made
// with "Try it out" go to the description's server, this sandbox.
'use strict'
window.addEventListener('DOMContentLoaded', function () {
  window.ui = window.SwaggerUIBundle({
    url: '/v1/openapi.json',
    dom_id: '#reference',
    // No anchor inside each operation's toggle button (a link in a button: axe's nested-interactive).
    deepLinking: false,
    docExpansion: 'list',
    defaultModelsExpandDepth: 0,
    displayRequestDuration: true,
    // No call to an outside validator (the badge would load an image from validator.swagger.io).
    validatorUrl: null,
    tryItOutEnabled: false,
    presets: [window.SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
  })
})
