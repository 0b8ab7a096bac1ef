import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { projectRoot } from '../../src/project-root';
import { testApp } from '../helpers/app';
import { CHROMIUM, closeTab, evaluate, launchChromium, openTab, type Browser } from '../support/chromium';
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

describe('GET /docs and its assets', () => {
  const { app, services } = testApp();
  afterAll(() => services.close());

  it('keep the page to this origin (CSP), are not sniffed, and are revalidated with a 304', async () => {
    const page = await request(app).get('/docs').expect(200);
    expect(page.headers['content-type']).toMatch(/^text\/html; charset=utf-8/);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe');
    const assets = ['/docs/assets/docs.js', '/docs/assets/try.js', '/docs/assets/dom.js', '/docs/assets/markdown.js', '/docs/assets/docs.css'];
    const types: [string, RegExp][] = [
      ['/docs', /^text\/html/],
      ['/favicon.ico', /^image\/x-icon/],
      ...assets.map((a): [string, RegExp] => [a, a.endsWith('.js') ? /^(text|application)\/javascript/ : /^text\/css/]),
    ];
    for (const [path, type] of types) {
      const first = await request(app).get(path).expect(200);
      expect(first.headers['content-type'], path).toMatch(type);
      expect(first.headers['x-content-type-options'], path).toBe('nosniff');
      expect(first.headers['cache-control'], path).toBe('no-cache');
      expect(first.headers.etag, path).toEqual(expect.any(String));
      await request(app).get(path).set('If-None-Match', first.headers.etag as string).expect(304);
    }
  });
});

describe.skipIf(!available)('the /docs page in headless Chromium', () => {
  const { app, services } = testApp();
  let server: Server;
  let origin: string;
  let browser: Browser;
  /** Every URL any tab requested, and every script error. */
  const requested: string[] = [];
  const exceptions: string[] = [];
  let crashed = false;
  /** A tab that loaded the page once, shared by the tests that only read it. */
  let tab: string;

  /** A new tab showing /docs (`hash`: `#v2` say), once its script listed the operations (or it crashed). */
  async function openDocs(hash = ''): Promise<string> {
    const session = await openTab(browser);
    for (const domain of ['Network', 'Page', 'Runtime', 'Inspector']) await browser.send(`${domain}.enable`, {}, session);
    await browser.send('Emulation.setDeviceMetricsOverride', { width: 1280, height: 1100, deviceScaleFactor: 1, mobile: false }, session);
    // Anything the page's policy blocks is recorded: the page must work within it.
    await browser.send(
      'Page.addScriptToEvaluateOnNewDocument',
      { source: `window.__violations = []; document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));` },
      session,
    );
    await browser.send('Page.navigate', { url: `${origin}/docs${hash}` }, session);
    const end = Date.now() + 30_000;
    while (!crashed && Date.now() < end) {
      if (await evaluate<boolean>(browser, session, `document.body?.dataset.ready === 'true'`).catch(() => false)) return session;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(crashed ? 'the renderer crashed' : '/docs did not list its operations within 30 s');
  }

  /**
   * Opens an operation, fills its "Try it" form (inputs by name, the JSON body), presses Send and
   * returns what the page then shows: the status and the answer's text.
   */
  async function tryIt(session: string, method: string, path: string, fill: { inputs?: Record<string, string>; body?: string } = {}): Promise<{ status: string; shown: string; answer: string }> {
    return evaluate(
      browser,
      session,
      `(async () => {
        const op = document.querySelector(${JSON.stringify(`details.op[data-method="${method}"][data-path="${path}"]`)});
        op.open = true;
        // The body is drawn on the toggle event, after the open.
        for (let i = 0; i < 100 && !op.querySelector('form.try'); i++) await new Promise((r) => setTimeout(r, 20));
        const form = op.querySelector('form.try');
        for (const [name, value] of Object.entries(${JSON.stringify(fill.inputs ?? {})})) form.elements.namedItem(name).value = value;
        const body = ${JSON.stringify(fill.body ?? null)};
        if (body !== null) form.elements.namedItem('body').value = body;
        const result = op.querySelector('.try-result');
        form.querySelector('button[type=submit]').click();
        for (let i = 0; i < 500 && !result.dataset.status; i++) await new Promise((r) => setTimeout(r, 20));
        return { status: result.dataset.status ?? 'none', shown: result.querySelector('.try-status')?.textContent ?? '', answer: result.querySelector('.try-answer')?.textContent ?? '' };
      })()`,
    );
  }

  /** What the server answers the same request directly. */
  async function direct(method: string, path: string, body?: string): Promise<unknown> {
    const res = await fetch(`${origin}${path}`, { method, body, headers: body ? { 'Content-Type': 'application/json' } : {} });
    expect(res.status).toBe(200);
    return res.json();
  }

  beforeAll(async () => {
    server = await new Promise<Server>((resolve) => {
      const s = createServer(app).listen(0, '127.0.0.1', () => resolve(s));
    });
    const address = server.address();
    origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    browser = await launchChromium();
    browser.on('Network.requestWillBeSent', (params) => requested.push((params.request as { url: string }).url));
    browser.on('Runtime.exceptionThrown', (params) => exceptions.push(JSON.stringify(params.exceptionDetails)));
    browser.on('Inspector.targetCrashed', () => (crashed = true));
    tab = await openDocs();
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
    await services.close();
  });

  it('lists every operation of both families, and opening all of them keeps the tab alive', async () => {
    const expected = documentedOperations();
    expect(expected.filter((o) => o.includes(' /v5/')).length).toBeGreaterThan(40);
    const listed = await evaluate<string[]>(browser, tab, `[...document.querySelectorAll('details.op')].map((d) => d.dataset.method + ' ' + d.dataset.path)`);
    expect(listed.sort()).toEqual(expected);

    // Each operation is drawn on its toggle event, which fires after the open: wait for all of them.
    const opened = await evaluate<{ bodies: number; forms: number }>(
      browser,
      tab,
      `(async () => {
        const ops = document.querySelectorAll('details.op');
        for (const d of ops) d.open = true;
        const built = () => document.querySelectorAll('details.op .op-body').length;
        for (let i = 0; i < 200 && built() < ops.length; i++) await new Promise((r) => setTimeout(r, 50));
        return { bodies: built(), forms: document.querySelectorAll('details.op .op-body form.try').length };
      })()`,
    );
    expect(opened).toEqual({ bodies: expected.length, forms: expected.length });
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

  /** What the page shows: its groups in order, and the operations listed (not hidden) in each. */
  const shownGroups = (session: string) =>
    evaluate<{ tag: string; ops: string[] }[]>(
      browser,
      session,
      `[...document.querySelectorAll('section.tag:not([hidden])')].map((s) => ({ tag: s.dataset.tag, ops: [...s.querySelectorAll('details.op:not([hidden])')].map((d) => d.dataset.method + ' ' + d.dataset.path) }))`,
    );
  const familyOf = (op: string) => /^\S+ \/(v\d)\//.exec(op)?.[1];

  it('groups the operations in the order a wallet meets them, transfers first, one family at a time', async () => {
    const groups = await shownGroups(tab);
    expect(groups.map((g) => g.tag)).toEqual(['transfers', 'pre-flight', 'status', 'explain', 'Ledger', 'router', 'EVM', 'lookups', 'operations']);
    expect(groups[0].ops.slice(0, 2)).toEqual(['post /v5/x-transfer', 'post /v5/x-transfer-batch']);
    // /v5 by default: each family route once, under /v5, and the routes of no family.
    const shown = groups.flatMap((g) => g.ops);
    const expected = documentedOperations().filter((o) => familyOf(o) !== 'v2');
    expect([...shown].sort()).toEqual(expected);
    // The first transfer is on the first screen (1100 px high), not below the lookups.
    const top = await evaluate<number>(browser, tab, `document.querySelector('details.op[data-path="/v5/x-transfer"]').getBoundingClientRect().top`);
    expect(top).toBeLessThan(1100);
  });

  it('switches to /v2 and back, and opens on the family the address names', async () => {
    const session = await openDocs();
    const press = (family: string) => evaluate(browser, session, `document.querySelector('.family-switch button[data-family="${family}"]').click()`);
    await press('v2');
    const v2 = (await shownGroups(session)).flatMap((g) => g.ops);
    expect([...v2].sort()).toEqual(documentedOperations().filter((o) => familyOf(o) !== 'v5'));
    expect(await evaluate<string>(browser, session, 'location.hash')).toBe('#v2');
    expect(await evaluate<string>(browser, session, `document.querySelector('.family-switch button[aria-pressed="true"]').textContent`)).toBe('/v2');
    await press('v5');
    expect((await shownGroups(session)).flatMap((g) => g.ops)).toContain('post /v5/x-transfer');
    await closeTab(browser, session);

    const opened = await openDocs('#v2');
    const groups = await shownGroups(opened);
    await closeTab(browser, opened);
    expect(groups[0].ops[0]).toBe('post /v2/x-transfer');
    expect(groups.flatMap((g) => g.ops).some((o) => familyOf(o) === 'v5')).toBe(false);
  });

  it('puts Try it before the long description, and renders its Markdown lists and tables', async () => {
    const drawn = await evaluate<{ tryBeforeList: boolean; tryOffset: number; items: number; tableInItem: boolean; runOn: boolean }>(
      browser,
      tab,
      `(async () => {
        const op = document.querySelector('details.op[data-method="post"][data-path="/v5/x-transfer"]');
        op.open = true;
        for (let i = 0; i < 100 && !op.querySelector('.op-body'); i++) await new Promise((r) => setTimeout(r, 20));
        const body = op.querySelector('.op-body');
        const tryIt = body.querySelector('section.try-it');
        const list = body.querySelector('.md ul');
        const result = {
          tryBeforeList: Boolean(tryIt.compareDocumentPosition(list) & Node.DOCUMENT_POSITION_FOLLOWING),
          tryOffset: tryIt.getBoundingClientRect().top - op.getBoundingClientRect().top,
          items: list.querySelectorAll(':scope > li').length,
          tableInItem: Boolean(list.querySelector('li table')),
          runOn: [...body.querySelectorAll('.md p')].some((p) => /(^|\s)- \`/.test(p.textContent)),
        };
        op.open = false;
        return result;
      })()`,
    );
    expect(drawn.tryBeforeList).toBe(true);
    expect(drawn.tryOffset).toBeLessThan(300);
    expect(drawn.items).toBeGreaterThanOrEqual(5);
    expect(drawn.tableInItem).toBe(true);
    expect(drawn.runOn).toBe(false);
  });

  it('sends GET /v2/chains from the page and shows its answer', async () => {
    const session = await openDocs('#v2');
    const shown = await tryIt(session, 'get', '/v2/chains');
    await closeTab(browser, session);
    expect(shown.status).toBe('200');
    expect(shown.shown).toContain('200 OK');
    expect(JSON.parse(shown.answer)).toEqual(await direct('GET', '/v2/chains'));
    expect(JSON.parse(shown.answer)).toEqual(expect.arrayContaining(['Polkadot', 'Hydration', 'AssetHubPolkadot']));
  });

  it('sends POST /v2/assets/Hydration/asset-info with a JSON body from the page and shows its answer', async () => {
    const session = await openDocs('#v2');
    const body = '{"currency":{"symbol":"DOT"}}';
    const shown = await tryIt(session, 'post', '/v2/assets/{chain}/asset-info', { inputs: { 'path.chain': 'Hydration' }, body });
    await closeTab(browser, session);
    expect(shown.status).toBe('200');
    const answer = JSON.parse(shown.answer) as { symbol: string; decimals: number };
    expect(answer).toEqual(await direct('POST', '/v2/assets/Hydration/asset-info', body));
    expect(answer).toMatchObject({ symbol: 'DOT', decimals: 10 });
  });

  it('shows a 400 answer as the server sent it (an unknown chain named in the path)', async () => {
    const session = await openDocs();
    const shown = await tryIt(session, 'post', '/v5/assets/{chain}/asset-info', { inputs: { 'path.chain': 'Atlantis' } });
    // Long lines wrap: nothing of the answer is cut off to the right.
    const overflow = await evaluate<number>(browser, session, `(() => { const pre = document.querySelector('details.op[open] .try-answer'); return pre.scrollWidth - pre.clientWidth; })()`);
    await closeTab(browser, session);
    expect(overflow).toBe(0);
    expect(shown.status).toBe('400');
    expect(JSON.parse(shown.answer)).toMatchObject({ statusCode: 400, kind: 'UnknownChainError' });
  });

  it('works within its content security policy and made no request that left 127.0.0.1', async () => {
    const session = await openDocs();
    expect((await tryIt(session, 'get', '/v5/chains')).status).toBe('200');
    const violations = await evaluate<string[]>(browser, session, 'window.__violations');
    await closeTab(browser, session);
    expect(violations).toEqual([]);
    expect(exceptions).toEqual([]);
    const outside = requested.filter((url) => !url.startsWith(`${origin}/`) && url !== 'about:blank');
    expect(outside).toEqual([]);
    expect(requested).toEqual(
      expect.arrayContaining([`${origin}/docs`, `${origin}/docs/assets/docs.js`, `${origin}/docs/assets/try.js`, `${origin}/docs/assets/docs.css`, `${origin}/v5/chains`]),
    );
  });

  // The picture in docs/operations.md: every run draws it; it is written to docs/docs-page.png only
  // when asked (UPDATE_SCREENSHOT=1), so a plain run leaves the working tree as it was.
  it('draws the screenshot of docs/operations.md: the page as it opens, the first transfer open', async () => {
    const session = await openDocs();
    const form = await evaluate<boolean>(
      browser,
      session,
      `(async () => {
        const op = document.querySelector('details.op[data-method="post"][data-path="/v5/x-transfer"]');
        op.open = true;
        for (let i = 0; i < 100 && !op.querySelector('form.try'); i++) await new Promise((r) => setTimeout(r, 20));
        window.scrollTo(0, 0);
        return Boolean(op.querySelector('form.try'));
      })()`,
    );
    expect(form).toBe(true);
    const { data } = await browser.send<{ data: string }>('Page.captureScreenshot', { format: 'png' }, session);
    await closeTab(browser, session);
    const png = Buffer.from(data, 'base64');
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    if (process.env.UPDATE_SCREENSHOT === '1') writeFileSync(join(projectRoot(), 'docs/docs-page.png'), png);
  });
});
