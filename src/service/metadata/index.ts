// What a hardware wallet needs to sign what we build (RFC-0078): the metadata hash the
// CheckMetadataHash extension commits to (mode 1), and the proof of the metadata one transaction
// uses. Metadata v15 comes over the pool, under the request deadline and a ReadBudget.
import type { Config } from '../../config';
import type { ConnectionPool } from '../../chains/pool';
import { badRequest } from '../../errors';
import type { ApiPromise } from '../../sdk';
import type { MetadataHashRequest, MetadataOptions, MetadataProofRequest, SigningPayload } from '../../schemas/metadata';
import { endpointResolver, ReadBudget, readLimits, runOnChains } from '../sdk-calls';
import { MerkleizedMetadataCache, type ChainMetadata } from './merkleized';
import { callEnd, payloadEnds, PayloadReadError } from './payload';

/** What `POST /metadata-hash` answers: the cached runtime's facts, without its merkleizer. */
export type MetadataHashAnswer = Omit<ChainMetadata, 'merkleizer'>;

export interface MetadataProofAnswer {
  metadataHash: `0x${string}`;
  proof: `0x${string}`;
}

/** Call data with the hash of the runtime it is for (`options.metadataHash` of the transfer operations). */
export interface SignableCall {
  callData: string;
  metadataHash: `0x${string}`;
  specVersion: number;
}

const hex = (bytes: Uint8Array): `0x${string}` => `0x${Buffer.from(bytes).toString('hex')}`;
const bytesOf = (h: string): Uint8Array => Uint8Array.from(Buffer.from(h.slice(2), 'hex'));
const reason = (error: unknown): string => (error instanceof Error ? error.message : String(error)).split('\n')[0].slice(0, 200);

const undecodable = (field: string, message: string) => badRequest('ValidationError', `${field} ${message}`, [{ path: `body.${field}`, message }]);

/** SCALE compact encoding of a length below 2^30. */
function compactLength(n: number): number[] {
  if (n < 1 << 6) return [n << 2];
  if (n < 1 << 14) return [((n << 2) | 1) & 0xff, n >> 6];
  const v = ((n << 2) | 2) >>> 0;
  return [v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, v >>> 24];
}

/** An unsigned v4 extrinsic holding only `callData`: how the library reads a lone call. */
const bareExtrinsic = (callData: Uint8Array): Uint8Array => new Uint8Array([...compactLength(callData.length + 1), 0x04, ...callData]);

const runtimeOf = (meta: ChainMetadata): string => `${meta.chain} (spec ${meta.specVersion})`;

/** The proof of a whole signing payload, which must read to its last byte. */
function provePayload(meta: ChainMetadata, payload: Uint8Array): Uint8Array {
  try {
    const proof = meta.merkleizer.getProofForExtrinsicPayload(payload);
    const { includedInSignedData: end } = payloadEnds(proof, payload);
    if (end !== payload.length) throw new PayloadReadError(end, `${payload.length - end} byte(s) left over after the signed data`);
    return proof;
  } catch (error) {
    throw undecodable('payload', `does not read as a signing payload of ${runtimeOf(meta)}: call data, the extensions' data, their signed data (${reason(error)})`);
  }
}

/**
 * The proof of a payload given in parts, each checked to end where its types end. The call is
 * read alone first, so that a failure names the part that does not decode.
 */
function proveParts(meta: ChainMetadata, callData: Uint8Array, extra: Uint8Array, signed: Uint8Array): Uint8Array {
  const runtime = runtimeOf(meta);
  try {
    const call = callEnd(meta.merkleizer.getProofForExtrinsic(bareExtrinsic(callData)), callData);
    if (call !== callData.length) throw new PayloadReadError(call, `${callData.length - call} byte(s) left over after one call`);
  } catch (error) {
    throw undecodable('callData', `does not decode as one call of ${runtime} (${reason(error)})`);
  }
  let proof: Uint8Array;
  let ends: ReturnType<typeof payloadEnds>;
  try {
    proof = meta.merkleizer.getProofForExtrinsicParts(callData, extra, signed);
    ends = payloadEnds(proof, new Uint8Array([...callData, ...extra, ...signed]));
  } catch (error) {
    const message = `do not decode as the transaction extensions of ${runtime} (${reason(error)})`;
    throw badRequest('ValidationError', `includedInExtrinsic and includedInSignedData ${message}`, [
      { path: 'body.includedInExtrinsic', message },
      { path: 'body.includedInSignedData', message },
    ]);
  }
  const extraEnd = callData.length + extra.length;
  if (ends.includedInExtrinsic !== extraEnd) {
    throw undecodable('includedInExtrinsic', `is ${extra.length} byte(s), but the extensions' data of ${runtime} take ${ends.includedInExtrinsic - callData.length} here`);
  }
  if (ends.includedInSignedData !== extraEnd + signed.length) {
    throw undecodable('includedInSignedData', `is ${signed.length} byte(s), but the extensions' signed data of ${runtime} take ${ends.includedInSignedData - extraEnd} here`);
  }
  return proof;
}

function prove(meta: ChainMetadata, signing: SigningPayload): Uint8Array {
  if ('payload' in signing) return provePayload(meta, bytesOf(signing.payload));
  return proveParts(meta, bytesOf(signing.callData), bytesOf(signing.includedInExtrinsic), bytesOf(signing.includedInSignedData));
}

export class MetadataService {
  readonly #cache = new MerkleizedMetadataCache();

  constructor(
    private readonly pool: ConnectionPool,
    private readonly config: Config,
  ) {}

  async hash(req: MetadataHashRequest): Promise<MetadataHashAnswer> {
    const { chain, specName, specVersion, metadataHash, decimals, tokenSymbol, base58Prefix } = await this.#current(req.chain, req.options);
    return { chain, specName, specVersion, metadataHash, decimals, tokenSymbol, base58Prefix };
  }

  async proof(req: MetadataProofRequest): Promise<MetadataProofAnswer> {
    const meta = await this.#current(req.chain, req.options);
    return { metadataHash: meta.metadataHash, proof: hex(prove(meta, req.signing)) };
  }

  /** The call `build` makes on `chain`, with the hash of the chain's current runtime (read alongside). */
  async signable(chain: string, options: MetadataOptions, build: () => Promise<string>): Promise<SignableCall> {
    const [callData, meta] = await Promise.all([build(), this.#current(chain, options)]);
    return { callData, metadataHash: meta.metadataHash, specVersion: meta.specVersion };
  }

  #current(chain: string, options: MetadataOptions): Promise<ChainMetadata> {
    return runOnChains(this.pool, this.config, options, `Reading the metadata of ${chain}`, async (call) => {
      const api = (await call.apiOverrides[chain]) as ApiPromise;
      return this.#cache.current(api, chain, endpointResolver(options, this.config.CHAIN_ENDPOINTS)(chain), new ReadBudget(readLimits(this.config)));
    });
  }
}
