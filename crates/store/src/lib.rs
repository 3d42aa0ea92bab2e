//! qiyuan-store: (being written)
