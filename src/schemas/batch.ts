import { z } from 'zod';
import type { Family } from '../http/context';
import { FAMILY_FIELDS, optionsSchema, transferBody } from './transfer';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * `{transfers: [...], options: {mode}}`. Options belong to the whole batch: each transfer is
 * validated with them (abstract decimals, overrides), so a transfer may not carry its own.
 */
export function batchBody(family: Family) {
  const item = transferBody(family, { senderRequired: false });
  const options = optionsSchema(family, { mode: z.enum(['BATCH', 'BATCH_ALL'], { errorMap: () => ({ message: 'must be BATCH or BATCH_ALL' }) }).default('BATCH_ALL') });
  return z.preprocess(
    (raw, ctx) => {
      if (!isObject(raw) || !Array.isArray(raw.transfers)) return raw;
      const { mode: _mode, ...shared } = isObject(raw.options) ? raw.options : {};
      const transfers = raw.transfers.map((t: unknown, i: number) => {
        if (!isObject(t)) return t;
        if ('options' in t) ctx.addIssue({ code: 'custom', path: ['transfers', i, 'options'], message: 'options go at the top level of a batch', params: { kind: 'BatchValidationError' } });
        return { ...t, options: shared };
      });
      return { ...raw, transfers };
    },
    z
      .object({
        transfers: z
          .array(item, { required_error: 'is required', invalid_type_error: 'must be an array of transfers' }).superRefine((list, ctx) => {
            if (list.length === 0) ctx.addIssue({ code: 'custom', message: 'must list at least one transfer', params: { kind: 'BatchValidationError' } });
            const field = FAMILY_FIELDS[family].transact;
            list.forEach((t, i) => {
              if (t.transact !== undefined) ctx.addIssue({ code: 'custom', path: [i, field], message: `is not supported inside a batch: build the transact alone with POST /${family}/x-transfer`, params: { kind: 'BatchValidationError' } });
            });
          }),
        options,
      })
      .strict(),
  );
}
