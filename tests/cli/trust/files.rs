//! Adversarial tests: files (see mod.rs).
