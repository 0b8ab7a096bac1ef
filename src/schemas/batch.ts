import { z } from 'zod';
import { doc, documentedAs } from './docs';
import { FAMILY_FIELDS, type Family } from './family';
import { LIMITS } from './limits';
import { metadataHashOption } from './metadata';
import { abortOnIssue, typeError } from './zod-rules';
import { optionsSchema, transferBody, transferFields } from './transfer';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const batchIssue = (message: string, path: (string | number)[] = []) => ({ code: 'custom' as const, path, message, params: { kind: 'BatchValidationError' } });

const transferList = () =>
  z.array(z.unknown(), typeError('must be an array of transfers', 'is required')).superRefine((list, ctx) => {
    if (list.length === 0) ctx.addIssue(batchIssue('must list at least one transfer'));
    if (list.length > LIMITS.batchTransfers) ctx.addIssue(batchIssue(`must list at most ${LIMITS.batchTransfers} transfers (it lists ${list.length})`));
  });

const batchMode = doc(z.enum(['BATCH', 'BATCH_ALL'], { error: 'must be BATCH or BATCH_ALL' }).default('BATCH_ALL'), {
  id: 'BatchMode',
  description: '`utility.batch` or `utility.batch_all` (all or nothing).',
});

/**
 * `{transfers: [...], options: {mode}}`. Options belong to the whole batch: they are checked once,
 * then each transfer is validated with them (abstract decimals, overrides), so a transfer may not
 * carry its own. The transfers are looked at only once the list and the options are valid: the
 * work stays proportional to at most the bounded number of transfers.
 */
export function batchBody(family: Family) {
  const item = transferBody(family, { senderRequired: false });
  const options = optionsSchema(family, { mode: batchMode, metadataHash: metadataHashOption });
  // Each transfer is read on its own, once the list is valid: the document shows what one holds.
  const transfers = documentedAs(
    transferList(),
    doc(z.array(transferFields(family, { senderRequired: false }).omit({ options: true })).min(1).max(LIMITS.batchTransfers), {
      description: `Transfers from one origin, without their own \`options\` or \`keepAlive\`; 1 to ${LIMITS.batchTransfers} (400 \`BatchValidationError\` otherwise).`,
    }),
  );
  return z
    .object({ transfers, options })
    .strict()
    .check(abortOnIssue)
    .transform((body, ctx) => {
      // zod runs a transform after unknown fields were reported; the transfers wait for a clean body.
      if (ctx.issues.length > 0) return z.NEVER;
      const { mode: _mode, metadataHash: _metadataHash, ...shared } = body.options;
      const transact = FAMILY_FIELDS[family].transact;
      const transfers = body.transfers.map((raw, i) => {
        if (isObject(raw) && 'options' in raw) ctx.addIssue(batchIssue('options go at the top level of a batch', ['transfers', i, 'options']));
        const parsed = item.safeParse(isObject(raw) ? { ...raw, options: shared } : raw);
        if (parsed.success && parsed.data.transact !== undefined) {
          ctx.addIssue(batchIssue(`is not supported inside a batch: build the transact alone with POST /x-transfer`, ['transfers', i, transact]));
        }
        if (parsed.success) return parsed.data;
        for (const issue of parsed.error.issues) ctx.addIssue({ ...issue, path: ['transfers', i, ...issue.path] });
        return undefined;
      });
      return { transfers: transfers as z.output<typeof item>[], options: body.options };
    });
}
