//! Adversarial tests: sizes (see mod.rs).
