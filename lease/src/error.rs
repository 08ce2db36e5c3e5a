//! Typed errors with the stable codes that `snowmint/lease` gives its
//! `LeaseError`s in Node (`err.code`): one vocabulary for both languages.

use std::fmt;

/// What went wrong with a lease; [`Code::as_str`] is the stable code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Code {
    /// Every worker ID in the range is held by a live generator.
    Unavailable,
    /// The lock file was deleted or replaced under its holder: that call's
    /// IDs were dropped.
    Lost,
    /// The directory or a lock file could be controlled by another user, or
    /// the directory is a relative path.
    DirUnsafe,
    /// The lease was released.
    Released,
    /// A lock file could not be opened, locked, read or written.
    Io,
    /// The holder's clock is further from its live peers' than `max_skew_ms`.
    ClockSkew,
    /// Zero configuration on a platform that runs replicas of one image,
    /// each with a lease directory of its own ([`crate::platform`]).
    NoWorkerId,
    /// An explicit worker ID whose lock file another live process holds.
    WorkerIdInUse,
    /// An option or variable with a value it does not take.
    InvalidOption,
    /// The lease does not cover the tick: pending, lost, or not renewed in
    /// time ([`Machine::expired`](crate::machine::Machine::expired)).
    Expired,
    /// A store did not answer in time.
    Timeout,
}

impl Code {
    /// The code as Node's `err.code` spells it (`"ERR_LEASE_UNAVAILABLE"`, ...).
    pub const fn as_str(self) -> &'static str {
        match self {
            Code::Unavailable => "ERR_LEASE_UNAVAILABLE",
            Code::Lost => "ERR_LEASE_LOST",
            Code::DirUnsafe => "ERR_LEASE_DIR_UNSAFE",
            Code::Released => "ERR_LEASE_RELEASED",
            Code::Io => "ERR_LEASE_IO",
            Code::ClockSkew => "ERR_CLOCK_SKEW",
            Code::NoWorkerId => "ERR_NO_WORKER_ID",
            Code::WorkerIdInUse => "ERR_WORKER_ID_IN_USE",
            Code::InvalidOption => "ERR_INVALID_OPTION",
            Code::Expired => "ERR_LEASE_EXPIRED",
            Code::Timeout => "ERR_LEASE_TIMEOUT",
        }
    }
}

/// A lease failure: a [`Code`] and a message that says what was wrong and
/// what to do about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeaseError {
    code: Code,
    message: String,
}

impl LeaseError {
    pub(crate) fn new(code: Code, message: impl Into<String>) -> Self {
        LeaseError {
            code,
            message: message.into(),
        }
    }

    /// What kind of failure this is.
    pub fn code(&self) -> Code {
        self.code
    }

    /// The message alone (without the code).
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for LeaseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code.as_str(), self.message)
    }
}

impl std::error::Error for LeaseError {}

/// What minting through a [`LeasedSnowflake`](crate::LeasedSnowflake) can
/// fail with: the generator's error or the lease's.
#[derive(Debug, Clone, PartialEq)]
pub enum Error {
    /// The generator refused (clock, layout): the core's error.
    Id(snowmint::Error),
    /// The lease does not cover the ID (released, lost, skewed).
    Lease(LeaseError),
}

impl Error {
    /// The stable code of either kind (`"ERR_CLOCK_BACKWARDS"`, `"ERR_LEASE_LOST"`, ...).
    pub fn code(&self) -> &'static str {
        match self {
            Error::Id(e) => e.code(),
            Error::Lease(e) => e.code.as_str(),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Id(e) => write!(f, "{}: {e}", e.code()),
            Error::Lease(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for Error {}

impl From<snowmint::Error> for Error {
    fn from(e: snowmint::Error) -> Self {
        Error::Id(e)
    }
}

impl From<LeaseError> for Error {
    fn from(e: LeaseError) -> Self {
        Error::Lease(e)
    }
}

#[cfg(test)]
mod tests {
    use super::Code;

    #[test]
    fn every_code_has_its_public_class_in_the_binding_protocol() {
        let all = [
            Code::Unavailable,
            Code::Lost,
            Code::DirUnsafe,
            Code::Released,
            Code::Io,
            Code::ClockSkew,
            Code::NoWorkerId,
            Code::WorkerIdInUse,
            Code::InvalidOption,
            Code::Expired,
            Code::Timeout,
        ];
        for code in all {
            assert!(
                snowmint::binding::ERROR_CODES
                    .iter()
                    .any(|(c, _)| *c == code.as_str()),
                "{} is missing from snowmint::binding::ERROR_CODES",
                code.as_str()
            );
        }
    }
}
