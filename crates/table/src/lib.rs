//! qiyuan-table: (being written)
