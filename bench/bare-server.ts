// The limit a lookup benchmark is measured against: a bare server that answers precomputed bytes,
// started by the bench on the same runtime. `node dist/bench/bare-server.js http|express`, with the
// answers in BARE_ANSWERS (JSON: [{ method, path, body (base64) }]) and the port in PORT.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import express from 'express';

interface Answer {
  method: 'GET' | 'POST';
  path: string;
  body: string;
}

const JSON_TYPE = 'application/json; charset=utf-8';
const answers = (JSON.parse(process.env.BARE_ANSWERS ?? '[]') as Answer[]).map((a) => ({ ...a, bytes: Buffer.from(a.body, 'base64') }));
const port = Number(process.env.PORT);

function send(res: ServerResponse, bytes: Buffer): void {
  res.writeHead(200, { 'Content-Type': JSON_TYPE, 'Content-Length': bytes.length });
  res.end(bytes);
}

/** node:http with a table lookup; a POST body is read to its end before the answer. */
function bareHttp(): void {
  const table = new Map(answers.map((a) => [`${a.method} ${a.path}`, a.bytes]));
  createServer((req: IncomingMessage, res: ServerResponse) => {
    const bytes = table.get(`${req.method} ${req.url}`);
    if (!bytes) {
      res.writeHead(404).end();
      return;
    }
    if (req.method === 'POST') {
      req.resume();
      req.on('end', () => send(res, bytes));
    } else send(res, bytes);
  }).listen(port, '127.0.0.1');
}

/** Express 5 with one route per answer; a POST body goes through express.json(). */
function bareExpress(): void {
  const app = express();
  app.disable('x-powered-by');
  for (const a of answers) {
    if (a.method === 'POST') app.post(a.path, express.json(), (_req, res) => send(res, a.bytes));
    else app.get(a.path, (_req, res) => send(res, a.bytes));
  }
  app.listen(port, '127.0.0.1');
}

if (process.argv[2] === 'express') bareExpress();
else bareHttp();
