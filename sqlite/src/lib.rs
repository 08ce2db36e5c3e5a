//! snowmint's SQLite loadable extension: the core's Snowflakes, ULIDs and
//! UUIDv7s minted and decoded in SQL, with the JS API's names. A binding:
//! it converts arguments and results and calls the core; every ID, rule and
//! error message is the core's.
//!
//! Two programs load it:
//! - the Node addon (`node/`), whose own entry point calls [`init`] with the
//!   process-wide default generator, the one `nextId()` mints from: a
//!   trigger's `snowmint_next_id()` and JS's `nextId()` never collide;
//! - anything else (the `sqlite3` CLI), through this crate built as a
//!   cdylib with feature `extension`: a generator of its own, configured
//!   with `snowmint_configure(worker_id, preset)`.
//!
//! SQL functions (all UTF-8; minting is not deterministic):
//! `snowmint_next_id()`, `snowmint_next_id_at(ms[, sequence])`,
//! `snowmint_ulid()`, `snowmint_ulid_at(ms)`, `snowmint_uuidv7()`,
//! `snowmint_uuidv7_at(ms)`, `snowmint_decode(id[, preset])` (JSON text:
//! the JS decode record's fields, a Snowflake's `id` as a string, `date` as
//! its ISO text) and `snowmint_configure(worker_id[, preset])`.
//!
//! Errors: `sqlite3_result_error` with "`<the core's code>: <its message>`";
//! a panic in a function is caught by rusqlite's callback wrapper and
//! reported as an error, one in the entry point by [`init`]: never unwound
//! into SQLite.

use std::ffi::{c_char, c_int};
use std::fmt::Display;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicPtr, Ordering};

use rusqlite::Connection;
pub use rusqlite::ffi;
use rusqlite::functions::{Context, FunctionFlags};
use rusqlite::types::{Value, ValueRef};
use snowmint::at::{Pick, TimedKind, new_text_at};
use snowmint::record::{Json, Reading};
use snowmint::snowflake::{Layout, Preset};
use snowmint::{Error as CoreError, Id, Kind, TextKind};

/// An error as SQL reports it: the core's code and message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// A code of the core's `ERROR_CODES` (`ERR_PARSE`, ...).
    pub code: &'static str,
    /// The message, as the JS error's.
    pub message: String,
}

impl Failure {
    /// A failure with `code` and `message`.
    pub fn new(code: &'static str, message: impl Display) -> Self {
        Failure {
            code,
            message: message.to_string(),
        }
    }
}

impl<E: Into<CoreError>> From<E> for Failure {
    fn from(e: E) -> Self {
        let e = e.into();
        Failure::new(e.code(), e)
    }
}

/// The Snowflake generator `snowmint_next_id()` mints from: the Node
/// addon's process-wide default, or the standalone extension's own.
pub trait Snowflakes: Sync {
    /// The next ID of the configured generator (`ERR_NO_WORKER_ID` before one is).
    fn next_id(&self) -> Result<u64, Failure>;
    /// Installs or replaces the generator: `worker_id` in `preset`'s
    /// layout, minting after the last tick of the one it replaces.
    fn configure(&self, worker_id: u64, preset: Preset) -> Result<(), Failure>;
    /// The configured generator's layout and worker ID, if there is one.
    fn current(&self) -> Option<(Layout, u64)>;
}

/// The generator the registered functions use (one per binary).
static SOURCE: OnceLock<&'static dyn Snowflakes> = OnceLock::new();

/// The SQLite library the extension was first loaded into (its
/// `sqlite3_api_routines`). rusqlite keeps one set of SQLite entry points
/// per binary, so a second, different SQLite library in the same process
/// (better-sqlite3's and `node:sqlite`'s, say) would redirect the first
/// one's calls: refused instead.
static API: AtomicPtr<ffi::sqlite3_api_routines> = AtomicPtr::new(std::ptr::null_mut());

/// What SQL gets for an error: SQLITE_ERROR with "`<code>: <message>`".
fn sql_err(f: Failure) -> rusqlite::Error {
    rusqlite::Error::SqliteFailure(
        ffi::Error::new(ffi::SQLITE_ERROR),
        Some(format!("{}: {}", f.code, f.message)),
    )
}

type SqlResult<T> = rusqlite::Result<T>;

/// The entry point's work: checks the SQLite library, registers the
/// functions on `db` with `source` as `snowmint_next_id()`'s generator.
///
/// # Safety
/// The arguments are those SQLite passes an extension's entry point.
pub unsafe fn init(
    db: *mut ffi::sqlite3,
    pz_err_msg: *mut *mut c_char,
    p_api: *mut ffi::sqlite3_api_routines,
    source: &'static dyn Snowflakes,
) -> c_int {
    if p_api.is_null() {
        return ffi::SQLITE_ERROR;
    }
    if let Err(first) = API.compare_exchange(
        std::ptr::null_mut(),
        p_api,
        Ordering::AcqRel,
        Ordering::Acquire,
    ) && first != p_api
    {
        let message = "ERR_INVALID_OPTION: snowmint's SQLite extension is already loaded into another SQLite library of this process (better-sqlite3 and node:sqlite each have their own): load it into one of them";
        // SAFETY: p_api is the loader's; the message goes through its own allocator.
        unsafe { set_error(pz_err_msg, p_api, message) };
        return ffi::SQLITE_ERROR;
    }
    let _ = SOURCE.set(source);
    // Registration allocates and could panic: never unwind into the loader.
    let registered = std::panic::catch_unwind(|| {
        // SAFETY: as the caller's.
        unsafe { Connection::extension_init2(db, pz_err_msg, p_api, register) }
    });
    registered.unwrap_or_else(|_| {
        // SAFETY: as above.
        unsafe {
            set_error(
                pz_err_msg,
                p_api,
                "ERR_INTERNAL: snowmint's SQLite extension panicked while registering its functions",
            )
        };
        ffi::SQLITE_ERROR
    })
}

/// `*pz_err_msg = sqlite3_malloc'd copy of message` through `p_api` (not
/// rusqlite's entry points, which may belong to another SQLite library).
unsafe fn set_error(pz: *mut *mut c_char, p_api: *mut ffi::sqlite3_api_routines, message: &str) {
    // SAFETY: p_api points at the loader's routines.
    let Some(malloc) = (unsafe { (*p_api).malloc }) else {
        return;
    };
    if pz.is_null() {
        return;
    }
    let len = message.len();
    // SAFETY: a fresh allocation of len + 1 bytes, filled and NUL-terminated.
    unsafe {
        let p = malloc(len as c_int + 1).cast::<u8>();
        if p.is_null() {
            return;
        }
        std::ptr::copy_nonoverlapping(message.as_ptr(), p, len);
        *p.add(len) = 0;
        *pz = p.cast();
    }
}

fn source() -> SqlResult<&'static dyn Snowflakes> {
    SOURCE
        .get()
        .copied()
        .ok_or_else(|| sql_err(Failure::new("ERR_INTERNAL", "no generator")))
}

/// Registers every function on `db`.
fn register(db: Connection) -> SqlResult<bool> {
    let utf8 = FunctionFlags::SQLITE_UTF8;
    // Usable in triggers, views and DEFAULT clauses under trusted_schema=OFF.
    let mint = utf8 | FunctionFlags::SQLITE_INNOCUOUS;
    // Changes the connection-wide state: only from top-level SQL.
    let setting = utf8 | FunctionFlags::SQLITE_DIRECTONLY;
    // One function type for all: rusqlite's callback wrapper is compiled once (the addon's size).
    let functions: [(&str, c_int, FunctionFlags, SqlFn); 11] = [
        ("snowmint_next_id", 0, mint, |_| {
            next_id().map(Value::Integer)
        }),
        ("snowmint_next_id_at", 1, mint, |c| {
            Ok(or_null(next_id_at(c)?.map(Value::Integer)))
        }),
        ("snowmint_next_id_at", 2, mint, |c| {
            Ok(or_null(next_id_at(c)?.map(Value::Integer)))
        }),
        ("snowmint_ulid", 0, mint, |_| text(TextKind::Ulid)),
        ("snowmint_uuidv7", 0, mint, |_| text(TextKind::UuidV7)),
        ("snowmint_ulid_at", 1, mint, |c| text_at(c, TimedKind::Ulid)),
        ("snowmint_uuidv7_at", 1, mint, |c| {
            text_at(c, TimedKind::UuidV7)
        }),
        ("snowmint_decode", 1, mint, |c| {
            Ok(or_null(decode(c)?.map(Value::Text)))
        }),
        ("snowmint_decode", 2, mint, |c| {
            Ok(or_null(decode(c)?.map(Value::Text)))
        }),
        ("snowmint_configure", 1, setting, |c| {
            configure(c).map(Value::Integer)
        }),
        ("snowmint_configure", 2, setting, |c| {
            configure(c).map(Value::Integer)
        }),
    ];
    for (name, n_arg, flags, f) in functions {
        db.create_scalar_function(name, n_arg, flags, f)?;
    }
    // Not persistent: registered on each connection that loads it.
    Ok(false)
}

/// A SQL function: its arguments in, a value (NULL, INTEGER or TEXT) out.
type SqlFn = fn(&Context<'_>) -> SqlResult<Value>;

/// NULL for None.
fn or_null(v: Option<Value>) -> Value {
    v.unwrap_or(Value::Null)
}

fn i64_of(id: u64) -> SqlResult<i64> {
    i64::try_from(id).map_err(|_| {
        sql_err(Failure::new(
            "ERR_TIME_OVERFLOW",
            format!("Snowflake {id} does not fit SQLite's INTEGER (2^63 - 1): the layout's IDs of this time need all 64 bits"),
        ))
    })
}

fn next_id() -> SqlResult<i64> {
    i64_of(source()?.next_id().map_err(sql_err)?)
}

/// The SQL type name of a value, for messages.
fn type_name(v: ValueRef<'_>) -> &'static str {
    match v {
        ValueRef::Null => "NULL",
        ValueRef::Integer(_) => "INTEGER",
        ValueRef::Real(_) => "REAL",
        ValueRef::Text(_) => "TEXT",
        ValueRef::Blob(_) => "BLOB",
    }
}

/// Argument `i` as a non-negative integer named `what` (a REAL with no
/// fraction is one), or None for NULL.
fn uint_arg(c: &Context<'_>, i: usize, what: &str) -> SqlResult<Option<u64>> {
    let v = c.get_raw(i);
    let n = match v {
        ValueRef::Null => return Ok(None),
        ValueRef::Integer(n) => n,
        ValueRef::Real(f) if f.fract() == 0.0 && f.abs() < 9.0e15 => f as i64,
        _ => {
            return Err(sql_err(Failure::new(
                "ERR_INVALID_ARG_TYPE",
                format!("{what} must be an integer, got {}", type_name(v)),
            )));
        }
    };
    u64::try_from(n).map(Some).map_err(|_| {
        sql_err(Failure::new(
            "ERR_INVALID_ARG_VALUE",
            format!("{what} must be a non-negative integer, got {n}"),
        ))
    })
}

/// Argument `i` as text (NULL: None).
fn text_arg<'a>(c: &'a Context<'_>, i: usize, what: &str) -> SqlResult<Option<&'a str>> {
    match c.get_raw(i) {
        ValueRef::Null => Ok(None),
        ValueRef::Text(t) => std::str::from_utf8(t).map(Some).map_err(|_| {
            sql_err(Failure::new(
                "ERR_INVALID_ARG_VALUE",
                format!("{what} is not UTF-8"),
            ))
        }),
        v => Err(sql_err(Failure::new(
            "ERR_INVALID_ARG_TYPE",
            format!("{what} must be text, got {}", type_name(v)),
        ))),
    }
}

fn text(kind: TextKind) -> SqlResult<Value> {
    let mut out = String::new();
    snowmint::mint_texts(kind, 1, &mut out)
        .map_err(|e| sql_err(e.into()))
        .map(|_| Value::Text(out))
}

fn text_at(c: &Context<'_>, kind: TimedKind) -> SqlResult<Value> {
    let Some(ms) = uint_arg(c, 0, "time (Unix ms)")? else {
        return Ok(Value::Null);
    };
    let t = new_text_at(kind, ms, Pick::Any, "").map_err(|e| sql_err(e.into()))?;
    Ok(Value::Text(t.to_string()))
}

fn no_worker_id() -> Failure {
    Failure::new(
        "ERR_NO_WORKER_ID",
        "no Snowflake generator is configured: call snowmint_configure(worker_id, preset) with a worker ID no other generator holds (in Node, configure() or nextId() set up the one this shares)",
    )
}

/// `snowmint_next_id_at(ms[, sequence])`: the configured generator's worker
/// and layout at `ms` with `sequence` (default 0), as `Snowflake#at`.
fn next_id_at(c: &Context<'_>) -> SqlResult<Option<i64>> {
    let Some(ms) = uint_arg(c, 0, "time (Unix ms)")? else {
        return Ok(None);
    };
    let sequence = if c.len() > 1 {
        match uint_arg(c, 1, "sequence")? {
            Some(s) => s,
            None => return Ok(None),
        }
    } else {
        0
    };
    let (layout, worker_id) = source()?.current().ok_or_else(|| sql_err(no_worker_id()))?;
    let id = layout
        .id_at(ms, worker_id, sequence)
        .map_err(|e| sql_err(e.into()))?;
    i64_of(id).map(Some)
}

/// `snowmint_configure(worker_id[, preset])`: returns the worker ID.
fn configure(c: &Context<'_>) -> SqlResult<i64> {
    let worker_id = uint_arg(c, 0, "worker_id")?.ok_or_else(|| {
        sql_err(Failure::new(
            "ERR_INVALID_ARG_TYPE",
            "worker_id must be an integer, got NULL",
        ))
    })?;
    let preset = if c.len() > 1 {
        text_arg(c, 1, "preset")?
    } else {
        None
    };
    let preset = Preset::from_name(preset.unwrap_or("twitter")).map_err(|e| sql_err(e.into()))?;
    source()?.configure(worker_id, preset).map_err(sql_err)?;
    Ok(worker_id as i64)
}

/// `snowmint_decode(id[, preset])`: the JS decode record as JSON text.
fn decode(c: &Context<'_>) -> SqlResult<Option<String>> {
    let preset = if c.len() > 1 {
        text_arg(c, 1, "preset")?
    } else {
        None
    };
    let id = match c.get_raw(0) {
        ValueRef::Null => return Ok(None),
        // A negative INTEGER read as its decimal text, as JS decode(-5n) reads it.
        ValueRef::Integer(n) => Id::parse(&n.to_string(), Some(Kind::Snowflake)),
        ValueRef::Text(t) => Id::parse(&String::from_utf8_lossy(t), None),
        v => {
            return Err(sql_err(Failure::new(
                "ERR_INVALID_ARG_TYPE",
                format!("id must be an INTEGER or TEXT, got {}", type_name(v)),
            )));
        }
    }
    .map_err(|e| sql_err(e.into()))?;
    let preset = preset
        .map(Preset::from_name)
        .transpose()
        .map_err(|e| sql_err(e.into()))?;
    record(&id, preset).map(Some).map_err(sql_err)
}

/// The JS decode record of `id` as JSON: a Snowflake read with `preset`'s
/// layout where one is given (the record names it, as JS does), else with
/// the configured generator's, else Twitter's.
fn record(id: &Id, preset: Option<Preset>) -> Result<String, Failure> {
    let reading = match preset {
        Some(p) => Reading::preset(p),
        None => Reading::layout(
            SOURCE
                .get()
                .and_then(|s| s.current())
                .map_or(Preset::Twitter.layout(), |(l, _)| l),
        ),
    };
    let mut out = String::with_capacity(256);
    // Writing to a String cannot fail.
    let _ = Json::write(id, reading, &mut out)?;
    Ok(out)
}

#[cfg(feature = "extension")]
mod standalone {
    //! The entry points of the standalone extension, with a generator of
    //! its own (one per process that loads the file).

    use std::ffi::{c_char, c_int};
    use std::sync::RwLock;

    use rusqlite::ffi;
    use snowmint::clock::MonotonicClock;
    use snowmint::snowflake::{AtomicSnowflake, Layout, Preset};

    use super::{Failure, Snowflakes, no_worker_id};

    struct Own(RwLock<Option<AtomicSnowflake<MonotonicClock>>>);

    static OWN: Own = Own(RwLock::new(None));

    impl Snowflakes for Own {
        fn next_id(&self) -> Result<u64, Failure> {
            match self.0.read().unwrap_or_else(|e| e.into_inner()).as_ref() {
                Some(g) => Ok(g.next()?),
                None => Err(no_worker_id()),
            }
        }
        fn configure(&self, worker_id: u64, preset: Preset) -> Result<(), Failure> {
            let mut own = self.0.write().unwrap_or_else(|e| e.into_inner());
            let g = AtomicSnowflake::new(preset.layout(), worker_id, MonotonicClock)?;
            let g = match own.as_ref().and_then(AtomicSnowflake::high_water_ms) {
                Some(ms) => g.resume_after(ms)?,
                None => g,
            };
            *own = Some(g);
            Ok(())
        }
        fn current(&self) -> Option<(Layout, u64)> {
            let own = self.0.read().unwrap_or_else(|e| e.into_inner());
            own.as_ref().map(|g| (*g.layout(), g.worker_id()))
        }
    }

    /// The entry point SQLite derives from a file named `snowmint.*`.
    ///
    /// # Safety
    /// Called by SQLite's extension loader.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn sqlite3_snowmint_init(
        db: *mut ffi::sqlite3,
        pz_err_msg: *mut *mut c_char,
        p_api: *mut ffi::sqlite3_api_routines,
    ) -> c_int {
        // SAFETY: the loader's arguments.
        unsafe { super::init(db, pz_err_msg, p_api, &OWN) }
    }

    /// The entry point SQLite tries for any file name.
    ///
    /// # Safety
    /// Called by SQLite's extension loader.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn sqlite3_extension_init(
        db: *mut ffi::sqlite3,
        pz_err_msg: *mut *mut c_char,
        p_api: *mut ffi::sqlite3_api_routines,
    ) -> c_int {
        // SAFETY: the loader's arguments.
        unsafe { super::init(db, pz_err_msg, p_api, &OWN) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ulids_record() {
        let id = Id::parse("01ARZ3NDEKTSV4RRFFQ69G5FAV", None).unwrap();
        let r = record(&id, None).unwrap();
        assert!(
            r.starts_with(r#"{"kind":"ulid","timestamp":1469922850259,"date":"2016-07-30T23:54:10.259Z","random":""#),
            "{r}"
        );
    }
}
