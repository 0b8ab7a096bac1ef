import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES, ConfigError, loadConfig, type Config } from '../../src/config';
import { projectRoot } from '../../src/project-root';

describe('configuration from the environment', () => {
  it('has defaults for everything', () => {
    expect(loadConfig({})).toMatchObject({
      PORT: 3001,
      HOST: '0.0.0.0',
      BODY_LIMIT: '100kb',
      CONNECT_TIMEOUT_MS: 10_000,
      REQUEST_TIMEOUT_MS: 30_000,
      IDLE_TIMEOUT_MS: 300_000,
      MAX_CHAINS: 32,
      ALLOW_PRIVATE_OVERRIDES: false,
    });
  });

  it('parses given values', () => {
    expect(loadConfig({ PORT: '8080', ALLOW_PRIVATE_OVERRIDES: 'true', BODY_LIMIT: '1mb' })).toMatchObject({ PORT: 8080, ALLOW_PRIVATE_OVERRIDES: true, BODY_LIMIT: '1mb' });
  });

  it.each([
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['CONNECT_TIMEOUT_MS', '-5'],
    ['LOG_LEVEL', 'loud'],
    ['BODY_LIMIT', 'huge'],
    ['ALLOW_PRIVATE_OVERRIDES', 'yes'],
  ])('a bad %s stops the start with a message naming it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`^Invalid configuration: ${name}: `));
  });

  it('following transfers: lookback 100 blocks (at most 600), 600 blocks per request, 180 s per stream, 200 streams', () => {
    expect(loadConfig({})).toMatchObject({ TRACK_LOOKBACK_BLOCKS: 100, TRACK_MAX_BLOCKS: 600, TRACK_TIMEOUT_MS: 180_000, TRACK_MAX_STREAMS: 200 });
    expect(loadConfig({ TRACK_LOOKBACK_BLOCKS: '600' }).TRACK_LOOKBACK_BLOCKS).toBe(600);
    expect(() => loadConfig({ TRACK_LOOKBACK_BLOCKS: '601' })).toThrow(/^Invalid configuration: TRACK_LOOKBACK_BLOCKS: /);
    expect(() => loadConfig({ TRACK_MAX_STREAMS: '0' })).toThrow(/^Invalid configuration: TRACK_MAX_STREAMS: /);
  });

  it('CACHE_MAX_BYTES is a size (bytes, kb, mb or gb), 64 MB by default', () => {
    expect(loadConfig({}).CACHE_MAX_BYTES).toBe(64 * 1024 * 1024);
    expect(loadConfig({ CACHE_MAX_BYTES: '1000' }).CACHE_MAX_BYTES).toBe(1000);
    expect(loadConfig({ CACHE_MAX_BYTES: '512KB' }).CACHE_MAX_BYTES).toBe(512 * 1024);
    expect(loadConfig({ CACHE_MAX_BYTES: '1gb' }).CACHE_MAX_BYTES).toBe(1024 ** 3);
    expect(() => loadConfig({ CACHE_MAX_BYTES: 'lots' })).toThrow(/^Invalid configuration: CACHE_MAX_BYTES: /);
  });
});

describe('client-named connections and name lookups', () => {
  it('MAX_OVERRIDE_CONNECTIONS must be more than twice MAX_OVERRIDE_CONNECTIONS_PER_CLIENT: two clients never fill it', () => {
    expect(loadConfig({})).toMatchObject({ MAX_OVERRIDE_CONNECTIONS: 8, MAX_OVERRIDE_CONNECTIONS_PER_CLIENT: 3 });
    expect(() => loadConfig({ MAX_OVERRIDE_CONNECTIONS_PER_CLIENT: '4' })).toThrow(/^Invalid configuration: MAX_OVERRIDE_CONNECTIONS \(8\) must be more than twice MAX_OVERRIDE_CONNECTIONS_PER_CLIENT \(4\)/);
    expect(loadConfig({ MAX_OVERRIDE_CONNECTIONS: '9', MAX_OVERRIDE_CONNECTIONS_PER_CLIENT: '4' }).MAX_OVERRIDE_CONNECTIONS_PER_CLIENT).toBe(4);
  });

  it('DNS: 2 s per lookup, 4 in flight per client, the system\'s name servers unless DNS_SERVERS names some', () => {
    expect(loadConfig({})).toMatchObject({ DNS_TIMEOUT_MS: 2_000, DNS_MAX_LOOKUPS_PER_CLIENT: 4 });
    expect(loadConfig({}).DNS_SERVERS).toBeUndefined();
    expect(loadConfig({ DNS_SERVERS: '10.0.0.53, 127.0.0.1:5353,[::1]:53' }).DNS_SERVERS).toEqual(['10.0.0.53', '127.0.0.1:5353', '[::1]:53']);
    expect(() => loadConfig({ DNS_SERVERS: 'ns.example.com' })).toThrow(/^Invalid configuration: DNS_SERVERS: /);
    expect(() => loadConfig({ DNS_MAX_LOOKUPS_PER_CLIENT: '0' })).toThrow(/^Invalid configuration: DNS_MAX_LOOKUPS_PER_CLIENT: /);
  });
});

describe('CHAIN_ENDPOINTS', () => {
  it('maps chains to the operator\'s endpoints (one URL or a list), none by default', () => {
    expect(loadConfig({}).CHAIN_ENDPOINTS).toEqual({});
    const env = { CHAIN_ENDPOINTS: '{"Polkadot":"ws://127.0.0.1:9944","Hydration":["wss://a.example/h","wss://b.example/h"]}' };
    expect(loadConfig(env).CHAIN_ENDPOINTS).toEqual({ Polkadot: ['ws://127.0.0.1:9944'], Hydration: ['wss://a.example/h', 'wss://b.example/h'] });
  });

  it('refuses what is not a JSON object of ws:// or wss:// URLs, naming the variable', () => {
    expect(() => loadConfig({ CHAIN_ENDPOINTS: 'Polkadot=ws://x' })).toThrow(/^Invalid configuration: CHAIN_ENDPOINTS: must be a JSON object/);
    expect(() => loadConfig({ CHAIN_ENDPOINTS: '{"Polkadot":"https://x.example"}' })).toThrow(/CHAIN_ENDPOINTS\.Polkadot/);
    expect(() => loadConfig({ CHAIN_ENDPOINTS: '{"Polkadot":"ws://user:pw@x.example"}' })).toThrow(/without credentials/);
    expect(() => loadConfig({ CHAIN_ENDPOINTS: '{"Polkadot":[]}' })).toThrow(/CHAIN_ENDPOINTS\.Polkadot/);
    expect(() => loadConfig({ CHAIN_ENDPOINTS: '["ws://x.example"]' })).toThrow(/CHAIN_ENDPOINTS/);
  });
});

/** The rows of the README's configuration table: variable and default, as written. */
function readmeConfiguration(): { name: string; written: string }[] {
  const readme = readFileSync(join(projectRoot(), 'README.md'), 'utf8');
  const section = readme.split(/^## /m).find((s) => s.startsWith('Configuration\n')) ?? '';
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => {
      const [name, written] = line.split('|').slice(1, 3).map((cell) => cell.trim());
      return { name: name.replace(/`/g, ''), written };
    });
}

describe('the README configuration table', () => {
  const rows = readmeConfiguration();
  const defaults = loadConfig({});

  it('lists every variable of the config schema, once, and nothing else', () => {
    const names = rows.map((r) => r.name);
    expect(new Set(names).size).toBe(names.length);
    expect([...names].sort()).toEqual([...CONFIG_VARIABLES].sort());
  });

  // A default written as a value (`3001`, `64mb`) must parse to the schema's default; one written
  // in words (none, the registry's public endpoint) must be a variable that is unset by default.
  it.each(rows)('$name: the default it gives ($written) is the schema\'s', ({ name, written }) => {
    const key = name as keyof Config;
    const literal = /^`([^`]*)`/.exec(written)?.[1];
    if (literal === undefined) expect([undefined, false]).toContain(defaults[key]);
    else expect(loadConfig({ [name]: literal })[key]).toEqual(defaults[key]);
  });
});
