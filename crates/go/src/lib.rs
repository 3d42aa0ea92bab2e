//! qiyuan-go: (being written)
