#!/usr/bin/env node
// The `snowmint` command: mint IDs of any kind, decode any ID.
import { parseArgs } from 'node:util';
import * as snowmint from '../src/node.js';

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
  -h, --help          this help

Examples:
  snowmint ulid -n 5
  snowmint decode 175928847299117063 --preset discord
  snowmint typeid user --json
  snowmint ulid --time 2024-01-01T00:00:00Z
  snowmint min-id uuidv7 2024-01-01T00:00:00Z`;

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

/** The options each command takes (every other kind: -n and --json). */
const OPTIONS_OF = {
  snowflake: ['count', 'json', 'preset', 'worker-id', 'time'],
  decode: ['json', 'preset', 'kind'],
  'min-id': ['json', 'preset'],
  'max-id': ['json', 'preset'],
  compare: ['json'],
  human: ['json', 'groups'],
  'from-human': ['json'],
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
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return console.log(HELP);
  const [command = 'snowflake', ...args] = positionals;
  const out = (items) => console.log(values.json ? toJson(items) : items.join('\n'));

  if (KINDS.includes(command) || Object.hasOwn(OPTIONS_OF, command)) checkOptions(command, values);
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

  if (!KINDS.includes(command)) fail(`unknown command or kind '${command}': expected decode, human, from-human, min-id, max-id, compare or one of ${KINDS.join(', ')}`);
  const time = values.time === undefined ? undefined : timeArg(values.time);
  const count = intOption('count', values.count) ?? 1;
  if (count < 1 || count > 1_000_000) fail(`--count must be from 1 to 1000000, got ${count}`);
  let mint;
  if (command !== 'typeid' && args.length > 0) {
    fail(`'${command}' takes no arguments, got ${args.map((a) => `'${a}'`).join(' ')} (one kind per command; -n COUNT for more IDs)`);
  }
  if (command === 'snowflake' && time !== undefined) {
    // IDs of one worker at one time: its sequences 0, 1, ...
    const options = { preset: values.preset, workerId: intOption('worker-id', values['worker-id']) ?? 0 };
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
