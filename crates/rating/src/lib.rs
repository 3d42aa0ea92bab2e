//! qiyuan-rating: (being written)
