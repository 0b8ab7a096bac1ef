import { z } from 'zod';
import { chainName } from './common';
import { exchangeSelection } from './router';

/**
 * Query parameters of the swap lookups (`GET /swap/...`). `exchange` names one exchange, several
 * (repeated, `?exchange=A&exchange=B`, or comma-separated, `?exchange=A,B`) or, left out, all of
 * them; it is validated like the router bodies' `exchange` (unknown names get suggestions).
 * Unknown parameters are refused: a misspelt `exchange` would otherwise answer for all exchanges.
 */
const exchangeParam = z.preprocess((v) => {
  if (typeof v === 'string') return v.split(',');
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v.flatMap((x: string) => x.split(','));
  return v;
}, exchangeSelection);

export const swapPairsQuery = z.object({ exchange: exchangeParam }).strict();

export const swapAssetsFromQuery = z.object({ exchange: exchangeParam, from: chainName.optional() }).strict();

export const swapAssetsToQuery = z.object({ exchange: exchangeParam, to: chainName.optional() }).strict();
