import { readFileSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { projectRoot } from '../../src/project-root';
import { testApp } from '../helpers/app';
import { CHROMIUM, evaluate, launchChromium, openTab, type Browser } from '../support/chromium';
import { requiredProgram } from '../support/required-program';

const available = requiredProgram(CHROMIUM, 'chromium', 'test/ops/docs-page.test.ts');

/** Every (method, path) of openapi.yaml. */
function documentedOperations(): string[] {
  const doc = parse(readFileSync(join(projectRoot(), 'openapi.yaml'), 'utf8')) as {
    paths: Record<string, Record<string, unknown> & { $ref?: string }>;
    components: { pathItems: Record<string, Record<string, unknown>> };
  };
  const ops: string[] = [];
  for (const [path, raw] of Object.entries(doc.paths)) {
    const item = raw.$ref ? doc.components.pathItems[raw.$ref.split('/').pop() as string] : raw;
    for (const method of ['get', 'put', 'post', 'delete', 'patch', 'options', 'head']) if (item[method]) ops.push(`${method} ${path}`);
  }
  return ops.sort();
}

describe.skipIf(!available)('the /docs page in headless Chromium', () => {
  const { app, services } = testApp();
  let server: Server;
  let origin: string;
  let browser: Browser;
  let tab: string;
  const requested: string[] = [];
  let crashed = false;
  let listed: string[] | null = null;

  beforeAll(async () => {
    server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    const address = server.address();
    origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    browser = await launchChromium();
    browser.on('Network.requestWillBeSent', (params) => requested.push((params.request as { url: string }).url));
    browser.on('Inspector.targetCrashed', () => (crashed = true));
    tab = await openTab(browser);
    for (const domain of ['Network', 'Page', 'Runtime', 'Inspector']) await browser.send(`${domain}.enable`, {}, tab);
    await browser.send('Emulation.setDeviceMetricsOverride', { width: 1280, height: 1500, deviceScaleFactor: 1, mobile: false }, tab);
    await browser.send('Page.navigate', { url: `${origin}/docs` }, tab);
    // Every test reads a settled page: wait until it lists the operations (or the tab crashed).
    const end = Date.now() + 30_000;
    while (!listed && !crashed && Date.now() < end) {
      listed = await evaluate<string[] | null>(
        browser,
        tab,
        `document.body && document.body.dataset.ready === 'true' ? [...document.querySelectorAll('details.op')].map((d) => d.dataset.method + ' ' + d.dataset.path) : null`,
      ).catch(() => null);
      if (!listed) await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
    await services.close();
  });

  it('lists every operation of both families, and opening all of them keeps the tab alive', async () => {
    expect(crashed, 'the renderer crashed').toBe(false);
    const expected = documentedOperations();
    expect(expected.filter((o) => o.includes(' /v5/')).length).toBeGreaterThan(40);
    expect(listed?.sort()).toEqual(expected);

    // Each operation is drawn on its toggle event, which fires after the open: wait for all of them.
    const opened = await evaluate<number>(
      browser,
      tab,
      `(async () => {
        const ops = document.querySelectorAll('details.op');
        for (const d of ops) d.open = true;
        const built = () => document.querySelectorAll('details.op .op-body').length;
        for (let i = 0; i < 200 && built() < ops.length; i++) await new Promise((r) => setTimeout(r, 50));
        return built();
      })()`,
    );
    expect(opened).toBe(expected.length);
    expect(crashed).toBe(false);
    // A $ref opens in place: the body schema of a transfer names its fields.
    const fields = await evaluate<string[]>(
      browser,
      tab,
      `(async () => {
        const ref = document.querySelector('details.op[data-method="post"][data-path="/v5/x-transfer"] .op-body details.ref');
        ref.open = true;
        for (let i = 0; i < 100 && !ref.querySelector('table.props'); i++) await new Promise((r) => setTimeout(r, 50));
        return [...ref.querySelectorAll(':scope > .schema > table.props > tbody > tr > td:first-child > code, :scope > .schema > table.props > tr > td:first-child > code')].map((c) => c.textContent);
      })()`,
    );
    expect(fields).toEqual(expect.arrayContaining(['from', 'to', 'currency', 'address']));
    const responses = await evaluate<string[]>(browser, tab, `[...document.querySelectorAll('details.op[data-path="/v5/x-transfer"] .response .status')].map((s) => s.textContent)`);
    expect(responses).toEqual(expect.arrayContaining(['200', '400', '500']));
  });

  it('made no request that left 127.0.0.1', async () => {
    expect(requested.length).toBeGreaterThanOrEqual(3);
    const outside = requested.filter((url) => !url.startsWith(`${origin}/`) && !url.startsWith('data:') && url !== 'about:blank');
    expect(outside).toEqual([]);
    expect(requested).toEqual(expect.arrayContaining([`${origin}/docs`, `${origin}/docs/assets/docs.js`, `${origin}/docs/assets/docs.css`]));
  });

  // DOCS_SCREENSHOT=docs/docs-page.png npx vitest run test/ops/docs-page.test.ts refreshes the README's picture.
  it.runIf(process.env.DOCS_SCREENSHOT)('takes the README screenshot', async () => {
    await evaluate(
      browser,
      tab,
      `(async () => {
        for (const d of document.querySelectorAll('details.op')) d.open = false;
        const filter = document.getElementById('filter');
        filter.value = 'x-transfer';
        filter.dispatchEvent(new Event('input'));
        const op = document.querySelector('details.op[data-method="post"][data-path="/v5/x-transfer"]');
        op.open = true;
        await new Promise((r) => setTimeout(r, 100));
        op.querySelector('.op-body details.ref').open = true;
        window.scrollTo(0, 0);
        await new Promise((r) => setTimeout(r, 300));
      })()`,
    );
    const { data } = await browser.send<{ data: string }>('Page.captureScreenshot', { format: 'png' }, tab);
    writeFileSync(join(projectRoot(), process.env.DOCS_SCREENSHOT as string), Buffer.from(data, 'base64'));
  });
});
