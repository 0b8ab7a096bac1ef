// The patches that only make the SDK's fee pricing cheaper, with the same answers
// (wrap-built-calls.ts, storage-entry-json.ts, enum-json-keys.ts, query-memo.ts's
// findAssetInfoOrThrow), take the SDK's own path while `on` is false: the guard test
// (test/http/priced-builds.test.ts) answers each route of the matrix both ways in one process and
// compares the bytes. Nothing else turns it off.
export const leanPricing = { on: true };
