//! qiyuan-server: (being written)
