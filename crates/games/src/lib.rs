//! The games and their problems: each game's moves and win/lose search
//! ([`games`]), tests made from a problem's recipe with a seeded stream
//! ([`generate`]), and per problem its generators, input format and oracle
//! cases ([`catalog`]). Depends on no other crate of grundy.

pub mod catalog;
pub mod games;
pub mod generate;
