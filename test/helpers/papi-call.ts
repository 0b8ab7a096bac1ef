// Decodes call data the way polkadot-api does (`txFromCallData`): with the codecs polkadot-api
// builds from a chain's metadata (@polkadot-api/metadata-builders and substrate-bindings, the
// copies polkadot-api itself depends on), no polkadot.js involved.
import { createRequire } from 'node:module';
import type { TestChain } from '../support/test-chain';

const fromPapi = createRequire(createRequire(__filename).resolve('polkadot-api'));
const bindings = fromPapi('@polkadot-api/substrate-bindings') as typeof import('../../node_modules/polkadot-api/node_modules/@polkadot-api/substrate-bindings');
const builders = fromPapi('@polkadot-api/metadata-builders') as typeof import('../../node_modules/polkadot-api/node_modules/@polkadot-api/metadata-builders');

export interface PapiCall {
  /** Pallet name as in the metadata, e.g. `XcmPallet`. */
  pallet: string;
  /** Call name as in the metadata, e.g. `limited_teleport_assets`. */
  call: string;
  args: Record<string, unknown>;
}

type CallCodec = { dec: (hex: string) => { type: string; value: { type: string; value: Record<string, unknown> } }; enc: (v: unknown) => Uint8Array };
const codecs = new Map<string, CallCodec>();

function runtimeCallCodec(chain: TestChain): CallCodec {
  let codec = codecs.get(chain.chain);
  if (!codec) {
    const lookup = builders.getLookupFn(bindings.unifyMetadata(bindings.decAnyMetadata(chain.metadataHex)));
    if (lookup.call === null) throw new Error(`${chain.chain}: metadata names no RuntimeCall type`);
    codec = builders.getDynamicBuilder(lookup).buildDefinition(lookup.call) as unknown as CallCodec;
    codecs.set(chain.chain, codec);
  }
  return codec;
}

/** Decodes `hex` as one call of `chain`; throws unless the bytes are exactly one call. */
export function decodeCallPapi(chain: TestChain, hex: string): PapiCall {
  const codec = runtimeCallCodec(chain);
  const decoded = codec.dec(hex);
  const again = bindings.Binary.fromBytes(codec.enc(decoded)).asHex();
  if (again !== hex.toLowerCase()) throw new Error(`not exactly one call: ${hex.length / 2 - 1} bytes given, the call re-encodes to ${again.length / 2 - 1}`);
  return { pallet: decoded.type, call: decoded.value.type, args: decoded.value.value };
}
