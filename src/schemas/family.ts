/**
 * The two path families serve the same operations; they differ in field names (this table) and in
 * defaults (`abstractDecimals` is on in /v2). The schemas translate both into one request model.
 */
export type Family = 'v5' | 'v2';
export const FAMILIES: readonly Family[] = ['v5', 'v2'];

/** The family's names for the recipient, sender and transact fields. */
export const FAMILY_FIELDS = {
  v5: { recipient: 'address', sender: 'senderAddress', transact: 'transact' },
  v2: { recipient: 'recipient', sender: 'sender', transact: 'transactOptions' },
} as const satisfies Record<Family, Record<string, string>>;
