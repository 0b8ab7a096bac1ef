// polkadot-api (1 and 2) as a wallet uses it against the sandbox's nodes: a client over the new
// JSON-RPC spec and a signer of a development account derived as its docs show
// (@polkadot-labs/hdkd over hdkd-helpers' development phrase). Both versions ship as ES modules
// only: loaded with import(), typed here for what the tests use.

/** The two polkadot-api versions the tests drive: the `polkadot-api` (1) and `polkadot-api-2` (2.2.2) dev dependencies. */
export type PapiVersion = 'polkadot-api' | 'polkadot-api-2';

export interface PapiEvent {
  type: string;
  value: { type: string };
}

export interface Finalized {
  ok: boolean;
  txHash: string;
  events: PapiEvent[];
  block: { hash: string; number: number; index: number };
}

/** What `signSubmitAndWatch` emits (`signed`, `broadcasted`, `txBestBlocksState`, `finalized`). */
export type WatchEvent = ({ type: 'finalized' } & Finalized) | { type: 'txBestBlocksState'; txHash: string; found: boolean } | { type: 'signed' | 'broadcasted'; txHash: string };

export interface PapiTx {
  signAndSubmit(signer: unknown, options?: { nonce?: number }): Promise<Finalized>;
  signSubmitAndWatch(signer: unknown, options?: { nonce?: number }): { subscribe(observer: { next(e: WatchEvent): void; error(e: unknown): void }): { unsubscribe(): void } };
}

export interface PapiStatics {
  constants: { System: { Version: { spec_version: number } } };
  tx: { System: { remark: { getEncodedData(args: { remark: unknown }): Uint8Array } } };
}

export interface PapiClient {
  getChainSpecData(): Promise<{ name: string; genesisHash: string; properties: Record<string, unknown> }>;
  getUnsafeApi(): {
    getStaticApis?(): Promise<PapiStatics>;
    tx: { System: { remark(args: { remark: unknown }): PapiTx } };
    txFromCallData(data: unknown): Promise<PapiTx>;
  };
  destroy(): void;
}

export interface Papi {
  createClient(provider: unknown): PapiClient;
  Binary: { fromHex(hex: string): unknown; fromText(text: string): unknown };
  getWsProvider(url: string): unknown;
  getPolkadotSigner(publicKey: Uint8Array, type: 'Sr25519', sign: (m: Uint8Array) => Uint8Array): unknown;
}

const importEsm = <T>(specifier: string): Promise<T> => import(specifier) as Promise<T>;

/** The modules a wallet imports from polkadot-api `version`. */
export async function loadPapi(version: PapiVersion): Promise<Papi> {
  const [main, ws, signer] = await Promise.all([
    importEsm<Pick<Papi, 'createClient' | 'Binary'>>(version),
    importEsm<Pick<Papi, 'getWsProvider'>>(`${version}/ws${version === 'polkadot-api' ? '-provider/node' : ''}`),
    importEsm<Pick<Papi, 'getPolkadotSigner'>>(`${version}/signer`),
  ]);
  return { createClient: main.createClient, Binary: main.Binary, getWsProvider: ws.getWsProvider, getPolkadotSigner: signer.getPolkadotSigner };
}

/** A development account's key pair (`//Alice` ...), derived from the development phrase as polkadot-api's docs do. */
export async function devKeyPair(name: string): Promise<{ publicKey: Uint8Array; sign(message: Uint8Array): Uint8Array }> {
  const { sr25519CreateDerive } = await importEsm<{ sr25519CreateDerive(seed: Uint8Array): (path: string) => { publicKey: Uint8Array; sign(m: Uint8Array): Uint8Array } }>('@polkadot-labs/hdkd');
  const helpers = await importEsm<{ DEV_PHRASE: string; entropyToMiniSecret(e: Uint8Array): Uint8Array; mnemonicToEntropy(m: string): Uint8Array }>('@polkadot-labs/hdkd-helpers');
  return sr25519CreateDerive(helpers.entropyToMiniSecret(helpers.mnemonicToEntropy(helpers.DEV_PHRASE)))(`//${name}`);
}

/** A polkadot-api signer of a development account. */
export async function devSigner(papi: Papi, name: string): Promise<unknown> {
  const pair = await devKeyPair(name);
  return papi.getPolkadotSigner(pair.publicKey, 'Sr25519', (message) => pair.sign(message));
}
