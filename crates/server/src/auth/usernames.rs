//! Usernames: the form they are kept in, and what may be registered.

use std::sync::OnceLock;

use unicode_normalization::UnicodeNormalization;
use unicode_security::{GeneralSecurityProfile, RestrictionLevel, RestrictionLevelDetection};

/// Why a username cannot be registered.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BadUsername {
    #[error(
        "a username is 3 to 20 columns wide: a letter, digit, '_' or '-' takes 1, a Chinese, Japanese or Korean character 2"
    )]
    Length,
    #[error("a username starts with a letter")]
    Start,
    #[error("a username holds letters, digits, '_' and '-' only")]
    Character,
    #[error("a username may not hold invisible, filler or unusual characters")]
    Restricted,
    #[error(
        "a username is written in one script (Latin, Cyrillic, …; Han may go with Latin, kana or Hangul)"
    )]
    MixedScript,
    #[error("usernames beginning with 'guest' are kept for guests")]
    Reserved,
}

/// A username as it is kept: NFKC-normalised, so that fullwidth `ａｄｍｉｎ` and
/// mathematical bold letters become plain `admin`. Validate this form.
pub fn normalize_username(name: &str) -> String {
    name.trim().nfkc().collect()
}

/// The narrowest and widest a username may be, in columns (see [`display_width`]):
/// two Chinese characters (王伟) or three Latin letters at least; ten Chinese
/// characters or twenty letters at most. The web page's register form checks
/// the same figures (`web/src/pages/names.ts`).
pub const USERNAME_WIDTH: std::ops::RangeInclusive<usize> = 3..=20;

/// How wide a name is on screen, as Chinese players count a nickname: a
/// Chinese, Japanese or Korean character (Han, kana, Hangul, Bopomofo) takes two
/// columns, every other character one. Not bytes (UTF-8 would make 王 three) and
/// not characters (which would make 王 as narrow as `a`).
pub fn display_width(name: &str) -> usize {
    name.chars().map(|c| if is_cjk(c) { 2 } else { 1 }).sum()
}

/// Whether `c` is written in a CJK script: the scripts of Han-based writing
/// (Han, Bopomofo; kana; Hangul), but not the common characters (digits, `_`)
/// that belong to every script.
fn is_cjk(c: char) -> bool {
    let set = unicode_security::mixed_script::AugmentedScriptSet::for_char(c);
    (set.hanb || set.jpan || set.kore) && !set.is_all()
}

/// Checks a (normalised) username: 3 to 20 columns wide ([`USERNAME_WIDTH`];
/// a CJK character is two, so 王伟 is fine and 王 is not), letters (any script,
/// so 棋手小王 is fine), digits, `_` and `-`, beginning with a letter; only characters
/// Unicode TS #39 allows in identifiers (no fillers such as U+3164, no invisible
/// ones); one script, or the mixes of Han that CJK names use ("highly
/// restrictive"); not posing as a guest, even through look-alike letters.
pub fn validate_username(name: &str) -> Result<(), BadUsername> {
    // Counted in characters first, so that a long name is refused before its
    // characters are looked up.
    if name.chars().count() > *USERNAME_WIDTH.end()
        || !USERNAME_WIDTH.contains(&display_width(name))
    {
        return Err(BadUsername::Length);
    }
    if !name
        .chars()
        .all(|c| c.is_alphanumeric() || c == '_' || c == '-')
    {
        return Err(BadUsername::Character);
    }
    let letters: String = name.chars().filter(|c| *c != '_' && *c != '-').collect();
    if !letters
        .chars()
        .all(GeneralSecurityProfile::identifier_allowed)
    {
        return Err(BadUsername::Restricted);
    }
    if !name.chars().next().is_some_and(char::is_alphabetic) {
        return Err(BadUsername::Start);
    }
    if letters.detect_restriction_level() > RestrictionLevel::HighlyRestrictive {
        return Err(BadUsername::MixedScript);
    }
    static GUEST: OnceLock<String> = OnceLock::new();
    let guest = GUEST.get_or_init(|| qiyuan_store::username_skeleton("guest"));
    if qiyuan_store::username_skeleton(name).starts_with(guest.as_str())
        || name.to_lowercase().starts_with("guest")
    {
        return Err(BadUsername::Reserved);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(name: &str) -> Result<(), BadUsername> {
        validate_username(&normalize_username(name))
    }

    #[test]
    fn widths() {
        assert_eq!(display_width("abc"), 3);
        assert_eq!(display_width("小王"), 4);
        assert_eq!(display_width("棋手小王"), 8);
        assert_eq!(display_width("王Wang_2"), 8);
        assert_eq!(display_width("ゆき"), 4);
        assert_eq!(display_width("김민"), 4);
        assert_eq!(display_width("Иван"), 4);
        // Digits and '_' belong to every script: one column.
        assert_eq!(display_width("12_"), 3);
    }

    #[test]
    fn usernames() {
        assert!(check("magnus").is_ok());
        assert!(check("棋手小王").is_ok());
        assert!(check("Hou_Yifan-2").is_ok());
        assert!(check("Иван").is_ok(), "one script, not Latin, is fine");
        assert!(check("王Wang").is_ok(), "Han with Latin is a usual CJK mix");
        assert_eq!(check("ab"), Err(BadUsername::Length));
        assert_eq!(check(&"a".repeat(21)), Err(BadUsername::Length));
        // Width, not characters or bytes: a CJK character is two columns.
        assert!(check("王伟").is_ok());
        assert!(check("小王").is_ok());
        assert!(check("ゆき").is_ok());
        assert!(check("김민").is_ok());
        assert!(check("王a").is_ok(), "three columns");
        assert_eq!(check("王"), Err(BadUsername::Length));
        assert!(check("王_").is_ok(), "three columns");
        assert!(check(&"王".repeat(10)).is_ok(), "twenty columns");
        assert_eq!(check(&"王".repeat(11)), Err(BadUsername::Length));
        assert!(check(&"a".repeat(20)).is_ok());
        assert_eq!(check("a1"), Err(BadUsername::Length));
        assert_eq!(check("1abc"), Err(BadUsername::Start));
        assert_eq!(check("a b c"), Err(BadUsername::Character));
        assert_eq!(check("a<script>"), Err(BadUsername::Character));
        assert_eq!(check("GuestX1"), Err(BadUsername::Reserved));
        // Cyrillic а among Latin letters.
        assert_eq!(check("\u{430}dmin"), Err(BadUsername::MixedScript));
        // The Hangul filler looks like nothing.
        assert_eq!(check("ad\u{3164}min"), Err(BadUsername::Restricted));
        assert_eq!(
            check("\u{3164}\u{3164}\u{3164}"),
            Err(BadUsername::Restricted)
        );
        // Zero-width joiners are not letters.
        assert_eq!(check("ad\u{200d}min"), Err(BadUsername::Character));
        // Guests, by look: Cyrillic е, fullwidth letters.
        assert_eq!(check("gu\u{435}st1"), Err(BadUsername::MixedScript));
        assert_eq!(check("ｇｕｅｓｔ1"), Err(BadUsername::Reserved));
        assert_eq!(check("guest_"), Err(BadUsername::Reserved));
        // Fullwidth and mathematical bold letters are plain letters once normalised.
        assert_eq!(normalize_username("ａｄｍｉｎ"), "admin");
        assert_eq!(
            normalize_username("\u{1d41a}\u{1d41d}\u{1d426}\u{1d422}\u{1d427}"),
            "admin"
        );
    }
}
