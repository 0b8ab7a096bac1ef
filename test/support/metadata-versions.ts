// Metadata v15 projection and spec-version edits: the sandbox's (src/sandbox/metadata-versions.ts).
export * from '../../src/sandbox/metadata-versions';
