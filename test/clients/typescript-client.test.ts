// The typed client of clients/typescript: its generated types are what openapi-typescript writes
// from openapi.yaml today (as test/http/openapi-generated.test.ts holds the request schemas to the
// zod ones), a wallet's use of it type-checks and a misuse does not, and it drives the main flows
// against the sandbox: build, pre-flight, sign and submit (polkadot.js), status (the JSON answer
// and the stream, typed apart), a watch with its webhook.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { createGatewayClient, statusEvents, type StatusEvent } from '../../clients/typescript/src';
import { projectRoot } from '../../src/project-root';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver';
import { dev, submit } from '../support/sandbox-client';
import { sandboxService } from '../support/sandbox-service';

const root = projectRoot();
const run = promisify(execFile);
const work = mkdtempSync(join(tmpdir(), 'typescript-client-'));
/** Type-checks a project; a failure carries tsc's report. */
const tsc = (project: string) =>
  run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', project, '--noEmit'], { cwd: root }).catch((error: { stdout?: string }) => {
    throw new Error(`tsc -p ${project}:\n${error.stdout ?? String(error)}`);
  });

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the generated client', () => {
  it('clients/typescript/src/schema.ts is what openapi-typescript writes from openapi.yaml (run `npm run client`)', async () => {
    const fresh = join(work, 'schema.ts');
    await run(process.execPath, [join(root, 'node_modules/openapi-typescript/bin/cli.js'), join(root, 'openapi.yaml'), '-o', fresh], { cwd: root });
    expect(readFileSync(fresh, 'utf8')).toBe(readFileSync(join(root, 'clients/typescript/src/schema.ts'), 'utf8'));
  }, 60_000);

  it('type-checks the wallet example; a misspelt field, a defaulted option left out and the JSON answer apart from the stream (with the defaults of openapi-fetch too) are caught or accepted as the service treats them', async () => {
    await tsc(join(root, 'clients/typescript/tsconfig.json'));
    const client = join(root, 'clients/typescript/src');
    writeFileSync(
      join(work, 'use.ts'),
      [
        `import createClient from ${JSON.stringify(join(root, 'node_modules/openapi-fetch'))};`,
        `import { createGatewayClient, type paths } from ${JSON.stringify(client)};`,
        `const client = createGatewayClient('http://127.0.0.1:3001');`,
        `const transfer = { from: 'Polkadot', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: '1' }, address: 'x' } as const;`,
        // Options that have a default need not be sent.
        `export const ok = client.POST('/v5/x-transfer', { body: { ...transfer, options: { xcmFormatCheck: true } } });`,
        // The JSON answer of /x-transfer/status is an object, never the stream's text, with openapi-fetch's defaults too.
        `export const status = client.POST('/v5/x-transfer/status', { body: { from: 'Polkadot', to: 'AssetHubPolkadot', txHash: '0x00' } }).then((r) => r.data?.status.toUpperCase());`,
        `export const plain = createClient<paths>({ baseUrl: 'http://127.0.0.1:3001' }).POST('/v2/x-transfer/status', { body: { from: 'Polkadot', to: 'AssetHubPolkadot', txHash: '0x00' } }).then((r) => r.data?.legs.length);`,
        // The stream has its own path, answered as text.
        `export const stream = client.POST('/v5/x-transfer/status/stream', { body: { from: 'Polkadot', to: 'AssetHubPolkadot', txHash: '0x00' }, parseAs: 'text' }).then((r) => r.data?.length);`,
        // v5 names the recipient `address`, not `recipient`.
        `// @ts-expect-error`,
        `export const bad = client.POST('/v5/x-transfer', { body: { from: 'Polkadot', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: '1' }, recipient: 'x' } });`,
      ].join('\n'),
    );
    writeFileSync(join(work, 'tsconfig.json'), JSON.stringify({ extends: join(root, 'clients/typescript/tsconfig.json'), compilerOptions: { rootDir: '/', declaration: false }, include: [], files: [join(work, 'use.ts')] }));
    await tsc(join(work, 'tsconfig.json'));
  }, 120_000);
});

describe('the typed client against the sandbox', () => {
  const served = sandboxService({ chains: ['Polkadot', 'AssetHubPolkadot'], blockMs: 300 });
  let receiver: Receiver | undefined;
  afterAll(async () => {
    await receiver?.close();
  });

  it('builds, checks before signing, follows the signed transfer (JSON and stream) and watches it', async () => {
    const client = createGatewayClient(served.url);
    const alice = dev('Alice');
    const bob = dev('Bob');
    const transfer = { from: 'Polkadot', to: 'AssetHubPolkadot', currency: { symbol: 'DOT', amount: '10000000000' }, address: bob.address, senderAddress: alice.address } as const;

    const dryRun = await client.POST('/v5/dry-run', { body: transfer });
    expect(dryRun.data).toMatchObject({ success: true, origin: { success: true } });
    const fee = await client.POST('/v5/xcm-fee', { body: transfer });
    expect(fee.data?.origin).toMatchObject({ fee: expect.stringMatching(/^\d+$/) });
    const refused = await client.POST('/v5/x-transfer', { body: { ...transfer, currency: { symbol: 'NO-SUCH-ASSET', amount: '1' } } });
    expect(refused.data).toBeUndefined();
    expect(refused.error).toMatchObject({ statusCode: 400, kind: expect.any(String), message: expect.any(String) });

    const built = await client.POST('/v5/x-transfer', { body: transfer });
    expect(built.data).toMatch(/^0x[0-9a-f]+$/);
    const relay = await served.clients.api('Polkadot');
    const included = await submit(relay, relay.tx(relay.createType('Call', built.data as string)), alice);
    const followed = { from: 'Polkadot', to: 'AssetHubPolkadot', txHash: included.hash } as const;

    receiver = await startReceiver();
    const watch = await client.POST('/v5/x-transfer/watch', { body: { ...followed, webhook: { url: receiver.url, secret: receiver.secret } } });
    expect(watch.error).toBeUndefined();
    const id = watch.data!.id;
    expect((await client.GET('/v5/x-transfer/watch/{id}', { params: { path: { id } } })).data).toMatchObject({ id });

    const events: StatusEvent[] = [];
    for await (const event of statusEvents(served.url, followed)) events.push(event);
    expect(events.at(-1)).toMatchObject({ event: 'status', data: { status: 'delivered', final: true } });
    expect(events.filter((e) => e.event === 'leg').length).toBeGreaterThan(0);
    const status = await client.POST('/v5/x-transfer/status', { body: followed });
    expect(status.data).toMatchObject({ status: 'delivered', final: true });
    await receiver.eventsOf(id, 1);
  }, 120_000);
});
