//! The word filter: each configured word, wherever it appears in a line and in
//! whatever case, becomes `***`.

/// The words to hide, lower-cased, as characters.
#[derive(Debug, Default)]
pub struct Filter {
    words: Vec<Vec<char>>,
}

/// A character as the filter compares it (lower case, one character for one).
fn fold(c: char) -> char {
    c.to_lowercase().next().unwrap_or(c)
}

impl Filter {
    pub fn new(words: &[String]) -> Filter {
        Filter {
            words: words
                .iter()
                .map(|w| w.trim().chars().map(fold).collect::<Vec<char>>())
                .filter(|w| !w.is_empty())
                .collect(),
        }
    }

    /// `text` with every filtered word replaced by `***`.
    pub fn apply(&self, text: &str) -> String {
        if self.words.is_empty() {
            return text.to_string();
        }
        let chars: Vec<char> = text.chars().collect();
        let folded: Vec<char> = chars.iter().copied().map(fold).collect();
        let mut out = String::with_capacity(text.len());
        let mut i = 0;
        while i < chars.len() {
            let hit = self
                .words
                .iter()
                .filter(|w| folded[i..].starts_with(w))
                .map(Vec::len)
                .max();
            match hit {
                Some(len) => {
                    out.push_str("***");
                    i += len;
                }
                None => {
                    out.push(chars[i]);
                    i += 1;
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_hidden_in_any_case_and_script() {
        let f = Filter::new(&["darn".into(), "傻逼".into(), " ".into()]);
        assert_eq!(f.apply("well DARN it, darnit"), "well *** it, ***it");
        assert_eq!(f.apply("你这个傻逼"), "你这个***");
        assert_eq!(f.apply("good game"), "good game");
        assert_eq!(Filter::new(&[]).apply("darn"), "darn");
    }
}
