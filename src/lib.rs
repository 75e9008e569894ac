//! `pipeline`: computes exact card-game lookup tables from job files.
//!
//! The flow is `job file → JobSpec → work units (rayon) → merge → sinks`: see
//! [`engine`] for execution, [`games`] for the math, [`sink`] for file formats and
//! [`report`] for the Markdown/SVG reports. The binary in `main.rs` only parses the
//! command line ([`cli`]) and calls [`commands`].

pub mod cards;
pub mod cli;
pub mod commands;
pub mod engine;
pub mod games;
pub mod job;
pub mod report;
pub mod sink;
