// Markdown for the /docs page: the part of it openapi.yaml's descriptions use. Paragraphs,
// headings, lists (nested, and holding paragraphs, tables or code), tables, fenced code, `code`,
// **bold** and [links](...). It builds DOM nodes, so text stays text (no innerHTML).
import { el } from './dom.js';

const LIST = /^( *)([-*+]|\d{1,9}[.)]) +(.*)$/;
const FENCE = /^ *(```|~~~)/;
const HEADING = /^ {0,3}(#{1,6}) +(.*?)[ #]*$/;
const TABLE = /^ *\|/;
const SEPARATOR = /^\s*\|?[\s|:-]+\|?\s*$/;

const indentOf = (line) => line.length - line.trimStart().length;
const blank = (line) => line.trim() === '';

/** Inline Markdown: `code`, **bold**, [links](...); everything else is text. */
export function inline(text) {
  const out = [];
  const re = /`([^`]+)`|\*\*([^*]+)\*\*|\[([^\]]+)\]\(([^)]+)\)/g;
  let last = 0;
  for (let m; (m = re.exec(text)); last = re.lastIndex) {
    if (m.index > last) out.push(text.slice(last, m.index));
    if (m[1] !== undefined) out.push(el('code', { text: m[1] }));
    else if (m[2] !== undefined) out.push(el('strong', {}, inline(m[2])));
    else out.push(el('a', { href: /^(https?:|#|\/)/.test(m[4]) ? m[4] : '#', text: m[3] }));
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

/** A line that starts a block of its own (and so ends a paragraph). */
function startsBlock(line) {
  const item = LIST.exec(line);
  // A wrapped sentence may start with "2." or "- x": only bullets and "1." interrupt a paragraph.
  const interrupts = item && (/^[-*+]$/.test(item[2]) || /^1[.)]$/.test(item[2]));
  return FENCE.test(line) || HEADING.test(line) || TABLE.test(line) || Boolean(interrupts);
}

function table(rows) {
  const cells = rows.filter((r) => !SEPARATOR.test(r)).map((r) => r.trim().replace(/^\||\|$/g, '').split('|'));
  return el('table', {}, cells.map((row, i) => el('tr', {}, row.map((c) => el(i === 0 ? 'th' : 'td', {}, inline(c.trim()))))));
}

/** A list starting at `lines[start]`: its node and the index of the first line after it. */
function list(lines, start) {
  const first = LIST.exec(lines[start]);
  const indent = first[1].length;
  const ordered = /\d/.test(first[2]);
  const items = [];
  let i = start;
  while (i < lines.length) {
    const m = LIST.exec(lines[i]);
    if (!m || m[1].length !== indent || /\d/.test(m[2]) !== ordered) break;
    const contentIndent = m[0].length - m[3].length;
    const body = [m[3]];
    for (i++; i < lines.length; ) {
      const line = lines[i];
      if (blank(line)) {
        // After blank lines the item goes on only where the text is indented into it.
        let j = i;
        while (j < lines.length && blank(lines[j])) j++;
        if (j < lines.length && indentOf(lines[j]) >= contentIndent) {
          body.push(...lines.slice(i, j).map(() => ''));
          i = j;
          continue;
        }
        if (j < lines.length && LIST.test(lines[j]) && indentOf(lines[j]) === indent) i = j;
        break;
      }
      if (indentOf(line) >= contentIndent) body.push(line.slice(contentIndent));
      else if (!startsBlock(line) && !blank(body[body.length - 1])) body.push(line.trim()); // a lazy continuation
      else break;
      i++;
    }
    items.push(body);
  }
  const node = el(
    ordered ? 'ol' : 'ul',
    ordered && first[2] !== '1.' && first[2] !== '1)' ? { start: parseInt(first[2], 10) } : {},
    items.map((body) => {
      const inner = blocks(body);
      // A one-paragraph item is drawn without its <p>.
      return el('li', {}, inner.length === 1 && inner[0].tagName === 'P' ? [...inner[0].childNodes] : inner);
    }),
  );
  return [node, i];
}

function blocks(lines) {
  const out = [];
  for (let i = 0; i < lines.length; ) {
    const line = lines[i];
    if (blank(line)) {
      i++;
      continue;
    }
    const fence = FENCE.exec(line);
    const heading = HEADING.exec(line);
    if (fence) {
      const indent = indentOf(line);
      const code = [];
      for (i++; i < lines.length && !lines[i].trimStart().startsWith(fence[1]); i++) code.push(lines[i].slice(Math.min(indent, indentOf(lines[i]))));
      i++;
      out.push(el('pre', { class: 'code' }, el('code', { text: code.join('\n') })));
    } else if (heading) {
      out.push(el(`h${Math.min(heading[1].length + 2, 6)}`, {}, inline(heading[2])));
      i++;
    } else if (TABLE.test(line)) {
      const rows = [];
      for (; i < lines.length && TABLE.test(lines[i]); i++) rows.push(lines[i]);
      out.push(table(rows));
    } else if (LIST.test(line)) {
      const [node, next] = list(lines, i);
      out.push(node);
      i = next;
    } else {
      const words = [line.trim()];
      for (i++; i < lines.length && !blank(lines[i]) && !startsBlock(lines[i]); i++) words.push(lines[i].trim());
      out.push(el('p', {}, inline(words.join(' '))));
    }
  }
  return out;
}

/** A description as Markdown, in a `div.md`. */
export function markdown(text) {
  return el('div', { class: 'md' }, blocks(String(text || '').replace(/\t/g, '    ').split('\n')));
}

/** The first block of a description (what the operation is) and the rest, for drawing apart. */
export function splitLead(text) {
  const source = String(text || '').trim();
  const end = source.search(/\n\s*\n/);
  return end < 0 ? [source, ''] : [source.slice(0, end), source.slice(end).replace(/^\s*\n/, '')];
}
