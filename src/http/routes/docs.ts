import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import express, { type Express, type Response } from 'express';
import { parse } from 'yaml';
import { projectRoot } from '../../project-root';

/** JSON that is safe inside a <script> element (no `</script>`, no `<!--`). */
const scriptJson = (value: unknown): string => JSON.stringify(value).replace(/</g, '\\u003c');

/**
 * What the page may load: its own modules and stylesheet, and requests ("Try it") to this origin
 * only. The embedded document is a data block, which script-src does not govern.
 */
const PAGE_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Headers of the page and its assets: no sniffing, no referrer; the browser revalidates before reuse. */
function setPageHeaders(res: Response): void {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('Cache-Control', 'no-cache');
}

/**
 * The page embeds the document as JSON and renders it with our own small modules
 * (`public/docs/`): operations and schemas are drawn when opened and `$ref`s stay links, so the
 * page stays light with every route of both families; each operation has a "Try it" form that
 * sends it to this server. Measured on this document in headless Chromium, Scalar's page took over
 * 10 times as long to list the operations and 100 times the JS heap with all of them drawn, and
 * Swagger UI's took minutes (docs/performance.md, "The /docs page").
 */
function docsPage(spec: unknown): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>xcm-gateway API</title><link rel="icon" href="/favicon.ico"><link rel="stylesheet" href="/docs/assets/docs.css"></head>
<body><div id="docs"></div>
<script type="application/json" id="spec">${scriptJson(spec)}</script>
<script type="module" src="/docs/assets/docs.js"></script>
</body>
</html>`;
}

// Weak: compression may re-encode the bytes, the content stays the same.
const weakTag = (bytes: string | Buffer): string => `W/"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"`;

/** The OpenAPI document and a page that renders it, served from local files (no CDN). */
export function docsRoutes(app: Express, note?: string): void {
  const root = projectRoot();
  const spec = readFileSync(join(root, 'openapi.yaml'));
  const document = parse(spec.toString('utf8')) as { info: { description?: string; 'x-note'?: string } };
  // The note is shown open above everything else (the served openapi.yaml stays as written).
  if (note) document.info['x-note'] = note;
  const page = docsPage(document);
  const pageTag = weakTag(page);
  const favicon = readFileSync(join(root, 'public/docs/favicon.ico'));
  const faviconTag = weakTag(favicon);

  app.get('/openapi.yaml', (_req, res) => {
    res.type('application/yaml').send(spec);
  });
  app.get('/docs', (req, res) => {
    setPageHeaders(res);
    res.setHeader('Content-Security-Policy', PAGE_POLICY);
    res.setHeader('ETag', pageTag);
    // req.fresh compares If-None-Match (lists, weak tags) with the ETag just set.
    if (req.fresh) {
      res.status(304).end();
      return;
    }
    res.type('html').send(page);
  });
  // Browsers ask for it on every page of the origin (JSON answers opened in a tab too).
  app.get('/favicon.ico', (req, res) => {
    setPageHeaders(res);
    res.setHeader('ETag', faviconTag);
    if (req.fresh) {
      res.status(304).end();
      return;
    }
    res.type('image/x-icon').send(favicon);
  });
  // serve-static sends ETag and Last-Modified, so a revalidation is a 304.
  app.use('/docs/assets', express.static(join(root, 'public/docs'), { index: false, setHeaders: setPageHeaders }));
}
