import { z } from 'zod';
import { chainName } from './common';
import { doc, documentedAs } from './docs';
import { LIMITS } from './limits';
import { exchangeName, exchangeSet } from './router';

/**
 * Query parameters of the swap lookups (`GET /swap/...`). `exchange` names one exchange, several
 * (repeated, `?exchange=A&exchange=B`, or comma-separated, `?exchange=A,B`) or, left out, all of
 * them; it is validated like the router bodies' `exchange` (unknown names get suggestions), and
 * several are a set (`exchangeSet`: one cache entry whatever their order).
 * Unknown parameters are refused: a misspelt `exchange` would otherwise answer for all exchanges.
 */
const exchangeParam = doc(
  documentedAs(
    z.preprocess((v) => {
      if (typeof v === 'string') return v.split(',');
      if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v.flatMap((x: string) => x.split(','));
      return v;
    }, exchangeSet),
    z.array(exchangeName).max(LIMITS.exchanges).optional(),
  ),
  {
    description: `An exchange; repeat the parameter or separate names with commas for several (at most ${LIMITS.exchanges}). Absent - all exchanges.`,
    style: 'form',
    explode: true,
    examples: [['HydrationDex']],
  },
);

export const swapPairsQuery = z.object({ exchange: exchangeParam }).strict();

export const swapAssetsFromQuery = z.object({ exchange: exchangeParam, from: doc(chainName.optional(), { description: 'The origin chain.', examples: ['Polkadot'] }) }).strict();

export const swapAssetsToQuery = z.object({ exchange: exchangeParam, to: doc(chainName.optional(), { description: 'The destination chain.', examples: ['AssetHubPolkadot'] }) }).strict();
