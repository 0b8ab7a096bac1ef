// The /docs page: renders the OpenAPI document embedded in the page, with no library and no
// request beyond these modules, their stylesheet and the favicon (and what "Try it" sends to this
// server). Operations are grouped by what a wallet does, in the document's tag order (transfers
// first), one family at a time (the /v5 | /v2 switch). Operations, schemas and every $ref are
// drawn only when opened, so the page stays small however many routes the document has (library
// pages measured 10 to 100 times heavier on this document: docs/performance.md).
import { el } from './dom.js';
import { inline, markdown, splitLead } from './markdown.js';
import { apiKeyField, tryPanel } from './try.js';

const spec = JSON.parse(document.getElementById('spec').textContent);
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head'];

/** Follows a local $ref to what it names. */
function deref(value) {
  let current = value;
  for (let hops = 0; current && typeof current.$ref === 'string' && hops < 10; hops++) {
    current = current.$ref
      .slice(2)
      .split('/')
      .reduce((node, key) => (node ? node[key.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined), spec);
  }
  return current || {};
}
const refName = (ref) => ref.split('/').pop();

function typeOf(schema) {
  if (schema.$ref) return null;
  if (schema.const !== undefined) return `const ${JSON.stringify(schema.const)}`;
  if (schema.enum) return `enum (${schema.enum.length})`;
  const type = Array.isArray(schema.type) ? schema.type.join(' | ') : schema.type;
  if (type === 'array' && schema.items) return 'array of';
  return type || (schema.oneOf ? 'one of' : schema.anyOf ? 'any of' : schema.allOf ? 'all of' : 'any');
}

/** One schema, one level at a time; nested objects open on demand, $refs link to Schemas. */
function schemaView(schema, depth) {
  if (!schema || typeof schema !== 'object') return el('span', { class: 'type', text: 'any' });
  // A $ref opens in place, drawn on first opening only (shared schemas are never copied ahead).
  if (schema.$ref) return lazy(el('summary', {}, el('span', { class: 'ref', text: refName(schema.$ref) })), () => schemaView(deref(schema), depth + 1), 'nested ref');
  const box = el('div', { class: 'schema' });
  const head = el('div', {}, el('span', { class: 'type', text: typeOf(schema) }));
  if (schema.format) head.append(el('span', { class: 'fmt', text: ` (${schema.format})` }));
  if (schema.pattern) head.append(el('code', { class: 'fmt', text: ` ${schema.pattern}` }));
  box.append(head);
  if (schema.description) box.append(markdown(schema.description));
  if (schema.enum) box.append(el('div', { class: 'enum' }, schema.enum.slice(0, 80).map((v) => el('code', { text: JSON.stringify(v) })), schema.enum.length > 80 ? ` … ${schema.enum.length - 80} more` : null));
  if (schema.items) box.append(nested('items', schema.items, depth));
  for (const key of ['oneOf', 'anyOf', 'allOf']) {
    (schema[key] || []).forEach((s, i) => box.append(nested(`${key}[${i}]`, s, depth)));
  }
  const required = new Set(schema.required || []);
  const props = Object.entries(schema.properties || {});
  if (props.length) {
    box.append(
      el('table', { class: 'props' }, props.map(([name, s]) =>
        el('tr', {}, el('td', {}, el('code', { text: name }), required.has(name) ? el('span', { class: 'req', text: ' required' }) : null), el('td', {}, propertyView(s, depth))),
      )),
    );
  }
  if (schema.additionalProperties && typeof schema.additionalProperties === 'object') box.append(nested('additional properties', schema.additionalProperties, depth));
  if (schema.example !== undefined) box.append(el('pre', { text: JSON.stringify(schema.example, null, 2) }));
  return box;
}

/** A property: a $ref or a scalar in place, anything bigger behind a toggle. */
function propertyView(schema, depth) {
  const small = !schema || schema.$ref || (!schema.properties && !schema.items && !schema.oneOf && !schema.anyOf && !schema.allOf && !schema.additionalProperties);
  return small ? schemaView(schema, depth + 1) : nested(typeOf(schema), schema, depth);
}

function nested(label, schema, depth) {
  if (schema && schema.$ref) return el('div', {}, `${label}: `, schemaView(schema, depth + 1));
  return lazy(el('summary', { text: label }), () => schemaView(schema, depth + 1), 'nested');
}

/** A <details> whose body is built on its first opening. */
function lazy(summary, build, className, attrs) {
  const details = el('details', { class: className, ...(attrs || {}) }, summary);
  details.addEventListener('toggle', () => {
    if (details.open && !details.dataset.built) {
      details.dataset.built = '1';
      details.append(build());
    }
  });
  return details;
}

function operationBody(path, method, op, shared) {
  const body = el('div', { class: 'op-body' });
  // What the operation is, then "Try it", then the rest of its description.
  const [lead, rest] = splitLead(op.description);
  if (lead) body.append(markdown(lead));
  const params = [...(shared || []), ...(op.parameters || [])].map(deref);
  body.append(tryPanel(method, path, params, op.requestBody ? deref(op.requestBody) : undefined, deref));
  if (rest) body.append(markdown(rest));
  if (params.length) {
    body.append(el('h4', { text: 'Parameters' }));
    body.append(el('table', { class: 'props' }, params.map((p) =>
      el('tr', {}, el('td', {}, el('code', { text: p.name }), el('span', { class: 'in', text: ` ${p.in}` }), p.required ? el('span', { class: 'req', text: ' required' }) : null), el('td', {}, p.description ? markdown(p.description) : null, schemaView(p.schema, 0))),
    )));
  }
  if (op.requestBody) {
    const rb = deref(op.requestBody);
    body.append(el('h4', { text: 'Request body' }));
    if (rb.description) body.append(markdown(rb.description));
    for (const [type, media] of Object.entries(rb.content || {})) {
      body.append(el('div', { class: 'media', text: type }), schemaView(media.schema, 0));
      if (media.example !== undefined) body.append(el('pre', { text: JSON.stringify(media.example, null, 2) }));
    }
  }
  body.append(el('h4', { text: 'Responses' }));
  for (const [status, raw] of Object.entries(op.responses || {})) {
    const response = deref(raw);
    // A one-line description sits beside the status; a longer one (lists, several kinds) below it.
    const text = response.description || '';
    const row = el('div', { class: `response s${status[0]}` }, el('span', { class: 'status', text: status }), ' ', text.includes('\n') ? markdown(text) : inline(text));
    if (raw.$ref) row.append(' ', el('span', { class: 'fmt', text: `(${refName(raw.$ref)})` }));
    for (const [type, media] of Object.entries(response.content || {})) {
      row.append(el('div', { class: 'media', text: type }), schemaView(media.schema, 0));
      if (media.example !== undefined) row.append(lazy(el('summary', { text: 'example' }), () => el('pre', { text: JSON.stringify(media.example, null, 2) }), 'nested'));
    }
    body.append(row);
  }
  return body;
}

// ---- the page ----------------------------------------------------------------------------
const root = document.getElementById('docs');
const info = spec.info || {};
root.append(el('header', {}, el('h1', {}, `${info.title || 'API'} `, el('span', { class: 'version', text: info.version || '' })), info.summary ? el('p', { text: info.summary }) : null));
// A note of the server's own (the sandbox's: which chains "Try it" reaches), open, before the rest.
if (info['x-note']) root.append(el('section', { class: 'note', role: 'note' }, markdown(info['x-note'])));
root.append(lazy(el('summary', { text: 'About this API' }), () => markdown(info.description), 'about'));

const FAMILIES = ['v5', 'v2'];
/** The family shown: the address says it (`/docs#v2`), /v5 by default. */
let family = FAMILIES.includes(location.hash.slice(1)) ? location.hash.slice(1) : FAMILIES[0];
const familyOf = (path) => (/^\/(v\d+)\//.exec(path) || [])[1] || '';

const filter = el('input', { type: 'search', id: 'filter', placeholder: 'Filter by path, method or summary', autocomplete: 'off' });
const switchButtons = FAMILIES.map((f) => el('button', { type: 'button', 'data-family': f, 'aria-pressed': String(f === family), text: `/${f}` }));
const familySwitch = el('div', { class: 'family-switch', role: 'group', 'aria-label': 'Path family' }, switchButtons);
root.append(el('div', { class: 'toolbar' }, familySwitch, filter, apiKeyField(), el('a', { href: '/openapi.yaml', text: 'openapi.yaml' })));

const tags = (spec.tags || []).map((t) => t.name);
const groups = new Map(tags.map((t) => [t, []]));
for (const [path, rawItem] of Object.entries(spec.paths || {})) {
  const item = deref(rawItem);
  for (const method of METHODS) {
    const op = item[method];
    if (!op) continue;
    const tag = (op.tags && op.tags[0]) || 'other';
    if (!groups.has(tag)) groups.set(tag, []);
    const summary = el('summary', {}, el('span', { class: `method ${method}`, text: method.toUpperCase() }), el('code', { class: 'path', text: path }), el('span', { class: 'summary', text: op.summary || '' }));
    const node = lazy(summary, () => operationBody(path, method, op, item.parameters), 'op', { 'data-method': method, 'data-path': path, 'data-family': familyOf(path), id: `op-${method}-${path}` });
    node.dataset.search = `${method} ${path} ${op.summary || ''}`.toLowerCase();
    groups.get(tag).push(node);
  }
}
const list = el('main', { id: 'operations' });
for (const [tag, ops] of groups) {
  if (ops.length === 0) continue;
  const description = (spec.tags || []).find((t) => t.name === tag);
  list.append(el('section', { class: 'tag', 'data-tag': tag }, el('h2', {}, tag, el('span', { class: 'count' })), description && description.description ? el('p', { class: 'tag-desc', text: description.description }) : null, ops));
}
root.append(list);

const schemas = Object.entries((spec.components && spec.components.schemas) || {});
root.append(el('section', { class: 'schemas' }, el('h2', { text: 'Schemas' }), schemas.map(([name, s]) => lazy(el('summary', {}, el('code', { text: name })), () => schemaView(s, 0), 'schema-entry', { id: `schema-${name}` }))));

/** Shows the operations of the chosen family (and those of no family) that match the filter. */
function show() {
  const q = filter.value.trim().toLowerCase();
  let count = 0;
  for (const section of list.querySelectorAll('section.tag')) {
    let shown = 0;
    for (const op of section.querySelectorAll('details.op')) {
      const hit = (op.dataset.family === '' || op.dataset.family === family) && (!q || op.dataset.search.includes(q));
      op.hidden = !hit;
      if (hit) shown++;
    }
    section.hidden = shown === 0;
    section.querySelector('.count').textContent = ` ${shown}`;
    count += shown;
  }
  list.dataset.family = family;
  list.dataset.operations = String(count);
  for (const b of switchButtons) b.setAttribute('aria-pressed', String(b.dataset.family === family));
}

for (const b of switchButtons) {
  b.addEventListener('click', () => {
    family = b.dataset.family;
    history.replaceState(null, '', `#${family}`);
    show();
  });
}
window.addEventListener('hashchange', () => {
  if (!FAMILIES.includes(location.hash.slice(1))) return;
  family = location.hash.slice(1);
  show();
});
filter.addEventListener('input', show);
show();

document.body.dataset.ready = 'true';
