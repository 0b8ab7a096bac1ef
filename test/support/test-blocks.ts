// Blocks the test chains produce: the sandbox's (src/sandbox/blocks.ts).
export * from '../../src/sandbox/blocks';
