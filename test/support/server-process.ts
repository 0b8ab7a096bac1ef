// The real service in a child process, as `npm start` runs it: src compiled by tsc with
// tsconfig.build.json, started with the project's Node 24. The build goes to a fresh folder under
// node_modules/.cache (never dist/, which `npm start` owns), where the compiled files still find
// node_modules and the project root; it is removed by the caller.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { projectRoot } from '../../src/project-root';

const root = projectRoot();
/** The `node` dev dependency: Node 24 whatever node runs the tests. */
export const NODE_24 = join(root, 'node_modules/.bin/node');

export interface Build {
  /** The compiled server entry point. */
  serverJs: string;
  remove(): void;
}

export async function buildServer(): Promise<Build> {
  const cache = join(root, 'node_modules/.cache');
  mkdirSync(cache, { recursive: true });
  const out = mkdtempSync(join(cache, 'xcm-gateway-build-'));
  try {
    await promisify(execFile)(NODE_24, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'tsconfig.build.json'), '--outDir', out]);
  } catch (error) {
    rmSync(out, { recursive: true, force: true });
    throw error;
  }
  return { serverJs: join(out, 'src/server.js'), remove: () => rmSync(out, { recursive: true, force: true }) };
}

export interface LogLine {
  msg?: string;
  url?: string;
  err?: { message?: string };
}

export interface ServerProcess {
  child: ChildProcess;
  /** Every JSON line the process wrote to stdout. */
  lines: LogLine[];
  /** The URL from the `listening` line. */
  listening: Promise<string>;
  exited: Promise<number | null>;
}

/** Starts `serverJs` on a free loopback port; `nodeArgs` go before it (e.g. `--require` a fixture). */
export function startServerProcess(serverJs: string, options: { nodeArgs?: string[]; env?: Record<string, string>; ipc?: boolean } = {}): ServerProcess {
  const child = spawn(NODE_24, [...(options.nodeArgs ?? []), serverJs], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ...options.env },
    stdio: ['ignore', 'pipe', 'inherit', ...(options.ipc ? (['ipc'] as const) : [])],
  });
  const lines: LogLine[] = [];
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const listening = new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const entry = JSON.parse(line) as LogLine;
      lines.push(entry);
      if (entry.msg === 'listening' && entry.url) resolve(entry.url);
    });
    void exited.then((code) => reject(new Error(`the server exited (${code}) before listening`)));
  });
  return { child, lines, listening, exited };
}
