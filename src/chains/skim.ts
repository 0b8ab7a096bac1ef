// Reads the envelope of a large JSON frame without parsing all of it: one pass over the text that
// checks its structure (brackets, names, colons, commas) and its nesting, jumping over strings
// with a native search for their closing quote, and that parses only what the frame check reads
// (the frame's members, and the members of those that are objects: `params`, `error`) when they
// are short. A block of 7 MB of extrinsics is then scanned in a few milliseconds and allocates
// nothing of that size; the client's own parse is the only one. The contents of long strings are
// not read: a string that is not JSON fails the client's parse, which fails the connection too.

/** Stands for a value too long to be read here (the client reads it). */
export const UNREAD: unique symbol = Symbol('unread');

/** Values up to this length (characters) are parsed; longer ones are UNREAD unless read member by member. */
const READ_CHARS = 64 * 1024;
/** Object levels read member by member: the frame, and its members that are objects. */
const READ_LEVELS = 2;

/** Why a text was refused: not JSON (`message` says where), or nested deeper than the bound. */
export class SkimRefusal extends Error {
  constructor(
    message: string,
    readonly deep = false,
  ) {
    super(message);
  }
}

const [TAB, NEWLINE, RETURN, SPACE] = [0x09, 0x0a, 0x0d, 0x20];
const [QUOTE, COMMA, COLON, BACKSLASH] = [0x22, 0x2c, 0x3a, 0x5c];
const [OPEN_ARRAY, CLOSE_ARRAY, OPEN_OBJECT, CLOSE_OBJECT] = [0x5b, 0x5d, 0x7b, 0x7d];

/** A character of a number, `true`, `false` or `null` (checked by a parse when short, by the client's when long). */
const isLiteral = (c: number): boolean => (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x2d || c === 0x2b || c === 0x2e;

/**
 * `text` read as JSON nested at most `maxDepth` levels: objects near the top as null-prototype
 * objects of their members, short values parsed, long ones UNREAD. Throws SkimRefusal.
 */
export function skim(text: string, maxDepth: number): unknown {
  const reader = new Skimmer(text, maxDepth);
  const value = reader.value(0, READ_LEVELS);
  reader.space();
  if (reader.at < text.length) throw reader.unexpected();
  return value;
}

class Skimmer {
  at = 0;

  constructor(
    readonly text: string,
    readonly maxDepth: number,
  ) {}

  /** The value at `at`, which ends past it: read member by member while `levels` are left, else parsed if short. */
  value(depth: number, levels: number): unknown {
    this.space();
    if (levels > 0 && this.text.charCodeAt(this.at) === OPEN_OBJECT) return this.#members(depth, levels);
    const start = this.at;
    this.#skip(depth);
    if (this.at - start > READ_CHARS) return UNREAD;
    try {
      return JSON.parse(this.text.slice(start, this.at)) as unknown;
    } catch (error) {
      throw new SkimRefusal(`${error instanceof Error ? error.message : 'unparsable'} in the value at ${start}`);
    }
  }

  space(): void {
    for (let c = this.text.charCodeAt(this.at); c === SPACE || c === NEWLINE || c === RETURN || c === TAB; c = this.text.charCodeAt(++this.at));
  }

  unexpected(): SkimRefusal {
    if (this.at >= this.text.length) return new SkimRefusal('the text ends before its JSON does');
    return new SkimRefusal(`unexpected ${JSON.stringify(this.text[this.at])} at ${this.at}`);
  }

  #members(depth: number, levels: number): Record<string, unknown> {
    this.#open(depth);
    const members = Object.create(null) as Record<string, unknown>;
    this.space();
    if (this.text.charCodeAt(this.at) === CLOSE_OBJECT) {
      this.at++;
      return members;
    }
    for (;;) {
      const name = this.#name();
      members[name] = this.value(depth + 1, levels - 1);
      if (this.#next(CLOSE_OBJECT)) return members;
    }
  }

  /** Past the value at `at`, its structure checked; recursion is bounded by `maxDepth`. */
  #skip(depth: number): void {
    this.space();
    const c = this.text.charCodeAt(this.at);
    if (c === QUOTE) return this.#string();
    if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      this.#open(depth);
      const close = c === OPEN_ARRAY ? CLOSE_ARRAY : CLOSE_OBJECT;
      this.space();
      if (this.text.charCodeAt(this.at) === close) {
        this.at++;
        return;
      }
      do {
        if (close === CLOSE_OBJECT) this.#name(false);
        this.#skip(depth + 1);
      } while (!this.#next(close));
      return;
    }
    const start = this.at;
    while (isLiteral(this.text.charCodeAt(this.at))) this.at++;
    if (this.at === start) throw this.unexpected();
  }

  /** Past an opening bracket, refused when it nests past the bound. */
  #open(depth: number): void {
    if (depth + 1 > this.maxDepth) throw new SkimRefusal(`nested deeper than ${this.maxDepth} levels`, true);
    this.at++;
  }

  /** A member's name and the colon after it; the name parsed only when `read`. */
  #name(read = true): string {
    this.space();
    if (this.text.charCodeAt(this.at) !== QUOTE) throw this.unexpected();
    const start = this.at;
    this.#string();
    let name = '';
    if (read) {
      try {
        name = JSON.parse(this.text.slice(start, this.at)) as string;
      } catch (error) {
        throw new SkimRefusal(`${error instanceof Error ? error.message : 'unparsable'} in the name at ${start}`);
      }
    }
    this.space();
    if (this.text.charCodeAt(this.at) !== COLON) throw this.unexpected();
    this.at++;
    return name;
  }

  /** After a member or an item: true past `close`, false past a comma. */
  #next(close: number): boolean {
    this.space();
    const c = this.text.charCodeAt(this.at);
    if (c !== close && c !== COMMA) throw this.unexpected();
    this.at++;
    return c === close;
  }

  /** Past the string whose opening quote is at `at`: its closing quote is the first one not escaped. */
  #string(): void {
    for (let end = this.at; ; ) {
      end = this.text.indexOf('"', end + 1);
      if (end < 0) {
        this.at = this.text.length;
        throw new SkimRefusal('a string is not closed');
      }
      let slashes = 0;
      while (this.text.charCodeAt(end - 1 - slashes) === BACKSLASH) slashes++;
      if (slashes % 2 === 0) {
        this.at = end + 1;
        return;
      }
    }
  }
}
