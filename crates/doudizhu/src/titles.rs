//! The titles (称号) a player holds by their points (积分) for life, as the QQ
//! Doudizhu halls rank them: 包身工, 短工, 长工, 佃户, 贫农 … 小地主, 大地主 … 帝王.
//!
//! Source. No table published by Tencent itself could be found (the QQ游戏 and
//! 欢乐斗地主 help pages are not among the public pages searched). The names and
//! their order are QQ's as players know them; the thresholds are the best
//! documented table found: the one a public Doudizhu server reproduces for QQ's
//! ranks (a `GetLevel` function in a Go project, each title from its lower bound
//! up to the next one's). That table is on QQ's 欢乐豆 scale; qiyuan applies it
//! to points unchanged, and every total under the second threshold, negative
//! ones included, holds the first title. Replace [`TITLES`] when an
//! authoritative table turns up; nothing else depends on the numbers.

/// (lower bound in points, title), lowest first. A total holds the last title
/// whose bound it reaches; the first title holds everything below the second.
pub const TITLES: &[(i64, &str)] = &[
    (i64::MIN, "包身工"),
    (10_000, "短工"),
    (25_000, "长工"),
    (40_000, "佃户"),
    (80_000, "贫农"),
    (140_000, "渔夫"),
    (250_000, "猎人"),
    (365_000, "中农"),
    (500_000, "富农"),
    (700_000, "掌柜"),
    (1_000_000, "商人"),
    (1_500_000, "衙役"),
    (2_200_000, "小财主"),
    (3_000_000, "大财主"),
    (4_000_000, "小地主"),
    (5_500_000, "大地主"),
    (7_700_000, "知县"),
    (10_000_000, "通判"),
    (14_000_000, "知府"),
    (20_000_000, "总督"),
    (30_000_000, "巡抚"),
    (45_000_000, "丞相"),
    (70_000_000, "帝王"),
];

/// The title of a points total.
pub fn title(points: i64) -> &'static str {
    TITLES
        .iter()
        .rev()
        .find(|(bound, _)| points >= *bound)
        .map_or(TITLES[0].1, |(_, t)| t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn titles_by_points() {
        assert_eq!(title(i64::MIN), "包身工");
        assert_eq!(title(-40), "包身工");
        assert_eq!(title(0), "包身工");
        assert_eq!(title(9_999), "包身工");
        assert_eq!(title(10_000), "短工");
        assert_eq!(title(24_999), "短工");
        assert_eq!(title(25_000), "长工");
        assert_eq!(title(40_000), "佃户");
        assert_eq!(title(80_000), "贫农");
        assert_eq!(title(5_499_999), "小地主");
        assert_eq!(title(5_500_000), "大地主");
        assert_eq!(title(69_999_999), "丞相");
        assert_eq!(title(i64::MAX), "帝王");
    }

    #[test]
    fn thresholds_rise() {
        assert!(TITLES.windows(2).all(|w| w[0].0 < w[1].0));
    }
}
