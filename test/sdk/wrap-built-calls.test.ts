import { expect, it } from 'vitest';
import { patchSdk, sdk } from '../../src/sdk';
import { apiPrototypeOf } from '../../src/sdk/api-prototype';
import { leanPricing } from '../../src/sdk/patches/lean-pricing';
import { polkadotApiForFile } from '../support/polkadot-api-for-file';

// patches/wrap-built-calls.ts: the SDK's batch and dispatchAs wraps take the calls it built (each
// transaction's `method`) instead of making them again from their arguments; the wrap's bytes are
// the same as the SDK's own.
patchSdk();

interface Wraps {
  callBatchMethod(calls: unknown[], mode: string): Wrapped;
  callDispatchAsMethod(call: unknown, address: string): Wrapped;
}
interface Wrapped {
  method: { args: unknown[] };
  toHex(): string;
}

const ADDRESS = '15mYsj6DpBno58jRoV5HCTiVPFBuWhDLdsWtq3LxwZrfaTEZ';
const proto = apiPrototypeOf<Wraps>(sdk);
const file = polkadotApiForFile();

it('batchAll and dispatchAs hold the calls as built, with the bytes of the SDK\'s own wraps', () => {
  const self = { api: file.api };
  const transfer = file.api.tx.balances.transferKeepAlive(ADDRESS, 123_456_789n);
  const remark = file.api.tx.system.remark('0x0102');
  const lean = { batch: proto.callBatchMethod.call(self, [transfer, remark], 'BATCH_ALL'), dispatch: proto.callDispatchAsMethod.call(self, transfer, ADDRESS) };
  leanPricing.on = false;
  const own = { batch: proto.callBatchMethod.call(self, [transfer, remark], 'BATCH_ALL'), dispatch: proto.callDispatchAsMethod.call(self, transfer, ADDRESS) };

  expect(lean.batch.toHex()).toBe(own.batch.toHex());
  expect(lean.dispatch.toHex()).toBe(own.dispatch.toHex());
  const [leanCalls] = lean.batch.method.args as [unknown[]];
  const [ownCalls] = own.batch.method.args as [unknown[]];
  expect(leanCalls[0]).toBe(transfer.method);
  expect(leanCalls[1]).toBe(remark.method);
  expect(ownCalls[0]).not.toBe(transfer.method);
  expect(lean.dispatch.method.args[1]).toBe(transfer.method);
  expect(own.dispatch.method.args[1]).not.toBe(transfer.method);
});
