// The route matrix (issue 32): every transfer among the sandbox's chains for every asset the
// registry holds on both ends, with the refusals expected, by `from -> to asset`. Written out as
// facts (where each chain and asset sits) rather than read from the service, so the tests that
// use it check the service against them: test/http/route-matrix.test.ts (what the call data
// reaches) and test/sandbox/route-matrix.test.ts (what the sandbox's chains then do with it).
import { sdk } from '../../src/sdk';
import { TEST_CHAIN_NAMES, type TestChainName } from './test-chain';

/** Where each chain sits: its path from the top of the universe (relay = network, parachain = network + para id). */
export const PLACE: Record<TestChainName, string[]> = {
  Polkadot: ['network:polkadot'],
  AssetHubPolkadot: ['network:polkadot', 'parachain:1000'],
  BridgeHubPolkadot: ['network:polkadot', 'parachain:1002'],
  Moonbeam: ['network:polkadot', 'parachain:2004'],
  Hydration: ['network:polkadot', 'parachain:2034'],
  Kusama: ['network:kusama'],
  AssetHubKusama: ['network:kusama', 'parachain:1000'],
};

export type Asset = 'DOT' | 'KSM' | 'USDT' | 'USDC' | 'HDX' | 'GLMR';

/** Each asset's path from the top of the universe. */
export const ASSET_PLACE: Record<Asset, string[]> = {
  DOT: ['network:polkadot'],
  KSM: ['network:kusama'],
  USDT: ['network:polkadot', 'parachain:1000', 'palletInstance:50', 'generalIndex:1984'],
  USDC: ['network:polkadot', 'parachain:1000', 'palletInstance:50', 'generalIndex:1337'],
  HDX: ['network:polkadot', 'parachain:2034', 'generalIndex:0'],
  GLMR: ['network:polkadot', 'parachain:2004', 'palletInstance:10'],
};

export const networkOf = (chain: TestChainName): string => PLACE[chain][0]!;

/** The asset as the chains of `network` locate it (the registry's spelling), for selecting it. */
export function selector(asset: Asset, network: string): unknown {
  const [home, ...rest] = ASSET_PLACE[asset];
  const junction = (key: string) => {
    const [type, value] = key.split(':') as [string, string];
    if (type === 'network') return { GlobalConsensus: { [value]: null } };
    return { [type.charAt(0).toUpperCase() + type.slice(1)]: Number(value) };
  };
  const interior = (keys: string[]) => (keys.length === 0 ? { Here: null } : { [`X${keys.length}`]: keys.map(junction) });
  if (home !== network) return { parents: 2, interior: interior([home!, ...rest]) };
  return { parents: 1, interior: interior(rest) };
}

export interface Refusal {
  status: number;
  kind: string;
  /** What the message must say. */
  says: RegExp;
}

const CROSS = { status: 400, kind: 'UnsupportedOperationError', says: /only the asset hubs bridge the two|relay chains do not transfer to each other/ };
const BRIDGE_HUB_OUT = { status: 400, kind: 'UnsupportedOperationError', says: /Unable to use BridgeHubPolkadot for transfers to other Parachains/ };
const NATIVE_AH = { status: 400, kind: 'UnsupportedOperationError', says: /Native asset transfers to or from AssetHub are temporarily disabled/ };
/** Polkadot's stablecoins are listed on Kusama's asset hub (bridged), but the SDK bridges only DOT and KSM. */
const NOT_HELD_THERE = { status: 400, kind: 'AmbiguousAssetError', says: /does not hold at its location/ };
/** The SDK pays Asset Hub's execution in HDX, which Asset Hub does not take: the route check refuses the call. */
const FEES_NOT_TAKEN = { status: 500, kind: 'RouteCheckError', says: /at hop 3 \(AssetHubPolkadot\), BuyExecution\.fees: AssetHubPolkadot does not take HDX for fees/ };
const NO_ASSET_ID = { status: 400, kind: 'InvalidCurrencyError', says: /USDt.*has no assetId/ };

/** Every refusal, by `from -> to asset`: anything not listed must build. */
export const REFUSED: Record<string, Refusal> = {
  'Polkadot -> AssetHubKusama DOT': CROSS,
  'AssetHubPolkadot -> Kusama KSM': CROSS,
  'BridgeHubPolkadot -> Moonbeam DOT': BRIDGE_HUB_OUT,
  'BridgeHubPolkadot -> Hydration DOT': BRIDGE_HUB_OUT,
  'BridgeHubPolkadot -> AssetHubKusama DOT': CROSS,
  'AssetHubPolkadot -> Moonbeam GLMR': NATIVE_AH,
  'AssetHubPolkadot -> Hydration HDX': NATIVE_AH,
  'Moonbeam -> AssetHubPolkadot GLMR': NATIVE_AH,
  'Hydration -> AssetHubPolkadot HDX': NATIVE_AH,
  'Moonbeam -> AssetHubPolkadot HDX': FEES_NOT_TAKEN,
  'Moonbeam -> AssetHubKusama DOT': CROSS,
  'Hydration -> Kusama KSM': CROSS,
  'Hydration -> AssetHubKusama DOT': CROSS,
  'Hydration -> AssetHubKusama KSM': CROSS,
  'Kusama -> AssetHubPolkadot KSM': CROSS,
  'Kusama -> Hydration KSM': CROSS,
  'AssetHubKusama -> Polkadot DOT': CROSS,
  'AssetHubKusama -> BridgeHubPolkadot DOT': CROSS,
  'AssetHubKusama -> Moonbeam DOT': CROSS,
  'AssetHubKusama -> Hydration DOT': CROSS,
  'AssetHubKusama -> Hydration KSM': CROSS,
  'AssetHubPolkadot -> AssetHubKusama USDT': NOT_HELD_THERE,
  'AssetHubPolkadot -> AssetHubKusama USDC': NOT_HELD_THERE,
  'AssetHubKusama -> AssetHubPolkadot USDT': NO_ASSET_ID,
  'AssetHubKusama -> AssetHubPolkadot USDC': NOT_HELD_THERE,
  'AssetHubKusama -> Hydration USDT': CROSS,
  'AssetHubKusama -> Hydration USDC': CROSS,
  'AssetHubKusama -> Moonbeam USDT': CROSS,
  'AssetHubKusama -> Moonbeam USDC': CROSS,
  'Hydration -> AssetHubKusama USDT': CROSS,
  'Hydration -> AssetHubKusama USDC': CROSS,
  'Moonbeam -> AssetHubKusama USDT': CROSS,
  'Moonbeam -> AssetHubKusama USDC': CROSS,
};

export interface Route {
  from: TestChainName;
  to: TestChainName;
  asset: Asset;
}

const ASSETS = Object.keys(ASSET_PLACE) as Asset[];

/** The routes the registry allows: the asset is listed on the origin (for that destination) and on the destination. */
function registryRoutes(): Route[] {
  const routes: Route[] = [];
  for (const from of TEST_CHAIN_NAMES)
    for (const to of TEST_CHAIN_NAMES) {
      if (from === to) continue;
      for (const asset of ASSETS) {
        const onOrigin = sdk.findAssetInfo(from, { location: selector(asset, networkOf(from)) } as never, to);
        const onDestination = sdk.findAssetInfo(to, { location: selector(asset, networkOf(to)) } as never, null);
        if (onOrigin && onDestination) routes.push({ from, to, asset });
      }
    }
  return routes;
}

export const ROUTES = registryRoutes();
export const key = ({ from, to, asset }: Route) => `${from} -> ${to} ${asset}`;
