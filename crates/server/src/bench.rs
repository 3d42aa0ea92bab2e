//! The load generator (being written).
