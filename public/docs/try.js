// "Try it" for one operation of the /docs page: a form for its parameters and JSON body, sent with
// fetch to the server that served the page (relative URLs, whatever `servers` in the document
// says), and the answer shown under it: status (its time on hover), headers, body, and the same
// request as a curl command. The time and the server's port stay off screen, so the screenshot
// (docs/docs-page.png) is the same from run to run.
import { el } from './dom.js';

/** Answers longer than this are cut on the page (the curl line fetches the whole of it). */
const SHOWN_CHARS = 200_000;

/** The X-API-Key sent with every request from this page (empty: none); kept in memory only. */
let apiKey = '';

/** The toolbar field for the API key (the service works without one: keys only change limits). */
export function apiKeyField() {
  const input = el('input', { type: 'password', id: 'api-key', placeholder: 'X-API-Key (optional)', autocomplete: 'off', 'aria-label': 'X-API-Key sent with Try it requests' });
  input.addEventListener('input', () => (apiKey = input.value.trim()));
  return input;
}

/** A required parameter starts with its example (or its schema's); optional ones start empty. */
function startValue(param, schema) {
  if (!param.required) return '';
  const value = param.example ?? schema.example ?? (schema.examples || [])[0] ?? schema.default ?? (schema.enum || [])[0];
  return value === undefined ? '' : String(value);
}

/** The JSON examples of a request body, by name. */
function bodyExamples(media, deref) {
  if (!media) return [];
  if (media.example !== undefined) return [['example', media.example]];
  return Object.entries(media.examples || {}).map(([name, ex]) => [name, deref(ex).value]);
}

const shellQuote = (s) => `'${s.replace(/'/g, `'\\''`)}'`;

function curlLine(method, url, headers, body) {
  const parts = ['curl', '-i', '-X', method, shellQuote(url)];
  for (const [name, value] of Object.entries(headers)) parts.push('-H', shellQuote(`${name}: ${value}`));
  if (body !== undefined) parts.push('--data-raw', shellQuote(body));
  return parts.join(' ');
}

/** JSON answers pretty-printed, anything else as sent. */
function bodyText(text, type) {
  if (/json/.test(type || '') && text !== '') {
    try {
      return JSON.stringify(JSON.parse(text), null, 2);
    } catch {
      return text;
    }
  }
  return text;
}

/**
 * The "Try it" section of an operation. `params` are its parameters ($refs followed), `requestBody`
 * its body (followed) or undefined; `deref` follows a $ref of the document.
 */
export function tryPanel(method, path, params, requestBody, deref) {
  const fields = params
    .filter((p) => ['path', 'query', 'header'].includes(p.in))
    .map((p) => [p, el('input', { type: 'text', name: `${p.in}.${p.name}`, value: startValue(p, deref(p.schema || {})), required: p.in === 'path', 'aria-label': `${p.name} (${p.in})` })]);
  const media = requestBody && requestBody.content ? requestBody.content['application/json'] : undefined;
  const examples = bodyExamples(media, deref);
  const pretty = (value) => JSON.stringify(value, null, 2);
  const bodyField = media ? el('textarea', { name: 'body', rows: 6, spellcheck: 'false', 'aria-label': 'JSON body' }) : null;
  if (bodyField && examples.length) bodyField.value = pretty(examples[0][1]);
  let picker = null;
  if (bodyField && examples.length > 1) {
    picker = el('select', { 'aria-label': 'body example' }, examples.map(([name]) => el('option', { value: name, text: name })));
    picker.addEventListener('change', () => (bodyField.value = pretty(examples.find(([name]) => name === picker.value)[1])));
  }
  const button = el('button', { type: 'submit', text: 'Send' });
  const result = el('div', { class: 'try-result', hidden: true, 'aria-live': 'polite' });
  const form = el(
    'form',
    { class: 'try' },
    fields.length ? el('table', { class: 'props' }, fields.map(([p, input]) => el('tr', {}, el('td', {}, el('code', { text: p.name }), el('span', { class: 'in', text: ` ${p.in}` })), el('td', {}, input)))) : null,
    bodyField ? el('div', { class: 'try-body-head' }, el('span', { class: 'media', text: 'application/json body' }), picker) : null,
    bodyField,
    el('div', {}, button, el('span', { class: 'fmt', text: ` ${method.toUpperCase()} ${path} on this server` })),
  );

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const query = new URLSearchParams();
    const headers = {};
    const values = new Map(fields.map(([p, input]) => [`${p.in}.${p.name}`, input.value]));
    const url = path.replace(/\{([^}]+)\}/g, (_, name) => encodeURIComponent(values.get(`path.${name}`) || ''));
    for (const [p, input] of fields) {
      if (input.value === '') continue;
      if (p.in === 'query') query.append(p.name, input.value);
      if (p.in === 'header') headers[p.name] = input.value;
    }
    if (apiKey) headers['X-API-Key'] = apiKey;
    const body = bodyField && bodyField.value.trim() !== '' ? bodyField.value : undefined;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const target = `${url}${query.size ? `?${query}` : ''}`;
    const curl = el('details', { class: 'nested' }, el('summary', { text: 'curl' }), el('pre', { class: 'try-curl', text: curlLine(method.toUpperCase(), `${location.origin}${target}`, headers, body) }));

    button.disabled = true;
    result.hidden = false;
    result.replaceChildren(el('div', { class: 'fmt', text: 'Sending…' }));
    delete result.dataset.status;
    const started = performance.now();
    try {
      // no-store: the page shows what the server answers now, not a copy the browser kept.
      const res = await fetch(target, { method: method.toUpperCase(), headers, body, cache: 'no-store' });
      const text = await res.text();
      const ms = Math.round(performance.now() - started);
      const shown = bodyText(text, res.headers.get('content-type'));
      result.replaceChildren(
        el('div', { class: `try-status s${String(res.status)[0]}`, title: `answered in ${ms} ms` }, el('span', { class: 'status', text: String(res.status) }), ` ${res.statusText}`),
        el('details', { class: 'nested' }, el('summary', { text: 'headers' }), el('table', { class: 'props' }, [...res.headers].map(([name, value]) => el('tr', {}, el('td', {}, el('code', { text: name })), el('td', { text: value }))))),
        el('pre', { class: 'try-answer', text: shown.length > SHOWN_CHARS ? `${shown.slice(0, SHOWN_CHARS)}\n… ${shown.length - SHOWN_CHARS} more characters` : shown }),
        curl,
      );
      result.dataset.status = String(res.status);
    } catch (err) {
      result.replaceChildren(el('div', { class: 'try-status s5', text: `No answer: ${err && err.message ? err.message : err}` }), curl);
      result.dataset.status = 'error';
    } finally {
      button.disabled = false;
    }
  });

  return el('section', { class: 'try-it' }, el('h4', { text: 'Try it' }), form, result);
}
