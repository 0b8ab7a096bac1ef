import { MemoryBackend } from '../../../src/service/watch/memory-backend';
import { backendContract } from './backend-contract';

backendContract('memory', async (options) => new MemoryBackend(options));
