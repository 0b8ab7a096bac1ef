import * as net from 'node:net';

/** One answer read off a raw socket. */
export interface RawAnswer {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: string;
}

/**
 * A raw HTTP/1.1 client on one socket: what it has received, its complete answers, and whether
 * the server closed the socket. Nothing a well-behaved client would do for it: it sends exactly
 * what the test writes, on the same socket, whatever the server's headers say.
 */
export function rawClient(url: string) {
  const { port } = new URL(url);
  const socket = net.connect(Number(port), '127.0.0.1');
  let received = '';
  let closed = false;
  const waiting = new Set<() => void>();
  const changed = () => waiting.forEach((check) => check());
  // latin1: one character per byte, so that Content-Length counts characters.
  socket.setEncoding('latin1');
  socket.on('data', (chunk: string) => {
    received += chunk;
    changed();
  });
  socket.on('close', () => {
    closed = true;
    changed();
  });
  // A reset is one way for the server to close; `closed` tells the tests.
  socket.on('error', () => undefined);
  return {
    socket,
    get received() {
      return received;
    },
    get closed() {
      return closed;
    },
    /** The answers received in full so far (bodies by Content-Length or chunked). */
    answers(): RawAnswer[] {
      const answers: RawAnswer[] = [];
      let at = 0;
      for (;;) {
        const end = received.indexOf('\r\n\r\n', at);
        if (end < 0) return answers;
        const [statusLine, ...fields] = received.slice(at, end).split('\r\n');
        const headers = Object.fromEntries(fields.map((f) => [f.slice(0, f.indexOf(':')).toLowerCase(), f.slice(f.indexOf(':') + 1).trim()]));
        const body = headers['transfer-encoding'] === 'chunked' ? chunked(received, end + 4) : sized(received, end + 4, Number(headers['content-length'] ?? 0));
        if (!body) return answers;
        answers.push({ status: Number(statusLine.split(' ')[1]), headers, body: body.text });
        at = body.end;
      }
    },
    /** Resolves when `done` holds, checked whenever bytes arrive or the socket closes. */
    until(done: () => boolean): Promise<void> {
      return new Promise((resolve) => {
        const check = () => {
          if (!done()) return;
          waiting.delete(check);
          resolve();
        };
        waiting.add(check);
        check();
      });
    },
  };
}

type Body = { text: string; end: number } | undefined;

function sized(data: string, start: number, length: number): Body {
  return data.length < start + length ? undefined : { text: data.slice(start, start + length), end: start + length };
}

function chunked(data: string, start: number): Body {
  let text = '';
  let at = start;
  for (;;) {
    const line = data.indexOf('\r\n', at);
    if (line < 0) return undefined;
    const size = parseInt(data.slice(at, line), 16);
    if (data.length < line + 2 + size + 2) return undefined;
    if (size === 0) return { text, end: line + 4 };
    text += data.slice(line + 2, line + 2 + size);
    at = line + 2 + size + 2;
  }
}
