//! Adversarial tests: unsat (see mod.rs).
