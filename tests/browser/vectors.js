// The shared vectors (tests/vectors/) checked inside a page: the same
// checks as tests/node/vectors.test.js, without node:test or fs. Returns
// the failures as strings (empty when every vector agrees) and the count of
// checks made.

export async function checkVectors(sm, baseUrl) {
  const load = async (name) => (await fetch(`${baseUrl}/tests/vectors/${name}`)).json();
  const failures = [];
  let checks = 0;
  const show = (v) => JSON.stringify(v, (_, x) => (typeof x === 'bigint' ? `${x}n` : x));
  const eq = (actual, expected, what) => {
    checks++;
    if (show(actual) !== show(expected)) failures.push(`${what}: got ${show(actual)}, expected ${show(expected)}`);
  };
  const rejects = (fn, what, position) => {
    checks++;
    try {
      fn();
      failures.push(`${what}: accepted`);
    } catch (e) {
      if (!(e instanceof sm.InvalidIdError) || e.code !== 'ERR_PARSE') failures.push(`${what}: ${e.name} ${e.code}`);
      if (position != null && !e.message.includes(`position ${position}`)) failures.push(`${what}: ${e.message}`);
    }
  };

  for (const v of await load('snowflake.json')) {
    const l = v.layout;
    const options = v.preset
      ? { preset: v.preset }
      : {
          layout: {
            timeBits: l.time_bits,
            workerBits: l.worker_bits,
            sequenceBits: l.sequence_bits,
            unitMs: l.unit_ms,
            epoch: l.epoch_ms,
            order: l.order,
          },
        };
    for (const id of [BigInt(v.id), v.id]) {
      const r = sm.decode(id, options);
      eq([r.kind, r.id, r.timestamp, r.date.toISOString()], ['snowflake', BigInt(v.id), v.timestamp_ms, v.iso], v.name);
      eq([BigInt(r.workerId), BigInt(r.sequence)], [BigInt(v.fields.worker_id), BigInt(v.fields.sequence)], v.name);
      for (const [key, value] of Object.entries(v.fields)) {
        if (key.endsWith('_part')) eq(BigInt(r.parts[key.slice(0, -5)]), BigInt(value), `${v.name} ${key}`);
      }
    }
  }
  for (const v of await load('ulid.json')) {
    for (const input of v.inputs) {
      const r = sm.decode(input);
      eq([r.kind, r.timestamp, r.date.toISOString(), r.uuid], ['ulid', v.timestamp_ms, v.iso, v.uuid], v.name);
      eq(BigInt(`0x${r.random}`), BigInt(v.random), v.name);
      eq(sm.ulidToUuid(input), v.uuid, v.name);
    }
    eq(sm.uuidToUlid(v.uuid), v.text, v.name);
  }
  for (const v of await load('uuid.json')) {
    for (const input of [v.text, ...v.inputs]) {
      const r = sm.decode(input, { kind: 'uuid' });
      eq([r.kind, r.uuid, r.version, r.variant === 'rfc9562'], ['uuid', v.text, v.version, v.rfc_variant], v.name);
      eq([r.timestamp ?? null, r.date?.toISOString() ?? null], [v.timestamp_ms, v.iso], v.name);
      if (v.fields.clock_seq !== undefined) {
        eq([r.clockSeq, BigInt(`0x${r.node}`)], [Number(v.fields.clock_seq), BigInt(v.fields.node)], v.name);
      }
      eq([sm.isUuid(input), sm.uuidVersion(input)], [true, v.version], v.name);
    }
    eq(sm.uuidToUlid(v.text), v.ulid, v.name);
  }
  for (const v of await load('ksuid.json')) {
    const r = sm.decode(v.text);
    eq([r.kind, r.timestamp, r.date.toISOString(), r.payload], ['ksuid', v.timestamp_ms, v.iso, v.payload], v.name);
  }
  for (const v of await load('objectid.json')) {
    const r = sm.decode(v.text);
    const got = [r.kind, r.timestamp, r.date.toISOString(), r.random, r.counter];
    eq(got, ['objectid', v.timestamp_ms, v.iso, v.random, v.counter], v.name);
  }
  for (const v of await load('human.json')) {
    const id = v.kind === 'snowflake' ? BigInt(v.id) : v.id;
    eq(sm.toHuman(id), v.human, v.name);
    for (const s of v.short) eq(sm.toHuman(id, { groups: s.groups }), s.text, `${v.name} ${s.groups}`);
    for (const groups of v.refusedGroups) {
      let code = null;
      try {
        sm.toHuman(id, { groups });
      } catch (e) {
        code = e.code;
      }
      eq(code, 'ERR_INVALID_ARG_VALUE', `${v.name} ${groups} groups`);
    }
    for (const input of v.inputs) eq(sm.fromHuman(input), id, `${v.name} ${input}`);
  }
  for (const v of await load('typeid/valid.json')) {
    const r = sm.decode(v.typeid, { kind: 'typeid' });
    eq([r.prefix, r.uuid], [v.prefix, v.uuid], v.name);
  }
  for (const v of await load('typeid/invalid.json')) {
    rejects(() => sm.decode(v.typeid, { kind: 'typeid' }), v.name);
  }
  for (const v of await load('invalid.json')) {
    const options = v.kind === null && v.preset === null ? undefined : { kind: v.kind ?? undefined, preset: v.preset ?? undefined };
    rejects(() => sm.decode(v.input, options), v.name, v.position);
  }
  for (const v of await load('bounds.json')) {
    const options = v.kind === 'snowflake' ? { preset: v.preset } : v.prefix ? { prefix: v.prefix } : undefined;
    const want = v.kind === 'snowflake' ? [BigInt(v.min), BigInt(v.max)] : [v.min, v.max];
    eq([sm.minId(v.kind, v.timestamp_ms, options), sm.maxId(v.kind, v.timestamp_ms, options)], want, v.name);
  }
  for (const v of await load('compare.json')) {
    if (v.result === null) {
      checks++;
      try {
        sm.compare(v.a, v.b);
        failures.push(`${v.name}: compared`);
      } catch (e) {
        if (e.code !== 'ERR_INVALID_ARG_VALUE') failures.push(`${v.name}: ${e.code}`);
      }
    } else {
      eq([sm.compare(v.a, v.b), sm.compare(v.b, v.a)], [v.result, -v.result || 0], v.name);
    }
  }
  await checkConvert(sm, load, eq);
  return { failures, checks };
}

/** Validation, bytes and UUIDs from given bits: valid.json, bytes.json, uuid.json's v3/v5/v8 and v1 <-> v6 (as tests/node/convert.test.js). */
async function checkConvert(sm, load, eq) {
  const unhex = (hex) => Uint8Array.from(hex.match(/../g) ?? [], (b) => Number.parseInt(b, 16));
  const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  for (const v of await load('valid.json')) {
    const options = {};
    if (v.kind !== null) options.kind = v.kind;
    if (v.preset !== null) options.preset = v.preset;
    if (v.version !== null) options.version = v.version;
    eq([sm.isValid(v.input, options), sm.isValid(v.input, { ...options, lenient: true })], [v.strict, v.lenient], v.name);
  }
  for (const v of await load('bytes.json')) {
    const id = v.kind === 'snowflake' ? BigInt(v.text) : v.text;
    eq(hex(sm.toBytes(id)), v.hex, v.name);
    eq(sm.fromBytes(unhex(v.hex), v.kind, v.prefix === null ? undefined : { prefix: v.prefix }), id, v.name);
    if (v.guid_hex !== null) {
      eq(hex(sm.toBytes(id, { guid: true })), v.guid_hex, `${v.name} GUID`);
      eq(sm.fromBytes(unhex(v.guid_hex), v.kind, { guid: true }), id, `${v.name} GUID`);
    }
  }
  for (const v of await load('uuid.json')) {
    if (v.name_based) {
      const make = v.version === 3 ? sm.uuidv3 : sm.uuidv5;
      eq(make(v.name_based.name, sm.NAMESPACES[v.name_based.namespace]), v.text, v.name);
    }
    if (v.v8_input) eq(sm.uuidv8(unhex(v.v8_input)), v.text, v.name);
    if (v.reordered) eq((v.version === 1 ? sm.uuidv1ToV6 : sm.uuidv6ToV1)(v.text), v.reordered, v.name);
  }
}
