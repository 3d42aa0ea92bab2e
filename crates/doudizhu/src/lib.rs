//! qiyuan-doudizhu: (being written)
