#!/usr/bin/env node
// The `snowmint` command: mint IDs of any kind, decode any ID.
import { parseArgs } from 'node:util';
import * as snowmint from '../entries/node.js';

// What the CLI mints: Snowflakes, the core's text kinds, TypeIDs.
const KINDS = ['snowflake', ...Object.keys(snowmint.constants.textKinds), 'typeid'];
const HELP = `snowmint: mint and decode unique, time-ordered IDs

Usage:
  snowmint [KIND] [-n COUNT] [--json] [--preset NAME] [--worker-id N] [--time TIME]
  snowmint typeid PREFIX [-n COUNT] [--json] [--time TIME]
  snowmint decode ID... [--preset NAME] [--kind KIND] [--json]
  snowmint human ID...            the human-friendly form (--groups N: last N groups)
  snowmint from-human TEXT...     the human form back to the ID
  snowmint min-id KIND TIME       the smallest ID of KIND whose time is TIME (--preset for
  snowmint max-id KIND TIME       a snowflake); with max-id: WHERE id >= min AND id <= max
  snowmint compare A B            -1, 0 or 1: how ID A sorts against ID B (same kind)
  snowmint validate ID... [--kind KIND] [--preset NAME] [--lenient] [--version N] [--json]
                                  'valid' or 'invalid' per ID; exit status 1 if any is invalid
  snowmint bytes ID... [--kind KIND] [--guid]       an ID's bytes in hex
  snowmint from-bytes HEX... --kind KIND [--guid] [--prefix P]   bytes back to the ID
  snowmint uuidv3 NAME... --namespace NS            name-based UUIDs (NS: DNS, URL, OID,
  snowmint uuidv5 NAME... --namespace NS            X500 or a UUID)
  snowmint uuidv8 HEX...                            a v8 UUID of 16 bytes
  snowmint v1-to-v6 UUID...  /  snowmint v6-to-v1 UUID...

Kinds: ${KINDS.join(', ')} (default: snowflake)

Options (each command takes only those that apply to it):
  -n, --count COUNT   minting: how many IDs (default 1)
      --json          print JSON (an array of IDs, or decode records)
      --preset NAME   snowflake, decode: the layout: ${snowmint.presets.join(', ')} (default twitter)
      --worker-id N   snowflake: the worker ID (default: SNOWMINT_WORKER_ID, else one leased
                      among this machine's processes)
      --time TIME     minting: IDs for TIME (ISO 8601 or Unix ms) instead of now, random
                      part fresh (a snowflake: sequences 0, 1, ... of the worker ID, default 0)
      --kind KIND     decode: read the ID as this kind instead of detecting it
      --groups N      human: keep only the last N groups (1 to 7)
      --lenient       validate: accept every spelling decode reads, not only the canonical one
      --version N     validate: a UUID must have this version
      --guid          bytes, from-bytes: Microsoft's GUID byte order (128-bit IDs)
      --prefix P      from-bytes: a TypeID's prefix
      --namespace NS  uuidv3, uuidv5: the namespace
  -h, --help          this help

Examples:
  snowmint ulid -n 5
  snowmint decode 175928847299117063 --preset discord
  snowmint typeid user --json
  snowmint ulid --time 2024-01-01T00:00:00Z
  snowmint min-id uuidv7 2024-01-01T00:00:00Z
  snowmint validate 01ARZ3NDEKTSV4RRFFQ69G5FAV --kind ulid
  snowmint uuidv5 www.example.com --namespace DNS`;

const MINT = {
  ulid: snowmint.ulid,
  uuidv7: snowmint.uuidv7,
  uuidv4: snowmint.uuidv4,
  uuidv1: snowmint.uuidv1,
  uuidv6: snowmint.uuidv6,
  ksuid: snowmint.ksuid,
  objectid: snowmint.objectId,
};

/** JSON with bigints as decimal strings and dates as ISO text. */
function toJson(value) {
  return JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? v.toString() : v), 2);
}

function fail(message) {
  console.error(`snowmint: ${message}\nRun 'snowmint --help' for usage.`);
  process.exit(2);
}

function intOption(name, text) {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text)) fail(`--${name} must be a non-negative integer, got '${text}'`);
  return Number(text);
}

/**
 * The commands over given IDs, bytes or names (validation, bytes, UUIDs from
 * given bits): each maps its arguments one by one. `needs` names the argument.
 */
const CONVERT = {
  bytes: { needs: 'ID', options: ['json', 'kind', 'guid'], run: (id, v) => hex(snowmint.toBytes(id, { kind: v.kind, guid: v.guid })) },
  'from-bytes': {
    needs: 'HEX',
    options: ['json', 'kind', 'guid', 'prefix'],
    run: (text, v) => String(snowmint.fromBytes(unhex(text), v.kind ?? fail('from-bytes needs --kind KIND'), { guid: v.guid, prefix: v.prefix })),
  },
  uuidv3: { needs: 'NAME', options: ['json', 'namespace'], run: (name, v) => snowmint.uuidv3(name, namespace(v)) },
  uuidv5: { needs: 'NAME', options: ['json', 'namespace'], run: (name, v) => snowmint.uuidv5(name, namespace(v)) },
  uuidv8: { needs: 'HEX', options: ['json'], run: (text) => snowmint.uuidv8(unhex(text)) },
  'v1-to-v6': { needs: 'UUID', options: ['json'], run: (u) => snowmint.uuidv1ToV6(u) },
  'v6-to-v1': { needs: 'UUID', options: ['json'], run: (u) => snowmint.uuidv6ToV1(u) },
};

const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
function unhex(text) {
  if (!/^([0-9a-fA-F]{2})*$/.test(text)) fail(`'${text}' is not hex (pairs of 0-9, a-f)`);
  return Uint8Array.from(text.match(/../g) ?? [], (b) => Number.parseInt(b, 16));
}
function namespace(values) {
  const ns = values.namespace ?? fail('uuidv3 and uuidv5 need --namespace NS (DNS, URL, OID, X500 or a UUID)');
  return Object.hasOwn(snowmint.NAMESPACES, ns.toUpperCase()) ? snowmint.NAMESPACES[ns.toUpperCase()] : ns;
}

/** `snowmint validate`: one line (or JSON record) per ID; exit status 1 if any is invalid. */
function validate(ids, values) {
  if (ids.length === 0) fail('validate needs at least one ID');
  const options = { kind: values.kind, preset: values.preset, lenient: values.lenient, version: intOption('version', values.version) };
  const results = ids.map((id) => ({ id, valid: snowmint.isValid(id, options) }));
  console.log(values.json ? toJson(results) : results.map((r) => `${r.id}\t${r.valid ? 'valid' : 'invalid'}`).join('\n'));
  process.exitCode = results.every((r) => r.valid) ? 0 : 1;
}

/** The options each command takes (every other kind: -n and --json). */
const OPTIONS_OF = {
  snowflake: ['count', 'json', 'preset', 'worker-id', 'time'],
  decode: ['json', 'preset', 'kind'],
  'min-id': ['json', 'preset'],
  'max-id': ['json', 'preset'],
  compare: ['json'],
  human: ['json', 'groups'],
  'from-human': ['json'],
  validate: ['json', 'kind', 'preset', 'lenient', 'version'],
  ...Object.fromEntries(Object.entries(CONVERT).map(([name, c]) => [name, c.options])),
};

const flag = (name) => (name === 'count' ? '-n/--count' : `--${name}`);

/** The kinds that take --time (core `TimedKind`). */
const TIMED = snowmint.constants.timedKinds;

/** A TIME argument: ISO 8601 text or Unix ms. */
function timeArg(text) {
  const ms = /^\d+$/.test(text) ? Number(text) : Date.parse(text);
  if (Number.isNaN(ms)) fail(`'${text}' is not a time: expected ISO 8601 (2024-01-01T00:00:00Z) or Unix milliseconds`);
  return ms;
}

/** Exits 2 on an option that does not apply to `command`, saying which ones do. */
function checkOptions(command, values) {
  const allowed = OPTIONS_OF[command] ?? (TIMED.includes(command) ? ['count', 'json', 'time'] : ['count', 'json']);
  for (const name of Object.keys(values)) {
    if (name !== 'help' && !allowed.includes(name)) {
      fail(`${flag(name)} does not apply to '${command}': it takes ${allowed.map(flag).join(', ')}`);
    }
  }
}

function main(argv) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      count: { type: 'string', short: 'n' },
      json: { type: 'boolean' },
      preset: { type: 'string' },
      'worker-id': { type: 'string' },
      kind: { type: 'string' },
      groups: { type: 'string' },
      time: { type: 'string' },
      lenient: { type: 'boolean' },
      version: { type: 'string' },
      guid: { type: 'boolean' },
      prefix: { type: 'string' },
      namespace: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return console.log(HELP);
  const [command = 'snowflake', ...args] = positionals;
  const out = (items) => console.log(values.json ? toJson(items) : items.join('\n'));

  if (KINDS.includes(command) || Object.hasOwn(OPTIONS_OF, command)) checkOptions(command, values);
  if (command === 'validate') return validate(args, values);
  if (Object.hasOwn(CONVERT, command)) {
    const { needs, run } = CONVERT[command];
    if (args.length === 0) fail(`${command} needs at least one ${needs}`);
    return out(args.map((arg) => run(arg, values)));
  }
  if (command === 'decode') {
    if (args.length === 0) fail('decode needs at least one ID');
    const records = args.map((id) => {
      const options = { preset: values.preset, kind: values.kind };
      const decoded = snowmint.decode(id, JSON.parse(JSON.stringify(options)));
      // A Snowflake record's `date` is a getter, so copy it explicitly.
      const rec = { ...decoded };
      if (decoded.date) rec.date = decoded.date.toISOString();
      return rec;
    });
    if (values.json) return console.log(toJson(records.length === 1 ? records[0] : records));
    for (const rec of records) {
      console.log(
        Object.entries(rec)
          .map(([k, v]) => `${k}: ${typeof v === 'object' ? JSON.stringify(v) : v}`)
          .join('\n'),
      );
      if (records.length > 1) console.log();
    }
    return;
  }
  if (command === 'min-id' || command === 'max-id') {
    if (args.length !== 2) fail(`${command} needs a KIND and a TIME, e.g. snowmint ${command} uuidv7 2024-01-01T00:00:00Z`);
    const [kind, time] = args;
    const options = kind === 'snowflake' ? { preset: values.preset } : undefined;
    const bound = command === 'min-id' ? snowmint.minId : snowmint.maxId;
    return out([String(bound(kind, timeArg(time), options && JSON.parse(JSON.stringify(options))))]);
  }
  if (command === 'compare') {
    if (args.length !== 2) fail('compare needs two IDs');
    return out([snowmint.compare(args[0], args[1])]);
  }
  if ((command === 'human' || command === 'from-human') && args.length === 0) fail(`${command} needs at least one ${command === 'human' ? 'ID' : 'TEXT'}`);
  if (command === 'human') return out(args.map((id) => snowmint.toHuman(id, { groups: intOption('groups', values.groups) })));
  if (command === 'from-human') return out(args.map((t) => String(snowmint.fromHuman(t))));

  if (!KINDS.includes(command)) {
    fail(`unknown command or kind '${command}': expected decode, human, from-human, min-id, max-id, compare, validate, ${Object.keys(CONVERT).join(', ')} or one of ${KINDS.join(', ')}`);
  }
  const time = values.time === undefined ? undefined : timeArg(values.time);
  const count = intOption('count', values.count) ?? 1;
  if (count < 1 || count > 1_000_000) fail(`--count must be from 1 to 1000000, got ${count}`);
  let mint;
  if (command !== 'typeid' && args.length > 0) {
    fail(`'${command}' takes no arguments, got ${args.map((a) => `'${a}'`).join(' ')} (one kind per command; -n COUNT for more IDs)`);
  }
  if (command === 'snowflake' && time !== undefined) {
    // IDs of one worker at one time: its sequences 0, 1, ...
    // Computed, not minted: no lock on the worker ID.
    const options = { preset: values.preset, workerId: intOption('worker-id', values['worker-id']) ?? 0, lease: 'none' };
    const ids = new snowmint.Snowflake(JSON.parse(JSON.stringify(options)));
    let sequence = 0;
    mint = () => String(ids.at(time, { sequence: sequence++ }));
  } else if (command === 'snowflake') {
    const options = { preset: values.preset, workerId: intOption('worker-id', values['worker-id']) };
    snowmint.configure(JSON.parse(JSON.stringify(options)));
    mint = () => snowmint.nextIdString();
  } else if (command === 'typeid') {
    if (args.length !== 1) fail('typeid needs one PREFIX (lowercase letters and _), e.g. snowmint typeid user');
    mint = () => snowmint.typeid(args[0], { time });
  } else {
    mint = () => MINT[command]({ time });
  }
  out(Array.from({ length: count }, mint));
}

try {
  main(process.argv.slice(2));
} catch (e) {
  fail(e.code ? `${e.message} [${e.code}]` : e.message);
}
