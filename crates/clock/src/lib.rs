//! qiyuan-clock: (being written)
