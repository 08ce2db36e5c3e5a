// The `snowmint` command, run as a user would.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { CLI, sm } from './pkg.js';

const run = (...args) => {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });
  return { code: r.status, out: r.stdout.trim(), err: r.stderr.trim() };
};

test('mints every kind, -n and --json', () => {
  for (const kind of ['snowflake', 'ulid', 'uuidv7', 'uuidv4', 'uuidv1', 'uuidv6', 'ksuid', 'objectid']) {
    const r = run(kind, '-n', '3');
    assert.equal(r.code, 0, r.err);
    const lines = r.out.split('\n');
    assert.equal(lines.length, 3, kind);
    assert.equal(new Set(lines).size, 3, kind);
    for (const line of lines) assert.equal(sm.decode(line).kind, kind.startsWith('uuid') ? 'uuid' : kind);
  }
  const json = JSON.parse(run('typeid', 'user', '-n', '2', '--json').out);
  assert.equal(json.length, 2);
  assert.match(json[0], /^user_/);
  const [id] = JSON.parse(run('--json', '--worker-id', '7', '--preset', 'discord').out);
  assert.equal(sm.decode(id, { preset: 'discord' }).workerId, 7);
});

test('decode, with --preset, as text and JSON', () => {
  const r = run('decode', '175928847299117063', '--preset', 'discord', '--json');
  assert.equal(r.code, 0, r.err);
  const rec = JSON.parse(r.out);
  assert.deepEqual([rec.kind, rec.id, rec.date, rec.workerId, rec.sequence], ['snowflake', '175928847299117063', '2016-04-30T11:18:25.796Z', 32, 7]);
  assert.match(run('decode', '01ARZ3NDEKTSV4RRFFQ69G5FAV').out, /timestamp: 1469922850259/);
  assert.equal(run('human', '01HZ613S22K8NR6W6GRV1Y5C52').out, '01-hz61-3s22-k8nr-6w6g-rv1y-5c52');
  assert.equal(run('from-human', '1-tykm-8yb8-0000').out, sm.fromHuman('1-tykm-8yb8-0000').toString());
});

test('validate: a line per ID, exit status 1 if any is invalid; --lenient, --kind, --version, --json', () => {
  const ok = run('validate', '01ARZ3NDEKTSV4RRFFQ69G5FAV', '175928847299117063', '--preset', 'discord');
  assert.equal(ok.code, 0, ok.err);
  assert.equal(ok.out, '01ARZ3NDEKTSV4RRFFQ69G5FAV\tvalid\n175928847299117063\tvalid');
  const mixed = run('validate', '01ARZ3NDEKTSV4RRFFQ69G5FAV', 'OIARZ3NDEKTSV4RRFFQ69G5FAV');
  assert.equal(mixed.code, 1);
  assert.equal(mixed.out, '01ARZ3NDEKTSV4RRFFQ69G5FAV\tvalid\nOIARZ3NDEKTSV4RRFFQ69G5FAV\tinvalid');
  assert.equal(run('validate', 'OIARZ3NDEKTSV4RRFFQ69G5FAV', '--lenient').code, 0);
  assert.equal(run('validate', '017f22e2-79b0-7cc3-98c4-dc0c0c07398f', '--kind', 'uuid', '--version', '4').code, 1);
  const json = JSON.parse(run('validate', 'hello', '--json').out);
  assert.deepEqual(json, [{ id: 'hello', valid: false }]);
});

test('bytes, from-bytes, uuidv3, uuidv5, uuidv8, v1-to-v6, v6-to-v1', () => {
  const out = (...args) => {
    const r = run(...args);
    assert.equal(r.code, 0, r.err);
    return r.out;
  };
  assert.equal(out('bytes', '175928847299117063'), '0271065ac1020007');
  assert.equal(out('bytes', '35918bc9-196d-40ea-9779-889d79b753f0', '--guid'), 'c98b91356d19ea409779889d79b753f0');
  assert.equal(out('from-bytes', 'c98b91356d19ea409779889d79b753f0', '--kind', 'uuid', '--guid'), '35918bc9-196d-40ea-9779-889d79b753f0');
  assert.equal(out('from-bytes', '01890a5dac96774bbcceb302099a8057', '--kind', 'typeid', '--prefix', 'user'), 'user_01h455vb4pex5vsknk084sn02q');
  assert.equal(out('uuidv5', 'www.example.com', '--namespace', 'DNS'), '2ed6657d-e927-568b-95e1-2665a8aea6a2');
  assert.equal(out('uuidv3', 'www.example.com', '--namespace', '6ba7b810-9dad-11d1-80b4-00c04fd430c8'), '5df41881-3aed-3515-88a7-2f4a814cf09e');
  assert.equal(out('uuidv8', '2489e9ad2ee20e000ec932d5f69181c0'), '2489e9ad-2ee2-8e00-8ec9-32d5f69181c0');
  assert.equal(out('v1-to-v6', 'C232AB00-9414-11EC-B3C8-9F6BDECED846'), '1ec9414c-232a-6b00-b3c8-9f6bdeced846');
  assert.equal(out('v6-to-v1', '1EC9414C-232A-6B00-B3C8-9F6BDECED846', '--json'), JSON.stringify(['c232ab00-9414-11ec-b3c8-9f6bdeced846'], null, 2));
});

test('--help, and bad input exits non-zero with a clear message', () => {
  const help = run('--help');
  assert.equal(help.code, 0);
  assert.match(help.out, /Usage:/);
  assert.match(help.out, /decode ID/);
  const cases = [
    [['decode', 'not-an-id'], /unrecognized ID/],
    [['decode'], /at least one ID/],
    [['banana'], /unknown command or kind 'banana'/],
    [['ulid', '-n', 'x'], /--count must be a non-negative integer/],
    [['ulid', '-n', '0'], /--count must be from 1/],
    [['--worker-id', '5000'], /out of range: this layout allows 0 to 1023/],
    [['--preset', 'x'], /'twitter'/],
    [['typeid'], /typeid needs one PREFIX/],
    [['--nope'], /Unknown option/],
    // Extra arguments and options that do not apply to the command: exit 2, saying what is allowed.
    [['ulid', 'extra'], /'ulid' takes no arguments, got 'extra'/],
    [['snowflake', '5'], /'snowflake' takes no arguments, got '5'/],
    [['uuidv7', 'ulid'], /'uuidv7' takes no arguments/],
    [['typeid', 'user', 'extra'], /typeid needs one PREFIX/],
    [['ulid', '--preset', 'discord'], /--preset does not apply to 'ulid': it takes -n\/--count, --json/],
    [['ksuid', '--worker-id', '3'], /--worker-id does not apply to 'ksuid'/],
    [['typeid', 'user', '--kind', 'ulid'], /--kind does not apply to 'typeid': it takes -n\/--count, --json/],
    [['decode', '175928847299117063', '-n', '2'], /-n\/--count does not apply to 'decode': it takes --json, --preset, --kind/],
    [['decode', '175928847299117063', '--groups', '2'], /--groups does not apply to 'decode'/],
    [['human', '01HZ613S22K8NR6W6GRV1Y5C52', '--preset', 'discord'], /--preset does not apply to 'human': it takes --json, --groups/],
    [['from-human', '1-tykm', '--groups', '1'], /--groups does not apply to 'from-human': it takes --json/],
    [['--kind', 'ulid'], /--kind does not apply to 'snowflake': it takes -n\/--count, --json, --preset, --worker-id/],
    [['human'], /human needs at least one ID/],
    [['human', '01HZ613S22K8NR6W6GRV1Y5C52', '--groups', '0'], /groups must be an integer from 1 to 7/],
    [['validate'], /validate needs at least one ID/],
    [['validate', 'x', '--guid'], /--guid does not apply to 'validate'/],
    [['from-bytes', '0271'], /from-bytes needs --kind KIND/],
    [['from-bytes', 'zz', '--kind', 'uuid'], /'zz' is not hex/],
    [['from-bytes', '0271', '--kind', 'uuid'], /expected 16 bytes, found 2/],
    [['uuidv5', 'x'], /need --namespace NS/],
    [['v1-to-v6', '017f22e2-79b0-7cc3-98c4-dc0c0c07398f'], /expected a version 1 UUID, got one of version 7/],
    [['bytes'], /bytes needs at least one ID/],
  ];
  for (const [args, message] of cases) {
    const r = run(...args);
    assert.equal(r.code, 2, args.join(' '));
    assert.match(r.err, message);
    assert.equal(r.out, '');
  }
});

test('--time, min-id, max-id and compare', () => {
  const t = Date.UTC(2024, 0, 1);
  for (const kind of ['ulid', 'uuidv7', 'uuidv6', 'ksuid', 'objectid']) {
    const r = run(kind, '--time', '2024-01-01T00:00:00Z', '-n', '2');
    assert.equal(r.code, 0, r.err);
    const ids = r.out.split('\n');
    assert.equal(new Set(ids).size, 2, kind);
    for (const id of ids) assert.equal(sm.decode(id).timestamp, t, kind);
    assert.equal(run('min-id', kind, String(t)).out, sm.minId(kind, t));
  }
  const sf = run('snowflake', '--time', String(t), '--preset', 'discord', '--worker-id', '5', '-n', '2').out.split('\n');
  assert.deepEqual(
    sf.map((id) => [sm.decode(id, { preset: 'discord' }).timestamp, sm.decode(id, { preset: 'discord' }).sequence]),
    [
      [t, 0],
      [t, 1],
    ],
  );
  assert.equal(run('max-id', 'snowflake', '2024-01-01T00:00:00Z', '--preset', 'discord').out, String(sm.maxId('snowflake', t, { preset: 'discord' })));
  assert.equal(run('compare', '9', '10').out, '-1');
  const bad = run('ulid', '--time', 'yesterday');
  assert.equal(bad.code, 2);
  assert.match(bad.err, /not a time/);
  assert.match(run('min-id', 'uuidv1', '0').err, /ERR_INVALID_OPTION/);
  assert.match(run('uuidv4', '--time', '0').err, /does not apply/);
});
