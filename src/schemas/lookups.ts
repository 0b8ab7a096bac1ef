import { z } from 'zod';
import { sdk } from '../sdk';
import { chainName, ecosystem, lookupCurrency, paraId } from './common';
import { doc } from './docs';
import { LIMITS } from './limits';
import { abortOnIssue } from './zod-rules';

const PALLETS: readonly string[] = sdk.PALLETS;

export const chainParams = z.object({ chain: doc(chainName, { description: 'A chain name. An unknown name is a 400 `UnknownChainError`.', examples: ['Hydration'] }) });
export const paraIdParams = z.object({ paraId });

export const currencyBody = z.object({ currency: lookupCurrency });

export const assetInfoBody = z.object({
  currency: lookupCurrency,
  destination: doc(
    chainName.nullish().transform((v) => v ?? null),
    { description: 'Destination chain; used when it is Ethereum. `null` or absent means none.' },
  ),
});

export const supportedAssetsQuery = z.object({
  origin: doc(chainName, { description: 'Origin chain.', examples: ['Polkadot'] }),
  destination: doc(chainName, { description: 'Destination chain.', examples: ['AssetHubPolkadot'] }),
});

export const paraIdQuery = z.object({ ecosystem: doc(ecosystem.default('Polkadot'), { description: 'The ecosystem to search.' }) });

const palletName = doc(
  z
    .string()
    .refine((p) => PALLETS.includes(p), {
      message: `must be a cross-chain pallet name, one of ${PALLETS.join(', ')}`,
      params: { kind: 'InvalidPalletError' },
    })
    .check(abortOnIssue)
    .transform((p) => p as (typeof sdk.PALLETS)[number]),
  { id: 'PalletName', description: 'A cross-chain pallet name.', enum: [...PALLETS] },
);

export const palletIndexQuery = z.object({ pallet: doc(palletName, { description: 'The pallet whose index is asked for.', examples: ['PolkadotXcm'] }) });

export const convertSs58Query = z.object({
  address: doc(z.string().min(1, 'must not be empty').max(LIMITS.address, `must be at most ${LIMITS.address} characters`), {
    description: 'An SS58 address (any prefix).',
    examples: ['15mYsj6DpBno58jRoV5HCTiVPFBuWhDLdsWtq3LxwZrfaTEZ'],
  }),
  chain: doc(chainName, { description: 'The chain whose prefix to use.', examples: ['Kusama'] }),
});
