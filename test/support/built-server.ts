import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { projectRoot } from '../../src/project-root';

// The service as an operator runs it: compiled, in its own process. Compiled once per state of
// the sources into node_modules/.cache (never dist/, which `npm start` owns) and shared by every
// test file of the run; inside the project, so that the build finds node_modules and package.json.
// Builds are named by checkout too: checkouts that share one node_modules (git worktrees) each
// keep their own build instead of removing each other's.
const root = projectRoot();
const cache = join(root, 'node_modules/.cache/xcm-gateway-test-build');
const checkout = createHash('sha256').update(root).digest('hex').slice(0, 8);

/** A digest of everything the build reads: the sources, the compiler settings, the locked dependencies. */
function sourceDigest(): string {
  const hash = createHash('sha256');
  const add = (path: string) => hash.update(relative(root, path)).update('\0').update(readFileSync(path)).update('\0');
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else add(path);
    }
  };
  walk(join(root, 'src'));
  for (const file of ['tsconfig.json', 'tsconfig.build.json', 'package-lock.json']) add(join(root, file));
  return `${checkout}-${hash.digest('hex').slice(0, 16)}`;
}

let built: Promise<string> | undefined;

/**
 * The path of the compiled `src/server.js`. A test file that finds no build of the current sources
 * compiles one into a folder of its own and renames it into place; when two compile at once, the
 * second rename fails and its copy is dropped. Builds of older sources are removed.
 */
export function builtServer(): Promise<string> {
  return (built ??= (async () => {
    const digest = sourceDigest();
    const dir = join(cache, digest);
    const server = join(dir, 'src/server.js');
    if (existsSync(server)) return server;
    mkdirSync(cache, { recursive: true });
    const fresh = mkdtempSync(join(cache, 'building-'));
    const tsc = join(root, 'node_modules/typescript/bin/tsc');
    const args = ['-p', join(root, 'tsconfig.build.json'), '--outDir', fresh, '--tsBuildInfoFile', join(fresh, 'tsbuildinfo')];
    await promisify(execFile)(process.execPath, [tsc, ...args], { cwd: root }).catch((error: { stdout?: string }) => {
      rmSync(fresh, { recursive: true, force: true });
      throw new Error(`tsc failed:\n${error.stdout ?? String(error)}`);
    });
    try {
      renameSync(fresh, dir);
    } catch {
      rmSync(fresh, { recursive: true, force: true });
    }
    for (const entry of readdirSync(cache)) {
      if (entry !== digest && entry.startsWith(`${checkout}-`)) rmSync(join(cache, entry), { recursive: true, force: true });
    }
    return server;
  })());
}

/** One line the process wrote: its JSON, or `undefined` when the line is not JSON. */
export interface OutputLine {
  stream: 'stdout' | 'stderr';
  text: string;
  json?: { level?: number; msg?: string; url?: string; err?: { message?: string; stack?: string; type?: string }; [key: string]: unknown };
}

export interface ServerProcess {
  child: ChildProcess;
  /** Every line of stdout and stderr, in arrival order per stream. */
  lines: OutputLine[];
  /** The service's URL once it logs `listening`; rejects if it exits first. */
  listening: Promise<string>;
  /** The exit code (or `null` after a signal), once stdout and stderr are read to their end. */
  exited: Promise<number | null>;
}

export interface RunOptions {
  /** The Node.js binary (this test's by default). */
  node?: string;
  nodeArgs?: string[];
  env?: Record<string, string>;
  /** The compiled server to run (the shared build by default). */
  server?: string;
  /** Open an IPC channel to the child (for a preloaded fixture that answers questions). */
  ipc?: boolean;
}

/** Starts the compiled server: port chosen by the system, loopback, test chains allowed. */
export async function runServer({ node = process.execPath, nodeArgs = [], env = {}, server, ipc = false }: RunOptions = {}): Promise<ServerProcess> {
  const entry = server ?? (await builtServer());
  const child = spawn(node, [...nodeArgs, entry], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ALLOW_PRIVATE_OVERRIDES: 'true', ...env },
    stdio: ['ignore', 'pipe', 'pipe', ...(ipc ? (['ipc'] as const) : [])],
  });
  const lines: OutputLine[] = [];
  let announce: (url: string) => void = () => undefined;
  const listening = new Promise<string>((resolve) => (announce = resolve));
  const read = (stream: 'stdout' | 'stderr') =>
    new Promise<void>((resolve) => {
      const input = child[stream];
      if (!input) return resolve();
      createInterface({ input })
        .on('line', (text) => {
          const line: OutputLine = { stream, text, json: parse(text) };
          lines.push(line);
          if (line.json?.msg === 'listening' && typeof line.json.url === 'string') announce(line.json.url);
        })
        .on('close', resolve);
    });
  const drained = Promise.all([read('stdout'), read('stderr')]);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => void drained.then(() => resolve(code))));
  const failed = exited.then((code) => {
    throw new Error(`the server exited (${code}) before listening:\n${lines.map((l) => l.text).join('\n')}`);
  });
  const listeningOrFailed = Promise.race([listening, failed]);
  // A test that expects the process to refuse never awaits `listening`.
  listeningOrFailed.catch(() => undefined);
  return { child, lines, listening: listeningOrFailed, exited };
}

function parse(text: string): OutputLine['json'] {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as OutputLine['json']) : undefined;
  } catch {
    return undefined;
  }
}
