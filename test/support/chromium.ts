// Headless Chromium driven over the DevTools protocol (for the /docs page test and its screenshot).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';

export const CHROMIUM = 'chromium';

type Params = Record<string, unknown>;
type Listener = (params: Params, sessionId?: string) => void;

export interface Browser {
  /** A command to the browser (no session) or to an attached page (`sessionId`). */
  send<T = Params>(method: string, params?: Params, sessionId?: string): Promise<T>;
  on(event: string, listener: Listener): void;
  close(): Promise<void>;
}

/** Starts Chromium with no network of its own (no updates, no background requests). */
export async function launchChromium(): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), 'xcm-chromium-'));
  const child: ChildProcess = spawn(
    CHROMIUM,
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      `--user-data-dir=${profile}`,
      '--remote-debugging-address=127.0.0.1',
      '--remote-debugging-port=0',
      'about:blank',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let err = '';
    const timer = setTimeout(() => reject(new Error(`chromium did not start: ${err}`)), 20_000);
    child.stderr?.on('data', (chunk: Buffer) => {
      err += chunk.toString();
      const m = /DevTools listening on (ws:\/\/\S+)/.exec(err);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.once('exit', (code) => reject(new Error(`chromium exited (${code}): ${err}`)));
  });
  const ws = new WebSocket(url, { perMessageDeflate: false, maxPayload: 256 * 1024 * 1024 });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });

  let nextId = 1;
  const pending = new Map<number, { resolve: (v: Params) => void; reject: (e: Error) => void }>();
  const listeners = new Map<string, Listener[]>();
  ws.on('message', (data: WebSocket.RawData) => {
    const msg = JSON.parse(data.toString()) as { id?: number; result?: Params; error?: { message: string }; method?: string; params?: Params; sessionId?: string };
    if (msg.id !== undefined) {
      const waiter = pending.get(msg.id);
      pending.delete(msg.id);
      if (msg.error) waiter?.reject(new Error(msg.error.message));
      else waiter?.resolve(msg.result ?? {});
    } else if (msg.method) {
      for (const listener of listeners.get(msg.method) ?? []) listener(msg.params ?? {}, msg.sessionId);
    }
  });

  return {
    send<T>(method: string, params: Params = {}, sessionId?: string): Promise<T> {
      const id = nextId++;
      ws.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
      return new Promise<T>((resolve, reject) => pending.set(id, { resolve: resolve as (v: Params) => void, reject }));
    },
    on(event, listener) {
      listeners.set(event, [...(listeners.get(event) ?? []), listener]);
    },
    async close() {
      ws.close();
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGKILL');
        await exited;
      }
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Opens a new tab attached in flat mode; returns its session id. */
export async function openTab(browser: Browser): Promise<string> {
  const { targetId } = await browser.send<{ targetId: string }>('Target.createTarget', { url: 'about:blank' });
  const { sessionId } = await browser.send<{ sessionId: string }>('Target.attachToTarget', { targetId, flatten: true });
  return sessionId;
}

/** Closes a tab opened by openTab. */
export async function closeTab(browser: Browser, sessionId: string): Promise<void> {
  const { targetInfo } = await browser.send<{ targetInfo: { targetId: string } }>('Target.getTargetInfo', {}, sessionId);
  await browser.send('Target.closeTarget', { targetId: targetInfo.targetId });
}

/** Evaluates an expression in the page and returns its value. */
export async function evaluate<T>(browser: Browser, sessionId: string, expression: string): Promise<T> {
  const { result, exceptionDetails } = await browser.send<{ result: { value?: T }; exceptionDetails?: { text: string } }>(
    'Runtime.evaluate',
    { expression, returnByValue: true, awaitPromise: true },
    sessionId,
  );
  if (exceptionDetails) throw new Error(`page error: ${exceptionDetails.text}`);
  return result.value as T;
}
