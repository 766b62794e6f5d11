//! Problem specs: the model and its loaders.

mod model;

pub use model::*;
