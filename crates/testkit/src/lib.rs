//! Test support shared by the crates' tests (a dev-dependency only), one module
//! per concept, so that no test file carries its own copy of a helper:
//! - [`net`]: free loopback ports;
//! - [`db`]: the PostgreSQL and Redis the tests use, and fresh names in them;
//! - [`fs`]: the workspace, its reference data and fuzz inputs, scratch folders;
//! - [`process`]: the `qiyuan` binary and children killed with the test;
//! - [`clock`]: the wall clock as the server's API writes it;
//! - [`gtp`]: a client of Go programs over GTP, and where GNU Go is;
//! - [`python`]: the Python that runs the independent readers (python-chess,
//!   sgfmill, Prometheus's parser);
//! - [`accounts`] (feature `http`): sessions over the HTTP account API.
//!
//! Helpers that need the server's own types (a server started in the test's
//! process, its WebSocket clients) live in `crates/server/tests/it/common`,
//! since a testkit depending on the server would build the server twice for
//! the server's unit tests.

#[cfg(feature = "http")]
pub mod accounts;
pub mod clock;
pub mod db;
pub mod fs;
pub mod gtp;
pub mod net;
pub mod process;
pub mod python;

pub use python::{python, run_python};
