// The ID inspector: decodes whatever is pasted with the package's browser
// entry and draws the ID's bits as colored fields. Bundled by
// scripts/build.d/15-wasm.sh into inspector/dist/ as one classic script, so
// the page opens from disk (file://) and works offline.
import * as sm from '../npm/entries/browser.js';

const $ = (id) => document.getElementById(id);
const COLORS = ['#6a3d9a', '#1f78b4', '#33a02c', '#e31a1c', '#ff7f00', '#b15928', '#a6761d', '#666'];

/**
 * One generator per preset: the Snowflake button mints from it, the bit
 * drawing reads its layout. Worker ID 0, said explicitly: these IDs are
 * minted to be looked at, not stored.
 */
const generators = new Map(sm.presets.map((p) => [p, new sm.Snowflake({ preset: p, workerId: 0 })]));

/** Bits of a hex string, most significant first. */
const hexBits = (hex) => [...hex].map((d) => parseInt(d, 16).toString(2).padStart(4, '0')).join('');

/** The fields of an ID as [name, width] from the most significant bit, and its bits. */
function anatomy(rec, text) {
  switch (rec.kind) {
    case 'snowflake': {
      const l = generators.get(rec.preset).layout;
      const tail = [
        ['worker', l.workerBits],
        ['sequence', l.sequenceBits],
      ];
      if (l.order === 'sequence-worker') tail.reverse();
      // The fields the layout has: a sign bit only where it leaves the top bit unused (not Discord's 42-bit time), no empty worker field (Mastodon).
      const sign = 64 - l.timeBits - l.workerBits - l.sequenceBits;
      const fields = [['sign', sign], ['time', l.timeBits], ...tail].filter(([, width]) => width > 0);
      return { bits: rec.id.toString(2).padStart(64, '0'), fields };
    }
    case 'ulid':
      return {
        bits: hexBits(rec.uuid.replaceAll('-', '')),
        fields: [
          ['time', 48],
          ['random', 80],
        ],
      };
    case 'uuid':
    case 'typeid':
      return { bits: hexBits(rec.uuid.replaceAll('-', '')), fields: uuidFields(sm.uuidVersion(rec.uuid)) };
    case 'ksuid': {
      const seconds = (rec.timestamp / 1000 - 1_400_000_000).toString(16).padStart(8, '0');
      return {
        bits: hexBits(seconds + rec.payload),
        fields: [
          ['time', 32],
          ['payload', 128],
        ],
      };
    }
    case 'objectid':
      return {
        bits: hexBits(text.toLowerCase()),
        fields: [
          ['time', 32],
          ['random', 40],
          ['counter', 24],
        ],
      };
  }
}

function uuidFields(version) {
  const tail = [['variant', 2]];
  switch (version) {
    case 1:
      return [['time_low', 32], ['time_mid', 16], ['version', 4], ['time_high', 12], ...tail, ['clock_seq', 14], ['node', 48]];
    case 6:
      return [['time_high', 32], ['time_mid', 16], ['version', 4], ['time_low', 12], ...tail, ['clock_seq', 14], ['node', 48]];
    case 7:
      return [['unix_ts_ms', 48], ['version', 4], ['rand_a', 12], ...tail, ['rand_b', 62]];
    default:
      return [['bits', 48], ['version', 4], ['bits', 12], ...tail, ['bits', 62]];
  }
}

function row(name, value) {
  const tr = document.createElement('tr');
  for (const text of [name, value]) tr.appendChild(document.createElement('td')).textContent = text;
  return tr;
}

function show() {
  const text = $('id').value.trim();
  for (const id of ['fields', 'bits', 'legend', 'error']) $(id).replaceChildren();
  if (!text) return;
  let rec;
  try {
    rec = sm.decode(text, { preset: $('preset').value });
  } catch (e) {
    $('error').textContent = e.message;
    return;
  }
  const rows = [['kind', rec.kind + (rec.version ? ` v${rec.version}` : '')]];
  if (rec.date) {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    rows.push(['time (UTC)', rec.date.toISOString()], [`local time (${zone})`, rec.date.toLocaleString()]);
  }
  for (const [key, value] of Object.entries(rec)) {
    if (!['kind', 'date', 'version'].includes(key)) rows.push([key, typeof value === 'object' ? JSON.stringify(value) : String(value)]);
  }
  $('fields').append(...rows.map(([k, v]) => row(k, v)));

  const { bits, fields } = anatomy(rec, text);
  let at = 0;
  fields.forEach(([name, width], i) => {
    const color = COLORS[i % COLORS.length];
    for (const bit of bits.slice(at, at + width)) {
      const cell = $('bits').appendChild(document.createElement('span'));
      cell.textContent = bit;
      cell.style.background = color;
      cell.title = name;
    }
    at += width;
    const key = $('legend').appendChild(document.createElement('span'));
    key.textContent = `${name} (${width})`;
    key.style.background = color;
  });
}

for (const p of sm.presets) $('preset').add(new Option(p, p));
const MINTS = {
  Snowflake: () => generators.get($('preset').value).nextString(),
  ULID: sm.ulid,
  UUIDv7: sm.uuidv7,
  UUIDv4: sm.uuidv4,
  UUIDv1: sm.uuidv1,
  UUIDv6: sm.uuidv6,
  KSUID: sm.ksuid,
  ObjectId: sm.objectId,
  TypeID: () => sm.typeid('user'),
};
for (const [name, mint] of Object.entries(MINTS)) {
  const button = $('mint').appendChild(document.createElement('button'));
  button.textContent = name;
  button.onclick = () => {
    $('id').value = mint();
    show();
  };
}
$('id').addEventListener('input', show);
$('preset').addEventListener('change', show);
