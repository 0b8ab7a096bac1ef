import { getAddress, serializeTransaction, type Hex } from 'viem';
import type { TAssetInfo, TCurrencyInput } from '@paraspell/sdk-pjs';
import type { Config } from '../../config';
import type { ConnectionPool } from '../../chains/pool';
import { withDeadline } from '../../chains/deadline';
import { badRequest } from '../../errors';
import { sdk, type ApiPromise } from '../../sdk';
import { scaleAmount } from '../../schemas/amount-scale';
import { U128_MAX } from '../../schemas/limits';
import type { EvmTransferRequest } from '../../schemas/evm';
import { runOnChains, endpointResolver, sdkCall, withRequestAssets } from '../sdk-calls';
import { EthRpc } from './ethereum-rpc';
import { AddressGuard } from '../../chains/address-guard';
import { buildMoonbeamToEthereum, planMoonbeamToEthereum, ROUTE_CHAINS } from './moonbeam-ethereum';
import { buildSendToken, DEFAULT_ETHEREUM_RPC, snowbridgeDestination, type EvmCall } from './snowbridge';
import { checkXTokensDestination, XTOKENS_ORIGINS } from './xtokens-precompile';
import { planXTokensTransfer } from './xtokens-fees';
import { checkXcmInterfaceCall, checkXTokensCall } from './precompile-routes';
import type { RouteCheck } from '../route-check';

const SERVED_ORIGINS = 'Moonbeam and Moonriver (XTokens precompile; Moonbeam -> Ethereum through the XCM precompile) and Ethereum (Snowbridge gateway)';

/** ETHEREUM_RPC_URL is the operator's, not a caller's: any address it names may be dialled. */
const OPERATOR_ENDPOINT = new AddressGuard(true);

/** The amount in base units (the schema has refused zero): whole units scaled by the asset's decimals when abstractDecimals is on. */
export function toBaseUnits(amount: string, asset: TAssetInfo, abstractDecimals: boolean): bigint {
  let units: bigint;
  if (abstractDecimals) {
    const fraction = amount.split('.')[1] ?? '';
    if (fraction.length > asset.decimals) {
      throw badRequest('NumberFormatError', `currency.amount has more decimal places than ${asset.symbol} has (${asset.decimals})`, [
        { path: 'body.currency.amount', message: `must have at most ${asset.decimals} decimal places` },
      ]);
    }
    units = scaleAmount(amount, asset.decimals);
  } else {
    units = BigInt(amount);
  }
  if (units > U128_MAX) {
    throw badRequest('NumberFormatError', `currency.amount is ${units} base units, above the largest balance (2^128 - 1)`, [{ path: 'body.currency.amount', message: 'is too large' }]);
  }
  return units;
}

/** The currency without its amount: the selector the registry looks up. */
function selectorOf(req: EvmTransferRequest): TCurrencyInput {
  const { amount: _amount, ...selector } = req.currency;
  return selector as TCurrencyInput;
}

/** The request as a route check's refusal logs it. */
const logged = (req: EvmTransferRequest) => ({ from: req.from, to: req.to, currency: req.currency, recipient: req.recipient });

const findAsset = (req: EvmTransferRequest): TAssetInfo => sdkCall(() => sdk.findAssetInfoOrThrow(req.from, selectorOf(req), req.to));

/**
 * Builds unsigned EVM transactions for transfers that start on an EVM chain. The answer carries
 * chain id, target, data and value only: the client adds gas, fees and nonce, and signs.
 */
export class EvmTransferService {
  constructor(
    private readonly config: Config,
    private readonly pool: ConnectionPool,
    private readonly routes: RouteCheck,
  ) {}

  async build(req: EvmTransferRequest): Promise<Hex> {
    const call = await withRequestAssets(req.options, () => this.plan(req));
    return serializeTransaction({ type: 'eip1559', chainId: call.chainId, to: call.to, data: call.data, value: call.value });
  }

  private async plan(req: EvmTransferRequest): Promise<EvmCall> {
    if (req.from === 'Moonbeam' && req.to === 'Ethereum') return this.moonbeamToEthereum(req);
    if (XTOKENS_ORIGINS[req.from] !== undefined) return this.xtokens(req);
    if (req.from === 'Ethereum') return this.snowbridge(req);
    throw badRequest('UnsupportedOperationError', `Transfers from ${req.from} are not served by /evm-x-transfer; it serves ${SERVED_ORIGINS}. ${req.from} is a Substrate chain too: /x-transfer builds its transfers`);
  }

  private xtokens(req: EvmTransferRequest): EvmCall {
    checkXTokensDestination(req.from, req.to);
    const asset = findAsset(req);
    if (sdkCall(() => sdk.findAssetInfoOnDest(req.from, req.to, selectorOf(req))) === null) {
      throw badRequest('InvalidCurrencyError', `${asset.symbol} on ${req.from} has no counterpart on ${req.to} in the registry`);
    }
    const amount = toBaseUnits(req.currency.amount, asset, req.options.abstractDecimals);
    const call = planXTokensTransfer(this.routes, { from: req.from, to: req.to, asset, amount, recipient: req.recipient });
    checkXTokensCall(this.routes, req.from, call.data, { to: req.to, recipient: req.recipient }, logged(req));
    return call;
  }

  /** Checks everything it can offline, then reads BridgeHub, the asset hub and Moonbeam from the pool. */
  private async moonbeamToEthereum(req: EvmTransferRequest): Promise<EvmCall> {
    const asset = findAsset(req);
    const onEthereum = sdkCall(() => sdk.findAssetInfoOnDest(req.from, req.to, selectorOf(req)));
    const amount = toBaseUnits(req.currency.amount, asset, req.options.abstractDecimals);
    // The schema requires ahAddress on this route.
    const plan = planMoonbeamToEthereum(asset, onEthereum, { amount, sender: req.sender, recipient: req.recipient, ahAddress: req.ahAddress! });
    // Development mode without an endpoint for one of the chains is refused before any is dialled.
    ROUTE_CHAINS.forEach(endpointResolver(req.options, this.config.CHAIN_ENDPOINTS));
    return runOnChains(this.pool, this.config, req.options, 'Building Moonbeam -> Ethereum', async ({ apiOverrides }) => {
      const [moonbeam, assetHub, bridgeHub] = (await Promise.all(ROUTE_CHAINS.map((chain) => apiOverrides[chain]))) as ApiPromise[];
      const call = await buildMoonbeamToEthereum(plan, { moonbeam: moonbeam!, assetHub: assetHub!, bridgeHub: bridgeHub! });
      checkXcmInterfaceCall(this.routes, moonbeam!.registry, call.data, { to: 'Ethereum', recipient: req.recipient }, logged(req));
      return call;
    });
  }

  private async snowbridge(req: EvmTransferRequest): Promise<EvmCall> {
    const destination = snowbridgeDestination(req.to);
    const asset = findAsset(req);
    if (!('assetId' in asset) || typeof asset.assetId !== 'string') throw badRequest('InvalidCurrencyError', `${asset.symbol} has no token address on Ethereum`);
    const amount = toBaseUnits(req.currency.amount, asset, req.options.abstractDecimals);
    const url = this.ethereumEndpoint(req.options.development);
    // The operator's own endpoint may be a node on a private network; the public default is checked.
    const guard = url === this.config.ETHEREUM_RPC_URL ? OPERATOR_ENDPOINT : this.pool.guard;
    return withDeadline(
      (signal) => {
        const rpc = new EthRpc(url, { answerTimeoutMs: this.config.CONNECT_TIMEOUT_MS, signal, guard, maxBytes: this.config.CHAIN_MAX_FRAME_BYTES });
        return buildSendToken(rpc, { token: getAddress(asset.assetId as string), symbol: asset.symbol, amount, destination, recipient: req.recipient, sender: req.sender });
      },
      this.config.REQUEST_TIMEOUT_MS,
      `Quoting Ethereum -> ${req.to} on the Snowbridge gateway`,
    );
  }

  /** The operator's endpoint, else the registry's public one (which development mode refuses). */
  private ethereumEndpoint(development: boolean): string {
    if (this.config.ETHEREUM_RPC_URL) return this.config.ETHEREUM_RPC_URL;
    if (development) {
      throw badRequest(
        'MissingChainApiError',
        `options.development is on and ETHEREUM_RPC_URL is not set: the Snowbridge fee quote would go to the public endpoint ${DEFAULT_ETHEREUM_RPC}; the operator sets ETHEREUM_RPC_URL`,
      );
    }
    return DEFAULT_ETHEREUM_RPC;
  }
}
