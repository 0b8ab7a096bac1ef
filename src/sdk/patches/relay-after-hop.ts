// Patch: a hop's dry run that forwards the message to the relay chain names the relay (para id 0).
//
// Corrects: sdk-pjs 11.14.8's getDryRunXcm (the dry run of a hop or the destination) reads the
// forwarded message's destination with `interior.Here`, a key polkadot.js's toJSON never writes (it
// writes `here`), so a hop forwarding to its relay chain (Asset Hub to Polkadot, on the way from
// Hydration) gave no next chain: the SDK stopped after the hop, /xcm-fee priced the relay's
// execution 0 (`noFeeRequired`) and /dry-run answered no destination, while the relay charges it.
// getDryRunCall (the origin) reads `here` and is right.
//
// Still needed? Read sdk-pjs's PolkadotJsApi.getDryRunXcm, where it computes `destParaId`: if it
// reads `here` (lowercase) the patch can go. Remove it and run the guard tests.
//
// Guarded by: test/sandbox/preflight-routes.test.ts "Hydration -> Polkadot DOT (through Asset
// Hub)"; test/sandbox/route-matrix.test.ts "Hydration -> Polkadot DOT".
import { apiPrototypeOf } from '../api-prototype';
import { sdk } from '../load';

interface DryRunXcmResult {
  success: boolean;
  forwardedXcms?: unknown;
  destParaId?: number;
}

interface SdkDryRunXcmApi {
  getDryRunXcm(options: unknown): Promise<DryRunXcmResult>;
}

/** Whether the destination of a forwarded message (`[{v5: location}, messages]`, as toJSON writes it) is the relay chain. */
function toRelay(forwarded: unknown): boolean {
  if (!Array.isArray(forwarded) || forwarded.length === 0) return false;
  const location = Object.values((forwarded[0] ?? {}) as Record<string, unknown>)[0] as { parents?: number; interior?: Record<string, unknown> } | undefined;
  return location?.parents === 1 && location.interior !== undefined && 'here' in location.interior;
}

export function followForwardsToTheRelay(): void {
  const proto = apiPrototypeOf<SdkDryRunXcmApi>(sdk);
  const getDryRunXcm = proto.getDryRunXcm;
  proto.getDryRunXcm = async function (this: SdkDryRunXcmApi, options) {
    const result = await getDryRunXcm.call(this, options);
    if (result.success && result.destParaId === undefined && toRelay(result.forwardedXcms)) return { ...result, destParaId: 0 };
    return result;
  };
}
