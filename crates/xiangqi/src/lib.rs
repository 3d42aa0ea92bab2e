//! qiyuan-xiangqi: (being written)
