// Transfers built as unsigned call data: chain to chain, local (keepAlive rebuilds the SDK's call
// as transfer / transfer_keep_alive: transfer-keep-alive.ts), batches of both, and transact (a call
// run on the destination, built here over @polkadot/api with its XCM programs: transact.ts,
// xcm-programs.ts). The SDK builds everything else (transfer-service.ts).
export { configure, TransferService } from './transfer-service';
export { applyKeepAlive } from './transfer-keep-alive';
export { accountJunction, junctionsOf, location, normalize, type Location } from './xcm-programs';
