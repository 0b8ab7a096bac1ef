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

/** One value per family, made once: a schema named per family in openapi.yaml is one schema. */
export function byFamily<T>(make: (family: Family) => T): Record<Family, T> {
  return { v5: make('v5'), v2: make('v2') };
}

/** How openapi.yaml names a family's variant of a component: `TransferBodyV5`. */
export const componentName = (name: string, family: Family): string => `${name}${family.toUpperCase()}`;
