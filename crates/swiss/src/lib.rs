//! qiyuan-swiss: (being written)
