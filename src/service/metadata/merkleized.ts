// The RFC-0078 merkleized metadata of a chain's current runtime, read over a pooled connection and
// kept per endpoint set and spec version. A runtime upgrade changes the hash, so the runtime
// version is read on every request; the metadata (about 0.5 MB) is fetched and merkleized once per
// version. The key includes the endpoints the connection was opened for, as the pool's does: what
// a caller's apiOverrides node answers is never served to requests for another node. The metadata
// is counted against the request's ReadBudget before it is merkleized: its bytes, and its types as
// items (merkleization's work grows with both).
import { merkleizeMetadata, type MetadataMerkleizer } from '@polkadot-api/merkleize-metadata';
import type { u16 } from '@polkadot/types';
import { distinctEndpoints } from '../../chains/endpoint';
import { badRequest, ChainResponseError } from '../../errors';
import type { ApiPromise } from '../../sdk';
import { announcedItems, type ReadBudget } from '../sdk-calls';
import { LIMITS } from '../../schemas/limits';

/** What `CheckMetadataHash` commits to on one runtime of one chain. */
export interface ChainMetadata {
  chain: string;
  specName: string;
  specVersion: number;
  metadataHash: `0x${string}`;
  decimals: number;
  tokenSymbol: string;
  base58Prefix: number;
  merkleizer: MetadataMerkleizer;
}

/** A merkleized runtime holds about 4 MB (Polkadot's, measured); the least recently used goes first. */
const MAX_ENTRIES = 16;
/** `Metadata_metadata_at_version(15)`: the u32 argument, SCALE. */
const V15 = '0x0f000000';

const hex = (bytes: Uint8Array): `0x${string}` => `0x${Buffer.from(bytes).toString('hex')}`;
const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

interface RuntimeVersion {
  specName: string;
  specVersion: number;
}

async function runtimeVersion(api: ApiPromise): Promise<RuntimeVersion> {
  const version = await api.rpc.state.getRuntimeVersion();
  return { specName: version.specName.toString(), specVersion: version.specVersion.toNumber() };
}

/** The raw v15 metadata (`meta`, 15, ...); a chain that serves none is a 400. */
async function metadataV15(api: ApiPromise, chain: string, budget: ReadBudget): Promise<Uint8Array> {
  budget.check(chain);
  // Measured by the socket first: an answer past what the request may still read is refused unparsed.
  const answer = (await budget.reading(chain, () => api.rpc.state.call('Metadata_metadata_at_version', V15))).toU8a(true);
  // As hex in the answer's JSON: two characters a byte.
  budget.bytes(chain, 2 * answer.length);
  // Option<OpaqueMetadata>, OpaqueMetadata being Vec<u8>.
  const option = api.registry.createType('Option<Bytes>', answer);
  if (option.encodedLength !== answer.length) throw new ChainResponseError(chain, 'answered Metadata_metadata_at_version(15) with bytes that are not an Option<OpaqueMetadata>');
  if (option.isNone) {
    throw badRequest('UnsupportedOperationError', `${chain} serves no metadata v15 (Metadata_metadata_at_version(15) is None): the RFC-0078 metadata hash and proofs are computed from v15`);
  }
  // A copy: the SCALE decoders below read a Uint8Array from the start of its buffer.
  const metadata = option.unwrap().toU8a(true).slice();
  if (Buffer.from(metadata.subarray(0, 4)).toString('latin1') !== 'meta' || metadata[4] !== 15) {
    throw new ChainResponseError(chain, 'answered Metadata_metadata_at_version(15) with bytes that are not metadata v15');
  }
  let types: number;
  try {
    types = announcedItems(metadata, 5).count;
  } catch (error) {
    throw new ChainResponseError(chain, `answered Metadata_metadata_at_version(15) with metadata whose type list does not read: ${message(error)}`);
  }
  budget.items(chain, types, 'metadata types');
  return metadata;
}

/** The first token's decimals and symbol from system_properties, as RFC-0078 takes them. */
async function tokenProperties(api: ApiPromise, chain: string): Promise<{ decimals: number; tokenSymbol: string }> {
  const properties = await api.rpc.system.properties();
  const decimals = properties.tokenDecimals.unwrapOr(undefined)?.[0]?.toNumber();
  const tokenSymbol = properties.tokenSymbol.unwrapOr(undefined)?.[0]?.toString();
  if (decimals === undefined || tokenSymbol === undefined) {
    throw new ChainResponseError(chain, 'publishes no tokenDecimals or tokenSymbol in system_properties, which the RFC-0078 metadata hash includes');
  }
  if (decimals > 255) throw new ChainResponseError(chain, `publishes tokenDecimals ${decimals}, more than the metadata hash's u8 holds`);
  if (tokenSymbol.length === 0 || tokenSymbol.length > LIMITS.symbol) throw new ChainResponseError(chain, `publishes a tokenSymbol of ${tokenSymbol.length} characters`);
  return { decimals, tokenSymbol };
}

/**
 * Fetches and merkleizes the metadata of runtime `version`. The metadata names its own version
 * (System.Version), which the library checks against `version`: metadata fetched just after an
 * upgrade is refused (502, naming both versions) rather than filed under the old one.
 */
async function load(api: ApiPromise, chain: string, version: RuntimeVersion, budget: ReadBudget): Promise<ChainMetadata> {
  const [metadata, token] = await Promise.all([metadataV15(api, chain, budget), tokenProperties(api, chain)]);
  // The SS58 prefix the hash includes is the metadata's System.SS58Prefix; the library checks this hint against it.
  const base58Prefix = (api.consts.system?.['ss58Prefix'] as u16 | undefined)?.toNumber();
  if (base58Prefix === undefined) throw new ChainResponseError(chain, 'has no System.SS58Prefix constant, which the metadata hash includes');
  let merkleizer: MetadataMerkleizer;
  let digest: Uint8Array;
  try {
    // With the hints the library also checks that the metadata's own System.Version agrees.
    merkleizer = merkleizeMetadata(metadata, { ...token, ...version, base58Prefix });
    digest = merkleizer.digest();
  } catch (error) {
    throw new ChainResponseError(chain, `sent metadata v15 that RFC-0078 merkleization cannot use: ${message(error)}`);
  }
  return { chain, ...version, metadataHash: hex(digest), ...token, base58Prefix, merkleizer };
}

export class MerkleizedMetadataCache {
  readonly #entries = new Map<string, ChainMetadata>();
  readonly #loading = new Map<string, Promise<ChainMetadata>>();

  /**
   * The current runtime's merkleized metadata of `chain`, reached through `api` opened on
   * `endpoints`; a load is counted against `budget` (the request that started it).
   */
  async current(api: ApiPromise, chain: string, endpoints: readonly string[], budget: ReadBudget): Promise<ChainMetadata> {
    const node = `${chain} ${distinctEndpoints(endpoints).join(' ')}`;
    const version = await runtimeVersion(api);
    const key = `${node} ${version.specName}/${version.specVersion}`;
    const cached = this.#entries.get(key);
    if (cached) {
      // Most recently used last.
      this.#entries.delete(key);
      this.#entries.set(key, cached);
      return cached;
    }
    let loading = this.#loading.get(key);
    if (!loading) {
      loading = load(api, chain, version, budget).then((entry) => {
        this.#remember(key, entry);
        return entry;
      });
      const settled = (): void => void this.#loading.delete(key);
      loading.then(settled, settled);
      this.#loading.set(key, loading);
    }
    return loading;
  }

  #remember(key: string, entry: ChainMetadata): void {
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    while (this.#entries.size > MAX_ENTRIES) this.#entries.delete(this.#entries.keys().next().value as string);
  }
}
