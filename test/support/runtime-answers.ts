// Runtime answers for the test chains: the sandbox's (src/sandbox/runtime-answers.ts).
export * from '../../src/sandbox/runtime-answers';
