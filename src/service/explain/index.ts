// Reads call data (or a serialized EVM transaction) back into what it will do, before it is signed
// (explain-service.ts): the call decoded argument by argument (call-decoder.ts), what it moves
// (call-reader.ts), XCM values and programs in registry terms and plain sentences (xcm-reader.ts,
// xcm-sentences.ts), locations as the compact paths of /xcm-analyser (location-paths.ts), EVM transactions and XCM-interface precompile calls (evm-reader.ts,
// xcm-interface-reader.ts). views.ts holds the shapes they share.
export { ExplainService } from './explain-service';
export { locationPaths } from './location-paths';
