// The sandbox's Ethereum node: Ethereum JSON-RPC over HTTP POST on 127.0.0.1 (single requests and
// batches), answered by ethereum-mainnet.ts. The service reaches it as ETHEREUM_RPC_URL; a wallet
// reads the same node to add gas, fees and nonce to the transactions the service answers.
import * as http from 'node:http';
import { EthereumMainnet } from './ethereum-mainnet';
import { EthereumRpcError } from './ethereum-rpc';
import { closeServer, listen } from './loopback-server';

/** The largest request body read: a batch of calls, not a stranger's upload. */
const MAX_BODY_BYTES = 1 << 20;

export interface EthereumNode {
  readonly url: string;
  readonly port: number;
  readonly state: EthereumMainnet;
  close(): Promise<void>;
}

/** Answers one JSON-RPC request object. */
function answerOne(state: EthereumMainnet, req: unknown): unknown {
  const r = req as { id?: unknown; method?: unknown; params?: unknown } | null;
  const id = r && typeof r === 'object' ? (r.id ?? null) : null;
  if (!r || typeof r !== 'object' || typeof r.method !== 'string') return { jsonrpc: '2.0', id, error: { code: -32600, message: 'Invalid Request' } };
  try {
    return { jsonrpc: '2.0', id, result: state.answer(r.method, Array.isArray(r.params) ? r.params : []) };
  } catch (error) {
    const e = error instanceof EthereumRpcError ? error : new EthereumRpcError(-32603, String(error));
    return { jsonrpc: '2.0', id, error: { code: e.code, message: e.message } };
  }
}

/** Serves Ethereum with `accounts` funded until closed; port 0: one the system picks. */
export async function startEthereumNode(accounts: readonly string[], port = 0): Promise<EthereumNode> {
  const state = new EthereumMainnet(accounts);
  const server = http.createServer((req, res) => {
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'POST', 'content-type': 'text/plain' }).end('sandbox Ethereum: JSON-RPC over POST');
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        res.writeHead(413).end();
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (res.headersSent) return;
      let parsed: unknown;
      try {
        parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } }));
        return;
      }
      const answer = Array.isArray(parsed) ? parsed.map((r) => answerOne(state, r)) : answerOne(state, parsed);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
    req.on('error', () => undefined);
  });
  const bound = await listen(server, port);
  return {
    url: `http://127.0.0.1:${bound}`,
    port: bound,
    state,
    async close() {
      server.closeAllConnections();
      await closeServer(server);
    },
  };
}
