// Ethereum and the EVM chains: unsigned EVM transactions for transfers that start on an EVM chain
// (evm-transfer-service.ts): Ethereum -> Polkadot over Snowbridge's gateway (snowbridge.ts), Moonbeam
// and Moonriver through the XTokens precompile (xtokens-precompile.ts), Moonbeam -> Ethereum through
// the XCM-interface precompile (moonbeam-ethereum.ts), with the precompiles' location encoding
// (precompile-locations.ts). Ethereum itself is read over JSON-RPC (ethereum-rpc.ts), balances
// included (ethereum-balance.ts).
export { buildApprove } from './approve';
export { BridgeFeeService } from './bridge-fees';
export { EvmTransferService } from './evm-transfer-service';
export { ethereumBalance } from './ethereum-balance';
export { ETHEREUM_CHAIN_ID, GATEWAY, GATEWAY_ABI } from './snowbridge';
export { NATIVE_ERC20, XTOKENS_ABI, XTOKENS_ORIGINS, XTOKENS_PRECOMPILE } from './xtokens-precompile';
export { XCM_INTERFACE_ABI, XCM_INTERFACE_PRECOMPILE } from './moonbeam-ethereum';
export { xc20Address } from './precompile-locations';
