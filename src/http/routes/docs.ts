import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import express, { type Express } from 'express';
import { parse } from 'yaml';
import { projectRoot } from '../../project-root';

/** JSON that is safe inside a <script> element (no `</script>`, no `<!--`). */
const scriptJson = (value: unknown): string => JSON.stringify(value).replace(/</g, '\\u003c');

/**
 * The page embeds the document as JSON and renders it with our own small script
 * (`public/docs/docs.js`): operations and schemas are drawn when opened and `$ref`s stay links,
 * so the page stays light with every route of both families. Swagger UI resolved the whole
 * document up front and its renderer died on it. Nothing is fetched from outside the service.
 */
function docsPage(spec: unknown): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>xcm-gateway API</title><link rel="stylesheet" href="/docs/assets/docs.css"></head>
<body><div id="docs"></div>
<script type="application/json" id="spec">${scriptJson(spec)}</script>
<script src="/docs/assets/docs.js"></script>
</body>
</html>`;
}

/** The OpenAPI document and a page that renders it, served from local files (no CDN). */
export function docsRoutes(app: Express): void {
  const root = projectRoot();
  const spec = readFileSync(join(root, 'openapi.yaml'));
  const page = docsPage(parse(spec.toString('utf8')));

  app.get('/openapi.yaml', (_req, res) => {
    res.type('application/yaml').send(spec);
  });
  app.get('/docs', (_req, res) => {
    res.type('html').send(page);
  });
  app.use('/docs/assets', express.static(join(root, 'public/docs'), { index: false }));
}
