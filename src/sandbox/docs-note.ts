// What /docs says first in the sandbox: that "Try it" talks to the sandbox's emulated chains, and
// which development accounts are funded there (the senders of openapi.yaml's examples).
import { createRequire } from 'node:module';
import { DEV_ACCOUNTS, MOONBEAM_DEV_ACCOUNTS } from './network';

const { Keyring } = createRequire(__filename)('@polkadot/keyring') as typeof import('@polkadot/keyring');

/** Markdown: the sandbox notice and the dev accounts (SS58 prefix 0 for the Polkadot chains, 63 for Hydration). */
export function sandboxDocsNote(): string {
  const polkadot = new Keyring({ type: 'sr25519', ss58Format: 0 });
  const hydration = new Keyring({ type: 'sr25519', ss58Format: 63 });
  const rows = DEV_ACCOUNTS.map((name) => `| \`//${name}\` | \`${polkadot.addFromUri(`//${name}`).address}\` | \`${hydration.addFromUri(`//${name}`).address}\` |`);
  return [
    `**Sandbox: this page is talking to the sandbox** (\`npm run sandbox\`). Every "Try it" goes to local emulated chains, never to a live network (docs/sandbox.md says what is real and what is emulated). Webhook receivers on this machine are allowed.`,
    '',
    'The development accounts are funded on every chain but Moonbeam (the examples send from //Alice):',
    '',
    '| Account | Address (Polkadot, prefix 0) | On Hydration (prefix 63) |',
    '| --- | --- | --- |',
    ...rows,
    '',
    `Moonbeam's, and Ethereum's (Ethereum keys; on Ethereum they hold ETH and WETH approved for the Snowbridge Gateway): ${MOONBEAM_DEV_ACCOUNTS.map((a) => `\`${a}\``).join(', ')}.`,
  ].join('\n');
}
