// A name server of the test's own on 127.0.0.1 (UDP, port from the OS): answers each question as
// the test says (addresses, NXDOMAIN, or nothing at all: a server that never answers). Point a
// service at it with DNS_SERVERS=<server.address>.
import dgram from 'node:dgram';
import { isIPv4 } from 'node:net';
import ipaddr from 'ipaddr.js';

/** What the server does with a question: the name's addresses, `nxdomain`, or `ignore` (no answer). */
export type DnsAnswer = string[] | 'nxdomain' | 'ignore';

export interface DnsServer {
  /** `127.0.0.1:<port>`, for DNS_SERVERS or Resolver#setServers. */
  address: string;
  /** Questions asked so far (name and type), answered or not. */
  questions: Array<{ name: string; type: 'A' | 'AAAA' | 'other' }>;
  close(): Promise<void>;
}

const TYPES: Record<number, 'A' | 'AAAA'> = { 1: 'A', 28: 'AAAA' };

export async function startDnsServer(answer: (name: string) => DnsAnswer): Promise<DnsServer> {
  const socket = dgram.createSocket('udp4');
  const questions: DnsServer['questions'] = [];
  socket.on('message', (query, from) => {
    // Header (12 bytes), then one question: labels, type, class.
    const labels: string[] = [];
    let at = 12;
    while (at < query.length && query[at] !== 0) {
      labels.push(query.subarray(at + 1, at + 1 + query[at]!).toString('latin1'));
      at += 1 + query[at]!;
    }
    const end = at + 5;
    const name = labels.join('.').toLowerCase();
    const type = TYPES[query.readUInt16BE(at + 1)] ?? 'other';
    questions.push({ name, type });
    const verdict = answer(name);
    if (verdict === 'ignore') return;
    const wanted = verdict === 'nxdomain' ? [] : verdict.filter((a) => (type === 'A' ? isIPv4(a) : type === 'AAAA' ? !isIPv4(a) : false));
    const records = wanted.map((address) => {
      const data = Buffer.from(ipaddr.parse(address).toByteArray());
      const record = Buffer.alloc(12);
      record.writeUInt16BE(0xc00c, 0); // the question's name
      record.writeUInt16BE(type === 'A' ? 1 : 28, 2);
      record.writeUInt16BE(1, 4); // IN
      record.writeUInt32BE(60, 6); // TTL
      record.writeUInt16BE(data.length, 10);
      return Buffer.concat([record, data]);
    });
    const header = Buffer.alloc(12);
    query.copy(header, 0, 0, 2); // id
    header.writeUInt16BE(verdict === 'nxdomain' ? 0x8183 : 0x8180, 2); // response, RD, RA, rcode
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(records.length, 6);
    socket.send(Buffer.concat([header, query.subarray(12, end), ...records]), from.port, from.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return {
    address: `127.0.0.1:${socket.address().port}`,
    questions,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
