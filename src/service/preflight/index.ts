// Pre-flight queries and balances: dry runs, XCM fees, transfer info and the transferable amounts,
// answered before anything is signed (preflight-service.ts). The SDK gets balances and fees; the
// contract's amount formulas are ours (amount-rules.ts); what the SDK returns is translated into
// the contract's result shapes, one file per result (dry-run-result.ts, xcm-fee-result.ts,
// transfer-info-result.ts; route-legs.ts and contract-asset.ts hold what they share).
export { PreflightService } from './preflight-service';
export { registryAssetResolver } from './contract-asset';
export { toDryRunResult, type DryRunHop, type DryRunLeg, type DryRunResult } from './dry-run-result';
export { toXcmFeeResult, type XcmFeeHop, type XcmFeeLeg, type XcmFeeResult } from './xcm-fee-result';
