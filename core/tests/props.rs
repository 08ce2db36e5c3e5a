//! Property tests: every encoding round-trips for every value, and no
//! parser panics or returns a value that does not re-encode to itself.

use proptest::prelude::*;
use snowmint::base32;
use snowmint::ksuid::Ksuid;
use snowmint::objectid::ObjectId;
use snowmint::snowflake::{self, FieldOrder, Layout};
use snowmint::typeid::TypeId;
use snowmint::ulid::Ulid;
use snowmint::uuid::Uuid;
use snowmint::{Id, Kind, ParseError};

/// An ID's canonical text and the kind that reads it back.
fn canonical(id: &Id) -> (String, Kind) {
    let text = match id {
        Id::Snowflake(v) => v.to_string(),
        Id::Ulid(u) => u.to_text().to_string(),
        Id::Uuid(u) => u.to_text().to_string(),
        Id::Ksuid(k) => k.to_text().to_string(),
        Id::ObjectId(o) => o.to_text().to_string(),
        Id::TypeId(t) => t.to_text().to_string(),
    };
    (text, id.kind())
}

/// Parses `text` every way; whatever is accepted must re-encode to the same ID.
fn parse_every_way(text: &str) {
    let kinds = Kind::ALL.map(Some);
    for kind in kinds.iter().chain([&None]) {
        if let Ok(id) = Id::parse(text, *kind) {
            let (canon, k) = canonical(&id);
            assert_eq!(Id::parse(&canon, Some(k)), Ok(id), "{text:?} as {kind:?}");
        }
    }
    let b = text.as_bytes();
    if text.is_ascii() {
        // The byte parsers must agree with the text ones.
        assert_eq!(Ulid::parse_bytes(b), Ulid::parse(text));
        assert_eq!(Uuid::parse_bytes(b), Uuid::parse(text));
        assert_eq!(Ksuid::parse_bytes(b), Ksuid::parse(text));
        assert_eq!(ObjectId::parse_bytes(b), ObjectId::parse(text));
    } else {
        // Every alphabet is ASCII: both reject; the text parsers count characters.
        assert!(Ulid::parse_bytes(b).is_err() && Uuid::parse_bytes(b).is_err());
        assert!(Ksuid::parse_bytes(b).is_err() && ObjectId::parse_bytes(b).is_err());
        let chars = text.chars().count();
        for e in [
            Ulid::parse(text).err(),
            Uuid::parse(text).err(),
            Ksuid::parse(text).err(),
            ObjectId::parse(text).err(),
        ] {
            match e {
                None => panic!("{text:?} parsed"),
                Some(ParseError::Character { position, .. }) => {
                    assert!(position < chars, "{text:?}")
                }
                Some(ParseError::Length { found, .. }) => assert_eq!(found, chars, "{text:?}"),
                Some(_) => {}
            }
        }
    }
    if let Ok((v, digits)) = base32::from_human(text) {
        assert!((1..=26).contains(&digits));
        assert_eq!(
            base32::from_human(&base32::to_human(v, digits, None)),
            Ok((v, digits))
        );
    }
}

/// Applies human-form spellings to `text`: per character (by `ops`), keep,
/// uppercase, use a Crockford alias (1 -> l/I, 0 -> o/O), or add a dash.
fn respell(text: &str, ops: &[u8]) -> String {
    let mut out = String::new();
    for (c, op) in text.chars().zip(ops.iter().cycle()) {
        match (op, c) {
            (1, c) => out.push(c.to_ascii_uppercase()),
            (2, '1') => out.push('l'),
            (3, '1') => out.push('I'),
            (2, '0') => out.push('o'),
            (3, '0') => out.push('O'),
            (4, c) => {
                out.push('-');
                out.push(c);
            }
            (5, '-') => {}
            (_, c) => out.push(c),
        }
    }
    out
}

/// A valid layout: widths summing to 63, any unit and epoch, either order.
fn layouts() -> impl Strategy<Value = Layout> {
    (1u8..=62)
        .prop_flat_map(|t| (Just(t), 1u8..=63 - t))
        .prop_flat_map(|(t, s)| (Just(t), Just(s), 1u32..=1000, 0u64..1 << 41, any::<bool>()))
        .prop_map(|(t, s, unit, epoch, sony)| {
            let order = if sony {
                FieldOrder::SequenceThenWorker
            } else {
                FieldOrder::WorkerThenSequence
            };
            Layout::new(t, 63 - t - s, s, unit, epoch)
                .unwrap()
                .with_order(order)
        })
}

fn typeid_prefixes() -> impl Strategy<Value = String> {
    proptest::string::string_regex("([a-z]([a-z_]{0,61}[a-z])?)?").unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2_000))]

    #[test]
    fn ulid_round_trips(v in any::<u128>()) {
        let u = Ulid(v);
        let text = u.to_text();
        prop_assert_eq!(text.len(), 26);
        prop_assert_eq!(Ulid::parse(&text), Ok(u));
        prop_assert_eq!(Ulid::parse(&text.to_lowercase()), Ok(u));
        prop_assert_eq!(Ulid::from_uuid(u.to_uuid()), u);
        prop_assert_eq!(Ulid::from_parts(u.timestamp_ms(), u.random()), u);
    }

    #[test]
    fn ulid_text_sorts_like_its_value(a in any::<u128>(), b in any::<u128>()) {
        prop_assert_eq!(a.cmp(&b), Ulid(a).to_text().cmp(&Ulid(b).to_text()));
    }

    #[test]
    fn uuid_round_trips_in_every_text_form(v in any::<u128>()) {
        let u = Uuid(v);
        let text = u.to_text().to_string();
        for form in [
            text.clone(),
            text.to_uppercase(),
            u.to_simple().to_string(),
            format!("{{{text}}}"),
            format!("urn:uuid:{text}"),
        ] {
            prop_assert_eq!(Uuid::parse(&form), Ok(u), "{}", form);
        }
        prop_assert_eq!(Uuid::from_bytes(u.to_bytes()), u);
    }

    #[test]
    fn ksuid_round_trips_and_sorts_like_its_bytes(a in any::<[u8; 20]>(), b in any::<[u8; 20]>()) {
        let (ka, kb) = (Ksuid(a), Ksuid(b));
        prop_assert_eq!(Ksuid::parse(&ka.to_text()), Ok(ka));
        prop_assert_eq!(Ksuid::from_parts(ka.timestamp(), ka.payload()), ka);
        prop_assert_eq!(a.cmp(&b), ka.to_text().cmp(&kb.to_text()));
    }

    #[test]
    fn objectid_round_trips(b in any::<[u8; 12]>()) {
        let o = ObjectId(b);
        let text = o.to_text();
        prop_assert_eq!(ObjectId::parse(&text), Ok(o));
        prop_assert_eq!(ObjectId::parse(&text.to_uppercase()), Ok(o));
        let random = [b[4], b[5], b[6], b[7], b[8]];
        prop_assert_eq!(ObjectId::from_parts(o.timestamp(), random, o.counter()), o);
    }

    #[test]
    fn typeid_round_trips(prefix in typeid_prefixes(), v in any::<u128>()) {
        let t = TypeId::new(&prefix, Uuid(v)).unwrap();
        let text = t.to_text();
        prop_assert_eq!(TypeId::parse(&text), Ok(t));
        prop_assert_eq!(t.prefix(), prefix.as_str());
        prop_assert_eq!(t.uuid(), Uuid(v));
    }

    #[test]
    fn human_form_round_trips_through_tolerant_spellings(
        v in any::<u128>(),
        ops in proptest::collection::vec(0u8..6, 1..40),
        groups in 1usize..8,
    ) {
        let full = base32::to_human(v, 26, None);
        prop_assert_eq!(base32::from_human(&full), Ok((v, 26)));
        prop_assert_eq!(base32::from_human(&respell(&full, &ops)), Ok((v, 26)));
        prop_assert_eq!(Id::parse(&respell(&full, &ops), Some(Kind::Human)), Ok(Id::Ulid(Ulid(v))));
        // The short form is the tail of the full one.
        let short = base32::to_human(v, 26, Some(groups));
        prop_assert!(full.ends_with(&*short), "{} / {}", full, short);
    }

    #[test]
    fn human_form_of_a_snowflake_reads_back_as_a_snowflake(
        v in 0u64..1 << 63,
        ops in proptest::collection::vec(0u8..6, 1..20),
    ) {
        let h = base32::to_human(u128::from(v), base32::digits_for_bits(64), None);
        prop_assert_eq!(Id::parse(&respell(&h, &ops), Some(Kind::Human)), Ok(Id::Snowflake(v)));
    }

    #[test]
    fn snowflake_compose_and_decode_agree_for_any_layout(
        layout in layouts(),
        tick in any::<u64>(),
        worker in any::<u64>(),
        sequence in any::<u64>(),
    ) {
        let (tick, worker, sequence) = (
            tick & layout.max_tick(),
            worker & layout.max_worker(),
            sequence & layout.max_sequence(),
        );
        let id = layout.compose(tick, worker, sequence);
        prop_assert_eq!(id >> 63, 0, "sign bit stays 0");
        let p = layout.decode(id).unwrap();
        prop_assert_eq!((p.tick, p.worker_id, p.sequence), (tick, worker, sequence));
        prop_assert_eq!(p.timestamp_ms, layout.ms_of_tick(tick));
        prop_assert_eq!(snowflake::parse_decimal(&id.to_string()), Ok(id));
        // Later ticks give larger IDs, whatever the other fields.
        if tick < layout.max_tick() {
            prop_assert!(layout.compose(tick + 1, 0, 0) > id);
        }
    }

    #[test]
    fn snowflake_tick_of_inverts_ms_of_tick(layout in layouts(), tick in any::<u64>()) {
        let tick = tick & layout.max_tick();
        let ms = layout.ms_of_tick(tick);
        if ms < u64::MAX - u64::from(layout.unit_ms()) {
            prop_assert_eq!(layout.tick_of(ms), Ok(tick));
            prop_assert_eq!(layout.tick_of(ms + u64::from(layout.unit_ms()) - 1), Ok(tick));
        }
    }

    #[test]
    fn parsers_never_panic_on_any_text(text in any::<String>()) {
        parse_every_way(&text);
    }

    #[test]
    fn parsers_never_panic_on_id_like_text(
        text in "[0-9A-Za-z_{}:\\-]{0,48}",
    ) {
        parse_every_way(&text);
    }

    #[test]
    fn byte_parsers_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..48)) {
        let _ = Ulid::parse_bytes(&bytes);
        let _ = Uuid::parse_bytes(&bytes);
        let _ = Ksuid::parse_bytes(&bytes);
        let _ = ObjectId::parse_bytes(&bytes);
    }
}

/// What happens to a machine between two readings of its default clock.
#[derive(Debug, Clone)]
enum Moment {
    /// Time passes: both clocks move on.
    Passes(u64),
    /// The machine sleeps: only the wall clock moves on.
    Sleeps(u64),
    /// The wall clock is stepped forward or back.
    WallForward(u64),
    WallBack(u64),
}

fn moments() -> impl Strategy<Value = Vec<Moment>> {
    let hours = 0..3 * 3_600_000u64;
    proptest::collection::vec(
        prop_oneof![
            (0..300u64).prop_map(Moment::Passes),
            hours.clone().prop_map(Moment::Sleeps),
            hours.clone().prop_map(Moment::WallForward),
            hours.prop_map(Moment::WallBack),
        ],
        1..60,
    )
}

proptest! {
    /// The default clock's rule, for any history: it never goes back, never
    /// runs ahead of the furthest the wall clock has been ahead of the
    /// monotonic one, and once a check interval has passed it reads the wall
    /// clock or has stepped the largest jump towards it.
    #[test]
    fn the_default_clock_follows_forward_within_its_bounds(history in moments()) {
        use snowmint::clock::{Clock, FOLLOW_CHECK_MS, FOLLOW_MAX_JUMP_MS, FollowingClock, ManualClock};
        let (mono, wall) = (ManualClock::new(0), ManualClock::new(1_700_000_000_000));
        let clock = FollowingClock::new(&mono, &wall);
        let mut last = clock.now_ms();
        prop_assert_eq!(last, wall.now_ms());
        let mut lead = wall.now_ms();
        for moment in history {
            let since = match moment {
                Moment::Passes(ms) => {
                    mono.advance(ms);
                    wall.advance(ms);
                    ms
                }
                Moment::Sleeps(ms) => {
                    wall.advance(ms);
                    0
                }
                Moment::WallForward(ms) => {
                    wall.advance(ms);
                    0
                }
                Moment::WallBack(ms) => {
                    wall.step_back(ms);
                    0
                }
            };
            let now = clock.now_ms();
            lead = lead.max(wall.now_ms() - mono.now_ms());
            prop_assert!(now >= last, "went back from {} to {}", last, now);
            prop_assert!(now <= mono.now_ms() + lead, "ahead of every wall reading");
            if since >= FOLLOW_CHECK_MS {
                let reach = last + since + FOLLOW_MAX_JUMP_MS;
                prop_assert!(now >= wall.now_ms().min(reach), "{} behind the wall clock {}", now, wall.now_ms());
            }
            last = now;
        }
    }
}

/// Every kind with a byte form, for the byte round trips.
const BYTE_KINDS: [Kind; 6] = [
    Kind::Snowflake,
    Kind::Ulid,
    Kind::Uuid,
    Kind::Ksuid,
    Kind::ObjectId,
    Kind::TypeId,
];

proptest! {
    #[test]
    fn bytes_round_trip_through_text_in_either_order(
        bytes in proptest::collection::vec(any::<u8>(), 20),
        which in 0..BYTE_KINDS.len(),
        guid in any::<bool>(),
    ) {
        use snowmint::bytes::ByteOrder;
        let kind = BYTE_KINDS[which];
        let order = if guid && matches!(kind, Kind::Ulid | Kind::Uuid | Kind::TypeId) {
            ByteOrder::Guid
        } else {
            ByteOrder::BigEndian
        };
        let len = [8, 16, 16, 20, 12, 16][which];
        let id = Id::from_bytes(&bytes[..len], kind, order, "t").unwrap();
        prop_assert_eq!(&*id.to_bytes(order).unwrap(), &bytes[..len]);
        // Through the canonical text and back (a Snowflake with the top bit
        // set has no text form under the default 63-bit rule).
        if let Ok(again) = Id::parse(&id.to_text(), Some(kind)) {
            prop_assert_eq!(again, id);
        } else {
            prop_assert!(kind == Kind::Snowflake && bytes[0] >= 0x80);
        }
    }

    #[test]
    fn from_bytes_never_panics(
        bytes in proptest::collection::vec(any::<u8>(), 0..24),
        which in 0..Kind::ALL.len(),
        guid in any::<bool>(),
    ) {
        use snowmint::bytes::ByteOrder;
        let order = if guid { ByteOrder::Guid } else { ByteOrder::BigEndian };
        let _ = Id::from_bytes(&bytes, Kind::ALL[which], order, "");
    }

    #[test]
    fn v1_and_v6_convert_into_each_other(ticks in 0u64..1 << 60, seq in any::<u16>(), node in any::<u64>()) {
        let v1 = Uuid::v1_from_parts(ticks, seq, node);
        let v6 = Uuid::v6_from_parts(ticks, seq, node);
        prop_assert_eq!(v1.v1_to_v6(), Ok(v6));
        prop_assert_eq!(v6.v6_to_v1(), Ok(v1));
        prop_assert_eq!(v6.gregorian_ticks(), Some(ticks));
    }

    #[test]
    fn v8_keeps_the_122_custom_bits(bits in any::<u128>()) {
        let u = Uuid::v8_from_bytes(bits.to_be_bytes());
        prop_assert_eq!((u.version(), u.is_rfc_variant()), (8, true));
        let custom = !(0xF << 76 | 0b11 << 62);
        prop_assert_eq!(u.0 & custom, bits & custom);
    }

    #[test]
    fn canonical_text_is_strictly_valid(v in any::<u128>(), which in 1..BYTE_KINDS.len()) {
        use snowmint::validate::Validation;
        let kind = BYTE_KINDS[which];
        let len = [8, 16, 16, 20, 12, 16][which];
        let mut bytes = [0u8; 20];
        bytes[..16].copy_from_slice(&v.to_be_bytes());
        let id = Id::from_bytes(&bytes[..len], kind, snowmint::bytes::ByteOrder::BigEndian, "t").unwrap();
        let strict = Validation { kind: Some(kind), ..Validation::default() };
        // A UUID must also have an RFC version and variant.
        let rfc = !matches!(id, Id::Uuid(u) if !((1..=8).contains(&u.version()) && u.is_rfc_variant()));
        prop_assert_eq!(strict.accepts(&id.to_text()), rfc);
    }
}

proptest! {
    /// Every ID minted for a time lies within that time's bounds, sorts by
    /// time against its neighbours' bounds in text and by `Id::compare`,
    /// and decodes to that time (at the kind's resolution).
    #[test]
    fn ids_at_a_time_lie_within_its_bounds(ms in 1_400_000_000_000u64..4_000_000_000_000, random: u128, kind in 0usize..7) {
        use snowmint::at::{Pick, TimedKind};
        let kind = TimedKind::ALL[kind];
        let text = |ms, pick| kind.text_at(ms, pick, random, "p").unwrap().to_string();
        let id = text(ms, Pick::Any);
        let parsed = Id::parse(&id, None).unwrap();
        let unit = if matches!(kind, TimedKind::Ksuid | TimedKind::ObjectId) { 1000 } else { 1 };
        let decoded = parsed.fields().timestamp_ms.unwrap() as u64;
        prop_assert_eq!(decoded, ms / unit * unit);
        if kind != TimedKind::UuidV1 {
            let (min, max) = (text(ms, Pick::Min), text(ms, Pick::Max));
            prop_assert!(min <= id && id <= max);
            prop_assert!(max < text(ms + unit, Pick::Min));
            let order = |a: &str, b: &str| Id::parse(a, None).unwrap().compare(&Id::parse(b, None).unwrap()).unwrap();
            prop_assert!(order(&min, &id).is_le() && order(&id, &max).is_le());
        }
    }

    /// A Snowflake for a time: its fields decode back, within the tick's bounds.
    #[test]
    fn snowflakes_at_a_time_decode_back(offset in 0u64..(1 << 41), worker in 0u64..1024, sequence in 0u64..4096, preset in 0usize..5) {
        let layout = snowflake::Preset::ALL[preset].layout();
        let ms = layout.epoch_ms() + (offset & layout.max_tick()) * u64::from(layout.unit_ms());
        let (worker, sequence) = (worker & layout.max_worker(), sequence & layout.max_sequence());
        let id = layout.id_at(ms, worker, sequence).unwrap();
        let p = layout.decode(id).unwrap();
        prop_assert_eq!((p.timestamp_ms, p.worker_id, p.sequence), (ms, worker, sequence));
        prop_assert!(layout.min_id_at(ms).unwrap() <= id && id <= layout.max_id_at(ms).unwrap());
    }
}
