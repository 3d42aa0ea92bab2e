//! qiyuan-chess: (being written)
