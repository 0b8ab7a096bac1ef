// The layout's rules, checked by test/layers.test.ts (`npm run deps` prints the same report).
// Layers point down only: http -> service -> chains, sdk. schemas (the request model both http and
// service share) sits beside them and imports only leaf modules; ops (metrics, counters, keys)
// observes through interfaces it owns. The sandbox sits on top, beside server.ts. A capability folder of src/service and src/sdk is entered
// through its index.ts only. No import cycle, type-only imports included.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      comment: 'Modules must not import each other, even for types: split out what both need.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'service-not-up',
      comment: 'The service layer knows nothing of HTTP.',
      severity: 'error',
      from: { path: '^src/service/' },
      to: { path: '^src/(http/|server\\.ts)' },
    },
    {
      name: 'chains-sdk-not-up',
      comment: 'Connections and the SDK know nothing of the service, HTTP or ops.',
      severity: 'error',
      from: { path: '^src/(chains|sdk)/' },
      to: { path: '^src/(service|http|ops|schemas)/|^src/server\\.ts' },
    },
    {
      name: 'schemas-leaf-only',
      comment: 'Schemas turn bodies into the request model: they may use errors, config and the SDK registry, nothing above.',
      severity: 'error',
      from: { path: '^src/schemas/' },
      to: { path: '^src/(http|service|chains|ops)/|^src/server\\.ts' },
    },
    {
      name: 'ops-not-up',
      comment: 'ops observes through interfaces it owns; it does not import http or the service.',
      severity: 'error',
      from: { path: '^src/ops/' },
      to: { path: '^src/(http|service)/|^src/server\\.ts' },
    },
    {
      name: 'leaves',
      comment: 'errors, config and the logger are leaves everything may import.',
      severity: 'error',
      from: { path: '^src/(errors|config|logger|project-root)\\.ts$' },
      to: { path: '^src/' },
    },
    {
      name: 'xcm-leaf',
      comment: 'src/xcm is XCM as plain data (locations, re-anchoring): every layer and the sandbox use it, it imports nothing of ours.',
      severity: 'error',
      from: { path: '^src/xcm/' },
      to: { path: '^src/', pathNot: '^src/xcm/' },
    },
    {
      name: 'service-folder-door',
      comment: 'Another capability enters a service folder through its index.ts.',
      severity: 'error',
      from: { path: '^src/service/([^/]+)/' },
      to: { path: '^src/service/[^/]+/', pathNot: ['^src/service/$1/', '^src/service/[^/]+/index\\.ts$'] },
    },
    {
      name: 'service-door-from-outside',
      comment: 'Outside src/service, a capability is entered through its index.ts.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/service/' },
      to: { path: '^src/service/[^/]+/', pathNot: '^src/service/[^/]+/index\\.ts$' },
    },
    {
      name: 'sdk-door',
      comment: 'The SDK is entered through src/sdk/index.ts (version.ts, a leaf, is read at start-up before the SDK loads).',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/sdk/' },
      to: { path: '^src/sdk/', pathNot: '^src/sdk/(index|version)\\.ts$' },
    },
    {
      name: 'sandbox-on-top',
      comment: 'The sandbox (emulated nodes and the service started over them) is a program of its own, like server.ts: nothing else in src imports it.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/sandbox/' },
      to: { path: '^src/sandbox/' },
    },
    {
      name: 'sdk-loads-once',
      comment:
        'Only src/sdk loads the SDK, polkadot.js (@polkadot/*) and polkadot-api (types may be imported anywhere): one copy, one type registry. ' +
        'The sandbox too: its emulated nodes encode with polkadot.js, loaded through require, the same CommonJS copy as src/sdk/load.ts.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(sdk|sandbox)/' },
      to: { path: 'node_modules/(@paraspell|@polkadot|polkadot-api)/', dependencyTypesNot: ['type-only'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type-only imports count: a cycle of types is still a cycle.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '^dist/' },
  },
};
