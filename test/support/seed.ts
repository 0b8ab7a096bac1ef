// Storage seeding for the test chains: the sandbox's (src/sandbox/seed.ts).
export * from '../../src/sandbox/seed';
