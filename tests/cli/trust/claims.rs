//! Adversarial tests: claims (see mod.rs).
