import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import express, { type Express } from 'express';
import { projectRoot } from '../../project-root';

const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>xcm-gateway API</title><link rel="stylesheet" href="/docs/assets/swagger-ui.css"></head>
<body><div id="ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script>window.ui = SwaggerUIBundle({ url: '/openapi.yaml', dom_id: '#ui' });</script>
</body>
</html>`;

/** The OpenAPI document and a Swagger UI page, served from local files (no CDN). */
export function docsRoutes(app: Express): void {
  const spec = readFileSync(join(projectRoot(), 'openapi.yaml'));
  const uiDir = dirname(require.resolve('swagger-ui-dist/package.json'));

  app.get('/openapi.yaml', (_req, res) => {
    res.type('application/yaml').send(spec);
  });
  app.get('/docs', (_req, res) => {
    res.type('html').send(DOCS_PAGE);
  });
  app.use('/docs/assets', express.static(uiDir, { index: false }));
}
