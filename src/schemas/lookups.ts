import { z } from 'zod';
import { sdk } from '../sdk';
import { chainName, ecosystem, lookupCurrency, paraId, substrateChainName } from './common';
import { LIMITS } from './limits';
import { abortOnIssue } from './zod-rules';

const PALLETS: readonly string[] = sdk.PALLETS;

export const chainParams = z.object({ chain: chainName });
export const substrateChainParams = z.object({ chain: substrateChainName });
export const paraIdParams = z.object({ paraId });

export const currencyBody = z.object({ currency: lookupCurrency });

export const assetInfoBody = z.object({
  currency: lookupCurrency,
  destination: chainName.nullish().transform((v) => v ?? null),
});

export const supportedAssetsQuery = z.object({ origin: chainName, destination: chainName });

export const paraIdQuery = z.object({ ecosystem: ecosystem.default('Polkadot') });

export const palletIndexQuery = z.object({
  pallet: z
    .string()
    .refine((p) => PALLETS.includes(p), {
      message: `must be a cross-chain pallet name, one of ${PALLETS.join(', ')}`,
      params: { kind: 'InvalidPalletError' },
    })
    .check(abortOnIssue)
    .transform((p) => p as (typeof sdk.PALLETS)[number]),
});

export const convertSs58Query = z.object({
  address: z.string().min(1, 'must not be empty').max(LIMITS.address, `must be at most ${LIMITS.address} characters`),
  chain: chainName,
});
