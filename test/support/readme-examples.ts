// The README's request examples, read as the shell would run them, so that a test can send each one
// (test/http/user-paths.test.ts) and another can prove none is left out (test/docs/links.test.ts).
//
// An example is a fenced `sh` block that sends a request (other blocks, `npm start` say, are not
// examples). What it may hold is the shell a reader pastes: `curl` commands
// (`-s`, `-X`/`-XPOST`, `-H`, `-d`/`--data`/`--data-raw`, one URL on localhost:3001), assignments
// (`body='{...}'`, `hex=$(curl ...)`), `$name` in double-quoted or bare words, `\` line
// continuations and comments. A comment `# -> 400` right after a command gives the status it
// answers (200 when none is given). Anything else is an error naming the line, so a new kind of
// example cannot slip past the tests unrun.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../src/project-root';

/** A piece of a shell word: literal text, a variable, or a command substitution `$(curl ...)`. */
type Segment = string | { variable: string } | { substitution: CurlRequest };
type Word = Segment[];

export interface CurlRequest {
  method: string;
  /** Path and query on the service, e.g. `/v5/x-transfer`. */
  path: string;
  headers: Record<string, string>;
  /** The `-d` word, expanded when the request is sent. */
  body?: Word;
  /** The status the README says it answers. */
  status: number;
  /** Line of the README the command starts on. */
  line: number;
}

type Statement = { kind: 'curl'; request: CurlRequest } | { kind: 'assign'; name: string; value: Word; line: number };

export interface ReadmeExample {
  /** `README.md:<line>`: where the block starts. */
  id: string;
  /** Assignments of earlier blocks this one uses (a reader runs the README in one shell). */
  prelude: Statement[];
  statements: Statement[];
  /** Every request of the block, substitutions included, in the order they are sent. */
  requests: CurlRequest[];
}

export interface FencedBlock {
  lang: string;
  text: string;
  /** Line of the first line inside the fence. */
  line: number;
}

/** The fenced code blocks of a Markdown text. */
export function fencedBlocks(markdown: string): FencedBlock[] {
  const blocks: FencedBlock[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*([\w+-]*)/.exec(lines[i]);
    if (!open) continue;
    const fence = open[2];
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && !lines[j].trimStart().startsWith(fence); j++) body.push(lines[j]);
    blocks.push({ lang: open[3], text: body.join('\n'), line: i + 2 });
    i = j;
  }
  return blocks;
}

class ParseError extends Error {}

/** Reads one block of shell into statements. `line` is the README line of its first line. */
function parseShell(text: string, line: number): Statement[] {
  let pos = 0;
  let currentLine = line;
  const fail = (message: string): never => {
    throw new ParseError(`README.md:${currentLine}: ${message}`);
  };
  const peek = (n = 0) => text[pos + n];
  const advance = () => {
    if (text[pos] === '\n') currentLine++;
    return text[pos++];
  };
  const isNameStart = (c: string | undefined) => c !== undefined && /[A-Za-z_]/.test(c);
  const statusOf = (comment: string) => {
    const m = /^#\s*->\s*(\d{3})\b/.exec(comment);
    return m ? Number(m[1]) : undefined;
  };
  /** The status a trailing comment gave the statement being read. */
  let trailing: number | undefined;

  function variableName(): string {
    if (peek() === '{') {
      advance();
      let name = '';
      while (peek() !== undefined && peek() !== '}') name += advance();
      if (peek() !== '}') fail('unclosed ${');
      advance();
      return name;
    }
    let name = '';
    while (peek() !== undefined && /\w/.test(peek())) name += advance();
    return name;
  }

  /** One word, up to unquoted whitespace, a newline, `)` (when nested) or the end. */
  function word(nested: boolean): Word {
    const segments: Segment[] = [];
    let literal = '';
    const flush = () => {
      if (literal) segments.push(literal);
      literal = '';
    };
    for (;;) {
      const c = peek();
      if (c === undefined || c === ' ' || c === '\t' || c === '\n' || (nested && c === ')')) break;
      if (c === '\\' && peek(1) === '\n') {
        advance();
        advance();
        break;
      }
      if (c === "'") {
        advance();
        while (peek() !== undefined && peek() !== "'") literal += advance();
        if (peek() !== "'") fail('unclosed single quote');
        advance();
      } else if (c === '"') {
        advance();
        while (peek() !== undefined && peek() !== '"') {
          if (peek() === '\\' && ['"', '\\', '$', '`'].includes(peek(1))) {
            advance();
            literal += advance();
          } else if (peek() === '$' && (isNameStart(peek(1)) || peek(1) === '{')) {
            advance();
            flush();
            segments.push({ variable: variableName() });
          } else if (peek() === '$' && peek(1) === '(') fail('write $(...) outside double quotes');
          else literal += advance();
        }
        if (peek() !== '"') fail('unclosed double quote');
        advance();
      } else if (c === '$' && peek(1) === '(') {
        advance();
        advance();
        flush();
        const inner = statement(true);
        if (inner?.kind !== 'curl') fail('$(...) must hold one curl command');
        else segments.push({ substitution: inner.request });
        while (peek() === ' ') advance();
        if (peek() !== ')') fail('unclosed $(');
        advance();
      } else if (c === '$' && (isNameStart(peek(1)) || peek(1) === '{')) {
        advance();
        flush();
        segments.push({ variable: variableName() });
      } else if (c === '\\') {
        advance();
        literal += advance() ?? '';
      } else literal += advance();
    }
    flush();
    return segments;
  }

  /** Words up to the end of the statement; comments and continuations skipped. */
  function statement(nested: boolean): Statement | undefined {
    const words: Word[] = [];
    const start = currentLine;
    for (;;) {
      const c = peek();
      if (c === undefined || (nested && c === ')')) break;
      if (c === ' ' || c === '\t') advance();
      else if (c === '\\' && peek(1) === '\n') {
        advance();
        advance();
      } else if (c === '\n') {
        if (words.length > 0) break;
        advance();
      } else if (c === '#') {
        // A comment ends the statement; `# -> 400` on the command's own line gives its status.
        let comment = '';
        while (peek() !== undefined && peek() !== '\n') comment += advance();
        trailing = statusOf(comment) ?? trailing;
        if (words.length > 0) break;
      } else words.push(word(nested));
    }
    if (words.length === 0) return undefined;
    const s = toStatement(words, start);
    if (s.kind === 'curl' && trailing !== undefined) s.request.status = trailing;
    trailing = undefined;
    return s;
  }

  const literalOf = (w: Word): string | undefined => (w.every((s) => typeof s === 'string') ? w.join('') : undefined);

  function toStatement(words: Word[], at: number): Statement {
    const first = words[0];
    const head = typeof first[0] === 'string' ? /^([A-Za-z_]\w*)=(.*)$/s.exec(first[0]) : null;
    if (head && words.length === 1) {
      const value: Word = head[2] ? [head[2], ...first.slice(1)] : first.slice(1);
      return { kind: 'assign', name: head[1], value, line: at };
    }
    if (literalOf(first) !== 'curl') fail(`only curl commands and assignments run here, not ${JSON.stringify(literalOf(first) ?? 'a substitution')}`);
    const request: CurlRequest = { method: '', path: '', headers: {}, status: 200, line: at };
    for (let i = 1; i < words.length; i++) {
      const w = words[i];
      const flag = literalOf(w);
      const next = () => {
        if (++i >= words.length) fail(`${flag} needs a value`);
        return words[i];
      };
      if (flag === '-s' || flag === '-sS' || flag === '--silent') continue;
      if (flag === '-X') request.method = literalOf(next()) ?? fail('-X takes a literal method');
      else if (flag?.startsWith('-X')) request.method = flag.slice(2);
      else if (flag === '-H' || flag === '--header') {
        const header = literalOf(next()) ?? fail('-H takes a literal header');
        const colon = header.indexOf(':');
        if (colon < 1) fail(`malformed header ${JSON.stringify(header)}`);
        request.headers[header.slice(0, colon).trim().toLowerCase()] = header.slice(colon + 1).trim();
      } else if (flag === '-d' || flag === '--data' || flag === '--data-raw') request.body = next();
      else if (flag?.startsWith('-')) fail(`curl option ${flag} is not one the examples use`);
      else {
        const url = flag ?? fail('the URL must be literal');
        const m = /^(?:https?:\/\/)?(?:localhost|127\.0\.0\.1):3001(\/.*)$/.exec(url);
        if (!m) fail(`the URL ${JSON.stringify(url)} is not on localhost:3001`);
        else if (request.path) fail('one URL per curl command');
        else request.path = m[1];
      }
    }
    if (!request.path) fail('curl without a URL');
    request.method = (request.method || (request.body ? 'POST' : 'GET')).toUpperCase();
    return { kind: 'curl', request };
  }

  const statements: Statement[] = [];
  for (;;) {
    while (peek() === '\n' || peek() === ' ' || peek() === '\t') advance();
    if (peek() === undefined) break;
    if (peek() === '#') {
      let comment = '';
      while (peek() !== undefined && peek() !== '\n') comment += advance();
      const status = statusOf(comment);
      const last = statements[statements.length - 1];
      if (status !== undefined && last?.kind === 'curl') last.request.status = status;
      continue;
    }
    const s = statement(false);
    if (s) statements.push(s);
    if (peek() === ')') fail('unmatched )');
  }
  return statements;
}

function substitutions(word: Word | undefined): CurlRequest[] {
  return (word ?? []).flatMap((s) => (typeof s === 'object' && 'substitution' in s ? [...substitutions(s.substitution.body), s.substitution] : []));
}

function variables(word: Word | undefined): string[] {
  return (word ?? []).flatMap((s) => (typeof s === 'object' && 'variable' in s ? [s.variable] : typeof s === 'object' ? variables(s.substitution.body) : []));
}

/** The request examples of a Markdown text (the README's by default), one per `sh` block with a request. */
export function readmeExamples(markdown = readFileSync(join(projectRoot(), 'README.md'), 'utf8')): ReadmeExample[] {
  const examples: ReadmeExample[] = [];
  /** Literal assignments so far: a later block may use them. */
  const shared = new Map<string, Statement>();
  for (const block of fencedBlocks(markdown)) {
    if (!['sh', 'bash', 'shell'].includes(block.lang) || !/\bcurl\b|localhost:3001/.test(block.text)) continue;
    const statements = parseShell(block.text, block.line);
    const requests: CurlRequest[] = [];
    const prelude = new Map<string, Statement>();
    const local = new Set<string>();
    const use = (names: string[], line: number) => {
      for (const name of names) {
        if (local.has(name)) continue;
        const earlier = shared.get(name);
        if (!earlier) throw new ParseError(`README.md:${line}: $${name} is not set before it is used`);
        prelude.set(name, earlier);
      }
    };
    for (const s of statements) {
      const word = s.kind === 'curl' ? s.request.body : s.value;
      const line = s.kind === 'curl' ? s.request.line : s.line;
      use(variables(word), line);
      requests.push(...substitutions(word));
      if (s.kind === 'curl') requests.push(s.request);
      else {
        local.add(s.name);
        if (substitutions(s.value).length === 0 && variables(s.value).length === 0) shared.set(s.name, s);
      }
    }
    if (requests.length > 0) examples.push({ id: `README.md:${block.line}`, prelude: [...prelude.values()], statements, requests });
  }
  return examples;
}

/** What a request sends: it reaches the service as `send` delivers it, and answers with its status and text. */
export type Send = (request: CurlRequest, body: string | undefined) => Promise<{ status: number; text: string }>;

/** Runs one example as the shell would: assignments, substitutions, then each command in turn. */
export async function runExample(example: ReadmeExample, send: Send): Promise<void> {
  const vars = new Map<string, string>();
  const expand = async (word: Word): Promise<string> => {
    let out = '';
    for (const s of word) {
      if (typeof s === 'string') out += s;
      else if ('variable' in s) out += vars.get(s.variable) ?? '';
      else out += await call(s.substitution);
    }
    return out;
  };
  const call = async (request: CurlRequest): Promise<string> => {
    const answer = await send(request, request.body ? await expand(request.body) : undefined);
    if (answer.status !== request.status) {
      throw new Error(`README.md:${request.line}: ${request.method} ${request.path} answered ${answer.status}, the README says ${request.status}: ${answer.text.slice(0, 500)}`);
    }
    return answer.text;
  };
  for (const s of [...example.prelude, ...example.statements]) {
    if (s.kind === 'assign') vars.set(s.name, await expand(s.value));
    else await call(s.request);
  }
}
