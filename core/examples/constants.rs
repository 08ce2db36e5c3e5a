//! Prints the names and defaults the bindings export
//! (`snowmint::binding::constants_json`): the wasm build embeds them at
//! build time instead of carrying the code that writes them (size budget).

fn main() {
    println!("{}", snowmint::binding::constants_json());
}
