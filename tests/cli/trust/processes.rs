//! Adversarial tests: processes (see mod.rs).
