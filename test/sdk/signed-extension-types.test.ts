import { expect, it } from 'vitest';
import { patchSdk } from '../../src/sdk';
import { polkadotTypes } from '../../src/sdk/load';

// patches/signed-extension-types.ts: a registry expands its signed extensions' types once, until
// they are set again; every caller gets its own copy.
patchSdk();

it('the types follow each setSignedExtensions (user extensions too), and a caller changing its copy changes no one else\'s', () => {
  const registry = new polkadotTypes.TypeRegistry();
  registry.setSignedExtensions(['CheckMortality', 'CheckNonce']);
  expect(registry.getSignedExtensionTypes()).toEqual({ era: 'ExtrinsicEra', nonce: 'Compact<Index>' });
  registry.setSignedExtensions(['CheckMortality', 'CheckNonce', 'ChargeTransactionPayment']);
  expect(registry.getSignedExtensionTypes()).toEqual({ era: 'ExtrinsicEra', nonce: 'Compact<Index>', tip: 'Compact<Balance>' });
  registry.setSignedExtensions(['CheckMortality', 'Custom'], { Custom: { extrinsic: { custom: 'u32' }, payload: {} } });
  const types = registry.getSignedExtensionTypes();
  expect(types).toEqual({ era: 'ExtrinsicEra', custom: 'u32' });
  (types as Record<string, string>)['era'] = 'u8';
  expect(registry.getSignedExtensionTypes()).toEqual({ era: 'ExtrinsicEra', custom: 'u32' });
  // Another registry has its own.
  expect(new polkadotTypes.TypeRegistry().getSignedExtensionTypes()).not.toHaveProperty('custom');
});
