// The baseline of bench/build.ts: the SDK's builder alone, in a process of its own, over the same
// test chains: sdk-pjs loaded as it ships (through `require`, none of our patches), one ApiPromise
// per chain handed to it, and `build()` then `tx.method.toHex()` per transfer; no HTTP, no checks.
// `node dist/bench/bare-builder.js`, with BARE_CHAINS (JSON: chain -> ws URL) and BARE_TRANSFERS
// (JSON: [{ name, from, to, currency, address, senderAddress? }]); prints one JSON line per
// transfer: { name, cpuUs } (CPU per build, after a warm-up) or { name, error }.
import { createRequire } from 'node:module';

interface Transfer {
  name: string;
  from: string;
  to: string;
  currency: unknown;
  address: string;
  senderAddress?: string;
}

const load = createRequire(__filename);
const sdk = load('@paraspell/sdk-pjs') as typeof import('@paraspell/sdk-pjs');
const { ApiPromise, WsProvider } = load('@polkadot/api') as typeof import('@polkadot/api');

const ROUNDS = Number(process.env.BENCH_BARE_ROUNDS ?? 300);
const chains = JSON.parse(process.env.BARE_CHAINS ?? '{}') as Record<string, string>;
const transfers = JSON.parse(process.env.BARE_TRANSFERS ?? '[]') as Transfer[];

async function main(): Promise<void> {
  const apis: Record<string, import('@polkadot/api').ApiPromise> = {};
  for (const [chain, url] of Object.entries(chains)) apis[chain] = await ApiPromise.create({ provider: new WsProvider(url), noInitWarn: true });
  for (const t of transfers) {
    const build = async (): Promise<string> => {
      let b = sdk
        .Builder({ apiOverrides: apis as never, abstractDecimals: false })
        .from(t.from as never)
        .to(t.to as never)
        .currency(t.currency as never)
        .address(t.address);
      if (t.senderAddress) b = b.senderAddress(t.senderAddress);
      return (await b.build()).method.toHex();
    };
    try {
      for (let i = 0; i < ROUNDS / 5; i++) await build();
      const before = process.cpuUsage();
      for (let i = 0; i < ROUNDS; i++) await build();
      const used = process.cpuUsage(before);
      console.log(JSON.stringify({ name: t.name, cpuUs: Math.round((used.user + used.system) / ROUNDS) }));
    } catch (error) {
      console.log(JSON.stringify({ name: t.name, error: (error as Error).message.slice(0, 120) }));
    }
  }
  await Promise.all(Object.values(apis).map((api) => api.disconnect()));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
