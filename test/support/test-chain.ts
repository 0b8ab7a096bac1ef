// The test suite's local chains are the sandbox's emulated nodes (src/sandbox/chain-node.ts), under
// the names the tests use; plus two servers that are not chains at all (a black hole and a port
// nothing listens on), which only tests need.
import * as net from 'node:net';

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

export interface BlackHole {
  readonly url: string;
  readonly port: number;
  readonly connectionsOpened: number;
  readonly openConnections: number;
  close(): Promise<void>;
}

function listen(server: net.Server, port = 0): Promise<boolean> {
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => resolve(true));
  });
}

const closeServer = (server: net.Server): Promise<void> => new Promise((resolve) => (server.listening ? server.close(() => resolve()) : resolve()));

/** A TCP server that accepts sockets and never answers: the WebSocket handshake never completes. */
export async function startBlackHole(): Promise<BlackHole> {
  const sockets = new Set<net.Socket>();
  let opened = 0;
  let closed = false;
  const server = net.createServer((socket) => {
    opened++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    socket.resume(); // read and drop whatever arrives
  });
  if (!(await listen(server))) throw new Error('black hole: cannot listen on 127.0.0.1');
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: `ws://127.0.0.1:${port}`,
    port,
    get connectionsOpened() {
      return opened;
    },
    get openConnections() {
      return sockets.size;
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const s of sockets) s.destroy();
      sockets.clear();
      await closeServer(server);
    },
  };
}

/**
 * A URL whose connections are refused: port 0, where nothing can listen (binding port 0 asks the
 * OS for a free port). A port that was free a moment ago may be anyone's by the time it is dialled.
 */
export function refusedUrl(): Promise<string> {
  return Promise.resolve('ws://127.0.0.1:0');
}
