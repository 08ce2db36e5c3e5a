//! Mints one ID of every kind and decodes a real Discord ID:
//! `cargo run -p snowmint --example mint`.

use snowmint::clock::MonotonicClock;
use snowmint::snowflake::{AtomicSnowflake, Layout, Preset};
use snowmint::{Error, Id, base32};

fn main() -> Result<(), Error> {
    let ids = AtomicSnowflake::new(Layout::TWITTER, 1, MonotonicClock)?;
    let id = ids.next()?;
    println!("snowflake  {id}  (worker {})", ids.decode(id)?.worker_id);
    let ulid = snowmint::new_ulid()?;
    println!(
        "ulid       {ulid}  human {}",
        base32::to_human(ulid.0, 26, None)
    );
    println!("uuidv7     {}", snowmint::new_uuid_v7()?);
    println!("uuidv4     {}", snowmint::new_uuid_v4());
    println!("uuidv1     {}", snowmint::new_uuid_v1()?);
    println!("uuidv6     {}", snowmint::new_uuid_v6()?);
    println!("ksuid      {}", snowmint::new_ksuid()?);
    println!("objectid   {}", snowmint::new_object_id()?);
    println!("typeid     {}", snowmint::new_typeid("user")?);

    let discord = "175928847299117063";
    let Id::Snowflake(value) = Id::parse(discord, None)? else {
        unreachable!("a decimal ID is a Snowflake");
    };
    let parts = Preset::Discord.layout().decode(value)?;
    println!(
        "decode     {discord} (discord): unix ms {}, worker {:?}, sequence {}",
        parts.timestamp_ms, parts.worker_parts, parts.sequence
    );
    Ok(())
}
