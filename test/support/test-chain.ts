// The test suite's local chains are the sandbox's emulated nodes (src/sandbox/chain-node.ts), under
// the names the tests use; plus two servers that are not chains at all (a black hole and a port
// nothing listens on), which only tests need.
import * as net from 'node:net';
import { closeServer, Connections, countedServer, listen, type CountedServer } from '../../src/sandbox/loopback-server';

export {
  decodeCall,
  HYDRATION_DESCRIPTORS,
  SANDBOX_CHAINS as TEST_CHAIN_NAMES,
  startChainNode as startTestChain,
  type ChainNode as TestChain,
  type ChainNodeOptions as TestChainOptions,
  type DecodedCall,
  type RuntimeAnswer,
  type SandboxChainName as TestChainName,
} from '../../src/sandbox/chain-node';

export interface BlackHole extends CountedServer {
  readonly url: string;
}

/** A TCP server that accepts sockets and never answers: the WebSocket handshake never completes. */
export async function startBlackHole(): Promise<BlackHole> {
  const connections = new Connections<net.Socket>();
  const server = net.createServer((socket) => {
    connections.take(socket);
    socket.resume(); // read and drop whatever arrives
  });
  const port = await listen(server);
  const hole = countedServer(port, connections, async () => {
    for (const s of connections.open) s.destroy();
    connections.open.clear();
    await closeServer(server);
  });
  return Object.assign(hole, { url: `ws://127.0.0.1:${port}` });
}

/**
 * A URL whose connections are refused: port 0, where nothing can listen (binding port 0 asks the
 * OS for a free port). A port that was free a moment ago may be anyone's by the time it is dialled.
 */
export function refusedUrl(): Promise<string> {
  return Promise.resolve('ws://127.0.0.1:0');
}
