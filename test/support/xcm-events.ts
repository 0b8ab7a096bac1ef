// Extrinsics and events of a transfer, for the test chains' blocks: the sandbox's (src/sandbox/xcm-events.ts).
export * from '../../src/sandbox/xcm-events';
