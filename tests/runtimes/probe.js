// What every runtime runs (tests/runtimes/runtimes.test.js): mint each kind of
// ID, decode a known Discord Snowflake, and mint 100k ULIDs that must be
// strictly increasing. Takes the imported package, returns what it saw as
// plain JSON; the test asserts on it, so a probe never passes by itself.
export function probe(sm) {
  sm.configure({ workerId: 1 });
  const ids = {
    snowflake: String(sm.nextId()),
    snowflakeString: sm.nextIdString(),
    ulid: sm.ulid(),
    uuidv7: sm.uuidv7(),
    uuidv4: sm.uuidv4(),
    uuidv1: sm.uuidv1(),
    uuidv6: sm.uuidv6(),
    ksuid: sm.ksuid(),
    objectId: sm.objectId(),
    typeid: sm.typeid('user'),
  };
  const decoded = {};
  for (const [name, id] of Object.entries(ids)) {
    const d = sm.decode(id);
    decoded[name] = d.version ? `${d.kind}v${d.version}` : d.kind;
  }
  const batch = sm.nextIds(1000);
  let batchIncreasing = batch.length === 1000;
  for (let i = 1; i < batch.length; i++) if (batch[i] <= batch[i - 1]) batchIncreasing = false;
  const ULIDS = 100_000;
  let previous = sm.ulid();
  let ulidsIncreasing = true;
  for (let i = 1; i < ULIDS; i++) {
    const u = sm.ulid();
    if (!(u > previous)) ulidsIncreasing = false;
    previous = u;
  }
  return {
    backend: sm.backendName,
    ids,
    decoded,
    batchIncreasing,
    discord: sm.decode(175928847299117063n, { preset: 'discord' }).date.toISOString(),
    ulids: ULIDS,
    ulidsIncreasing,
  };
}
